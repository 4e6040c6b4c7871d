/* bench/spec.c: reads a task's task.yaml (libyaml document API) into a
 * ka_bench_spec and checks it.  Every error is one line naming the file and
 * the field; nothing is guessed: a missing required field is an error. */
#include "bench/spec.h"
#include <assert.h>
#include <yaml.h>
#include <limits.h>
#include <math.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/expr.h"
#include "util/error.h"
#include "util/fs.h"

struct rd {
	yaml_document_t *doc;
	const char *origin;
	int err;
};

static int bad(struct rd *r, const char *fmt, const char *what)
{
	if (!r->err) {
		char msg[256];
		snprintf(msg, sizeof msg, fmt, what);
		ka_error_set(KA_EINPUT, "%s: %s", r->origin, msg);
	}
	r->err = 1;
	return KA_EINPUT;
}

static yaml_node_t *get(struct rd *r, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(r->doc, p->key);
		if (k && k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
			return yaml_document_get_node(r->doc, p->value);
	}
	return NULL;
}

static const char *str(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* Every key of a mapping must be one the format knows: a typo such as
 * `workspce:` is an error, not a silently ignored field.  A key given twice
 * is an error too: which value wins would be a guess. */
static int check_keys(struct rd *r, yaml_node_t *map, const char *const *known, const char *where)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return 0;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = str(yaml_document_get_node(r->doc, p->key)), *hit = NULL;
		for (int i = 0; k && known[i] && !hit; i++)
			if (!strcmp(k, known[i]))
				hit = k;
		if (!hit) {
			char msg[200];
			snprintf(msg, sizeof msg, "unknown key '%.80s' in %s", k ? k : "?", where);
			return bad(r, "%s", msg);
		}
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
			yaml_node_t *a = yaml_document_get_node(r->doc, q->key),
				    *b = yaml_document_get_node(r->doc, p->key);
			if (str(a) && !strcmp(str(a), k)) {
				char msg[200];
				snprintf(msg, sizeof msg, "key '%.80s' given twice in %s (lines %d and %d)",
					 k, where, (int)a->start_mark.line + 1, (int)b->start_mark.line + 1);
				return bad(r, "%s", msg);
			}
		}
	}
	return 0;
}

/* Names reach the harness's space-separated plan and every report: letters,
 * digits and _ . + - only. */
static int check_name(struct rd *r, const char *name, const char *what)
{
	if (!name[0])
		return bad(r, "%s has an empty name", what);
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      strchr("_.+-", *c))) {
			char msg[200];
			snprintf(msg, sizeof msg, "%s name '%.60s' may hold only letters, digits and _ . + -",
				 what, name);
			return bad(r, "%s", msg);
		}
	return 0;
}

static int copy_str(struct rd *r, yaml_node_t *map, const char *key, char *dst, size_t cap, int required)
{
	const char *s = str(get(r, map, key));
	if (!s)
		return required ? bad(r, "missing or non-scalar field '%s'", key) : 0;
	if (strlen(s) >= cap)
		return bad(r, "field '%s' is too long", key);
	memcpy(dst, s, strlen(s) + 1);
	return 0;
}

static int num(struct rd *r, yaml_node_t *map, const char *key, double *out, int required)
{
	const char *s = str(get(r, map, key));
	char *end;
	if (!s)
		return required ? bad(r, "missing number '%s'", key) : 0;
	*out = strtod(s, &end);
	if (end == s || *end)
		return bad(r, "'%s' is not a number", key);
	if (!isfinite(*out))
		return bad(r, "'%s' must be a finite number", key);
	return 0;
}

/* In the order of enum ka_bench_dtype. */
static const char *const dtype_names[] = {"f32", "f64", "i32", "u32", "f16", "bf16"};
#define NDTYPES ((int)(sizeof dtype_names / sizeof dtype_names[0]))

static int dtype_of(const char *s)
{
	for (int i = 0; s && i < NDTYPES; i++)
		if (!strcmp(s, dtype_names[i]))
			return i;
	return -1;
}

const char *ka_bench_dtype_name(int dtype)
{
	assert(dtype >= 0 && dtype < NDTYPES);
	return dtype >= 0 && dtype < NDTYPES ? dtype_names[dtype] : "?";
}

