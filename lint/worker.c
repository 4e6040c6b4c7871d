/* lint/worker.c: each file's analysis in a process of its own.
 *
 * A file can take its analysis down with it: a crash in libclang or in the
 * walk, memory without end (an exponential macro), a parse that never
 * finishes.  So every job runs in a child of util/workpool.h, at most
 * opts.jobs at a time, under --file-memory and --file-timeout; the child
 * runs the job and flattens its results (util/wire.h) into the pipe.  A
 * child that dies, goes over a limit or sends garbled results leaves its
 * job failed with the reason; every other file's findings are reported.
 * The rules are loaded once, in the parent, and library callers need no
 * kcheck executable.  When no child can be forked the job runs here,
 * unprotected, as it always did. */
#include "lint/lint_int.h"
#include "analyzer/analyzer.h"
#include "rewriter/rewriter.h"
#include "util/wire.h"
#include "util/workpool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a job's results as bytes ------------------------------------------ */

static int pack_finding(ka_buf *b, const ka_finding *f)
{
	long long nums[] = {f->line,
			    f->col,
			    f->end_line,
			    f->end_col,
			    f->begin_off,
			    f->end_off,
			    f->severity,
			    f->fix_safety,
			    f->row_id,
			    (long long)f->nalso,
			    f->evidence != NULL,
			    f->cold | f->standalone << 1};
	const char *strs[] = {f->file, f->rule, f->message, f->basis, f->kernel, f->fix, f->scope};
	int rc = ka_wire_real(b, f->estimate);
	for (size_t k = 0; rc == KA_OK && k < sizeof nums / sizeof *nums; k++)
		rc = ka_wire_int(b, nums[k]);
	for (size_t k = 0; rc == KA_OK && k < sizeof strs / sizeof *strs; k++)
		rc = ka_wire_str(b, strs[k]);
	for (size_t k = 0; rc == KA_OK && k < f->nalso; k++)
		rc = ka_wire_str(b, f->also[k]);
	if (rc == KA_OK && f->evidence) /* a plain value: no pointers */
		rc = ka_wire_bytes(b, f->evidence, sizeof *f->evidence);
	return rc;
}

static void unpack_finding(ka_wire_in *in, ka_finding *f)
{
	long long nums[12];
	f->estimate = ka_wire_get_real(in);
	for (int k = 0; k < 12; k++)
		nums[k] = ka_wire_get_int(in);
	f->line = (int)nums[0], f->col = (int)nums[1], f->end_line = (int)nums[2], f->end_col = (int)nums[3];
	f->begin_off = (long)nums[4], f->end_off = (long)nums[5];
	f->severity = (ka_severity)nums[6], f->fix_safety = (ka_fix_safety)nums[7];
	f->row_id = nums[8];
	f->cold = (nums[11] & 1) != 0;
	f->standalone = (nums[11] & 2) != 0;
	char **strs[] = {&f->file, &f->rule, &f->message, &f->basis, &f->kernel, &f->fix, &f->scope};
	for (size_t k = 0; k < sizeof strs / sizeof *strs; k++)
		*strs[k] = ka_wire_get_str(in);
	if (!f->file || !f->rule || !f->message || f->severity > KA_SEV_ERROR || nums[9] < 0 ||
	    (unsigned long long)nums[9] > in->left)
		in->bad = 1;
	if (!in->bad && nums[9] > 0 && !(f->also = calloc((size_t)nums[9], sizeof *f->also)))
		in->bad = 1;
	for (long long k = 0; !in->bad && k < nums[9]; k++, f->nalso++)
		if (!(f->also[k] = ka_wire_get_str(in)))
			in->bad = 1;
	if (!in->bad && nums[10]) {
		size_t n = 0;
		char *e = ka_wire_get_bytes(in, &n);
		if (e && n == sizeof *f->evidence)
			f->evidence = (ka_finding_evidence *)e;
		else {
			free(e);
			in->bad = 1;
		}
	}
}

