/* cli/tool_fix.h: kcheck's fix options and the fix step of a lint run.
 *
 *   --fix                    apply safe fixes in place (atomically)
 *   --unsafe-fixes           also fixes that change numerics or need a precondition
 *   --diff                   print the fixes as a unified patch; change nothing
 *   --export-fixes FILE      clang-tidy's replacement YAML
 *   --require-compile-gate   no nvcc/hipcc is an error instead of a note
 *   --compile-timeout SEC    time limit per compile of the gate (default 60)
 *
 * Where it runs: each worker turns its findings into fixes while its facts
 * database is open (ka_tool_fix_collect); the main thread merges them, keeps
 * the fixes of the findings that survived NOLINT and the baseline, resolves
 * conflicts, runs the compile gate and writes (ka_tool_fix_finish).  SARIF
 * reports take each finding's `fixes` from ka_tool_fix_sarif. */
#ifndef KA_CLI_TOOL_FIX_H
#define KA_CLI_TOOL_FIX_H
#include <sqlite3.h>
#include "rules/finding.h"

struct ka_fixset;

typedef struct ka_tool_fix_opts {
	int fix, unsafe_fixes, diff, require_gate;
	int compile_timeout;          /* seconds; 0 = 60 */
	const char *export_fixes;     /* FILE */
	int sarif;                    /* the report is SARIF: compute fixes to show */
	const char *arch;             /* --arch, for nvcc -arch */
	const char *const *extra;     /* flags after `--` (include paths for the gate) */
	int nextra;
	int quiet;
	struct ka_fixset *merged;     /* after ka_tool_fix_finish */
	int round, changed;           /* fixed-point rounds of --fix; files changed in the last */
} ka_tool_fix_opts;

/* One command-line option.  0 handled, 1 not a fix option, KA_EXIT_ERROR
 * after printing the error.  May consume the next argv (advances *i). */
int ka_tool_fix_getopt(ka_tool_fix_opts *o, const char *name, const char *val, int argc,
		       char **argv, int *i);
/* Any fix work asked for (fix, diff, export or a SARIF report)? */
int ka_tool_fix_wanted(const ka_tool_fix_opts *o);

/* In a worker: the fixes of fs's findings, computed on db (NULL when none
 * are wanted).  KA_OK or < 0 with a message. */
int ka_tool_fix_collect(const ka_tool_fix_opts *o, sqlite3 *db, const ka_findings *fs,
			struct ka_fixset **out);
void ka_tool_fix_free(struct ka_fixset *fs);

/* Main thread, after NOLINT/baseline filtering: the jobs' fixsets are taken
 * over (set to NULL), `all` are the findings to report.
 * Applies/prints/exports as the options say.  0 or KA_EXIT_ERROR (after
 * printing the error: read-only file, no compiler with
 * --require-compile-gate, unwritable export file). */
struct ka_tool_job;
int ka_tool_fix_finish(ka_tool_fix_opts *o, struct ka_tool_job *jobs, int njobs, const ka_findings *all);
/* After ka_tool_fix_finish: 1 when --fix changed files this round and the
 * round limit is not reached, so the caller analyzes again (fixes can
 * uncover fixes: a suffixed literal exposes the next one); clears the
 * round's fixes. */
int ka_tool_fix_again(ka_tool_fix_opts *o);
/* The SARIF `fixes` array (JSON text, caller frees) of a reported finding; NULL if none. */
char *ka_tool_fix_sarif(const ka_finding *f, void *opts);
void ka_tool_fix_clear(ka_tool_fix_opts *o);

/* rules' fix hook (rules/fixhook.h) for `kcheck rules test`: the fixes of
 * fs applied to text, every class the caller passed, no compile gate. */
int ka_tool_fix_text(sqlite3 *db, const char *path, const char *text, size_t len,
		     const ka_findings *fs, char **out, size_t *out_len);

#endif
