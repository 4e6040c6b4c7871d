/* analyzer/analyzer.h: the analyzer's public API.
 *
 * Pipeline position: source files -> [front end (libclang) -> kernel model ->
 * index analysis -> facts writer] -> facts database -> rules.
 *
 * Only analyzer/frontend*.c include <clang-c/Index.h>; callers see SQLite
 * facts (schema: facts/facts_tables.def, documented in docs/facts.md).
 */
#ifndef KA_ANALYZER_H
#define KA_ANALYZER_H
#include <sqlite3.h>
#include "analyzer/arch.h"
#include "util/arena.h"
#include "facts/facts.h"

typedef struct ka_analyze_opts {
	const char *arch;              /* --arch; NULL = KA_ARCH_DEFAULT */
	const char *const *extra_args; /* flags after `--` or from compile_commands.json */
	int n_extra_args;
	const char *cuda_path;    /* NULL = /usr/local/cuda when it exists */
	int force_shim;           /* 1: shim headers even when a toolkit exists */
	int ptxas;                /* 1: join nvcc -Xptxas -v results */
	const char *resource_dir; /* clang resource dir; NULL = the build's */
	int assume_block[3];      /* --assume-block: used when nothing else is known */
	const char *directory;    /* working directory for relative paths (compile db) */
	double budget_s;          /* per-file time budget; 0 default, < 0 none */
	long budget_mb;           /* per-file model memory budget; 0 default, < 0 none */
} ka_analyze_opts;

/* Past the budget the walk stops and the file gets a warning ("analysis
 * budget exceeded in K"); its facts so far are kept. */
#define KA_BUDGET_DEFAULT_S 300.0
#define KA_BUDGET_DEFAULT_MB 4096

#define KA_ANALYZE_OPTS_INIT {0}

/* The stack of the thread each analysis runs on: deep expressions (5,000
 * nested unary operators, long ternary, comma and assignment chains) fit
 * where 8 MB would not.  Reserved, not committed: only what is used costs
 * memory. */
#define KA_ANALYZE_STACK_MB 512

/* Parse one source file and append its facts (kernels, accesses, launches,
 * ... and the `arch` row) to db, on a thread with a KA_ANALYZE_STACK_MB
 * stack (the caller's thread waits).  Clang's diagnostics go into the `diag`
 * table.  Returns KA_OK; KA_EIO for a missing/unreadable/binary file;
 * KA_EPARSE when clang reported errors (facts of what parsed are still
 * written); KA_EINPUT for an unknown arch.  The message is in ka_error_last(). */
int ka_analyze_file(const ka_analyze_opts *opts, const char *path, sqlite3 *db);

/* A crash in libclang ends the process instead of libclang's recovery
 * (which returns an error and may leave the process in a bad state).  For
 * a process that exists to analyze one file and may die: lint's worker.
 * Such a process also keeps its last parse instead of freeing it (its exit
 * frees it faster).  Call it before any other thread runs. */
void ka_analyze_no_crash_recovery(void);

/* The libclang arguments path would be parsed with (argv without the file
 * name; strings in a), the `-include-pch PATH` of the toolkit's
 * precompiled header included when the parse would use one (built here if
 * it is not there yet; KCHECK_NO_PCH=1 leaves it out as it does in the
 * parse): `kcheck facts --print-clang-args`.  KA_OK or < 0. */
int ka_analyze_clang_args(const ka_analyze_opts *o, const char *path, ka_arena *a, const char ***argv,
			  int *argc);

/* "cuda" or "hip" from the extension (.hip -> hip, else cuda) and flags. */
const char *ka_lang_of_path(const char *path);

#endif
