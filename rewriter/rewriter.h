/* rewriter/rewriter.h: the rewriter's public API.
 *
 * Pipeline position: facts + findings -> [transforms -> fixes (edits) ->
 * conflict resolution -> new file texts -> compile gate] -> in place, unified
 * diff, clang-tidy YAML, SARIF `fixes`.
 *
 * A fix is what one transform proposes for one finding: a group of byte-range
 * edits in one file, applied all together or not at all.  Offsets come from the
 * facts (libclang file locations), never from re-tokenizing macro expansions;
 * each transform checks that the bytes at the offsets still read as the facts
 * say, so an edit inside a macro expansion, or in a file that changed on disk
 * since the analysis, is skipped with a note instead of corrupting the file.
 *
 * Ownership: a ka_fixset owns every fix, edit, note and file text it holds;
 * ka_fixset_free releases them all.  Strings passed in are copied.
 */
#ifndef KA_REWRITER_H
#define KA_REWRITER_H
#include <stddef.h>
#include <stdio.h>
#include <sqlite3.h>
#include "rules/rule.h" /* ka_fix_safety: safe (--fix), unsafe (--unsafe-fixes), suggest */
#include "util/buf.h"
#include "util/wire.h"

/* Order of the classes for selection: safe 0 < unsafe 1 < suggest 2. */
int ka_fix_safety_rank(ka_fix_safety s);

typedef enum ka_fix_status {
	KA_FIX_PENDING = 0,
	KA_FIX_ACCEPTED,     /* survived conflict resolution */
	KA_FIX_CONFLICT,     /* overlaps a fix that won */
	KA_FIX_DUPLICATE,    /* the same edits as a fix that won */
	KA_FIX_NOT_SELECTED, /* safety class not enabled */
	KA_FIX_STALE,        /* file changed on disk during the run */
	KA_FIX_GATE_FAILED   /* the file no longer compiled */
} ka_fix_status;

typedef struct ka_edit {
	size_t begin, end; /* byte offsets, end exclusive; begin == end inserts */
	char *text;        /* replacement */
} ka_edit;

typedef struct ka_fix {
	char *file;
	char *rule;      /* rule id of the finding */
	char *transform; /* transform name */
	char *message;   /* what the fix does, one line */
	int priority;    /* lower wins a conflict (0 = errors first) */
	int finding;     /* caller's finding index, -1 when none */
	ka_fix_safety safety;
	ka_fix_status status;
	ka_edit *edits;
	size_t n_edits, cap_edits;
	char *why;    /* status detail: the winner of a conflict, the compiler error */
	size_t order; /* rank in the resolution order (ties of insertions at one point) */
	char *key;    /* the caller's name for the finding (ka_fix_request.key), or NULL */
} ka_fix;

/* One request: "finding N of rule R on row ROWID of table SCOPE wants TRANSFORM". */
typedef struct ka_fix_request {
	const char *rule;
	const char *transform;
	ka_fix_safety safety; /* the rule's fix_safety; the stricter of it and the transform's wins */
	int priority;         /* e.g. severity: error 0, warning 1, note 2 */
	const char *scope;    /* facts table of the finding's row */
	sqlite3_int64 rowid;
	int finding;     /* index the caller uses to find the fix again (SARIF) */
	const char *key; /* or a string naming the finding (copied into each fix); may be NULL */
} ka_fix_request;

typedef struct ka_fixset ka_fixset;

int ka_fixset_new(ka_fixset **out);
void ka_fixset_free(ka_fixset *fs);

/* The file texts fixes are computed against.  ka_fixset_source reads a file
 * once and keeps its bytes (NULL + KA_EIO when unreadable). */
int ka_fixset_source(ka_fixset *fs, const char *path, const char **data, size_t *len);
/* Give a text for a path without reading the disk (tests, agents, and the
 * lint run: the bytes the analyzer read). */
int ka_fixset_set_source(ka_fixset *fs, const char *path, const char *data, size_t len);
/* From now on a path without a text given is an error (KA_EIO), not a read
 * of the disk: fixes are computed only on the bytes that were analysed. */