int ka_bench_dtype_bytes(int dtype)
{
	return dtype == KA_BENCH_F64 ? 8 : dtype == KA_BENCH_F16 || dtype == KA_BENCH_BF16 ? 2 : 4;
}

static int read_dist(struct rd *r, yaml_node_t *n, ka_bench_dist *d, const char *tname)
{
	static const char *const keys[] = {"kind", "lo", "hi", "mean", "std", NULL};
	const char *k = str(get(r, n, "kind"));
	if (!n || !k)
		return bad(r, "tensor '%s': distribution needs a 'kind'", tname);
	if (check_keys(r, n, keys, "a distribution"))
		return KA_EINPUT;
	if (!strcmp(k, "uniform") || !strcmp(k, "int")) {
		d->kind = k[0] == 'u' ? KA_BENCH_UNIFORM : KA_BENCH_INT;
		if (num(r, n, "lo", &d->a, 1) || num(r, n, "hi", &d->b, 1))
			return KA_EINPUT;
		if (d->b < d->a)
			return bad(r, "tensor '%s': distribution has hi < lo", tname);
	} else if (!strcmp(k, "normal")) {
		d->kind = KA_BENCH_NORMAL;
		if (num(r, n, "mean", &d->a, 1) || num(r, n, "std", &d->b, 1))
			return KA_EINPUT;
		if (d->b < 0)
			return bad(r, "tensor '%s': distribution has a negative std", tname);
	} else {
		return bad(r, "unknown distribution kind '%s' (uniform, normal, int)", k);
	}
	return 0;
}

/* shape: one expression, or a list whose product is the element count. */
static int read_shape(struct rd *r, yaml_node_t *n, ka_bench_tensor *t)
{
	if (n && n->type == YAML_SCALAR_NODE) {
		if (strlen(str(n)) >= sizeof t->shape)
			return bad(r, "shape of '%s' too long", t->name);
		strcpy(t->shape, str(n));
		return 0;
	}
	if (!n || n->type != YAML_SEQUENCE_NODE)
		return bad(r, "tensor '%s' needs a shape", t->name);
	t->shape[0] = 0;
	for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
		const char *s = str(yaml_document_get_node(r->doc, *i));
		if (!s)
			return bad(r, "tensor '%s': shape entries must be expressions", t->name);
		if (strlen(t->shape) + strlen(s) + 5 >= sizeof t->shape)
			return bad(r, "shape of '%s' too long", t->name);
		if (t->shape[0])
			strcat(t->shape, "*");
		strcat(t->shape, "(");
		strcat(t->shape, s);
		strcat(t->shape, ")");
	}
	return t->shape[0] ? 0 : bad(r, "tensor '%s' has an empty shape", t->name);
}

static int read_tensor(struct rd *r, yaml_node_t *n, ka_bench_tensor *t)
{
	static const char *const keys[] = {"name", "role", "dtype", "shape", "dist", "adversarial", NULL};
	char role[16] = "", dt[16] = "";
	if (check_keys(r, n, keys, "a tensor") || copy_str(r, n, "name", t->name, sizeof t->name, 1) ||
	    check_name(r, t->name, "tensor") || copy_str(r, n, "role", role, sizeof role, 1) ||
	    copy_str(r, n, "dtype", dt, sizeof dt, 1))
		return KA_EINPUT;
	if (strcmp(role, "in") && strcmp(role, "out"))
		return bad(r, "tensor role must be in or out, not '%s'", role);
	t->out = role[0] == 'o';
	if ((t->dtype = dtype_of(dt)) < 0)
		return bad(r, "unknown dtype '%s' (f32, f64, i32, u32, f16, bf16)", dt);
	if (read_shape(r, get(r, n, "shape"), t))
		return KA_EINPUT;
	if (t->out)
		return 0;
	if (read_dist(r, get(r, n, "dist"), &t->dist, t->name))
		return KA_EINPUT;
	yaml_node_t *adv = get(r, n, "adversarial");
	if (adv)
		return read_dist(r, adv, &t->adversarial, t->name);
	t->adversarial = t->dist; /* default: 100x the magnitude, both signs */
	if (t->dist.kind == KA_BENCH_UNIFORM) {
		double m = 100.0 * (t->dist.a < 0 ? -t->dist.a : t->dist.a);
		double mb = 100.0 * (t->dist.b < 0 ? -t->dist.b : t->dist.b);
		t->adversarial.a = -(m > mb ? m : mb);
		t->adversarial.b = m > mb ? m : mb;
	} else if (t->dist.kind == KA_BENCH_NORMAL) {
		t->adversarial.b *= 100.0;
	}
	return 0;
}