static int pack_strs(ka_buf *b, char *const *v, int n)
{
	int rc = ka_wire_int(b, n);
	for (int i = 0; rc == KA_OK && i < n; i++)
		rc = ka_wire_str(b, v[i]);
	return rc;
}

static int pack_job(ka_buf *b, const ka_lint_job *j, size_t nrules)
{
	const ka_report_file *s = &j->st;
	int rc = ka_wire_int(b, s->state);
	rc = rc ? rc : ka_wire_str(b, s->reason);
	rc = rc ? rc : ka_wire_int(b, s->clang_errors);
	rc = rc ? rc : ka_wire_int(b, (long long)s->ndiags);
	for (size_t i = 0; rc == KA_OK && i < s->ndiags; i++) {
		const ka_report_diag *d = &s->diags[i];
		rc = ka_wire_str(b, d->file);
		rc = rc ? rc : ka_wire_int(b, d->line);
		rc = rc ? rc : ka_wire_int(b, d->col);
		rc = rc ? rc : ka_wire_int(b, d->is_error);
		rc = rc ? rc : ka_wire_str(b, d->message);
	}
	rc = rc ? rc : ka_wire_int(b, j->failed);
	rc = rc ? rc : ka_wire_real(b, j->analyze_ms);
	rc = rc ? rc : ka_wire_real(b, j->rules_ms);
	rc = rc ? rc : ka_wire_int(b, j->rule_ms != NULL);
	for (size_t i = 0; rc == KA_OK && j->rule_ms && i < nrules; i++)
		rc = ka_wire_real(b, j->rule_ms[i]);
	rc = rc ? rc : pack_strs(b, j->included, j->nincluded);
	rc = rc ? rc : pack_strs(b, j->kernels, j->nkernels);
	rc = rc ? rc : pack_strs(b, j->launched, j->nlaunched);
	rc = rc ? rc : ka_wire_int(b, (long long)j->findings.n);
	for (size_t i = 0; rc == KA_OK && i < j->findings.n; i++)
		rc = pack_finding(b, &j->findings.v[i]);
	rc = rc ? rc : ka_wire_int(b, j->fixes != NULL);
	if (rc == KA_OK && j->fixes)
		rc = ka_fixset_pack(j->fixes, b);
	return rc;
}

/* A count read from the wire: within [0, left] (each item takes a byte at
 * least), else the message is bad. */
static size_t count_of(ka_wire_in *in)
{
	long long n = ka_wire_get_int(in);
	if (n < 0 || (unsigned long long)n > in->left) {
		in->bad = 1;
		return 0;
	}
	return (size_t)n;
}

static void unpack_status(ka_wire_in *in, ka_report_file *s)
{
	long long state = ka_wire_get_int(in);
	s->state = state == KA_FILE_PARTIAL  ? KA_FILE_PARTIAL
		   : state == KA_FILE_FAILED ? KA_FILE_FAILED
					     : KA_FILE_ANALYZED;
	s->reason = ka_wire_get_str(in);
	s->clang_errors = (int)ka_wire_get_int(in);
	size_t n = count_of(in);
	if (n && !(s->diags = calloc(n, sizeof *s->diags)))
		in->bad = 1;
	for (size_t i = 0; !in->bad && i < n; i++, s->ndiags++) {
		ka_report_diag *d = &s->diags[i];
		d->file = ka_wire_get_str(in);
		d->line = (int)ka_wire_get_int(in);
		d->col = (int)ka_wire_get_int(in);
		d->is_error = (int)ka_wire_get_int(in);
		d->message = ka_wire_get_str(in);
	}
}

/* A counted list of strings into *v, *n (what arrived stays there for
 * ka_lint_job_clear when the message is cut short). */
