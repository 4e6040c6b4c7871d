/* cli/tool_parsecfg.c: .kcheck.yaml, the project's settings.
 *
 * The nearest .kcheck.yaml in the first PATH's folder or a parent applies
 * (or --config FILE; --no-config for none).  Keys:
 *   checks: "-*,gmem-*"   (or a list of globs)     arch: sm_80
 *   fail-on: warning      format: text              jobs: 4
 *   baseline: kcheck-baseline.json                  assume-block: "32,8"
 *   rules-dir: [my-rules]  exclude: ["third_party"]
 *   extra-args: ["-Iinclude"]    report-unused-suppressions: true
 * Relative paths are relative to the config file's folder.  Command-line
 * flags win over the file.  An unknown key or a bad value is an error
 * (`PATH:LINE: message`, exit 2): a typo must not silently do nothing. */
#include "cli/tools.h"
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "util/buf.h"
#include "util/fs.h"

typedef struct cfgctx {
	ka_tool_cfg *c;
	const char *path;
	char *dir;
	yaml_document_t *doc;
} cfgctx;

static int cerr(cfgctx *x, const yaml_node_t *n, const char *msg, const char *arg)
{
	fprintf(stderr, "%s:%d: ", x->path, n ? (int)n->start_mark.line + 1 : 1);
	fprintf(stderr, msg, arg);
	fputc('\n', stderr);
	return KA_EXIT_ERROR;
}

static const char *scalar(cfgctx *x, const yaml_node_t *n)
{
	return ka_arena_strndup(x->c->arena, (const char *)n->data.scalar.value, n->data.scalar.length);
}

static const char *relpath(cfgctx *x, const char *p)
{
	return p[0] == '/' ? p : ka_arena_printf(x->c->arena, "%s/%s", x->dir, p);
}

/* A string list from a sequence or a single scalar; every item is kept
 * (the file itself is capped at 1 MB). */
static int strings(cfgctx *x, const yaml_node_t *n, const char *key, const char ***v, int *cnt,
		   int paths)
{
	yaml_node_item_t *it = NULL;
	int k = 1;
	if (n->type == YAML_SEQUENCE_NODE) {
		it = n->data.sequence.items.start;
		k = (int)(n->data.sequence.items.top - it);
	} else if (n->type != YAML_SCALAR_NODE) {
		return cerr(x, n, "'%s' must be a string or a list of strings", key);
	}
	*v = ka_arena_alloc(x->c->arena, (size_t)(k + 1) * sizeof **v);
	*cnt = 0;
	for (int i = 0; i < k; i++) {
		const yaml_node_t *item = it ? yaml_document_get_node(x->doc, it[i]) : n;
		if (!item || item->type != YAML_SCALAR_NODE)
			return cerr(x, item ? item : n, "items of '%s' must be strings", key);
		const char *s = scalar(x, item);
		(*v)[(*cnt)++] = paths ? relpath(x, s) : s;
	}
	return 0;
}

static int boolean(cfgctx *x, const yaml_node_t *n, const char *key, int *out)
{
	const char *s = n->type == YAML_SCALAR_NODE ? scalar(x, n) : "";
	if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on"))
		*out = 1;
	else if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off"))
		*out = 0;
	else
		return cerr(x, n, "'%s' must be true or false", key);
	return 0;
}

/* v must be one of the space-separated words of choices, whole. */
static int one_of(cfgctx *x, const yaml_node_t *n, const char *key, const char *v, const char *choices)
{
	size_t vl = strlen(v);
	for (const char *w = choices; *w;) {
		size_t wl = strcspn(w, " ");
		if (wl == vl && strncmp(w, v, vl) == 0)
			return 0;
		w += wl;
		w += *w == ' ';
	}
	fprintf(stderr, "%s:%d: bad %s '%s' (expected one of: %s)\n", x->path,
		(int)n->start_mark.line + 1, key, v, choices);
	return KA_EXIT_ERROR;
}

static const char *const known_keys[] = {"checks", "exclude", "rules-dir", "extra-args", "arch",
	"fail-on", "format", "baseline", "jobs", "assume-block", "report-unused-suppressions", NULL};