static int read_list(struct rd *r, yaml_node_t *root, const char *key, int max, int *count,
		     yaml_node_t **items)
{
	yaml_node_t *n = get(r, root, key);
	*count = 0;
	if (!n)
		return 0;
	if (n->type != YAML_SEQUENCE_NODE)
		return bad(r, "'%s' must be a list", key);
	for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
		if (*count >= max)
			return bad(r, "too many entries in '%s'", key);
		items[(*count)++] = yaml_document_get_node(r->doc, *i);
	}
	return 0;
}

static int eval(struct rd *r, const ka_bench_spec *s, const ka_bench_config *c, const char *expr,
		const char *what, long long *out)
{
	const char *names[KA_BENCH_MAX_PARAMS];
	for (int i = 0; i < s->nparams; i++)
		names[i] = s->params[i];
	if (ka_bench_expr_eval(expr, names, c->p, s->nparams, out)) {
		char why[300];
		snprintf(why, sizeof why, "%s", ka_error_last()); /* the message buffer is reused below */
		if (!r->err)
			ka_error_set(KA_EINPUT, "%s: config '%s', %s: %s", r->origin, c->name, what, why);
		r->err = 1;
		return KA_EINPUT;
	}
	return 0;
}

/* Element counts, scratch, bytes and FLOPs of one configuration, each
 * checked: no tensor without elements or too large to address in bytes, no
 * negative scratch, bytes or FLOPs. */
static int derive(struct rd *r, const ka_bench_spec *s, ka_bench_config *c)
{
	for (int i = 0; i < s->ntensors; i++) {
		if (eval(r, s, c, s->t[i].shape, s->t[i].name, &c->n[i]))
			return KA_EINPUT;
		if (c->n[i] < 1)
			return bad(r, "tensor '%s' has no elements in a config", s->t[i].name);
		if (c->n[i] > (LLONG_MAX >> 8) / 8)
			return bad(r, "tensor '%s' is too large to address in bytes", s->t[i].name);
	}
	if (eval(r, s, c, s->work, "workspace", &c->work) || eval(r, s, c, s->bytes, "bytes", &c->bytes) ||
	    eval(r, s, c, s->flops, "flops", &c->flops))
		return KA_EINPUT;
	if (eval(r, s, c, s->reduction, "reduction", &c->reduction))
		return KA_EINPUT;
	if (c->work < 0)
		return bad(r, "config '%s': workspace is negative", c->name);
	if (c->reduction < 1)
		return bad(r, "config '%s': reduction must be at least 1", c->name);
	if (c->bytes < 0)
		return bad(r, "config '%s': bytes is negative", c->name);
	if (c->flops < 0)
		return bad(r, "config '%s': flops is negative", c->name);
	return 0;
}

static int read_config(struct rd *r, yaml_node_t *n, ka_bench_spec *s, ka_bench_config *c)
{
	const char *keys[KA_BENCH_MAX_PARAMS + 2] = {"name"};
	for (int i = 0; i < s->nparams; i++)
		keys[i + 1] = s->params[i];
	keys[s->nparams + 1] = NULL;
	if (check_keys(r, n, keys, "a config") || copy_str(r, n, "name", c->name, sizeof c->name, 1) ||
	    check_name(r, c->name, "config"))
		return KA_EINPUT;
	for (int i = 0; i < s->nparams; i++) {
		const char *v = str(get(r, n, s->params[i]));
		char *end;
		if (!v)
			return bad(r, "a config lacks parameter '%s'", s->params[i]);
		c->p[i] = strtoll(v, &end, 10);
		if (end == v || *end || c->p[i] < 0)
			return bad(r, "parameter '%s' must be a non-negative integer", s->params[i]);
	}
	if (derive(r, s, c))
		return KA_EINPUT;
	for (ka_bench_config *o = s->c; o < c; o++)
		if (!strcmp(o->name, c->name))
			return bad(r, "duplicate config name '%s'", c->name);
	return 0;
}

