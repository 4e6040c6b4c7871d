/* agents/optimize_lint.c: the findings of each step's best kernel, from
 * the lint pipeline in process (agents/optimize.h, ka_opt_lint).
 *
 * One ka_lint per call, on the run's arch and with the task's -I: the
 * findings are lint's own (rules/finding.h), the type the planner and the
 * coder read.  No knowledge DB is attached, so the estimates are the
 * rules' static ones: the planner corrects them with the run's DB and its
 * arch (agents/optimize_plan.c), once.  The preview rules run too
 * (`--checks='*'`): they are off in kcheck's default set because their
 * findings on fresh code were mostly false (docs/rules.md, `status`), but
 * here a finding only proposes a rewrite that the bench then proves or
 * rejects, so a false one costs a trial, not a reader's trust.
 * Robustness is lint's: each file is
 * analyzed in a forked worker (lint/worker.c) under lint's memory and time
 * limits, so a candidate that takes libclang down fails its analysis, and
 * that failure comes back here as an error; the loop then plans the step
 * without findings. */
#include "agents/optimize.h"
#include "lint/lint.h"
#include "util/error.h"

int ka_opt_lint(void *ud, const char *path, const char *arch, const char *const *extra, int nextra,
		ka_findings *out)
{
	(void)ud;
	ka_lint_opts o = KA_LINT_OPTS_INIT;
	ka_lint *l = NULL;
	ka_lint_result r = KA_LINT_RESULT_INIT;
	o.arch = arch;
	o.extra = extra, o.nextra = nextra;
	o.checks = "*"; /* stable and preview rules; never candidates (exact id only) */
	o.quiet = 1;    /* no log: the loop reports what failed */
	if (ka_lint_new(&l, &o) < 0)
		return ka_error_set(KA_EINPUT, "lint: %s", ka_lint_error(NULL));
	int rc = ka_lint_run(l, &path, 1, &r);
	if (rc < 0)
		rc = ka_error_set(rc, "lint: %s", ka_lint_error(l));
	else if (r.failed)
		rc = ka_error_set(KA_EPARSE, "lint: %s was not analyzed: %s", path,
				  r.nfiles > 0 && r.files[0].reason ? r.files[0].reason : "failed");
	else
		rc = ka_findings_move(out, &r.findings);
	ka_lint_result_free(&r);
	ka_lint_free(l);
	return rc;
}
