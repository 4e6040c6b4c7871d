/* cli/tool_lint.c: `kcheck [OPTIONS] PATH...`, the main job.
 *
 * Order of work: options and .kcheck.yaml (tool_getparam.c,
 * tool_parsecfg.c) -> the knowledge DB, read-only, when there is one
 * (tool_evidence.c: findings carry its evidence) -> a lint handle
 * (lint/lint.h: rules, all checked before any analysis: a malformed rule
 * is exit 2) -> the run, or the fix loop with --fix/--diff/--export-fixes,
 * then the LLM-made fixes with --llm-base-url/--llm-model (tool_fixllm.c)
 * -> report -> exit status 0 clean / 1 findings at or above --fail-on /
 * 2 error (a file that failed, clang's errors, a bad path, a bad option). */
#include "cli/tools.h"
#include "rules/report.h"
#include "util/cleanup.h"
#include "util/fs.h"
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ka_tool_lint_new(ka_lint **out, const ka_lint_opts *o)
{
	if (ka_lint_new(out, o) == KA_OK)
		return 0;
	const char *msg = ka_lint_error(NULL);
	size_t n = strlen(msg);
	if (n && msg[n - 1] == '\n')
		fputs(msg, stderr); /* the rule files' problems, one line each */
	else
		ka_tool_error("%s", msg);
	return KA_EXIT_ERROR;
}