static int read_configs(struct rd *r, yaml_node_t *cfg, ka_bench_spec *s)
{
	static const char *const split[2] = {"visible", "unseen"};
	static const char *const split_keys[] = {"visible", "unseen", NULL};
	yaml_node_t *items[KA_BENCH_MAX_CONFIGS];
	if (!cfg || cfg->type != YAML_MAPPING_NODE)
		return bad(r, "%s", "missing 'configs' (visible, unseen)");
	if (check_keys(r, cfg, split_keys, "configs"))
		return KA_EINPUT;
	for (int k = 0; k < 2; k++) {
		int n = 0;
		if (read_list(r, cfg, split[k], KA_BENCH_MAX_CONFIGS, &n, items))
			return KA_EINPUT;
		if (n == 0)
			return bad(r, "configs need at least one '%s' entry", split[k]);
		for (int i = 0; i < n; i++) {
			if (s->nconfigs >= KA_BENCH_MAX_CONFIGS)
				return bad(r, "%s", "too many configs");
			ka_bench_config *c = &s->c[s->nconfigs++];
			c->unseen = k;
			if (read_config(r, items[i], s, c))
				return KA_EINPUT;
		}
	}
	return 0;
}

/* YAML 1.1 booleans: true/false, yes/no, on/off (any case); default true. */
static int read_bool(struct rd *r, yaml_node_t *map, const char *key, int *out)
{
	static const char *const yes[] = {"true", "yes", "on", NULL}, *const no[] = {"false", "no", "off",
										     NULL};
	const char *v = str(get(r, map, key));
	*out = 1;
	if (!get(r, map, key))
		return 0;
	for (int i = 0; v && yes[i]; i++)
		if (!strcasecmp(v, yes[i]))
			return 0;
	for (int i = 0; v && no[i]; i++)
		if (!strcasecmp(v, no[i])) {
			*out = 0;
			return 0;
		}
	return bad(r, "'%s' must be true or false", key);
}

static int int_pair(struct rd *r, yaml_node_t *n, long long *lo, long long *hi, const char *what)
{
	yaml_node_item_t *i = n && n->type == YAML_SEQUENCE_NODE ? n->data.sequence.items.start : NULL;
	const char *a = i && n->data.sequence.items.top - i == 2 ? str(yaml_document_get_node(r->doc, i[0]))
								 : NULL;
	const char *b = a ? str(yaml_document_get_node(r->doc, i[1])) : NULL;
	char *e1 = NULL, *e2 = NULL;
	if (a && b) {
		*lo = strtoll(a, &e1, 10);
		*hi = strtoll(b, &e2, 10);
	}
	if (!a || !b || *e1 || *e2 || e1 == a || e2 == b || *lo < 0 || *hi < *lo || *hi > (1LL << 40))
		return bad(r, "unseen: '%s' needs a range [lo, hi] of integers, 0 <= lo <= hi", what);
	return 0;
}

/* unseen: {draw: N, PARAM: [lo, hi] for every param, max_bytes: B, max_flops: F} */
static int read_draw(struct rd *r, yaml_node_t *n, ka_bench_spec *s)
{
	const char *keys[KA_BENCH_MAX_PARAMS + 4] = {"draw", "max_bytes", "max_flops"};
	double d = 0, mb = 0, mf = 0;
	if (!n)
		return 0;
	if (n->type != YAML_MAPPING_NODE)
		return bad(r, "%s", "'unseen' must be a mapping (draw, ranges, max_bytes)");
	for (int i = 0; i < s->nparams; i++)
		keys[i + 3] = s->params[i];
	keys[s->nparams + 3] = NULL;
	if (check_keys(r, n, keys, "unseen") || num(r, n, "draw", &d, 1) || num(r, n, "max_bytes", &mb, 0) ||
	    num(r, n, "max_flops", &mf, 0))
		return KA_EINPUT;
	if (d != (int)d || d < 1 || d > 8)
		return bad(r, "%s", "unseen: 'draw' must be an integer from 1 to 8");
	if (s->nconfigs + (int)d > KA_BENCH_MAX_CONFIGS)
		return bad(r, "%s", "too many configs");
	if (mb < 0 || mf < 0 || mb > 9e18 || mf > 9e18)
		return bad(r, "%s", "unseen: max_bytes and max_flops must be non-negative");
	s->draw.n = (int)d;
	s->draw.max_bytes = (long long)mb;
	s->draw.max_flops = (long long)mf;
	for (int i = 0; i < s->nparams; i++)
		if (int_pair(r, get(r, n, s->params[i]), &s->draw.lo[i], &s->draw.hi[i], s->params[i]))
			return KA_EINPUT;
	return 0;
}