static void unpack_strs(ka_wire_in *in, char ***v, int *n)
{
	size_t c = count_of(in);
	if (c && !(*v = calloc(c, sizeof **v)))
		in->bad = 1;
	for (size_t i = 0; !in->bad && i < c; i++, (*n)++)
		if (!((*v)[i] = ka_wire_get_str(in)))
			in->bad = 1;
}

/* Fill j (whose status path the parent keeps) from the message; 0 when it
 * is short or garbled (j then holds what arrived, for ka_lint_job_clear). */
static int unpack_job(ka_wire_in *in, ka_lint_job *j, size_t nrules)
{
	unpack_status(in, &j->st);
	j->failed = (int)ka_wire_get_int(in);
	j->analyze_ms = ka_wire_get_real(in);
	j->rules_ms = ka_wire_get_real(in);
	if (ka_wire_get_int(in) && !in->bad) {
		if (!(j->rule_ms = calloc(nrules + 1, sizeof *j->rule_ms)))
			in->bad = 1;
		for (size_t i = 0; !in->bad && i < nrules; i++)
			j->rule_ms[i] = ka_wire_get_real(in);
	}
	unpack_strs(in, &j->included, &j->nincluded);
	unpack_strs(in, &j->kernels, &j->nkernels);
	unpack_strs(in, &j->launched, &j->nlaunched);
	size_t n = count_of(in);
	for (size_t i = 0; !in->bad && i < n; i++) {
		ka_finding f = {0};
		unpack_finding(in, &f);
		if (in->bad || ka_findings_push(&j->findings, &f) != KA_OK) {
			ka_finding_clear(&f);
			in->bad = 1;
		}
	}
	if (ka_wire_get_int(in) && !in->bad && ka_fixset_unpack(in, &j->fixes) != KA_OK)
		in->bad = 1;
	return !in->bad && in->left == 0;
}

/* ---- the jobs in the pool (util/workpool.h) ------------------------------ */

typedef struct pool {
	ka_lint_job *jobs;
	void (*fn)(void *, ka_lint_job *);
	void *ctx;
	size_t nrules;
} pool;

static int run_job(void *ctx, int i, ka_buf *out)
{
	pool *p = ctx;
	ka_analyze_no_crash_recovery(); /* a crash is this process's end, and the parent's news */
	p->fn(p->ctx, &p->jobs[i]);
	return pack_job(out, &p->jobs[i], p->nrules);
}

static int take_job(void *ctx, int i, const char *bytes, size_t n)
{
	pool *p = ctx;
	ka_wire_in in = {.p = bytes, .left = n};
	return unpack_job(&in, &p->jobs[i], p->nrules);
}

static void fail_job(void *ctx, int i, const char *why)
{
	pool *p = ctx;
	ka_lint_job *j = &p->jobs[i];
	ka_lint_job_clear(j); /* whatever half arrived */
	j->failed = 1;
	j->st.state = KA_FILE_FAILED;
	j->st.reason = strdup(why);
}

static void job_here(void *ctx, int i)
{
	pool *p = ctx;
	p->fn(p->ctx, &p->jobs[i]);
}

void ka_lint_workers(ka_lint *l, ka_lint_job *jobs, int njobs, void (*fn)(void *, ka_lint_job *), void *ctx)
{
	pool p = {.jobs = jobs, .fn = fn, .ctx = ctx, .nrules = ka_ruleset_count(l->rs)};
	ka_workpool wp = {.njobs = njobs,
			  .parallel = l->o.jobs,
			  .memory_mb = l->o.file_memory_mb > 0 ? l->o.file_memory_mb : KA_LINT_FILE_MEMORY_MB,
			  .timeout_s = l->o.file_timeout_s > 0 ? l->o.file_timeout_s : KA_LINT_FILE_TIMEOUT_S,
			  .what = "the analysis",
			  .memory_opt = "--file-memory",
			  .timeout_opt = "--file-timeout",
			  .ctx = &p,
			  .run = run_job,
			  .take = take_job,
			  .fail = fail_job,
			  .here = job_here};
	ka_workpool_run(&wp);
}
