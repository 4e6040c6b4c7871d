/* lint/lint_int.h: what the files of the lint library share (see lint.h
 * for the public side).
 *
 *   lint.c      ka_lint_new/free, the run: files -> jobs -> merge -> NOLINT
 *               -> baseline -> fixes, and the fix loop
 *   run.c       the per-file jobs: analysis, rules, status, fixes
 *   worker.c    each job in a process of its own, -j N at a time, with
 *               memory and time limits
 *   files.c     PATH arguments -> files; findfile.c: a file in a parent folder
 *   compdb.c    compile_commands.json
 *   suppress.c  NOLINT and unused suppressions
 *   fix.c       fixes: collected per job, merged, committed through the gate
 *   ruletest.c  a rule's examples as its tests
 *   evidence.c  measured evidence (the knowledge DB, or the caller's
 *               lookup) on the findings */
#ifndef KA_LINT_INT_H
#define KA_LINT_INT_H
#include <sqlite3.h>
#include "lint/lint.h"
#include "rules/finding.h"
#include "rules/report.h"
#include "rules/rule.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/error.h"

struct ka_fixset;

/* One file to analyze. */
typedef struct ka_lint_file {
	const char *path; /* as the user will see it */
	const char *real; /* realpath */
	int is_header;
} ka_lint_file;

/* compdb.c */
typedef struct ka_compdb ka_compdb;
/* Find compile_commands.json in dir or a parent and load it (into a);
 * KA_EINPUT/KA_EIO with the one-line message when missing or malformed. */
int ka_compdb_load(ka_arena *a, const char *dir, ka_compdb **out);
/* Flags (compiler, -c, -o, the file itself removed) and directory for a
 * file; 0 when the file is not in the database. */
int ka_compdb_lookup(const ka_compdb *db, const char *realpath, const char ***args, int *nargs,
		     const char **directory);
/* Every source file of the database with a .cu/.hip extension. */
int ka_compdb_files(ka_arena *a, const ka_compdb *db, const char ***paths, int *n);

/* files.c: expand paths into files (sorted, de-duplicated); headers (.cuh
 * .h .hpp) are flagged.  Missing and non-regular paths are reported on the
 * log and counted in *bad; KA_OK or < 0. */
int ka_lint_files(ka_lint *l, const char *const *paths, int npaths, ka_lint_file **out, int *n, int *bad);
int ka_lint_is_source_ext(const char *path, int *is_header);

/* One job: one file's analysis.  Each job's results are kept apart and
 * merged in file order, so the output does not depend on scheduling. */
typedef struct ka_lint_job {
	const ka_lint_file *file;
	ka_findings findings;
	ka_report_file st; /* analyzed, partial or failed, why; clang's errors (path: merge) */
	char **included;   /* real paths of the files it included */
	int nincluded;
	int failed;                  /* could not be analyzed */
	double analyze_ms, rules_ms; /* wall time of ka_analyze_file and ka_rules_eval */
	double *rule_ms;             /* stats: per rule, in ruleset order (or NULL) */
	struct ka_fixset *fixes;     /* the findings' fixes (fix.c), or NULL */
	/* reach.c: the kernels the file defines ("name\treal path") and the
	 * names it may launch (launches, host calls that name a kernel, every
	 * kernel of a file whose host code is not all there) */
	char **kernels, **launched;
	int nkernels, nlaunched;
} ka_lint_job;

/* run.c: analyze files and evaluate the rules, opts.jobs at a time, each
 * in a worker process (worker.c); collect_fixes: compute each job's fixes
 * on its facts. */
void ka_lint_run_jobs(ka_lint *l, ka_lint_job *jobs, int njobs, int collect_fixes);
void ka_lint_job_clear(ka_lint_job *j);

/* worker.c: fn(ctx, &jobs[i]) for each job in a child process of its own,
 * at most opts.jobs at a time, under opts.file_memory_mb and
 * opts.file_timeout_s; the results come back through a pipe.  A child
 * that dies or goes over a limit leaves its job failed with the reason. */
void ka_lint_workers(ka_lint *l, ka_lint_job *jobs, int njobs, void (*fn)(void *, ka_lint_job *), void *ctx);

/* merge.c: analyze sources, then the headers no source included
 * (*jobs: caller clears and frees). */
int ka_lint_analyze(ka_lint *l, const ka_lint_file *files, int nfiles, int collect_fixes, ka_lint_job **jobs,
		    int *njobs);