static int read_root(struct rd *r, yaml_node_t *root, ka_bench_spec *s)
{
	yaml_node_t *items[KA_BENCH_MAX_CONFIGS];
	int n = 0;
	static const char *const keys[] = {"name",      "category",      "params",    "tensors",    "scalars",
					   "tolerance", "deterministic", "workspace", "bytes",      "flops",
					   "configs",   "unseen",        "reduction", "accumulate", NULL};
	static const char *const tol_keys[] = {"atol", "rtol", "l2", NULL};
	static const char *const sc_keys[] = {"name", "lo", "hi", NULL};
	if (!root || root->type != YAML_MAPPING_NODE)
		return bad(r, "%s", "top level must be a mapping");
	if (check_keys(r, root, keys, "the task") || copy_str(r, root, "name", s->name, sizeof s->name, 1) ||
	    check_name(r, s->name, "task") ||
	    copy_str(r, root, "category", s->category, sizeof s->category, 1))
		return KA_EINPUT;
	for (const char *c = s->category; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return bad(r, "%s", "category holds a control character");
	if (read_list(r, root, "params", KA_BENCH_MAX_PARAMS, &s->nparams, items))
		return KA_EINPUT;
	for (int i = 0; i < s->nparams; i++) {
		const char *p = str(items[i]);
		if (!p || strlen(p) >= KA_BENCH_NAME)
			return bad(r, "%s", "params must be short names");
		strcpy(s->params[i], p);
		if (check_name(r, p, "param") || !strcmp(p, "name"))
			return bad(r, "%s", "params must be short names other than 'name'");
	}
	if (read_list(r, root, "tensors", KA_BENCH_MAX_TENSORS, &s->ntensors, items))
		return KA_EINPUT;
	if (s->ntensors == 0)
		return bad(r, "%s", "a task needs 'tensors'");
	for (int i = 0; i < s->ntensors; i++)
		if (read_tensor(r, items[i], &s->t[i]))
			return KA_EINPUT;
	if (read_list(r, root, "scalars", KA_BENCH_MAX_SCALARS, &s->nscalars, items))
		return KA_EINPUT;
	for (int i = 0; i < s->nscalars; i++) {
		if (check_keys(r, items[i], sc_keys, "a scalar") ||
		    copy_str(r, items[i], "name", s->s[i].name, KA_BENCH_NAME, 1) ||
		    check_name(r, s->s[i].name, "scalar") || num(r, items[i], "lo", &s->s[i].lo, 1) ||
		    num(r, items[i], "hi", &s->s[i].hi, 1))
			return KA_EINPUT;
		if (s->s[i].lo > s->s[i].hi)
			return bad(r, "scalar '%s' has lo > hi", s->s[i].name);
	}
	yaml_node_t *tol = get(r, root, "tolerance");
	if (!tol)
		return bad(r, "%s", "missing 'tolerance' (atol, rtol, l2)");
	if (check_keys(r, tol, tol_keys, "tolerance") || num(r, tol, "atol", &s->atol, 1) ||
	    num(r, tol, "rtol", &s->rtol, 1) || num(r, tol, "l2", &s->l2, 1))
		return KA_EINPUT;
	if (s->atol < 0 || s->rtol < 0 || s->l2 < 0)
		return bad(r, "%s", "tolerances must not be negative");
	if (read_bool(r, root, "deterministic", &s->deterministic))
		return KA_EINPUT;
	s->accumulate = KA_BENCH_F32;
	const char *acc = str(get(r, root, "accumulate"));
	if (get(r, root, "accumulate") && (!acc || (s->accumulate = dtype_of(acc)) < 0 ||
					   s->accumulate == KA_BENCH_I32 || s->accumulate == KA_BENCH_U32))
		return bad(r, "'accumulate' must be a floating dtype (f32, f64, f16, bf16), not '%s'",
			   acc ? acc : "?");
	strcpy(s->work, "0");
	strcpy(s->reduction, "1");
	if (copy_str(r, root, "workspace", s->work, sizeof s->work, 0) ||
	    copy_str(r, root, "reduction", s->reduction, sizeof s->reduction, 0) ||
	    copy_str(r, root, "bytes", s->bytes, sizeof s->bytes, 1) ||
	    copy_str(r, root, "flops", s->flops, sizeof s->flops, 1))
		return KA_EINPUT;
	(void)n;
	if (read_configs(r, get(r, root, "configs"), s))
		return KA_EINPUT;
	return read_draw(r, get(r, root, "unseen"), s);
}

int ka_bench_spec_parse(const char *text, size_t len, const char *origin, ka_bench_spec *spec)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	struct rd r = {&doc, origin, 0};
	int rc = KA_EINPUT;
	memset(spec, 0, sizeof *spec);
	if (!yaml_parser_initialize(&parser))
		return ka_error_set(KA_ENOMEM, "out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		ka_error_set(KA_EINPUT, "%s:%lu: YAML error: %s", origin,
			     (unsigned long)parser.problem_mark.line + 1,
			     parser.problem ? parser.problem : "unknown");
		yaml_parser_delete(&parser);
		return KA_EINPUT;
	}
	rc = read_root(&r, yaml_document_get_root_node(&doc), spec);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rc;
}

