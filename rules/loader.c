/* rules/loader.c: one rule file -> one ka_rule.
 *
 * Splits the Markdown file into its YAML front matter and body, parses the
 * front matter with libyaml's document API (which keeps each node's line, so
 * every problem points at the line that causes it), and checks what can be
 * checked without the facts schema: required and unknown fields, types,
 * severity, fix safety, id syntax.  The schema checks (scope, SQL,
 * placeholders, regexes) are in check.c.
 */
#include "rules/rules_int.h"
#include "util/error.h"
#include <stdio.h>
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

enum field {
	F_ID,
	F_TITLE,
	F_SEVERITY,
	F_CATEGORY,
	F_SCOPE,
	F_WHERE,
	F_MESSAGE,
	F_FIX,
	F_FIX_SAFETY,
	F_IMPACT,
	F_REFERENCES,
	F_TAGS,
	F_LANGUAGES,
	F_ARCHITECTURES,
	F_ESTIMATE,
	F_BASIS,
	F_LET,
	F_STATUS,
	F_COUNT
};

static const struct {
	const char *name;
	int is_list;
	int required;
} fields[F_COUNT] = {
	[F_ID] = {"id", 0, 1},
	[F_TITLE] = {"title", 0, 1},
	[F_SEVERITY] = {"severity", 0, 1},
	[F_CATEGORY] = {"category", 0, 1},
	[F_SCOPE] = {"scope", 0, 1},
	[F_WHERE] = {"where", 0, 1},
	[F_MESSAGE] = {"message", 0, 1},
	[F_FIX] = {"fix", 0, 0},
	[F_FIX_SAFETY] = {"fix_safety", 0, 0},
	[F_IMPACT] = {"impact", 0, 0},
	[F_REFERENCES] = {"references", 1, 0},
	[F_TAGS] = {"tags", 1, 0},
	[F_LANGUAGES] = {"languages", 1, 0},
	[F_ARCHITECTURES] = {"architectures", 1, 0},
	[F_ESTIMATE] = {"estimate", 0, 0},
	[F_BASIS] = {"basis", 0, 0},
	[F_LET] = {"let", 2, 0}, /* a mapping */
	[F_STATUS] = {"status", 0, 0},
};

static const char *const category_names[KA_CAT_COUNT] = {
	[KA_CAT_MEMORY] = "memory",           [KA_CAT_ARITHMETIC] = "arithmetic",
	[KA_CAT_DIVERGENCE] = "divergence",   [KA_CAT_SYNCHRONIZATION] = "synchronization",
	[KA_CAT_ATOMICS] = "atomics",         [KA_CAT_LAUNCH] = "launch",
	[KA_CAT_OCCUPANCY] = "occupancy",     [KA_CAT_HOST] = "host",
	[KA_CAT_PORTABILITY] = "portability", [KA_CAT_CORRECTNESS] = "correctness",
};

static const char *const status_names[KA_STATUS_COUNT] = {
	[KA_STATUS_STABLE] = "stable",
	[KA_STATUS_PREVIEW] = "preview",
	[KA_STATUS_CANDIDATE] = "candidate",
	[KA_STATUS_RETIRED] = "retired",
};

/* Parsing state of one file. */
typedef struct pstate {
	ka_ruleset *rs;
	const char *path;
	ka_rule *r;
	int seen[F_COUNT];
	int bad;
} pstate;

void ka_rule_free(ka_rule *r)
{
	if (!r)
		return;
	char **strs[] = {&r->id,     &r->title,    &r->category, &r->scope, &r->where, &r->message, &r->fix,
			 &r->impact, &r->estimate, &r->basis,    &r->body,  &r->text,  &r->path};
	for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
		free(*strs[i]);
	ka_strlist *lists[] = {&r->references,    &r->tags,      &r->languages,
			       &r->architectures, &r->let_names, &r->let_exprs};
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		for (int j = 0; j < lists[i]->n; j++)
			free(lists[i]->v[j]);
		free(lists[i]->v);
	}
	free(r);
}