/* Merge the jobs' findings (taken) into all in file order, renamed and
 * kept when in the project of paths; each job's status settled (its path,
 * its diagnostics renamed), clang's messages to the log.
 * *shown: the files whose NOLINT comments count (arena).  Returns 1 when
 * a job failed. */
int ka_lint_merge(ka_lint *l, const char *const *paths, int npaths, ka_lint_job *jobs, int njobs,
		  const ka_lint_file *files, int nfiles, ka_findings *all, const char ***shown, int *nshown);
/* reach.c: in the job's worker, after its diagnostics are collected, the
 * kernels its file defines and may launch (ka_lint_job.kernels,
 * .launched).  KA_OK or < 0. */
int ka_lint_reach_collect(sqlite3 *db, ka_lint_job *j);
/* reach.c: after the merge, a finding of a performance rule in a kernel
 * that none of the jobs launches, while they launch another kernel defined
 * in the same file, is at most a note and says so (docs/rules.md, "Cold
 * kernels"). */
void ka_lint_reach_apply(const ka_lint *l, const ka_lint_job *jobs, int njobs, ka_findings *all);
/* Record the round's figures in l->stats; with opts.stats, log them. */
void ka_lint_print_stats(ka_lint *l, const ka_lint_job *jobs, int njobs);

/* suppress.c: drop NOLINT-ed findings; with report_unused, add an
 * `unused-suppression` finding per unused NOLINT naming a known rule. */
/* log (or NULL): where a NOLINT that names no kcheck rule but looks like
 * one (a kcheck family's prefix, or a near miss of an id) is warned about. */
int ka_lint_suppress(ka_findings *fs, ka_sources *src, const ka_ruleset *rs, const char **files, int nfiles,
		     int report_unused, FILE *log);

/* fix.c */
/* In a worker: the fixes of fs's findings, computed on db.  KA_OK or < 0. */
int ka_lint_fix_collect(sqlite3 *db, const ka_findings *fs, struct ka_fixset **out);
/* Main thread, after NOLINT/baseline: merge the jobs' fixsets (taken over,
 * set to NULL) into *merged, keep the fixes of `all` (and of `only`'s
 * rules).  KA_OK or < 0. */
int ka_lint_fix_merge(ka_lint_job *jobs, int njobs, const ka_findings *all, const char *only,
		      struct ka_fixset **merged);
/* Commit merged as fo says (round 0 also exports); adds to out's counters,
 * keeps the patch and texts of round 0; *changed: files written.  KA_OK or
 * < 0 with the message set. */
int ka_lint_fix_commit(ka_lint *l, struct ka_fixset *merged, const ka_lint_fix_opts *fo, int round,
		       const ka_findings *all, ka_lint_result *out, int *changed);
/* The fixes of fs (all in `path`, whose bytes are text/len) applied to
 * text, every class, no compile gate (rule tests).  *out: caller frees. */
int ka_lint_fix_text(sqlite3 *db, const char *path, const char *text, size_t len, const ka_findings *fs,
		     char **out, size_t *out_len);
/* "rule \t realpath \t line \t col": a finding's name that survives renaming. */
char *ka_lint_finding_key(const char *rule, const char *file, int line, int col);

/* evidence.c: with opts.kdb or opts.evidence, attach each finding's
 * evidence on the run's arch and correct its estimate and severity.
 * KA_OK or < 0.  The DB's standings are cached in l->standings. */
typedef struct ka_lint_standings ka_lint_standings;
int ka_lint_apply_evidence(ka_lint *l, ka_findings *fs);
void ka_lint_standings_free(ka_lint_standings *c);

/* lint.c */
struct ka_lint {
	ka_lint_opts o;  /* the caller's strings, which outlive l */
	ka_arena *arena; /* file lists, the compile database */
	ka_ruleset *rs;
	ka_compdb *cdb;
	ka_sources *src;              /* the last run's texts */
	struct ka_fixset *merged;     /* the last run's fixes (SARIF, has_fix) */
	ka_lint_standings *standings; /* opts.kdb's standings read so far, or NULL */
	ka_lint_stats stats;
	char err[1024]; /* the last error's message */
};

/* Remember ka_error_last() as l's error; returns rc. */
int ka_lint_fail(ka_lint *l, int rc);
/* "kcheck: " + message + '\n' on the log (when there is one). */
void ka_lint_log(const ka_lint *l, const char *fmt, ...) KA_PRINTF(2, 3);

#endif