int ka_bench_spec_load(const char *path, ka_bench_spec *spec)
{
	char file[1100];
	char *text = NULL;
	size_t len = 0;
	int rc;
	size_t n = strlen(path);
	if (n > 1000)
		return ka_error_set(KA_EINPUT, "task path too long (over 1000 bytes): %.60s...", path);
	if (ka_fs_is_dir(path) || n < 5 || strcmp(path + n - 5, ".yaml"))
		snprintf(file, sizeof file, "%s/task.yaml", path);
	else
		snprintf(file, sizeof file, "%s", path);
	if (!ka_fs_exists(file))
		return ka_error_set(KA_EIO, "no task spec at %s", file);
	rc = ka_fs_read(file, 1 << 20, &text, &len);
	if (rc)
		return rc;
	rc = ka_bench_spec_parse(text, len, file, spec);
	free(text);
	if (rc == 0) {
		snprintf(spec->dir, sizeof spec->dir, "%s", file);
		char *slash = strrchr(spec->dir, '/');
		if (slash)
			*slash = 0;
		else
			strcpy(spec->dir, ".");
	}
	return rc;
}

static unsigned long long splitmix(unsigned long long *x)
{
	unsigned long long z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Log-uniform in [lo, hi], so small, odd and large sizes all come up. */
static long long draw_one(unsigned long long *st, long long lo, long long hi)
{
	double u = (double)(splitmix(st) >> 11) / 9007199254740992.0;
	double a = log((double)lo + 1.0), b = log((double)hi + 2.0);
	long long v = (long long)floor(exp(a + u * (b - a))) - 1;
	return v < lo ? lo : v > hi ? hi : v;
}

static int fits(const ka_bench_spec *s, const ka_bench_config *c)
{
	long long total = 0;
	for (int i = 0; i < s->ntensors; i++)
		total += c->n[i] * ka_bench_dtype_bytes(s->t[i].dtype);
	if (s->draw.max_bytes && total > s->draw.max_bytes)
		return 0;
	return !s->draw.max_flops || c->flops <= s->draw.max_flops;
}

int ka_bench_spec_draw(ka_bench_spec *s, unsigned long long seed)
{
	unsigned long long st = seed ^ 0xd1a4ULL;
	for (int k = 0; k < s->draw.n; k++) {
		ka_bench_config *c = &s->c[s->nconfigs];
		int ok = 0;
		for (int tries = 0; tries < 1000 && !ok; tries++) {
			struct rd r = {NULL, s->name, 0};
			memset(c, 0, sizeof *c);
			int len = snprintf(c->name, sizeof c->name, "d%d", k + 1);
			for (int i = 0; i < s->nparams; i++) {
				c->p[i] = draw_one(&st, s->draw.lo[i], s->draw.hi[i]);
				len += snprintf(c->name + len, sizeof c->name - (size_t)(len < 63 ? len : 63),
						"_%lld", c->p[i]);
				if (len > 63)
					len = 63;
			}
			ok = derive(&r, s, c) == 0 && fits(s, c);
		}
		if (!ok)
			return ka_error_set(KA_EINPUT,
					    "task '%s': no drawn configuration fits its unseen limits",
					    s->name);
		c->unseen = 1;
		c->drawn = 1;
		s->nconfigs++;
	}
	return 0;
}
