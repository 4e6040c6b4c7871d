/* cli/tool_parsecfg.c: .kcheck.yaml, the project's settings.
 *
 * The nearest .kcheck.yaml in the first PATH's folder or a parent applies
 * (or --config FILE; --no-config for none).  Keys:
 *   checks: "-*,gmem-*"   (or a list of globs)     arch: sm_80
 *   fail-on: warning      format: text              jobs: 4
 *   baseline: kcheck-baseline.json                  assume-block: "32,8"
 *   rules-dir: [my-rules]  exclude: ["third_party"]
 *   extra-args: ["-Iinclude"]    report-unused-suppressions: true
 *   llm-base-url: http://127.0.0.1:8080/v1    llm-model: M   (with --fix/--diff)
 * `db:` is refused: a repository must not choose the knowledge DB (its
 * schema and contents steer what findings say); --db or $KCHECK_DB do.
 * The keys are the option table's (tool_opts.c), parsed as their options
 * are.  Relative paths are relative to the config file's folder.
 * Command-line flags win over the file.  An unknown key or a bad value is an error
 * (`PATH:LINE: message`, exit 2): a typo must not silently do nothing.
 * A repository's file never picks where the LLM key goes: llm-base-url is
 * an error here (command line or environment only), and llm-model must be
 * a plain name (cli/tool_trust.c).  An extra-args flag that reaches a
 * compiler must be safe for nvcc's /bin/sh (util/shsafe.h). */
#include "cli/tools.h"
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "util/buf.h"
#include "util/fs.h"
#include "util/shsafe.h"

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
static int strings(cfgctx *x, const yaml_node_t *n, const char *key, const char ***v, int *cnt, int paths)
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

/* extra-args: a flag that reaches nvcc may not hold what its /bin/sh acts
 * on; the error names the item's own line. */
static int shell_safe(cfgctx *x, const yaml_node_t *v, const char *key, const char **list, int n)
{
	char why[96], show[160];
	int bad = strcmp(key, "extra-args") ? -1 : ka_sh_cc_unsafe(list, n, why, sizeof why);
	if (bad < 0)
		return 0;
	const yaml_node_t *item = v->type == YAML_SEQUENCE_NODE
					  ? yaml_document_get_node(x->doc, v->data.sequence.items.start[bad])
					  : v;
	fprintf(stderr,
		"%s:%d: extra-args: '%s' holds %s; kcheck passes this flag to nvcc, which runs it through /bin/sh\n",
		x->path, item ? (int)item->start_mark.line + 1 : 1, ka_sh_show(show, sizeof show, list[bad]),
		why);
	return KA_EXIT_ERROR;
}

#define FIELD(c, o, type) ((type *)((char *)(c) + (o)->off))

/* Apply one key unless the command line set its option. */
static int apply(cfgctx *x, const char *key, const yaml_node_t *k, const yaml_node_t *v)
{
	ka_tool_cfg *c = x->c;
	const ka_opt *o = ka_tool_opts();
	for (; (o->name || o->key) && !(o->key && !strcmp(o->key, key)); o++)
		;
	if (!o->key)
		return cerr(
			x, k, "%s (see docs/rules.md, Configuration)",
			ka_arena_printf(x->c->arena, "unknown key '%s'%s", key, ka_tool_suggest_key(key)));
	if (!strcmp(key, "db"))
		return cerr(x, k,
			    "'%s' cannot be set in .kcheck.yaml: a repository does not choose the "
			    "knowledge DB (use --db FILE or KCHECK_DB)",
			    key);
	int set = c->set[o - ka_tool_opts()];
	const char **list = NULL;
	int n = 0, rc = 0;
	if (ka_tool_trust_key(key, v->type == YAML_SCALAR_NODE ? scalar(x, v) : NULL) != 0)
		return cerr(x, strcmp(key, "llm-model") ? k : v, "%s", ka_error_last());
	if (o->kind == KA_OPT_LIST || o->key_join) {
		if ((rc = strings(x, v, key, &list, &n, o->key_path)) ||
		    (rc = shell_safe(x, v, key, list, n)) || set)
			return rc;
		if (o->kind == KA_OPT_LIST) {
			*FIELD(c, o, const char **) = list;
			*(int *)((char *)c + o->count_off) = n;
			return 0;
		}
		ka_buf b;
		ka_buf_init(&b, 1 << 16);
		for (int i = 0; i < n; i++)
			ka_buf_printf(&b, "%s%s", i ? "," : "", list[i]);
		*FIELD(c, o, const char *) = ka_arena_strdup(c->arena, b.data ? b.data : "");
		ka_buf_free(&b);
		return 0;
	}
	if (v->type != YAML_SCALAR_NODE)
		return cerr(x, v, "'%s' must be a single value", key);
	const char *s = scalar(x, v);
	int num = 0, b[3];
	switch (o->kind) {
	case KA_OPT_STR:
		if (!set)
			*FIELD(c, o, const char *) = o->key_path ? relpath(x, s) : s;
		break;
	case KA_OPT_ENUM:
		if ((num = ka_cmdopt_choice(o->choices, s)) < 0) {
			fprintf(stderr, "%s:%d: bad %s '%s' (expected one of: %s)\n", x->path,
				(int)v->start_mark.line + 1, key, s, ka_cmdopt_choices_text(o->choices, " "));
			return KA_EXIT_ERROR;
		}
		if (!set)
			*FIELD(c, o, int) = num;
		break;
	case KA_OPT_INT:
		for (const char *d = s; *d && num <= o->hi; d++)
			num = *d >= '0' && *d <= '9' ? num * 10 + (*d - '0') : o->hi + 1;
		if (num < o->lo || num > o->hi) {
			fprintf(stderr, "%s:%d: '%s' must be a number from %d to %d, got '%s'\n", x->path,
				(int)v->start_mark.line + 1, key, o->lo, o->hi, s);
			return KA_EXIT_ERROR;
		}
		if (!set)
			*FIELD(c, o, int) = num;
		break;
	case KA_OPT_BLOCK:
		if (ka_cmdopt_parse_block(s, b) != 0)
			return cerr(x, v, "bad assume-block '%s' (expected X[,Y[,Z]], at most 1024 threads)",
				    s);
		if (!set)
			memcpy(FIELD(c, o, int), b, sizeof b);
		break;
	case KA_OPT_FLAG:
		if ((rc = boolean(x, v, key, &num)) == 0 && !set)
			*FIELD(c, o, int) = num;
		break;
	default:
		break;
	}
	return rc;
}

/* A key given a second time is an error: which one would win is a guess. */
static int duplicate(cfgctx *x, const yaml_node_t *root, const yaml_node_pair_t *p, const yaml_node_t *k)
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
	if (!root) { /* an empty file */
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
	char *found = ka_lint_findfile(c->arena, start, ".kcheck.yaml");
	return found ? ka_tool_parsecfg_file(c, found) : 0;
}
