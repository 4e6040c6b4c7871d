/* cli/tool_lint.c: `kcheck [OPTIONS] PATH...`, the main job.
 *
 * Order of work: options and .kcheck.yaml -> rules (built-in + --rules-dir,
 * all checked before any analysis: a malformed rule is exit 2) -> files ->
 * analysis + rules per file (tool_run.c) -> headers nobody included ->
 * merge, keep findings in the project, sort -> NOLINT -> baseline ->
 * report -> exit status 0 clean / 1 findings at or above --fail-on / 2
 * error. */
#include "cli/tools.h"
#include "analyzer/analyzer.h"
#include "rules/baseline.h"
#include "rules/report.h"
#include "util/cleanup.h"
#include "util/fs.h"
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ka_tool_load_rules(const char **dirs, int ndirs, ka_ruleset **out)
{
	ka_ruleset *rs = NULL;
	int rc = ka_ruleset_new(&rs);
	*out = NULL;
	if (rc == KA_OK)
		rc = ka_ruleset_load_builtin(rs);
	for (int i = 0; i < ndirs && rc != KA_ENOMEM; i++) {
		int r = ka_ruleset_load_dir(rs, dirs[i]);
		if (r == KA_EIO) {
			ka_tool_error("%s", ka_error_last());
			ka_ruleset_free(rs);
			return KA_EXIT_ERROR;
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
		fputs(ka_ruleset_errors(rs), stderr);
		if (!*ka_ruleset_errors(rs))
			ka_tool_error("%s", ka_error_last());
		ka_ruleset_free(rs);
		return KA_EXIT_ERROR;
	}
	*out = rs;
	return 0;
}

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

static void scope_init(scope *s, ka_tool_cfg *c)
{
	s->cwd = realpath(".", NULL);
	s->roots = calloc((size_t)c->npaths + 1, sizeof *s->roots);
	s->nroots = 0;
	if (!s->roots)
		return;
	for (int i = 0; i < c->npaths; i++) {
		char *r = realpath(c->paths[i], NULL);
		if (r && !ka_fs_is_dir(r)) {
			char *slash = strrchr(r, '/');
			if (slash)
				*(slash == r ? slash + 1 : slash) = '\0';
		}
		if (r)
			s->roots[s->nroots++] = r;
	}
	if (c->npaths == 0 && s->cwd)
		s->roots[s->nroots++] = strdup(s->cwd);
}

static void scope_free(scope *s)
{
	for (int i = 0; i < s->nroots; i++)
		free(s->roots[i]);
	free(s->roots);
	free(s->cwd);
}

/* Rename a finding's file to what the user sees (the name they gave for a
 * main file, else relative to the current folder); 0 = outside the project. */
static int place(const scope *s, const ka_tool_file *files, int nfiles, ka_finding *f)
{
	char *real = realpath(f->file, NULL);
	const char *shown = NULL;
	int keep = 0;
	if (!real)
		return 1;  /* keep what the analyzer said */
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
		free(f->file);
		f->file = dup;
	}
	free(real);
	return keep;
}

static int header_included(const ka_tool_job *jobs, int n, const char *real)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < jobs[i].nincluded; k++)
			if (strcmp(jobs[i].included[k], real) == 0)
				return 1;
	return 0;
}

/* Analyze sources first, then the headers no source included. */
static int analyze_all(ka_tool_cfg *c, const ka_ruleset *rs, const ka_compdb *cdb,
		       ka_tool_file *files, int nfiles, ka_tool_job **jobs_out, int *njobs)
{
	ka_tool_job *jobs = calloc((size_t)nfiles + 1, sizeof *jobs);
	int n = 0;
	if (!jobs)
		return KA_EXIT_ERROR;
	for (int i = 0; i < nfiles; i++)
		if (!files[i].is_header)
			jobs[n++].file = &files[i];
	ka_tool_run(c, rs, cdb, jobs, n);
	int first = n;
	for (int i = 0; i < nfiles; i++)
		if (files[i].is_header && !header_included(jobs, first, files[i].real))
			jobs[n++].file = &files[i];
	ka_tool_run(c, rs, cdb, jobs + first, n - first);
	*jobs_out = jobs;
	*njobs = n;
	return 0;
}

