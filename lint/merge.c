/* lint/merge.c: one round of a lint run between the jobs and the filters:
 * sources are analyzed first, then the headers no source included
 * (run.c); the jobs' findings are merged in file order, renamed to what
 * the user sees and kept when they are in the project (the folders named,
 * the folders of the files named); each file's status is settled and
 * clang's messages go to the log in the same order, so -j N prints what
 * -j 1 prints.  Also the --stats lines. */
#include "lint/lint_int.h"
#include "rules/report.h"
#include "util/fs.h"
#include <stdlib.h>
#include <string.h>

/* Where findings may be reported: the folders named on the command line
 * and the folders of the files named (real paths). */
typedef struct scope {
	char **roots;
	int nroots;
	char *cwd;
} scope;

static int in_project(const scope *s, const char *real)
{
	for (int i = 0; i < s->nroots; i++) {
		size_t l = strlen(s->roots[i]);
		if (strncmp(real, s->roots[i], l) == 0 && (real[l] == '/' || real[l] == '\0' || l == 1))
			return 1;
	}
	return 0;
}

static void scope_init(scope *s, const char *const *paths, int npaths)
{
	s->cwd = realpath(".", NULL);
	s->roots = calloc((size_t)npaths + 1, sizeof *s->roots);
	s->nroots = 0;
	if (!s->roots)
		return;
	for (int i = 0; i < npaths; i++) {
		char *r = realpath(paths[i], NULL);
		if (r && !ka_fs_is_dir(r)) {
			char *slash = strrchr(r, '/');
			if (slash)
				*(slash == r ? slash + 1 : slash) = '\0';
		}
		if (r)
			s->roots[s->nroots++] = r;
	}
	if (npaths == 0 && s->cwd)
		s->roots[s->nroots++] = strdup(s->cwd);
}

static void scope_free(scope *s)
{
	for (int i = 0; i < s->nroots; i++)
		free(s->roots[i]);
	free(s->roots);
	free(s->cwd);
}

/* Rename *file to what the user sees (the name they gave for a main file,
 * else relative to the current folder); 0 = outside the project. */
static int rename_file(const scope *s, const ka_lint_file *files, int nfiles, char **file)
{
	char *real = realpath(*file, NULL);
	const char *shown = NULL;
	int keep = 0;
	if (!real)
		return 1; /* keep what the analyzer said */
	for (int i = 0; i < nfiles && !shown; i++)
		if (strcmp(files[i].real, real) == 0)
			shown = files[i].path, keep = 1;
	if (!keep)
		keep = in_project(s, real);
	size_t cl = s->cwd ? strlen(s->cwd) : 0;
	if (!shown && cl && strncmp(real, s->cwd, cl) == 0 && real[cl] == '/')
		shown = real + cl + 1;
	char *dup = strdup(shown ? shown : real);
	if (dup) {
		free(*file);
		*file = dup;
	}
	free(real);
	return keep;
}

static int place(const scope *s, const ka_lint_file *files, int nfiles, ka_finding *f)
{
	return rename_file(s, files, nfiles, &f->file);
}

/* A job's status for the reports (its diagnostics renamed as findings are)
 * and for the log, in the order a compiler prints: clang's errors and the
 * analysis limits where they are, then, for a file that failed without
 * saying where, "kcheck: error: FILE: REASON". */
static void settle_status(ka_lint *l, const scope *s, const ka_lint_file *files, int nfiles, ka_lint_job *j)
{
	ka_report_file *st = &j->st;
	int located = 0;
	free(st->path);
	st->path = strdup(j->file->path);
	for (size_t k = 0; k < st->ndiags; k++) {
		ka_report_diag *d = &st->diags[k];
		rename_file(s, files, nfiles, &d->file);
		located |= d->is_error;
		if (!l->o.log)
			continue;
		ka_buf b;
		ka_buf_init(&b, 1 << 20);
		ka_report_escape(&b, d->file); /* names and messages from the repository */
		ka_buf_printf(&b, ":%d:%d: %s: ", d->line, d->col, d->is_error ? "error" : "warning");
		ka_report_escape(&b, d->message);
		ka_buf_addc(&b, '\n');
		fputs(b.data ? b.data : "", l->o.log);
		ka_buf_free(&b);
	}
	if (st->state == KA_FILE_FAILED && !located && l->o.log) {
		ka_buf b;
		ka_buf_init(&b, 1 << 20);
		ka_buf_adds(&b, "kcheck: error: ");
		ka_report_escape(&b, j->file->path);
		ka_buf_adds(&b, ": ");
		ka_report_escape(&b, st->reason ? st->reason : "not analyzed");
		ka_buf_addc(&b, '\n');
		fputs(b.data ? b.data : "", l->o.log);
		ka_buf_free(&b);
	}
}

static int header_included(const ka_lint_job *jobs, int n, const char *real)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < jobs[i].nincluded; k++)
			if (strcmp(jobs[i].included[k], real) == 0)
				return 1;
	return 0;
}

