/* lint/evidence.c: measured evidence on the findings of a run.
 *
 * The knowledge DB belongs to agents/, above lint: the caller opens it and
 * passes a lookup (ka_lint_opts.evidence).  Here, after NOLINT and the
 * baseline (which match findings by their message, so evidence never
 * changes what a baseline recorded), each finding of a known rule asks the
 * lookup for the run's arch.  Where evidence exists the finding carries
 * it, its estimate becomes the corrected one, and its severity follows the
 * impact bands again (ka_severity_band, capped by the rule, as the rules
 * engine computed it): a fix measured faster many times can lift a note to
 * a warning, one that never paid can drop a warning to a note.  The
 * message, with its static `[impact Nx: ...]`, is left as it is. */
#include "lint/lint_int.h"
#include "analyzer/arch.h"
#include <stdlib.h>
#include <string.h>

int ka_lint_apply_evidence(ka_lint *l, ka_findings *fs)
{
	const char *arch = l->o.arch ? l->o.arch : KA_ARCH_DEFAULT;
	if (!l->o.evidence)
		return KA_OK;
	for (size_t i = 0; i < fs->n; i++) {
		ka_finding *f = &fs->v[i];
		const ka_rule *r = ka_ruleset_find(l->rs, f->rule);
		ka_finding_evidence ev;
		double corrected = f->estimate;
		if (!r)
			continue; /* unused-suppression, clang's errors: nothing was measured */
		memset(&ev, 0, sizeof ev);
		int rc = l->o.evidence(l->o.evidence_ud, f->rule, arch, f->estimate, &ev, &corrected);
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
		}
	}
	return KA_OK;
}