int ka_rule_id_valid(const char *id)
{
	int dashes = 0;
	const char *p = id;
	if (!*p)
		return 0;
	for (; *p; p++) {
		if (*p == '-') {
			if (p == id || p[1] == '\0' || p[1] == '-')
				return 0;
			dashes++;
		} else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))) {
			return 0;
		}
	}
	return dashes > 0;
}

/* Find the end of the front matter.  Returns 0 when there is none; sets
 * fm/fm_len, body and body_line. */
static int split_front_matter(const char *text, size_t len, const char **fm, size_t *fm_len,
			      const char **body, int *body_line)
{
	if (len < 3 || strncmp(text, "---", 3) != 0)
		return 0;
	const char *p = text + 3;
	while (p < text + len && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	if (p >= text + len || *p != '\n')
		return 0;
	p++;
	*fm = p;
	int line = 2;
	while (p < text + len) {
		const char *eol = memchr(p, '\n', (size_t)(text + len - p));
		const char *end = eol ? eol : text + len;
		const char *t = end;
		while (t > p && (t[-1] == ' ' || t[-1] == '\t' || t[-1] == '\r'))
			t--;
		if (t - p == 3 && strncmp(p, "---", 3) == 0) {
			*fm_len = (size_t)(p - *fm);
			*body = eol ? eol + 1 : end;
			*body_line = line + 1;
			return 1;
		}
		line++;
		p = eol ? eol + 1 : end;
	}
	return -1;
}

static int node_line(const yaml_node_t *n)
{
	return (int)n->start_mark.line + 2;
}

static char *scalar_dup(const yaml_node_t *n)
{
	return strndup((const char *)n->data.scalar.value, n->data.scalar.length);
}

/* Report a problem at a line of the file and mark the rule bad. */
#define perr(ps, line, ...) \
	do { \
		ka_ruleset_error((ps)->rs, (ps)->path, (line), __VA_ARGS__); \
		(ps)->bad = 1; \
	} while (0)

static int set_list(pstate *ps, yaml_document_t *doc, yaml_node_t *val, const char *name, ka_strlist *out,
		    int line)
{
	if (val->type == YAML_SCALAR_NODE && val->data.scalar.length == 0)
		return 0; /* `tags:` with nothing: an empty list */
	if (val->type != YAML_SEQUENCE_NODE) {
		perr(ps, line, "field '%s' must be a list", name);
		return -1;
	}
	yaml_node_item_t *it = val->data.sequence.items.start;
	int n = (int)(val->data.sequence.items.top - it);
	out->v = calloc((size_t)n + 1, sizeof *out->v);
	if (!out->v)
		return -1;
	for (int i = 0; i < n; i++) {
		yaml_node_t *item = yaml_document_get_node(doc, it[i]);
		if (!item || item->type != YAML_SCALAR_NODE) {
			perr(ps, item ? node_line(item) : node_line(val), "items of '%s' must be strings",
			     name);
			return -1;
		}
		out->v[out->n++] = scalar_dup(item);
	}
	return 0;
}

static int let_name_valid(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* `let:` maps names to SQL expressions over the scope's row; each becomes
 * a column the message and basis can name. */
static int set_let(pstate *ps, yaml_document_t *doc, yaml_node_t *val, int line)
{
	ka_rule *r = ps->r;
	if (val->type != YAML_MAPPING_NODE) {
		perr(ps, line, "field 'let' must be a mapping of names to SQL expressions");
		return -1;
	}
	yaml_node_pair_t *p0 = val->data.mapping.pairs.start;
	int n = (int)(val->data.mapping.pairs.top - p0);
	r->let_names.v = calloc((size_t)n + 1, sizeof(char *));
	r->let_exprs.v = calloc((size_t)n + 1, sizeof(char *));
	if (!r->let_names.v || !r->let_exprs.v)
		return -1;
	for (int i = 0; i < n; i++) {
		yaml_node_t *k = yaml_document_get_node(doc, p0[i].key);
		yaml_node_t *v = yaml_document_get_node(doc, p0[i].value);
		if (!k || !v || k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE ||
		    !v->data.scalar.length) {
			perr(ps, k ? node_line(k) : line, "let: each entry must be `name: SQL expression`");
			return -1;
		}
		char *name = scalar_dup(k);
		if (!let_name_valid(name)) {
			perr(ps, node_line(k), "let: bad name '%s' (expected [a-z_][a-z0-9_]*)", name);
			free(name);
			return -1;
		}
		r->let_names.v[r->let_names.n++] = name;
		r->let_exprs.v[r->let_exprs.n++] = scalar_dup(v);
	}
	return 0;
}

static int set_severity(pstate *ps, const char *v, int line)
{
	int s = ka_severity_parse(v);
	if (s < 0) {
		perr(ps, line, "bad severity '%s' (expected error, warning or note)", v);
		return -1;
	}
	ps->r->severity = (ka_severity)s;
	return 0;
}

static int set_fix_safety(pstate *ps, const char *v, int line)
{
	if (strcmp(v, "safe") == 0)
		ps->r->fix_safety = KA_FIX_SAFE;
	else if (strcmp(v, "unsafe") == 0)
		ps->r->fix_safety = KA_FIX_UNSAFE;
	else if (strcmp(v, "suggest") == 0)
		ps->r->fix_safety = KA_FIX_SUGGEST;
	else {
		perr(ps, line, "bad fix_safety '%s' (expected safe, unsafe or suggest)", v);
		return -1;
	}
	return 0;
}

static int set_category(pstate *ps, const char *v, int line)
{
	int c = ka_category_parse(v);
	if (c < 0) {
		perr(ps, line, "bad category '%s' (expected one of %s)", v, ka_category_names());
		return -1;
	}
	ps->r->cat = (ka_category)c;
	return 0;
}

static int set_status(pstate *ps, const char *v, int line)
{
	int s = ka_rule_status_parse(v);
	if (s < 0) {
		perr(ps, line, "bad status '%s' (expected stable, preview, candidate or retired)", v);
		return -1;
	}
	ps->r->status = (ka_rule_status)s;
	return 0;
}

/* Store a scalar field; the string is owned by the rule afterwards. */
static void set_scalar(pstate *ps, enum field f, char *v, int line)
{
	ka_rule *r = ps->r;
	char **slot = NULL;
	switch (f) {
	case F_ID:
		slot = &r->id;
		r->lines.id = line;
		break;
	case F_TITLE:
		slot = &r->title;
		break;
	case F_CATEGORY:
		r->lines.category = line;
		if (set_category(ps, v, line) < 0) {
			free(v);
			return;
		}
		slot = &r->category;
		break;
	case F_STATUS:
		r->lines.status = line;
		set_status(ps, v, line);
		free(v);
		return;
	case F_SCOPE:
		slot = &r->scope;
		r->lines.scope = line;
		break;
	case F_WHERE:
		slot = &r->where;
		r->lines.where = line;
		break;
	case F_MESSAGE:
		slot = &r->message;
		r->lines.message = line;
		break;
	case F_IMPACT:
		slot = &r->impact;
		break;
	case F_ESTIMATE:
		slot = &r->estimate;
		r->lines.estimate = line;
		break;
	case F_BASIS:
		slot = &r->basis;
		r->lines.basis = line;
		break;
	case F_FIX:
		r->lines.fix = line;
		if (strcmp(v, "none") == 0 || !*v) {
			free(v);
			return;
		}
		slot = &r->fix;
		break;
	case F_SEVERITY:
		r->lines.severity = line;
		set_severity(ps, v, line);
		free(v);
		return;
	case F_FIX_SAFETY:
		r->lines.fix_safety = line;
		set_fix_safety(ps, v, line);
		free(v);
		return;
	default:
		free(v);
		return;
	}
	*slot = v;
}

static void set_field(pstate *ps, yaml_document_t *doc, yaml_node_t *key, yaml_node_t *val)
{
	char *name = scalar_dup(key);
	int line = node_line(key);
	int f;
	for (f = 0; f < F_COUNT; f++)
		if (strcmp(fields[f].name, name) == 0)
			break;
	if (f == F_COUNT) {
		perr(ps, line, "unknown field '%s'", name);
		goto out;
	}
	if (ps->seen[f]) {
		perr(ps, line, "field '%s' given twice", name);
		goto out;
	}
	ps->seen[f] = line;
	if (f == F_LET) {
		ps->r->lines.let = line;
		set_let(ps, doc, val, line);
		goto out;
	}
	if (fields[f].is_list) {
		ka_strlist *l = f == F_REFERENCES  ? &ps->r->references
				: f == F_TAGS      ? &ps->r->tags
				: f == F_LANGUAGES ? &ps->r->languages
						   : &ps->r->architectures;
		if (f == F_LANGUAGES)
			ps->r->lines.languages = line;
		if (f == F_ARCHITECTURES)
			ps->r->lines.architectures = line;
		set_list(ps, doc, val, name, l, line);
		goto out;
	}
	if (val->type != YAML_SCALAR_NODE) {
		perr(ps, line, "field '%s' must be a string", name);
		goto out;
	}
	set_scalar(ps, (enum field)f, scalar_dup(val), line);
out:
	free(name);
}

static void check_fields(pstate *ps)
{
	ka_rule *r = ps->r;
	for (int f = 0; f < F_COUNT; f++)
		if (fields[f].required && !ps->seen[f])
			perr(ps, 1, "missing required field '%s'", fields[f].name);
	if (r->id && !ka_rule_id_valid(r->id))
		perr(ps, r->lines.id,
		     "bad id '%s' (expected kebab-case with a family prefix, e.g. gmem-uncoalesced-access)",
		     r->id);
	for (int i = 0; i < r->languages.n; i++)
		if (strcmp(r->languages.v[i], "cuda") && strcmp(r->languages.v[i], "hip"))
			perr(ps, r->lines.languages, "bad language '%s' (expected cuda or hip)",
			     r->languages.v[i]);
	if (r->where && !*r->where)
		perr(ps, r->lines.where, "field 'where' is empty");
	if (r->estimate && !*r->estimate)
		perr(ps, r->lines.estimate, "field 'estimate' is empty");
	if (r->estimate && !r->basis)
		perr(ps, r->lines.estimate, "an estimate needs a 'basis' (the facts it rests on)");
}

static int parse_yaml(pstate *ps, const char *fm, size_t fm_len)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	int rc = KA_EINPUT;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)fm, fm_len);
	if (!yaml_parser_load(&parser, &doc)) {
		int line = (int)parser.problem_mark.line + 2;
		perr(ps, line, "bad YAML: %s", parser.problem ? parser.problem : "syntax error");
		yaml_parser_delete(&parser);
		return rc;
	}
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (!root || root->type != YAML_MAPPING_NODE) {
		perr(ps, 2, "the front matter must be a YAML mapping of fields");
		goto out;
	}
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&doc, p->value);
		if (!k || !v || k->type != YAML_SCALAR_NODE) {
			perr(ps, k ? node_line(k) : 2, "field names must be plain strings");
			continue;
		}
		set_field(ps, &doc, k, v);
	}
	rc = KA_OK;