void ka_fixset_set_strict(ka_fixset *fs);

/* Build fixes by hand (transforms use these). */
ka_fix *ka_fixset_add_fix(ka_fixset *fs, const char *file, const char *rule, const char *transform,
			  ka_fix_safety safety, int priority, int finding, const char *message);
int ka_fix_add_edit(ka_fix *fix, size_t begin, size_t end, const char *text);
/* Drop a fix's edits (a transform that gives up half-way); an empty fix is
 * never applied. */
void ka_fix_clear_edits(ka_fix *fix);
/* A note for the report, e.g. "a.cu:12: float-literal-suffix skipped: ...". */
void ka_fixset_note(ka_fixset *fs, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Move every fix, note and file text of src into dst (src is left empty);
 * finding indices of the moved fixes are shifted by finding_base.  A file
 * text dst already holds is kept; when src holds other bytes for it (the
 * file changed between two jobs' reads), src's fixes on it become STALE. */
int ka_fixset_merge(ka_fixset *dst, ka_fixset *src, int finding_base);

/* A fixset as bytes (util/wire.h) and back: texts, fixes with their
 * edits, notes, strictness.  What a lint worker process sends its parent.
 * KA_OK or < 0; unpack fails (KA_ERR) on a short or garbled message. */
int ka_fixset_pack(const ka_fixset *fs, ka_buf *out);
int ka_fixset_unpack(ka_wire_in *in, ka_fixset **out);

size_t ka_fixset_count(const ka_fixset *fs);
ka_fix *ka_fixset_get(ka_fixset *fs, size_t i);
size_t ka_fixset_note_count(const ka_fixset *fs);
const char *ka_fixset_note_get(const ka_fixset *fs, size_t i);

/* Run the transform a request names against the facts; fixes and notes go
 * into fs.  An unknown transform name is a note, not an error.  Returns KA_OK
 * or < 0 on a runtime failure (out of memory, SQL error). */
int ka_fixset_request(ka_fixset *fs, sqlite3 *db, const ka_fix_request *req);

/* Mark fixes whose safety ranks above `max_safety` NOT_SELECTED, then resolve
 * overlaps per file: by priority, then position, then rule id; losers become
 * CONFLICT (with a note naming the winner), exact repeats DUPLICATE. */
void ka_fixset_resolve(ka_fixset *fs, ka_fix_safety max_safety);

/* The new text of `file` with its ACCEPTED fixes applied (caller frees).
 * *changed = 0 when nothing applies. */
int ka_fixset_apply_file(ka_fixset *fs, const char *file, char **out, size_t *out_len, int *changed);
/* Apply a sorted, non-overlapping edit array to a text (used by the above). */
int ka_edits_apply(const char *src, size_t len, const ka_edit *edits, size_t n, char **out, size_t *out_len);

/* Files that have at least one ACCEPTED fix, in first-seen order. */
size_t ka_fixset_file_count(const ka_fixset *fs);
const char *ka_fixset_file_get(const ka_fixset *fs, size_t i);
/* Drop every fix of a file (status, reason); used by the compile gate. */
void ka_fixset_reject_file(ka_fixset *fs, const char *file, ka_fix_status status, const char *why);

/* 1-based line of a byte offset in a known file (0 when unknown). */
int ka_fixset_line_of(ka_fixset *fs, const char *file, size_t off);

/* Unified diff of one file (3 lines of context), headers `--- a/LABEL` and
 * `+++ b/LABEL`; nothing is appended when the texts are equal. */
int ka_diff_unified(const char *label, const char *old, size_t old_len, const char *new_text, size_t new_len,
		    FILE *out);
/* The path as `patch -p1` from the current directory wants it after a/ b/. */
char *ka_diff_label(const char *path);

/* clang-tidy's export format: one Diagnostic per fix with the given status. */
int ka_fixset_write_yaml(ka_fixset *fs, const char *main_file, ka_fix_status status, FILE *out);

/* SARIF `fixes` for one finding index: a JSON text of an array (caller
 * frees), NULL when the finding has no fix.  Columns count UTF-16 units. */
char *ka_fixset_sarif_fixes(ka_fixset *fs, int finding);
/* The same for the fixes whose key is `key`; `shown` (may be NULL) is the
 * name the report gives the finding's file, used as the URI when a fix edits
 * that same file. */
char *ka_fixset_sarif_fixes_key(ka_fixset *fs, const char *key, const char *shown);

/* The compile gate. */
typedef struct ka_gate_opts {
	const char *arch; /* KA_ARCH_DEFAULT (analyzer/arch.h) when NULL */
	int timeout_s;    /* 60 when 0 */
	const char *const
		*extra_args; /* project flags: only what ka_proc_cc_flag keeps (-I -D ...) is used */
	int n_extra_args;
	const char *nvcc;  /* NULL: $KCHECK_NVCC, PATH, /usr/local/cuda/bin */
	const char *hipcc; /* NULL: $KCHECK_HIPCC, PATH, /opt/rocm/bin */
} ka_gate_opts;

#define KA_GATE_OPTS_INIT {0}

/* The compiler for a file: nvcc, or hipcc for .hip (caller frees); NULL when none. */
char *ka_gate_find_compiler(const ka_gate_opts *o, const char *path);
/* Compile `text` as if it were `path` (from a temporary file next to it, so
 * relative includes work; the temporary is removed), with hipcc when the file
 * is HIP as the analyzer sees it: a .hip file, `-x hip` in extra_args, or a
 * file that includes hip/hip_runtime.h (the last -x in extra_args decides).  KA_OK when it compiles;
 * KA_ETOOL when it does not or timed out, with *first_error the compiler's
 * first error line (caller frees); KA_ENOTFOUND when no compiler exists. */
int ka_gate_compile(const ka_gate_opts *o, const char *path, const char *text, size_t len,
		    char **first_error);
/* `text` in a new temporary `.NAME.kcheck-XXXXXX.cu` (or .hip) beside path,
 * so that its relative includes resolve, registered for removal should a
 * signal end the run: *tmp_out (caller passes it to ka_gate_temp_remove)
 * and its cleanup *slot. */
int ka_gate_temp(const char *path, const char *text, size_t len, char **tmp_out, int *slot);
/* Remove and free a ka_gate_temp file (tmp NULL: nothing to do). */
void ka_gate_temp_remove(char *tmp, int slot);

/* Committing fixes: resolve, check the files did not change on disk, run the
 * compile gate per changed file, then write in place (atomically, after every
 * check has passed, so an error leaves every file as it was) and/or print the
 * patch. */
typedef struct ka_commit_opts {
	ka_fix_safety max_safety; /* KA_FIX_SAFE for --fix, KA_FIX_UNSAFE with --unsafe-fixes */
	int write;                /* --fix: write the files */
	FILE *diff;               /* --diff: the patch goes here; NULL for none */
	int gate;                 /* run the compile gate */
	int require_gate;         /* no compiler is an error (KA_ETOOL) */
	ka_gate_opts gate_opts;
	FILE *log; /* notes and gate results, one line each; NULL = none */
} ka_commit_opts;

typedef struct ka_commit_result {
	int files_changed; /* written, or shown in the diff */
	int fixes_applied;
	int fixes_rejected; /* compile gate or stale file */
	int gate_skipped;   /* no compiler */
} ka_commit_result;

/* KA_OK; KA_ETOOL when require_gate and no compiler; KA_EIO when a file
 * cannot be written (nothing is written then). */
int ka_fixset_commit(ka_fixset *fs, const ka_commit_opts *o, ka_commit_result *res);

/* The transform library. */
typedef struct ka_transform_info {
	const char *name;
	ka_fix_safety safety; /* the ceiling: the best class any of its fixes gets */
	const char *summary;
} ka_transform_info;

/* Sorted by name. */
size_t ka_transform_count(void);
const ka_transform_info *ka_transform_get(size_t i);
const ka_transform_info *ka_transform_find(const char *name);
/* The named transform's ceiling as an int (a ka_fix_ceiling_hook), -1 when unknown. */
int ka_transform_ceiling(const char *name);
const char *ka_fix_status_name(ka_fix_status s);

#endif