static int write_report(const ka_tool_cfg *c, const ka_findings *fs, const ka_ruleset *rs,
			ka_sources *src)
{
	ka_buf out;
	int rc;
	ka_report_opts ro = {.rules = rs, .version = ka_tool_version_string(), .src = src, .excerpt = 1,
			     .summary = 1,
			     .fixes = ka_tool_fix_sarif, .fixes_ud = (void *)&c->fix};
	const char *nc = getenv("NO_COLOR");
	ro.color = c->color == 1 || (c->color == -1 && !c->output && isatty(STDOUT_FILENO) &&
				     !(nc && *nc));
	ka_buf_init(&out, 0);
	if (!strcmp(c->format, "json"))
		rc = ka_report_json(&out, fs, &ro);
	else if (!strcmp(c->format, "sarif"))
		rc = ka_report_sarif(&out, fs, &ro);
	else
		rc = ka_report_text(&out, fs, &ro);
	if (rc == KA_OK && c->output)
		rc = ka_fs_write_atomic(c->output, out.data ? out.data : "", out.len);
	else if (rc == KA_OK && out.len)
		rc = fwrite(out.data, 1, out.len, stdout) == out.len ? KA_OK : KA_EIO;
	if (rc != KA_OK)
		ka_tool_error("cannot write the report: %s", ka_error_last());
	ka_buf_free(&out);
	fflush(stdout);
	return rc == KA_OK ? 0 : KA_EXIT_ERROR;
}