out:
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rc;
}

int ka_rule_parse(ka_ruleset *rs, const char *path, const char *text, size_t len, ka_rule **out)
{
	int rc = KA_EINPUT;
	pstate ps = {.rs = rs, .path = path};
	const char *fm = NULL, *body = NULL;
	size_t fm_len = 0;
	int body_line = 0;
	*out = NULL;
	int sp = split_front_matter(text, len, &fm, &fm_len, &body, &body_line);
	if (sp == 0) {
		ka_ruleset_error(rs, path, 1,
				 "missing YAML front matter (the file must start with a '---' line)");
		return KA_EINPUT;
	}
	if (sp < 0) {
		ka_ruleset_error(rs, path, 1, "unterminated YAML front matter (no closing '---' line)");
		return KA_EINPUT;
	}
	ps.r = calloc(1, sizeof *ps.r);
	if (!ps.r)
		return ka_error_set(KA_ENOMEM, "out of memory");
	ps.r->severity = KA_SEV_WARNING;
	if (parse_yaml(&ps, fm, fm_len) != KA_OK || ps.bad)
		goto out;
	ps.r->enabled = ps.r->status == KA_STATUS_STABLE;
	check_fields(&ps);
	if (ps.bad)
		goto out;
	ps.r->body = strndup(body, (size_t)(text + len - body));
	ps.r->body_line = body_line;
	ps.r->text = strndup(text, len);
	ps.r->path = strdup(path);
	if (!ps.r->body || !ps.r->text || !ps.r->path) {
		rc = ka_error_set(KA_ENOMEM, "out of memory");
		goto out;
	}
	*out = ps.r;
	ps.r = NULL;
	rc = KA_OK;
out:
	ka_rule_free(ps.r);
	return rc;
}

