/* lint/lint.h: the lint pipeline as a library (what `kcheck PATH...`,
 * `kcheck --fix`, `kcheck rules test` and `kcheck optimize` run).
 *
 * Pipeline position: paths -> [files (folders searched, compile database)
 * -> per-file jobs, -j N (analyzer -> facts -> rules engine) -> headers
 * nobody included -> merge in file order -> NOLINT -> baseline -> fixes
 * (rewriter, compile gate), to a fixed point with --fix] -> findings for
 * the caller to report (rules/report.h) or inspect.
 *
 * Links flow util <- analyzer <- rules <- rewriter, knowledge <- lint <-
 * agents, cli.
 *
 * Usage:
 *     ka_lint_opts o = KA_LINT_OPTS_INIT;
 *     ka_lint *l = NULL;
 *     ka_lint_result r = KA_LINT_RESULT_INIT;
 *     o.arch = "sm_90";
 *     if (ka_lint_new(&l, &o) < 0) { puts(ka_lint_error(NULL)); ... }
 *     if (ka_lint_run(l, paths, npaths, &r) < 0) { puts(ka_lint_error(l)); ... }
 *     for (size_t i = 0; i < r.findings.n; i++) ... r.findings.v[i].rule ...
 *     ka_lint_result_free(&r);
 *     ka_lint_free(l);
 *
 * Errors: functions return 0 (KA_OK) or a negative KA_E* code
 * (util/error.h) with a one-line message in ka_lint_error(l).  Problems in
 * the user's files (a file that does not parse, a missing path, clang's
 * errors, an analysis that crashes or goes over its memory or time) are
 * not errors: they are written to opts.log, kept in result.files (each
 * file's status) and counted in result.failed and result.clang_errors,
 * and the run goes on with the other files.
 *
 * Threads: a ka_lint is used by one thread at a time, except
 * ka_lint_test_rule, which may run on several threads at once on one
 * handle (`kcheck rules test -j N`).  ka_lint_run starts its own workers
 * (opts.jobs). */
#ifndef KA_LINT_H
#define KA_LINT_H
#include <stddef.h>
#include <stdio.h>
#include "rules/finding.h"       /* ka_finding(s): rule, file, line, severity, estimate, fix */
#include "rules/report.h"        /* ka_report_file: a file's analysis status */
#include "rules/rule.h"          /* ka_ruleset, ka_severity, ka_fix_safety */
#include "rules/source.h"        /* ka_sources: file texts for report excerpts */
#include "knowledge/knowledge.h" /* ka_kdb: the measured evidence on findings */
#include "util/arena.h"
#include "util/buf.h"

typedef struct ka_lint ka_lint;

/* Measured evidence for a finding, from a source other than a knowledge DB
 * (ka_lint_opts.kdb is the usual one).  For a finding of rule `rule`
 * whose static estimate is `estimate` (0 = none), on the run's `arch`:
 * fill *ev (arch, counts, text) and *corrected (the estimate corrected by
 * the evidence; `estimate` itself when there is nothing to correct) and
 * return 1; 0 when the rule has no evidence on arch; < 0 on an error, with
 * the message set (util/error.h).  Called on the caller's thread, once per
 * reported finding, after NOLINT and the baseline. */
typedef int (*ka_lint_evidence_fn)(void *ud, const char *rule, const char *arch, double estimate,
				   ka_finding_evidence *ev, double *corrected);