int ka_lint_analyze(ka_lint *l, const ka_lint_file *files, int nfiles, int collect_fixes,
		    ka_lint_job **jobs_out, int *njobs)
{
	ka_lint_job *jobs = calloc((size_t)nfiles + 1, sizeof *jobs);
	int n = 0;
	*jobs_out = NULL;
	*njobs = 0;
	if (!jobs)
		return ka_error_set(KA_ENOMEM, "out of memory");
	for (int i = 0; i < nfiles; i++)
		if (!files[i].is_header)
			jobs[n++].file = &files[i];
	ka_lint_run_jobs(l, jobs, n, collect_fixes);
	int first = n;
	for (int i = 0; i < nfiles; i++)
		if (files[i].is_header && !header_included(jobs, first, files[i].real))
			jobs[n++].file = &files[i];
	ka_lint_run_jobs(l, jobs + first, n - first, collect_fixes);
	*jobs_out = jobs;
	*njobs = n;
	return KA_OK;
}

/* Add the project headers a job included to the files whose NOLINT
 * comments count (for report_unused). */
static void add_headers(ka_lint *l, const scope *s, const ka_lint_job *j, const char **shown, int *n)
{
	size_t cl = s->cwd ? strlen(s->cwd) : 0;
	for (int k = 0; k < j->nincluded; k++) {
		const char *real = j->included[k];
		if (!in_project(s, real))
			continue;
		const char *p = cl && strncmp(real, s->cwd, cl) == 0 && real[cl] == '/' ? real + cl + 1
											: real;
		int seen = 0;
		for (int i = 0; i < *n && !seen; i++)
			seen = strcmp(shown[i], p) == 0;
		if (!seen)
			shown[(*n)++] = ka_arena_strdup(l->arena, p);
	}
}

int ka_lint_merge(ka_lint *l, const char *const *paths, int npaths, ka_lint_job *jobs, int njobs,
		  const ka_lint_file *files, int nfiles, ka_findings *all, const char ***shown, int *nshown)
{
	scope s;
	int failed = 0, cap = njobs + 1;
	scope_init(&s, paths, npaths);
	for (int i = 0; i < njobs; i++)
		cap += jobs[i].nincluded;
	*shown = ka_arena_alloc(l->arena, (size_t)cap * sizeof **shown);
	*nshown = 0;
	for (int i = 0; i < njobs; i++)
		(*shown)[(*nshown)++] = jobs[i].file->path;
	for (int i = 0; i < njobs; i++) {
		ka_lint_job *j = &jobs[i];
		settle_status(l, &s, files, nfiles, j);
		failed |= j->failed;
		add_headers(l, &s, j, *shown, nshown);
		for (size_t k = 0; k < j->findings.n; k++) {
			if (place(&s, files, nfiles, &j->findings.v[k]))
				ka_findings_push(all, &j->findings.v[k]);
			else
				ka_finding_clear(&j->findings.v[k]);
		}
		j->findings.n = 0;
	}
	scope_free(&s);
	ka_findings_sort_unique(all);
	ka_lint_reach_apply(l, jobs, njobs, all);
	return failed;
}

/* --stats: what rule evaluation costs next to the analysis (issue 3 asks
 * for at most 5%), and the five most expensive rules, for rule authors. */
void ka_lint_print_stats(ka_lint *l, const ka_lint_job *jobs, int njobs)
{
	const ka_ruleset *rs = l->rs;
	double a = 0, r = 0;
	int enabled = 0;
	for (int i = 0; i < njobs; i++)
		a += jobs[i].analyze_ms, r += jobs[i].rules_ms;
	for (size_t i = 0; i < ka_ruleset_count(rs); i++)
		enabled += ka_ruleset_at(rs, i)->enabled;
	l->stats = (ka_lint_stats){.nfiles = njobs, .nrules = enabled, .analyze_ms = a, .rules_ms = r};
	if (!l->o.stats)
		return;
	ka_lint_log(l, "%d files, %d rules: analysis %.1f ms, rules %.1f ms (%.2f%% of analysis)", njobs,
		    enabled, a, r, a > 0 ? 100.0 * r / a : 0.0);
	size_t n = ka_ruleset_count(rs);
	double *sum = calloc(n + 1, sizeof *sum);
	for (int i = 0; sum && i < njobs; i++)
		for (size_t k = 0; jobs[i].rule_ms && k < n; k++)
			sum[k] += jobs[i].rule_ms[k];
	for (int top = 0; sum && top < 5; top++) {
		size_t best = n;
		for (size_t k = 0; k < n; k++)
			if (sum[k] > 0 && (best == n || sum[k] > sum[best]))
				best = k;
		if (best == n)
			break;
		ka_lint_log(l, "  %8.1f ms  %s", sum[best], ka_ruleset_at(rs, best)->id);
		sum[best] = 0;
	}
	free(sum);
}