static int apply_baseline(const ka_tool_cfg *c, ka_findings *fs, ka_sources *src)
{
	ka_baseline *b = NULL;
	if (c->write_baseline || !ka_fs_exists(c->baseline)) {
		if (ka_baseline_write(c->baseline, fs, src) != KA_OK) {
			ka_tool_error("%s", ka_error_last());
			return KA_EXIT_ERROR;
		}
		if (!c->quiet)
			fprintf(stderr, "kcheck: wrote baseline %s (%zu findings)\n", c->baseline, fs->n);
		ka_findings_free(fs);
		return 0;
	}
	if (ka_baseline_load(c->baseline, &b) != KA_OK) {
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	ka_baseline_filter(b, fs, src);
	ka_baseline_free(b);
	return 0;
}

static int exit_status(const ka_tool_cfg *c, const ka_findings *fs, int failed)
{
	int n[3] = {0, 0, 0};
	for (size_t i = 0; i < fs->n; i++)
		n[fs->v[i].severity]++;
	if (!c->quiet && !strcmp(c->format, "text") && fs->n)
		fprintf(stderr, "kcheck: %d error%s, %d warning%s, %d note%s\n", n[2], n[2] == 1 ? "" : "s",
			n[1], n[1] == 1 ? "" : "s", n[0], n[0] == 1 ? "" : "s");
	if (failed)
		return KA_EXIT_ERROR;
	int level = !strcmp(c->fail_on, "none") ? 3 : ka_severity_parse(c->fail_on);
	int over = 0;
	for (int s = level; s < 3; s++)
		over += n[s];
	return over && !c->exit_zero ? KA_EXIT_FINDINGS : KA_EXIT_CLEAN;
}

/* -o, --export-fixes or a baseline to write naming a file to analyze
 * (after links, by device and inode) would replace the source: refuse, as
 * gcc does. */
static int output_over_input(const ka_tool_cfg *c, const ka_tool_file *files, int n)
{
	const char *opt[] = {"-o", "--export-fixes", "--baseline"};
	const char *path[] = {c->output, c->fix.export_fixes, c->write_baseline ? c->baseline : NULL};
	for (int k = 0; k < 3; k++) {
		struct stat out, in;
		if (!path[k] || stat(path[k], &out) != 0)
			continue;
		for (int i = 0; i < n; i++)
			if (stat(files[i].real, &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
				ka_tool_error("%s %s is an input file (it would be overwritten)", opt[k], path[k]);
				return KA_EXIT_ERROR;
			}
	}
	return 0;
}

/* Options -> config -> defaults -> checks on them. */
static int setup(ka_tool_cfg *c, int argc, char **argv, ka_ruleset **rs, ka_compdb **cdb)
{
	int rc = ka_tool_getparam(c, argc, argv);
	if (rc)
		return rc;
	if ((rc = ka_tool_parsecfg(c)))
		return rc;
	if (!c->format)
		c->format = "text";
	if (!c->fail_on)
		c->fail_on = "warning";
	if (c->arch && !ka_arch_find(c->arch)) {
		ka_buf known;
		ka_buf_init(&known, 4096);
		for (const ka_arch *a = ka_arch_all(); a && a->name; a++)
			ka_buf_printf(&known, " %s", a->name);
		ka_tool_error("unknown --arch '%s' (known:%s)", c->arch, known.data ? known.data : "");
		ka_buf_free(&known);
		return KA_EXIT_ERROR;
	}
	if ((rc = ka_tool_load_rules(c->rules_dirs, c->nrules_dirs, rs)))
		return rc;
	if (c->explain)
		return ka_tool_explain(*rs, c->explain, stdout) ? KA_EXIT_ERROR : -1;
	if (c->checks && ka_ruleset_select(*rs, c->checks) != KA_OK) {
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	if (c->write_baseline && !c->baseline) {
		ka_tool_error("--write-baseline needs --baseline FILE");
		return KA_EXIT_ERROR;
	}
	if (c->compdb_dir && (rc = ka_compdb_load(c->arena, c->compdb_dir, cdb)))
		return rc;
	if (c->npaths == 0 && *cdb)
		ka_compdb_files(c->arena, *cdb, &c->paths, &c->npaths);
	if (c->npaths == 0) {
		ka_tool_error("no input files (usage: kcheck [OPTIONS] PATH... ; see kcheck --help)");
		return KA_EXIT_ERROR;
	}
	c->fix.arch = c->arch, c->fix.extra = c->extra, c->fix.nextra = c->nextra;  /* the compile gate */
	c->fix.quiet = c->quiet, c->fix.sarif = !strcmp(c->format, "sarif");
	return 0;
}

/* Merge the jobs' findings and diagnostics in file order. */
/* Add the project headers a job included to the files whose NOLINT
 * comments count (for --report-unused-suppressions). */
static void add_headers(ka_tool_cfg *c, const scope *s, const ka_tool_job *j, const char **shown,
			int *n)
{
	size_t cl = s->cwd ? strlen(s->cwd) : 0;
	for (int k = 0; k < j->nincluded; k++) {
		const char *real = j->included[k];
		if (!in_project(s, real))
			continue;
		const char *p = cl && strncmp(real, s->cwd, cl) == 0 && real[cl] == '/' ? real + cl + 1 : real;
		int seen = 0;
		for (int i = 0; i < *n && !seen; i++)
			seen = strcmp(shown[i], p) == 0;
		if (!seen)
			shown[(*n)++] = ka_arena_strdup(c->arena, p);
	}
}

static int merge(ka_tool_cfg *c, ka_tool_job *jobs, int njobs, ka_tool_file *files, int nfiles,
		 ka_findings *all, const char ***shown, int *nshown)
{
	scope s;
	int failed = 0, cap = njobs + 1;
	scope_init(&s, c);
	for (int i = 0; i < njobs; i++)
		cap += jobs[i].nincluded;
	*shown = ka_arena_alloc(c->arena, (size_t)cap * sizeof **shown);
	*nshown = 0;
	for (int i = 0; i < njobs; i++)
		(*shown)[(*nshown)++] = jobs[i].file->path;
	for (int i = 0; i < njobs; i++) {
		ka_tool_job *j = &jobs[i];
		if (j->diags && *j->diags)
			fputs(j->diags, stderr);
		failed |= j->failed;
		add_headers(c, &s, j, *shown, nshown);
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
	return failed;
}

/* --stats: what rule evaluation costs next to the analysis (issue 3 asks
 * for at most 5%). */
static void print_stats(const ka_ruleset *rs, const ka_tool_job *jobs, int njobs)
{
	double a = 0, r = 0;
	int enabled = 0;
	for (int i = 0; i < njobs; i++)
		a += jobs[i].analyze_ms, r += jobs[i].rules_ms;
	for (size_t i = 0; i < ka_ruleset_count(rs); i++)
		enabled += ka_ruleset_at(rs, i)->enabled;
	fprintf(stderr, "kcheck: %d files, %d rules: analysis %.1f ms, rules %.1f ms (%.2f%% of analysis)\n",
		njobs, enabled, a, r, a > 0 ? 100.0 * r / a : 0.0);
	/* the five most expensive rules, for rule authors */
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
		fprintf(stderr, "kcheck:   %8.1f ms  %s\n", sum[best], ka_ruleset_at(rs, best)->id);
		sum[best] = 0;
	}
	free(sum);
}

int ka_tool_lint(int argc, char **argv)
{
	ka_tool_cfg c = {0};
	ka_ruleset *rs = NULL;
	ka_compdb *cdb = NULL;
	ka_tool_file *files = NULL;
	ka_tool_job *jobs = NULL;
	ka_findings all = KA_FINDINGS_INIT;
	ka_sources *src = NULL;
	const char **shown = NULL;
	int nfiles = 0, njobs = 0, status;
	c.arena = ka_arena_new();
	ka_cleanup_install();   /* SIGINT/SIGTERM: kill the compile gate, remove temporaries */
	status = setup(&c, argc, argv, &rs, &cdb);
	if (status)
		goto out;
	if ((status = ka_tool_files(&c, &files, &nfiles)) || (status = output_over_input(&c, files, nfiles)))
		goto out;
	if (nfiles == 0 && !c.quiet && !c.bad_paths)
		ka_tool_warn("no .cu, .cuh or .hip files to check");
again:
	if ((status = analyze_all(&c, rs, cdb, files, nfiles, &jobs, &njobs)))
		goto out;
	int nshown = 0;
	int failed = merge(&c, jobs, njobs, files, nfiles, &all, &shown, &nshown) || c.bad_paths;
	if (c.stats)
		print_stats(rs, jobs, njobs);
	status = KA_EXIT_ERROR;
	if (ka_sources_new(&src) != KA_OK)
		goto out;
	if (ka_tool_suppress(&all, src, rs, shown, nshown, c.report_unused) != KA_OK)
		goto out;
	ka_findings_sort_unique(&all);
	if (c.baseline && apply_baseline(&c, &all, src))
		goto out;
	if (ka_tool_fix_finish(&c.fix, jobs, njobs, &all))   /* --fix, --diff, ... (tool_fix.c) */
		goto out;
	if (ka_tool_fix_again(&c.fix)) {  /* --fix changed files: analyze again, to a fixed point */
		for (int i = 0; i < njobs; i++)
			ka_tool_job_clear(&jobs[i]);
		free(jobs);
		jobs = NULL;
		njobs = 0;
		ka_findings_free(&all);
		ka_sources_free(src);
		src = NULL;
		goto again;
	}
	if (c.sort_impact)
		ka_findings_sort_impact(&all);
	if (!c.fix.diff && write_report(&c, &all, rs, src))  /* --diff: stdout is the patch */
		goto out;
	status = exit_status(&c, &all, failed);
out:
	if (status < 0)
		status = KA_EXIT_CLEAN;  /* --help, --version, --explain */
	for (int i = 0; i < njobs; i++)
		ka_tool_job_clear(&jobs[i]);
	free(jobs);
	ka_tool_fix_clear(&c.fix);
	ka_findings_free(&all);
	ka_sources_free(src);
	ka_ruleset_free(rs);
	ka_arena_free(c.arena);
	return status;
}