typedef struct ka_lint_opts {
	/* analysis */
	const char *arch;         /* target profile (analyzer/arch.h); NULL = ka_arch_default() */
	const char *const *extra; /* compiler flags (after `--`); also reach the compile gate */
	int nextra;
	const char *compdb_dir; /* -p: compile_commands.json in DIR or a parent; NULL = none */
	const char *cuda_path;  /* NULL = /usr/local/cuda when it exists */
	int force_shim;         /* --shim */
	int ptxas;              /* --ptxas: join nvcc -Xptxas -v facts */
	int assume_block[3];    /* --assume-block; zeros = none */
	int jobs;               /* files analyzed at a time; 0 or 1 = one */
	long file_memory_mb;    /* a file's analysis process may use this much; 0 = default */
	int file_timeout_s;     /* ... and take this long; 0 = default */
	/* rules */
	const char *const *rules_dirs; /* --rules-dir: added to (or replacing) the built-in rules */
	int nrules_dirs;
	const char *checks; /* --checks '-*,gmem-*'; NULL = every enabled rule */
	/* files: folders are searched for .cu .cuh .hip */
	const char *const *exclude; /* globs of paths skipped when searching folders */
	int nexclude;
	/* filters */
	const char *baseline; /* findings recorded here are dropped; missing: an error */
	int write_baseline;   /* (re)write (or create) the baseline from this run */
	int report_unused;    /* unused NOLINT -> `unused-suppression` findings */
	int sarif_fixes;      /* compute fixes for ka_lint_sarif_fixes even without ka_lint_fix */
	const char *output;   /* a file the caller will write (a report): refused when it is an input */
	/* messages */
	FILE *log; /* "kcheck: ..." notes, clang's errors, --stats; NULL = none */
	int quiet; /* only errors and clang's diagnostics on log */
	int stats; /* analysis vs. rule time (and the costliest rules) on log */
	/* evidence: findings carry it, and their estimate and severity follow
	 * the corrected estimate (the impact bands, capped by the rule).  From
	 * kdb, a knowledge DB the caller opened (read-only is enough; each
	 * rule's standing on arch is read once per handle), or from the
	 * evidence lookup when one is set; neither = none: findings as the
	 * rules estimate them */
	ka_kdb *kdb;
	ka_lint_evidence_fn evidence;
	void *evidence_ud;
} ka_lint_opts;

#define KA_LINT_OPTS_INIT {.jobs = 1}

/* Each file is analyzed in a process of its own: a crash, or a file over
 * these limits (resident memory, wall time), fails that file only. */
#define KA_LINT_FILE_MEMORY_MB 4096
#define KA_LINT_FILE_TIMEOUT_S 300

/* Load and check the rules (built-in + rules_dirs, all checked before any
 * analysis), select `checks`, check arch, load the compile database.
 * *out is NULL on failure; the message is in ka_lint_error(NULL).  When
 * rule files are malformed that message is their problems, one
 * `path:line: message` line each, every line ending in '\n' (a one-line
 * error has no final newline).  opts is copied; the strings and arrays it
 * points to are the caller's and must outlive l. */
int ka_lint_new(ka_lint **out, const ka_lint_opts *opts);
void ka_lint_free(ka_lint *l);

/* The last error on l; ka_lint_error(NULL): of the last failed
 * ka_lint_new on this thread.  Never NULL. */
const char *ka_lint_error(const ka_lint *l);

/* The loaded rules (ids, metadata for reports, --explain), owned by l. */
const ka_ruleset *ka_lint_rules(const ka_lint *l);

/* What one run found.  Owned by the caller: ka_lint_result_free. */
typedef struct ka_lint_result {
	ka_findings findings; /* sorted by location; after NOLINT and the baseline */
	int nfiles;           /* files analyzed (the length of files) */
	int failed;           /* files that did not analyze, or bad paths: the caller's exit 2 */
	int baseline_written; /* the baseline was (re)written; findings is then empty */
	int baseline_read;    /* a baseline was read; baselined findings it dropped */
	size_t baselined;
	int rounds; /* analysis rounds (ka_lint_fix: fixes can uncover fixes) */
	/* ka_lint_fix only; the counters are totals over the rounds */
	int fixes_applied;  /* accepted and gated (written with write, else would be) */
	int fixes_rejected; /* by the compile gate, or the file changed on disk */
	int files_changed;  /* written, or changed in the patch */
	char *patch;        /* want_patch: unified diff of the first round (`patch -p1`) */
	size_t patch_len;
	struct ka_lint_text { /* want_texts: each changed file after the first round's fixes */
		char *path;
		char *before, *after;
		size_t before_len, after_len;
	} *texts;
	int ntexts;
	ka_report_file *files; /* each analyzed file's status, in the run's order (last round) */
	int clang_errors;      /* clang's errors, summed over files: not findings; the caller's exit 2 */
} ka_lint_result;

