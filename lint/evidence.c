/* lint/evidence.c: measured evidence on the findings of a run.
 *
 * The knowledge DB (knowledge/knowledge.h) sits below lint: the caller
 * opens it (the CLI read-only, cli/tool_evidence.c) and passes it as
 * ka_lint_opts.kdb; a caller with another source passes a lookup
 * (ka_lint_opts.evidence) instead.  Here, after NOLINT and the baseline
 * (which match findings by their message, so evidence never changes what a
 * baseline recorded), each finding of a known rule asks for the rule's
 * evidence on the run's arch.  From the DB that is the rule's standing
 * (ka_kdb_standing_get), read once per rule and arch for the life of the
 * handle (a rule fires many times), its text (ka_kdb_standing_text) and
 * the estimate corrected by it (ka_kdb_corrected_estimate).  Where
 * evidence exists the finding carries it, its estimate becomes the
 * corrected one, and its severity follows the impact bands again
 * (ka_severity_band, capped by the rule, as the rules engine computed it):
 * a fix measured faster many times can lift a note to a warning, one that
 * never paid can drop a warning to a note.  The message, with its static
 * `[impact Nx: ...]`, is left as it is. */
#include "lint/lint_int.h"
#include "analyzer/arch.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cached {
	char *rule, *arch;
	ka_kdb_standing s;
} cached;

struct ka_lint_standings {
	cached *v;
	size_t n, cap;
};

void ka_lint_standings_free(ka_lint_standings *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].rule);
		free(c->v[i].arch);
	}
	free(c->v);
	free(c);
}

/* The standing of rule on arch, read from the DB once. */
static int standing(ka_lint *l, const char *rule, const char *arch, const ka_kdb_standing **out)
{
	if (!l->standings && !(l->standings = calloc(1, sizeof *l->standings)))
		return ka_error_set(KA_ENOMEM, "out of memory");
	ka_lint_standings *c = l->standings;
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].rule, rule) && !strcmp(c->v[i].arch, arch)) {
			*out = &c->v[i].s;
			return KA_OK;
		}
	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 16;
		cached *nv = realloc(c->v, ncap * sizeof *nv);
		if (!nv)
			return ka_error_set(KA_ENOMEM, "out of memory");
		c->v = nv, c->cap = ncap;
	}
	cached *e = &c->v[c->n];
	int rc = ka_kdb_standing_get(l->o.kdb, rule, NULL, arch, &e->s);
	if (rc != KA_OK)
		return rc;
	e->rule = strdup(rule);
	e->arch = strdup(arch);
	if (!e->rule || !e->arch) {
		free(e->rule);
		free(e->arch);
		return ka_error_set(KA_ENOMEM, "out of memory");
	}
	*out = &c->v[c->n++].s;
	return KA_OK;
}

/* The lookup over opts.kdb (ka_lint_evidence_fn's contract). */
static int from_kdb(ka_lint *l, const char *rule, const char *arch, double estimate, ka_finding_evidence *ev,
		    double *corrected)
{
	const ka_kdb_standing *s = NULL;
	int rc = standing(l, rule, arch, &s);
	*corrected = estimate;
	if (rc != KA_OK)
		return rc;
	if (s->verified + s->errors == 0)
		return 0;
	snprintf(ev->arch, sizeof ev->arch, "%s", arch);
	ev->wins = s->wins, ev->failures = s->failures, ev->errors = s->errors;
	ev->median = s->median, ev->lo = s->lo, ev->hi = s->hi;
	ka_kdb_standing_text(s, arch, ev->text, sizeof ev->text);
	*corrected = ka_kdb_corrected_estimate(estimate, s);
	return 1;
}

int ka_lint_apply_evidence(ka_lint *l, ka_findings *fs)
{
	const char *arch = l->o.arch ? l->o.arch : KA_ARCH_DEFAULT;
	if (!l->o.evidence && !l->o.kdb)
		return KA_OK;
	for (size_t i = 0; i < fs->n; i++) {
		ka_finding *f = &fs->v[i];
		const ka_rule *r = ka_ruleset_find(l->rs, f->rule);
		ka_finding_evidence ev;
		double corrected = f->estimate;
		if (!r)
			continue; /* unused-suppression, clang's errors: nothing was measured */
		memset(&ev, 0, sizeof ev);
		int rc = l->o.evidence ? l->o.evidence(l->o.evidence_ud, f->rule, arch, f->estimate, &ev,
						       &corrected)
				       : from_kdb(l, f->rule, arch, f->estimate, &ev, &corrected);
		if (rc < 0)
			return rc;
		if (rc == 0)
			continue;
		if (!(f->evidence = malloc(sizeof *f->evidence)))
			return ka_error_set(KA_ENOMEM, "out of memory");
		ev.static_estimate = f->estimate;
		*f->evidence = ev;
		if (r->estimate && f->estimate > 0 && corrected > 0) {
			f->estimate = corrected;
			f->severity = ka_severity_band(r->severity, 1, corrected);
			if (f->cold && f->severity > KA_SEV_NOTE)
				f->severity = KA_SEV_NOTE; /* a cold kernel's cost stays small */
		}
	}
	return KA_OK;
}
