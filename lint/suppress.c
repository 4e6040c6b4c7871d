/* lint/suppress.c: apply NOLINT comments to a run's findings and,
 * on request (--report-unused-suppressions), report the ones that
 * suppressed nothing as `unused-suppression` warnings.
 *
 * Only suppressions that are about kcheck count as unused: a NOLINT with a
 * list where some glob matches a kcheck rule.  A bare `// NOLINT` or
 * `NOLINT(readability-*)` may be there for clang-tidy.
 *
 * A NOLINT name that matches no kcheck rule but has a kcheck family's
 * prefix (`gmem-`, `sync-`, ...) or is a near miss of a rule id is a typo
 * that would suppress nothing: it is warned about on the log, once per
 * comment, whatever --report-unused-suppressions says. */
#include "lint/lint_int.h"
#include "rules/suppress.h"
#include "util/text.h"
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sfile {
	char *path; /* owned: findings come and go */
	ka_suppressions s;
} sfile;

typedef struct sctx {
	sfile *v;
	int n, cap;
	ka_sources *src;
} sctx;

static sfile *get(sctx *c, const char *path)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->v[i].path, path) == 0)
			return &c->v[i];
	if (c->n == c->cap) {
		int ncap = c->cap ? c->cap * 2 : 16;
		sfile *nv = realloc(c->v, (size_t)ncap * sizeof *nv);
		if (!nv)
			return NULL;
		c->v = nv;
		c->cap = ncap;
	}
	sfile *f = &c->v[c->n++];
	size_t len = 0;
	const char *text = ka_sources_text(c->src, path, &len);
	memset(&f->s, 0, sizeof f->s);
	f->path = strdup(path);
	if (!f->path) {
		c->n--;
		return NULL;
	}
	if (text)
		ka_suppress_parse(text, len, &f->s);
	return f;
}

static int keep(const ka_finding *fd, void *ud)
{
	sfile *f = get(ud, fd->file);
	return !(f && ka_suppress_match(&f->s, fd->line, fd->rule));
}

static int about_kcheck(const ka_suppression *x, const ka_ruleset *rs)
{
	for (int j = 0; j < x->nrules; j++)
		for (size_t i = 0; i < ka_ruleset_count(rs); i++)
			if (fnmatch(x->rules[j], ka_ruleset_at(rs, i)->id, 0) == 0)
				return 1;
	return 0;
}

/* name: a glob of a NOLINT list that matches no rule; 1 when it looks
 * like a kcheck rule all the same (the hint, if any, in *near). */
static int looks_like_kcheck(const char *name, const ka_ruleset *rs, const char **near)
{
	size_t n = ka_ruleset_count(rs);
	char fam[64], rf[64];
	*near = NULL;
	for (size_t i = 0; i < n; i++)
		if (fnmatch(name, ka_ruleset_at(rs, i)->id, 0) == 0)
			return 0;
	const char **ids = malloc(sizeof *ids * (n + 1));
	if (ids) {
		for (size_t i = 0; i < n; i++)
			ids[i] = ka_ruleset_at(rs, i)->id;
		*near = ka_text_nearest(name, ids, n);
		free(ids);
	}
	if (*near)
		return 1;
	if (!ka_rule_family(name, fam, sizeof fam))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (ka_rule_family(ka_ruleset_at(rs, i)->id, rf, sizeof rf) && !strcmp(fam, rf))
			return 1;
	return 0;
}

static void warn_unknown(FILE *log, const char *path, const ka_suppression *x, const ka_ruleset *rs)
{
	for (int j = 0; log && j < x->nrules; j++) {
		const char *near;
		if (!looks_like_kcheck(x->rules[j], rs, &near))
			continue;
		fprintf(log, "kcheck: warning: %s:%d:%d: %s names no kcheck rule '%s'", path, x->line, x->col,
			ka_nolint_name(x->kind), x->rules[j]);
		if (near)
			fprintf(log, " (did you mean '%s'?)", near);
		fputs("; it suppresses nothing\n", log);
	}
}

static int add_unused(ka_findings *fs, const char *path, const ka_suppression *x, const char *what)
{
	ka_finding f = {0};
	ka_buf msg;
	ka_buf_init(&msg, 1 << 12);
	ka_buf_printf(&msg, "%s %s(", what, ka_nolint_name(x->kind));
	for (int j = 0; j < x->nrules; j++)
		ka_buf_printf(&msg, "%s%s", j ? ", " : "", x->rules[j]);
	ka_buf_adds(&msg, ")");
	f.file = strdup(path);
	f.line = f.end_line = x->line;
	f.col = x->col;
	f.end_col = x->col + (int)strlen(ka_nolint_name(x->kind));
	f.begin_off = f.end_off = -1;
	f.rule = strdup("unused-suppression");
	f.severity = KA_SEV_WARNING;
	f.message = ka_buf_steal(&msg);
	f.row_id = -1;
	ka_buf_free(&msg);
	return ka_findings_push(fs, &f);
}

int ka_lint_suppress(ka_findings *fs, ka_sources *src, const ka_ruleset *rs, const char **files, int nfiles,
		     int report_unused, FILE *log)
{
	sctx c = {.src = src};
	int rc = KA_OK;
	ka_findings_filter(fs, keep, &c);
	for (int i = 0; (report_unused || log) && i < nfiles; i++)
		get(&c, files[i]);
	for (int i = 0; log && i < c.n; i++)
		for (size_t k = 0; k < c.v[i].s.n; k++)
			warn_unknown(log, c.v[i].path, &c.v[i].s.v[k], rs);
	for (int i = 0; report_unused && i < c.n && rc == KA_OK; i++) {
		for (size_t k = 0; k < c.v[i].s.n && rc == KA_OK; k++) {
			const ka_suppression *x = &c.v[i].s.v[k];
			if (x->kind == KA_NOLINT_END && x->unmatched && about_kcheck(x, rs))
				rc = add_unused(fs, c.v[i].path, x,
						"NOLINTEND without a matching NOLINTBEGIN:");
			else if (x->kind != KA_NOLINT_END && !x->used && about_kcheck(x, rs))
				rc = add_unused(fs, c.v[i].path, x, "unused suppression");
		}
	}
	for (int i = 0; i < c.n; i++) {
		ka_suppressions_free(&c.v[i].s);
		free(c.v[i].path);
	}
	free(c.v);
	return rc;
}