#define KA_LINT_RESULT_INIT {KA_FINDINGS_INIT, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, NULL, 0, NULL, 0}

void ka_lint_result_free(ka_lint_result *r);

/* Analyze paths (files or folders; npaths == 0: the compile database's
 * files) and return the findings to report.  out is KA_LINT_RESULT_INIT or
 * the result of an earlier run, which is freed first.  Returns 0 also when files
 * failed to analyze (result.failed); < 0 for errors (no input files, an
 * output over an input, a baseline that cannot be read or written). */
int ka_lint_run(ka_lint *l, const char *const *paths, int npaths, ka_lint_result *out);

/* Fixes: what `kcheck --fix/--unsafe-fixes/--diff/--export-fixes` do. */
typedef struct ka_lint_fix_opts {
	int unsafe;               /* also fixes that change numerics or need a precondition */
	int write;                /* apply in place (atomically), re-analyze to a fixed point (5 rounds) */
	FILE *diff;               /* the unified patch of the fixes goes here (nothing is written then) */
	int want_patch;           /* keep the patch text in result.patch */
	int want_texts;           /* keep each changed file's text in result.texts */
	const char *export_fixes; /* write clang-tidy's replacement YAML here */
	int require_gate;         /* no nvcc/hipcc to check the fixed files is an error */
	int compile_timeout;      /* seconds per compile of the gate; 0 = 60 */
	const char *only;         /* comma-separated rule-id globs whose fixes are applied; NULL = all */
} ka_lint_fix_opts;

#define KA_LINT_FIX_OPTS_INIT {0}

/* Run as ka_lint_run, then commit the fixes of the reported findings
 * (conflicts resolved, each changed file compiled by nvcc/hipcc first:
 * a file that no longer compiles keeps its text).  With write, analysis
 * and fixes repeat while files change (at most 5 rounds); result.findings
 * are those of the last round.  < 0: a read-only file (nothing written),
 * no compiler with require_gate, an unwritable export file. */
int ka_lint_fix(ka_lint *l, const char *const *paths, int npaths, const ka_lint_fix_opts *fo,
		ka_lint_result *out);

/* After ka_lint_run (with opts.sarif_fixes) or ka_lint_fix: the SARIF
 * `fixes` array of a finding of the last run as JSON text (caller frees),
 * NULL when it has none.  `ud` is the ka_lint (ka_report_opts.fixes). */
char *ka_lint_sarif_fixes(const ka_finding *f, void *ud);

/* 1 when the last run (with opts.sarif_fixes, or ka_lint_fix) computed
 * edits for f, a finding it returned; 0 otherwise.  f->fix names the
 * rule's transform whether or not it applies here. */
int ka_lint_has_fix(const ka_lint *l, const ka_finding *f);

/* The file texts of the last run's findings (report excerpts, UTF-16
 * columns), owned by l until the next run. */
ka_sources *ka_lint_sources(ka_lint *l);

/* Rule tests: the examples of rule `id` are its tests.  `bad` must fire
 * exactly at the `// ruleid:` lines, `good` must not fire, `fixed` must
 * equal the fixes (safe ones of every rule, and this rule's own) applied
 * to `bad` (no compile gate).  One line per problem is appended to log
 * ("rulefile:line: ..."); counts are added to.  tmpdir: where example
 * files are written (NULL = a fresh folder, removed afterwards).
 * < 0 only for errors (unknown id, I/O). */
typedef struct ka_lint_test_counts {
	int passed, failed, skipped;
} ka_lint_test_counts;

int ka_lint_test_rule(ka_lint *l, const char *id, const char *tmpdir, ka_buf *log,
		      ka_lint_test_counts *counts);

/* --stats figures of the last run (ms of wall time, summed over files). */
typedef struct ka_lint_stats {
	int nfiles, nrules;
	double analyze_ms, rules_ms;
} ka_lint_stats;
void ka_lint_last_stats(const ka_lint *l, ka_lint_stats *out);

/* The nearest `name` in start (a folder, or a file's folder) or a parent,
 * as git finds .git (compile_commands.json, .kcheck.yaml); a string in a,
 * or NULL. */
char *ka_lint_findfile(ka_arena *a, const char *start, const char *name);

#endif
