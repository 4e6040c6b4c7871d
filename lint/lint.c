/* lint/lint.c: the lint pipeline's handle and its runs (see lint.h).
 *
 * ka_lint_new checks everything that can be checked before a file is
 * read: the arch, the rules (built-in + rules_dirs, every file checked: a
 * malformed rule fails the whole run), the --checks globs, the compile
 * database.  A run: files (files.c) -> analysis of sources, then of the
 * headers nobody included (merge.c, run.c) -> merge in file order ->
 * NOLINT (suppress.c) -> baseline -> evidence (evidence.c) -> fixes
 * (fix.c).  ka_lint_fix repeats the round while --fix changes files, since
 * fixes can uncover fixes (a suffixed literal exposes the next one). */
#include "lint/lint_int.h"
#include "analyzer/arch.h"
#include "rewriter/rewriter.h"
#include "rules/baseline.h"
#include "util/fs.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_ROUNDS 5

/* The message of the last failed ka_lint_new on this thread (heap: the
 * rules' problems can be long). */
static _Thread_local char *new_error;

static void set_new_error(const char *msg)
{
	free(new_error);
	new_error = strdup(msg);
}

const char *ka_lint_error(const ka_lint *l)
{
	if (!l)
		return new_error ? new_error : "";
	return l->err;
}

int ka_lint_fail(ka_lint *l, int rc)
{
	snprintf(l->err, sizeof l->err, "%s", ka_error_last());
	return rc;
}

void ka_lint_log(const ka_lint *l, const char *fmt, ...)
{
	va_list ap;
	if (!l->o.log)
		return;
	fputs("kcheck: ", l->o.log);
	va_start(ap, fmt);
	vfprintf(l->o.log, fmt, ap);
	va_end(ap);
	fputc('\n', l->o.log);
}

/* Built-in rules plus rules_dirs, all checked.  The problems of malformed
 * rule files become the error message, one line each. */
static int load_rules(ka_lint *l)
{
	ka_ruleset *rs = NULL;
	int rc = ka_ruleset_new(&rs);
	if (rc == KA_OK)
		rc = ka_ruleset_load_builtin(rs);
	for (int i = 0; i < l->o.nrules_dirs && rc != KA_ENOMEM; i++) {
		int r = ka_ruleset_load_dir(rs, l->o.rules_dirs[i]);
		if (r == KA_EIO) {
			set_new_error(ka_error_last());
			ka_ruleset_free(rs);
			return r;
		}
		if (r != KA_OK)
			rc = r;
	}
	if (rc == KA_OK || rc == KA_EINPUT) {
		int r = ka_ruleset_check(rs);
		if (r != KA_OK && rc == KA_OK)
			rc = r;
	}
	if (rc != KA_OK) {
		set_new_error(*ka_ruleset_errors(rs) ? ka_ruleset_errors(rs) : ka_error_last());
		ka_ruleset_free(rs);
		return rc;
	}
	l->rs = rs;
	return KA_OK;
}

static int check_arch(const char *arch)
{
	char known[512];
	if (!arch || ka_arch_find(arch))
		return KA_OK;
	ka_arch_names(known, sizeof known);
	return ka_error_set(KA_EINPUT, "unknown --arch '%s' (known: %s)", arch, known);
}

int ka_lint_new(ka_lint **out, const ka_lint_opts *opts)
{
	ka_lint *l = calloc(1, sizeof *l);
	int rc;
	*out = NULL;
	if (!l || !(l->arena = ka_arena_new())) {
		free(l);
		set_new_error("out of memory");
		return KA_ENOMEM;
	}
	l->o = *opts;
	if ((rc = check_arch(opts->arch)) != KA_OK)
		goto fail;
	if ((rc = load_rules(l)) != KA_OK)
		goto out;
	if (opts->checks && (rc = ka_ruleset_select(l->rs, opts->checks)) != KA_OK)
		goto fail;
	if (opts->write_baseline && !opts->baseline) {
		rc = ka_error_set(KA_EINPUT, "--write-baseline needs --baseline FILE");
		goto fail;
	}
	/* Fail closed: a mistyped path must not turn every run green. */
	if (opts->baseline && !opts->write_baseline && !ka_fs_exists(opts->baseline)) {
		rc = ka_error_set(KA_EINPUT, "--baseline %s: no such file (create it with --write-baseline)",
				  opts->baseline);
		goto fail;
	}
	if (opts->compdb_dir && (rc = ka_compdb_load(l->arena, opts->compdb_dir, &l->cdb)) != KA_OK)
		goto fail;
	*out = l;
	return KA_OK;
fail:
	set_new_error(ka_error_last());
out:
	ka_lint_free(l);
	return rc;
}