/* Apply one key unless the command line set it. */
static int apply(cfgctx *x, const char *key, const yaml_node_t *k, const yaml_node_t *v)
{
	ka_tool_cfg *c = x->c;
	int known = 0;
	for (int i = 0; known_keys[i] && !known; i++)
		known = !strcmp(key, known_keys[i]);
	if (!known)
		return cerr(x, k, "unknown key '%s' (see docs/rules.md, Configuration)", key);
	const char **list = NULL;
	int n = 0, rc = 0;
	int is_scalar = v->type == YAML_SCALAR_NODE;
	const char *s = is_scalar ? scalar(x, v) : NULL;
	if (!strcmp(key, "checks")) {
		if ((rc = strings(x, v, key, &list, &n, 0)) || c->set.checks)
			return rc;
		ka_buf b;
		ka_buf_init(&b, 1 << 16);
		for (int i = 0; i < n; i++)
			ka_buf_printf(&b, "%s%s", i ? "," : "", list[i]);
		c->checks = ka_arena_strdup(c->arena, b.data ? b.data : "");
		ka_buf_free(&b);
	} else if (!strcmp(key, "exclude")) {
		rc = strings(x, v, key, &list, &n, 0);
		if (!rc && !c->set.exclude)
			c->exclude = list, c->nexclude = n;
	} else if (!strcmp(key, "rules-dir")) {
		rc = strings(x, v, key, &list, &n, 1);
		if (!rc && !c->set.rules_dirs)
			c->rules_dirs = list, c->nrules_dirs = n;
	} else if (!strcmp(key, "extra-args")) {
		rc = strings(x, v, key, &list, &n, 0);
		if (!rc && !c->set.extra)
			c->extra = list, c->nextra = n;
	} else if (!is_scalar) {
		return cerr(x, v, "'%s' must be a single value", key);
	} else if (!strcmp(key, "arch")) {
		if (!c->set.arch)
			c->arch = s;
	} else if (!strcmp(key, "fail-on")) {
		rc = one_of(x, v, key, s, "error warning note none");
		if (!rc && !c->set.fail_on)
			c->fail_on = s;
	} else if (!strcmp(key, "format")) {
		rc = one_of(x, v, key, s, "text json sarif");
		if (!rc && !c->set.format)
			c->format = s;
	} else if (!strcmp(key, "baseline")) {
		if (!c->set.baseline)
			c->baseline = relpath(x, s);
	} else if (!strcmp(key, "jobs")) {
		int j = 0;
		for (const char *d = s; *d && j <= 256; d++)
			j = *d >= '0' && *d <= '9' ? j * 10 + (*d - '0') : 1000;
		if (j < 1 || j > 256)
			return cerr(x, v, "'jobs' must be a number from 1 to 256, got '%s'", s);
		if (!c->set.jobs)
			c->jobs = j;
	} else if (!strcmp(key, "assume-block")) {
		int b[3];
		if (ka_tool_parse_block(s, b) != 0)
			return cerr(x, v, "bad assume-block '%s' (expected X[,Y[,Z]], at most 1024 threads)", s);
		if (!c->set.assume_block)
			memcpy(c->assume_block, b, sizeof b);
	} else if (!strcmp(key, "report-unused-suppressions")) {
		int on = 0;
		if ((rc = boolean(x, v, key, &on)) == 0 && !c->set.report_unused)
			c->report_unused = on;
	}
	return rc;
}

/* A key given a second time is an error: which one would win is a guess. */
static int duplicate(cfgctx *x, const yaml_node_t *root, const yaml_node_pair_t *p,
		     const yaml_node_t *k)
{
	for (const yaml_node_pair_t *q = root->data.mapping.pairs.start; q < p; q++) {
		const yaml_node_t *e = yaml_document_get_node(x->doc, q->key);
		if (e && e->type == YAML_SCALAR_NODE && e->data.scalar.length == k->data.scalar.length &&
		    memcmp(e->data.scalar.value, k->data.scalar.value, k->data.scalar.length) == 0) {
			fprintf(stderr, "%s:%d: key '%s' given twice (first on line %d)\n", x->path,
				(int)k->start_mark.line + 1, scalar(x, k), (int)e->start_mark.line + 1);
			return 1;
		}
	}
	return 0;
}

int ka_tool_parsecfg_file(ka_tool_cfg *c, const char *path)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	char *text = NULL;
	size_t len = 0;
	int rc = KA_EXIT_ERROR, loaded = 0;
	cfgctx x = {.c = c, .path = path, .doc = &doc};
	if (ka_fs_read(path, 1 << 20, &text, &len) != KA_OK) {
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	char *tmp = ka_arena_strdup(c->arena, path);
	x.dir = ka_arena_strdup(c->arena, dirname(tmp));
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		fprintf(stderr, "%s:%d: bad YAML: %s\n", path, (int)parser.problem_mark.line + 1,
			parser.problem ? parser.problem : "syntax error");
		goto out;
	}
	loaded = 1;
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (!root) {  /* an empty file */
		rc = 0;
		goto out;
	}
	if (root->type != YAML_MAPPING_NODE) {
		cerr(&x, root, "%s", "the configuration must be a mapping of keys");
		goto out;
	}
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&doc, p->value);
		if (!k || !v || k->type != YAML_SCALAR_NODE) {
			cerr(&x, k, "%s", "keys must be plain strings");
			goto out;
		}
		if (duplicate(&x, root, p, k) || apply(&x, scalar(&x, k), k, v) != 0)
			goto out;
	}
	rc = 0;
out:
	if (loaded)
		yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	free(text);
	return rc;
}

int ka_tool_parsecfg(ka_tool_cfg *c)
{
	if (c->no_config)
		return 0;
	if (c->config)
		return ka_tool_parsecfg_file(c, c->config);
	const char *start = c->npaths ? c->paths[0] : ".";
	char *found = ka_tool_findfile(c->arena, start, ".kcheck.yaml");
	return found ? ka_tool_parsecfg_file(c, found) : 0;
}