static int write_report(const ka_tool_cfg *c, const ka_lint_result *res, ka_lint *l,
			const ka_tool_fixllm *llm)
{
	const ka_findings *fs = &res->findings;
	ka_buf out;
	int rc;
	ka_report_opts ro = {.rules = ka_lint_rules(l),
			     .version = ka_tool_version_string(),
			     .src = ka_lint_sources(l),
			     .excerpt = 1,
			     .summary = 1,
			     .fixes = ka_lint_sarif_fixes,
			     .fixes_ud = l};
	ro.rewrites = ka_tool_fixllm_applied(llm, &ro.n_rewrites);
	ro.files = res->files, ro.nfiles = (size_t)res->nfiles;
	const char *nc = getenv("NO_COLOR");
	ro.color = c->color == KA_COLOR_ALWAYS ||
		   (c->color == KA_COLOR_AUTO && !c->output && isatty(STDOUT_FILENO) && !(nc && *nc));
	ka_buf_init(&out, 0);
	if (c->format == KA_FORMAT_JSON)
		rc = ka_report_json(&out, fs, &ro);
	else if (c->format == KA_FORMAT_SARIF)
		rc = ka_report_sarif(&out, fs, &ro);
	else if (c->format == KA_FORMAT_GITHUB)
		rc = ka_report_github(&out, fs, &ro);
	else if (c->format == KA_FORMAT_CONCISE)
		rc = ka_report_concise(&out, fs, &ro);
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

/* Exit 2 for a failed file, a bad path or clang's errors (README, "Exit
 * status"), else 1 for findings at or above --fail-on.  The summary line
 * adds "; 3 files: 1 analyzed, 1 partial, 1 failed; 2 clang errors" when a
 * file was not analyzed in full. */
static int exit_status(const ka_tool_cfg *c, const ka_lint_result *res)
{
	const ka_findings *fs = &res->findings;
	int failed = res->failed || res->clang_errors;
	int n[3] = {0, 0, 0}, st[3], clang;
	ka_report_opts ro = {.files = res->files, .nfiles = (size_t)res->nfiles};
	ka_report_file_counts(&ro, st, &clang);
	int incomplete = st[KA_FILE_PARTIAL] + st[KA_FILE_FAILED];
	for (size_t i = 0; i < fs->n; i++)
		n[fs->v[i].severity]++;
	char base[64] = "", files[160] = "";
	if (res->baseline_read)
		snprintf(base, sizeof base, " (%zu in baseline)", res->baselined);
	if (incomplete)
		snprintf(files, sizeof files, "; %d file%s: %d analyzed, %d partial, %d failed", res->nfiles,
			 res->nfiles == 1 ? "" : "s", st[KA_FILE_ANALYZED], st[KA_FILE_PARTIAL],
			 st[KA_FILE_FAILED]);
	if (clang)
		snprintf(files + strlen(files), sizeof files - strlen(files), "; %d clang error%s", clang,
			 clang == 1 ? "" : "s");
	int text = !c->quiet && (c->format == KA_FORMAT_TEXT || c->format == KA_FORMAT_CONCISE);
	if (text && (fs->n || incomplete))
		fprintf(stderr, "kcheck: %d error%s, %d warning%s, %d note%s%s%s\n", n[2],
			n[2] == 1 ? "" : "s", n[1], n[1] == 1 ? "" : "s", n[0], n[0] == 1 ? "" : "s", base,
			files);
	else if (text && !res->baseline_written && !failed && res->nfiles > 0)
		fprintf(stderr, "kcheck: 0 findings%s\n", base); /* a clean run says so */
	if (failed)
		return KA_EXIT_ERROR;
	static const int levels[] = {[KA_FAIL_ERROR] = KA_SEV_ERROR,
				     [KA_FAIL_WARNING] = KA_SEV_WARNING,
				     [KA_FAIL_NOTE] = KA_SEV_NOTE,
				     [KA_FAIL_NONE] = 3};
	int level = levels[c->fail_on];
	int over = 0;
	for (int s = level; s < 3; s++)
		over += n[s];
	return over && !c->exit_zero ? KA_EXIT_FINDINGS : KA_EXIT_CLEAN;
}

/* The lint library's options from the command line and the config. */
static void lint_opts(const ka_tool_cfg *c, ka_lint_opts *o)
{
	*o = (ka_lint_opts)KA_LINT_OPTS_INIT;
	o->arch = c->arch;
	o->extra = c->extra, o->nextra = c->nextra;
	o->compdb_dir = c->compdb_dir;
	o->cuda_path = c->cuda_path;
	o->force_shim = c->force_shim, o->ptxas = c->ptxas;
	memcpy(o->assume_block, c->assume_block, sizeof o->assume_block);
	o->jobs = c->jobs;
	o->file_memory_mb = c->file_memory_mb, o->file_timeout_s = c->file_timeout_s;
	o->rules_dirs = c->rules_dirs, o->nrules_dirs = c->nrules_dirs;
	o->checks = c->checks;
	o->exclude = c->exclude, o->nexclude = c->nexclude;
	o->baseline = c->baseline, o->write_baseline = c->write_baseline;
	o->report_unused = c->report_unused;
	o->sarif_fixes = c->format == KA_FORMAT_SARIF;
	o->output = c->output;
	o->log = stderr;
	o->quiet = c->quiet, o->stats = c->stats;
}

/* --explain RULE: only the rules (and the arch) need to be right; the
 * knowledge DB adds the rule's standing. */
static int explain(const ka_tool_cfg *c, ka_tool_evidence *kdb)
{
	ka_lint_opts o = KA_LINT_OPTS_INIT;
	ka_lint *l = NULL;
	o.arch = c->arch;
	o.rules_dirs = c->rules_dirs, o.nrules_dirs = c->nrules_dirs;
	int rc = ka_tool_lint_new(&l, &o);
	if (rc == 0)
		rc = ka_tool_explain(ka_lint_rules(l), c->explain, kdb, stdout) ? KA_EXIT_ERROR
										: KA_EXIT_CLEAN;
	ka_lint_free(l);
	return rc;
}

/* --list-rules: the rules this run's --checks (and config) enable. */
static int list_rules(const ka_tool_cfg *c)
{
	ka_lint_opts o = KA_LINT_OPTS_INIT;
	ka_lint *l = NULL;
	o.arch = c->arch;
	o.rules_dirs = c->rules_dirs, o.nrules_dirs = c->nrules_dirs;
	o.checks = c->checks;
	int rc = ka_tool_lint_new(&l, &o);
	if (rc == 0) {
		const ka_ruleset *rs = ka_lint_rules(l);
		for (size_t i = 0; i < ka_ruleset_count(rs); i++) {
			const ka_rule *r = ka_ruleset_at(rs, i);
			if (r->enabled)
				printf("%-36s %-7s %s\n", r->id, ka_severity_name(r->severity), r->title);
		}
	}
	ka_lint_free(l);
	return rc;
}

/* PATH '-': the text on stdin becomes the file --stdin-filename names
 * (util/fs.h's overlay), so that the config, the compile database and the
 * report all see NAME. */
static int read_stdin(ka_tool_cfg *c)
{
	int dash = 0;
	for (int i = 0; i < c->npaths; i++)
		dash += !strcmp(c->paths[i], "-");
	if (!dash && c->stdin_name) {
		ka_tool_error("--stdin-filename needs the PATH '-' (kcheck - --stdin-filename NAME < FILE)");
		return KA_EXIT_ERROR;
	}
	if (!dash)
		return 0;
	if (c->npaths != 1 || !c->stdin_name) {
		ka_tool_error("%s", c->npaths != 1
					    ? "'-' (stdin) is the only PATH of its run"
					    : "'-' (stdin) needs --stdin-filename NAME (the file it is)");
		return KA_EXIT_ERROR;
	}
	if (c->fix.fix || c->fix.unsafe_fixes) {
		ka_tool_error("--fix writes files: with '-' (stdin) use --diff");
		return KA_EXIT_ERROR;
	}
	ka_buf in;
	char chunk[65536];
	size_t n;
	ka_buf_init(&in, (size_t)64 << 20);
	int rc = ka_buf_add(&in, "", 0);
	while (rc == KA_OK && (n = fread(chunk, 1, sizeof chunk, stdin)) > 0)
		rc = ka_buf_add(&in, chunk, n);
	if (rc == KA_OK && ferror(stdin))
		rc = ka_error_set(KA_EIO, "cannot read stdin");
	else if (rc != KA_OK)
		rc = ka_error_set(rc, "stdin: more than 64 MiB");
	if (rc == KA_OK)
		rc = ka_fs_overlay_set(c->stdin_name, in.data ? in.data : "", in.len);
	ka_buf_free(&in);
	if (rc != KA_OK) {
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	c->paths[0] = c->stdin_name;
	return 0;
}

/* NAME, or a folder on its way, matches an --exclude (or exclude:) glob as
 * a path or by its own name: the folder walk would have skipped it. */
static int stdin_excluded(const ka_tool_cfg *c)
{
	if (!c->stdin_name)
		return 0;
	char p[4096];
	snprintf(p, sizeof p, "%s", strncmp(c->stdin_name, "./", 2) == 0 ? c->stdin_name + 2 : c->stdin_name);
	for (size_t end = 1; end <= strlen(c->stdin_name) && p[end - 1]; end++) {
		if (p[end] && p[end] != '/')
			continue;
		char save = p[end];
		p[end] = 0;
		const char *base = strrchr(p, '/');
		base = base ? base + 1 : p;
		for (int i = 0; i < c->nexclude; i++)
			if (fnmatch(c->exclude[i], p, 0) == 0 || fnmatch(c->exclude[i], base, 0) == 0)
				return 1;
		p[end] = save;
	}
	return 0;
}

/* Defaults -> options -> config. */
static int setup(ka_tool_cfg *c, int argc, char **argv)
{
	c->fail_on = KA_FAIL_WARNING;
	int rc = ka_tool_getparam(c, KA_CMD_LINT, argc, argv, 1);
	if (rc == KA_TOOL_UNKNOWN) {
		ka_tool_error("unknown option '%s'%s (see kcheck --help)", c->bad_option,
			      ka_tool_suggest_option(c->bad_option, KA_CMD_LINT));
		return KA_EXIT_ERROR;
	}
	if (rc)
		return rc;
	if ((rc = read_stdin(c)) != 0 || (rc = ka_tool_parsecfg(c)) != 0)
		return rc;
	/* A toolkit that is not there is an error up front, not a silent
	 * fall-back to the shim headers. */
	if (c->cuda_path && !c->force_shim) {
		char p[4200];
		snprintf(p, sizeof p, "%s/include/cuda_runtime.h", c->cuda_path);
		if (!ka_fs_is_dir(c->cuda_path)) {
			ka_tool_error("--cuda-path %s: no such folder", c->cuda_path);
			return KA_EXIT_ERROR;
		}
		if (!ka_fs_exists(p)) {
			ka_tool_error("--cuda-path %s: not a CUDA toolkit (no include/cuda_runtime.h)",
				      c->cuda_path);
			return KA_EXIT_ERROR;
		}
	}
	return 0;
}

static int fix_wanted(const ka_tool_cfg *c)
{
	return c->fix.fix || c->fix.unsafe_fixes || c->fix.diff || c->fix.export_fixes;
}

int ka_tool_lint(int argc, char **argv)
{
	ka_tool_cfg c = {0};
	ka_lint_opts lo;
	ka_lint *l = NULL;
	ka_lint_result res = KA_LINT_RESULT_INIT;
	ka_tool_fixllm *llm = NULL;
	ka_tool_evidence *kdb = NULL;
	int status, rc;
	c.arena = ka_arena_new();
	ka_cleanup_install(); /* SIGINT/SIGTERM: kill the compile gate, remove temporaries */
	if ((status = setup(&c, argc, argv)) || (status = ka_tool_evidence_open(&kdb, c.db, c.no_db)))
		goto out;
	if (c.explain) {
		status = explain(&c, kdb);
		goto out;
	}
	if (c.list_rules) {
		status = list_rules(&c);
		goto out;
	}
	if (stdin_excluded(&c)) { /* as a folder's file would be: skipped, quietly */
		if (!c.quiet)
			fprintf(stderr, "kcheck: %s is excluded (--exclude or exclude:): nothing analyzed\n",
				c.stdin_name);
		status = KA_EXIT_CLEAN;
		goto out;
	}
	lint_opts(&c, &lo);
	ka_tool_evidence_lint(kdb, &lo);
	if ((status = ka_tool_fixllm_new(&llm, &c)) || (status = ka_tool_lint_new(&l, &lo)))
		goto out;
	if (fix_wanted(&c)) {
		ka_lint_fix_opts fo = KA_LINT_FIX_OPTS_INIT;
		fo.unsafe = c.fix.unsafe_fixes;
		fo.write = c.fix.fix || c.fix.unsafe_fixes;
		fo.diff = c.fix.diff ? stdout : NULL; /* --diff: stdout is the patch */
		fo.export_fixes = c.fix.export_fixes;
		fo.require_gate = c.fix.require_gate;
		fo.compile_timeout = c.fix.compile_timeout;
		fo.want_texts = llm && c.fix.diff; /* the LLM's patch follows the fix loop's */
		rc = ka_lint_fix(l, c.paths, c.npaths, &fo, &res);
		if (rc == KA_OK && llm && (status = ka_tool_fixllm_run(llm, l, &c, &res)))
			goto out;
	} else {
		rc = ka_lint_run(l, c.paths, c.npaths, &res);
	}
	status = KA_EXIT_ERROR;
	if (rc != KA_OK) {
		ka_tool_error("%s", ka_lint_error(l));
		goto out;
	}
	if (c.sort == KA_SORT_IMPACT)
		ka_findings_sort_impact(&res.findings);
	if (!c.fix.diff && write_report(&c, &res, l, llm))
		goto out;
	status = exit_status(&c, &res);
out:
	if (status < 0)
		status = KA_EXIT_CLEAN; /* --help, --version */
	ka_lint_result_free(&res);
	ka_tool_fixllm_free(llm);
	ka_lint_free(l);
	ka_tool_evidence_free(kdb);
	ka_arena_free(c.arena);
	return status;
}