void ka_lint_free(ka_lint *l)
{
	if (!l)
		return;
	ka_fixset_free(l->merged);
	ka_lint_standings_free(l->standings);
	ka_sources_free(l->src);
	ka_ruleset_free(l->rs);
	ka_arena_free(l->arena);
	free(l);
}

const ka_ruleset *ka_lint_rules(const ka_lint *l)
{
	return l->rs;
}
ka_sources *ka_lint_sources(ka_lint *l)
{
	return l->src;
}
void ka_lint_last_stats(const ka_lint *l, ka_lint_stats *out)
{
	*out = l->stats;
}

void ka_lint_result_free(ka_lint_result *r)
{
	ka_findings_free(&r->findings);
	free(r->patch);
	for (int i = 0; i < r->ntexts; i++) {
		free(r->texts[i].path);
		free(r->texts[i].before);
		free(r->texts[i].after);
	}
	free(r->texts);
	for (int i = 0; r->files && i < r->nfiles; i++)
		ka_report_file_clear(&r->files[i]);
	free(r->files);
	*r = (ka_lint_result)KA_LINT_RESULT_INIT;
}

/* An output file (the report, --export-fixes, a baseline to write) naming
 * a file to analyze (after links, by device and inode) would replace the
 * source: refuse, as gcc does. */
static int output_over_input(ka_lint *l, const ka_lint_fix_opts *fo, const ka_lint_file *files, int n)
{
	const char *opt[] = {"-o", "--export-fixes", "--baseline"};
	const char *path[] = {l->o.output, fo ? fo->export_fixes : NULL,
			      l->o.write_baseline ? l->o.baseline : NULL};
	const char **in = calloc((size_t)n + 1, sizeof *in);
	int rc = in ? KA_OK : ka_error_set(KA_ENOMEM, "out of memory");
	for (int i = 0; in && i < n; i++)
		in[i] = files[i].real;
	for (int k = 0; k < 3 && rc == KA_OK; k++)
		rc = ka_fs_output_is_input(opt[k], path[k], in, n);
	free(in);
	return rc;
}

static int apply_baseline(ka_lint *l, ka_findings *fs, ka_lint_result *out)
{
	ka_baseline *b = NULL;
	int rc;
	if (l->o.write_baseline) {
		if ((rc = ka_baseline_write(l->o.baseline, fs, l->src)) != KA_OK)
			return rc;
		if (!l->o.quiet)
			ka_lint_log(l, "wrote baseline %s (%zu findings)", l->o.baseline, fs->n);
		ka_findings_free(fs);
		out->baseline_written = 1;
		return KA_OK;
	}
	if ((rc = ka_baseline_load(l->o.baseline, &b)) != KA_OK)
		return rc;
	out->baselined += ka_baseline_filter(b, fs, l->src);
	out->baseline_read = 1;
	ka_baseline_free(b);
	return KA_OK;
}

/* A run's inputs: the paths (or the compile database's files) as files. */
typedef struct input {
	const char *const *paths;
	int npaths;
	ka_lint_file *files;
	int nfiles, bad;
} input;

static int prepare(ka_lint *l, const char *const *paths, int npaths, const ka_lint_fix_opts *fo, input *in)
{
	int rc;
	memset(in, 0, sizeof *in);
	if (npaths == 0 && l->cdb) {
		const char **v = NULL;
		ka_compdb_files(l->arena, l->cdb, &v, &npaths);
		paths = v;
	}
	if (npaths == 0)
		return ka_error_set(KA_EINPUT,
				    "no input files (usage: kcheck [OPTIONS] PATH... ; see kcheck --help)");
	in->paths = paths, in->npaths = npaths;
	if ((rc = ka_lint_files(l, paths, npaths, &in->files, &in->nfiles, &in->bad)) != KA_OK ||
	    (rc = output_over_input(l, fo, in->files, in->nfiles)) != KA_OK)
		return rc;
	if (in->nfiles == 0 && !l->o.quiet && !in->bad)
		ka_lint_log(l, "warning: no .cu, .cuh or .hip files to check");
	return KA_OK;
}

/* The jobs' statuses (taken) become the result's files, in order. */
static int take_statuses(ka_lint_job *jobs, int njobs, ka_lint_result *out)
{
	for (int i = 0; out->files && i < out->nfiles; i++)
		ka_report_file_clear(&out->files[i]);
	free(out->files);
	out->nfiles = out->clang_errors = 0;
	if (!(out->files = calloc((size_t)njobs + 1, sizeof *out->files)))
		return ka_error_set(KA_ENOMEM, "out of memory");
	for (int i = 0; i < njobs; i++) {
		out->files[i] = jobs[i].st;
		jobs[i].st = (ka_report_file){0};
		out->clang_errors += out->files[i].clang_errors;
	}
	out->nfiles = njobs;
	return KA_OK;
}