const char *ka_severity_name(ka_severity s)
{
	assert(s == KA_SEV_ERROR || s == KA_SEV_WARNING || s == KA_SEV_NOTE);
	return s == KA_SEV_ERROR ? "error" : s == KA_SEV_WARNING ? "warning" : "note";
}

int ka_severity_parse(const char *s)
{
	if (strcmp(s, "error") == 0)
		return KA_SEV_ERROR;
	if (strcmp(s, "warning") == 0)
		return KA_SEV_WARNING;
	if (strcmp(s, "note") == 0)
		return KA_SEV_NOTE;
	return -1;
}

ka_severity ka_severity_band(ka_severity ceiling, int has_estimate, double estimate)
{
	if (!has_estimate)
		return ceiling;
	ka_severity band = estimate >= KA_BAND_WARNING ? KA_SEV_WARNING : KA_SEV_NOTE;
	return band < ceiling ? band : ceiling;
}

const char *ka_rule_family(const char *id, char *buf, size_t cap)
{
	snprintf(buf, cap, "%.*s", (int)strcspn(id, "-"), id);
	return buf;
}

const char *ka_category_name(ka_category c)
{
	return c >= 0 && c < KA_CAT_COUNT ? category_names[c] : "?";
}

int ka_category_parse(const char *s)
{
	for (int c = 0; s && c < KA_CAT_COUNT; c++)
		if (strcmp(category_names[c], s) == 0)
			return c;
	return -1;
}

const char *ka_category_names(void)
{
	/* the names of category_names in order (test_loader checks they agree) */
	return "memory, arithmetic, divergence, synchronization, atomics, launch, occupancy, host, "
	       "portability, correctness";
}

const char *ka_rule_status_name(ka_rule_status s)
{
	return s >= 0 && s < KA_STATUS_COUNT ? status_names[s] : "?";
}

int ka_rule_status_parse(const char *s)
{
	for (int k = 0; s && k < KA_STATUS_COUNT; k++)
		if (strcmp(status_names[k], s) == 0)
			return k;
	return -1;
}

const char *ka_fix_safety_name(ka_fix_safety s)
{
	assert(s == KA_FIX_SAFE || s == KA_FIX_UNSAFE || s == KA_FIX_SUGGEST);
	return s == KA_FIX_SAFE ? "safe" : s == KA_FIX_UNSAFE ? "unsafe" : "suggest";
}