static void clear_jobs(ka_lint_job *jobs, int njobs)
{
	for (int i = 0; i < njobs; i++)
		ka_lint_job_clear(&jobs[i]);
	free(jobs);
}

/* One round: analysis, merge, NOLINT, baseline, fixes (fo: commit them;
 * *changed: files written). */
static int one_round(ka_lint *l, const input *in, const ka_lint_fix_opts *fo, int round, ka_lint_result *out,
		     int *changed)
{
	ka_lint_job *jobs = NULL;
	const char **shown = NULL;
	int njobs = 0, nshown = 0, rc;
	int collect = fo || l->o.sarif_fixes;
	*changed = 0;
	ka_findings_free(&out->findings);
	out->baseline_written = 0;
	out->baselined = 0;
	ka_sources_free(l->src);
	l->src = NULL;
	ka_fixset_free(l->merged);
	l->merged = NULL;
	if ((rc = ka_lint_analyze(l, in->files, in->nfiles, collect, &jobs, &njobs)) != KA_OK)
		return rc;
	out->rounds = round + 1;
	out->failed = ka_lint_merge(l, in->paths, in->npaths, jobs, njobs, in->files, in->nfiles,
				    &out->findings, &shown, &nshown) ||
		      in->bad;
	if ((rc = take_statuses(jobs, njobs, out)) != KA_OK)
		goto out;
	ka_lint_print_stats(l, jobs, njobs);
	if ((rc = ka_sources_new(&l->src)) != KA_OK)
		goto out;
	if ((rc = ka_lint_suppress(&out->findings, l->src, l->rs, shown, nshown, l->o.report_unused,
				   round == 0 && !l->o.quiet ? l->o.log : NULL)) != KA_OK)
		goto out;
	ka_findings_sort_unique(&out->findings);
	if (l->o.baseline && (rc = apply_baseline(l, &out->findings, out)) != KA_OK)
		goto out;
	if ((rc = ka_lint_apply_evidence(l, &out->findings)) != KA_OK)
		goto out;
	if (collect &&
	    (rc = ka_lint_fix_merge(jobs, njobs, &out->findings, fo ? fo->only : NULL, &l->merged)) != KA_OK)
		goto out;
	if (fo)
		rc = ka_lint_fix_commit(l, l->merged, fo, round, &out->findings, out, changed);
	if (rc == KA_OK) /* after the fixes: every launch site keeps its own */
		rc = ka_findings_group_sites(&out->findings);
out:
	clear_jobs(jobs, njobs);
	return rc;
}

int ka_lint_run(ka_lint *l, const char *const *paths, int npaths, ka_lint_result *out)
{
	input in;
	int changed, rc;
	ka_lint_result_free(out);
	rc = prepare(l, paths, npaths, NULL, &in);
	if (rc == KA_OK)
		rc = one_round(l, &in, NULL, 0, out, &changed);
	return rc == KA_OK ? KA_OK : ka_lint_fail(l, rc);
}

int ka_lint_fix(ka_lint *l, const char *const *paths, int npaths, const ka_lint_fix_opts *fo,
		ka_lint_result *out)
{
	input in;
	int changed = 0, rc;
	ka_lint_result_free(out);
	rc = prepare(l, paths, npaths, fo, &in);
	for (int round = 0; rc == KA_OK; round++) {
		rc = one_round(l, &in, fo, round, out, &changed);
		if (!changed || round + 1 >= MAX_ROUNDS)
			break;
	}
	return rc == KA_OK ? KA_OK : ka_lint_fail(l, rc);
}

char *ka_lint_sarif_fixes(const ka_finding *f, void *ud)
{
	ka_lint *l = ud;
	if (!l || !l->merged || !f->fix)
		return NULL;
	char *key = ka_lint_finding_key(f->rule, f->file, f->line, f->col);
	char *out = key ? ka_fixset_sarif_fixes_key(l->merged, key, f->file) : NULL;
	free(key);
	return out;
}

int ka_lint_has_fix(const ka_lint *l, const ka_finding *f)
{
	int found = 0;
	if (!l || !l->merged || !f->fix)
		return 0;
	char *key = ka_lint_finding_key(f->rule, f->file, f->line, f->col);
	for (size_t i = 0; key && i < ka_fixset_count(l->merged) && !found; i++) {
		const ka_fix *x = ka_fixset_get(l->merged, i); /* merged is l's, not const */
		found = x->key && x->n_edits && strcmp(x->key, key) == 0;
	}
	free(key);
	return found;
}
