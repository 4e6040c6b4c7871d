/* rewriter/transforms/xform.h: what transforms share (private to rewriter/).
 *
 * A transform reads the facts row of a finding, checks the source bytes at
 * the row's offsets, and adds one fix (a group of edits) to the fixset, or a
 * note saying why it did not.  Every transform lives in its own file named
 * after it and declares itself once, at its entry function:
 *
 *     XF_TRANSFORM(pad_shared_array, KA_FIX_SAFE,
 *                  "pad a shared array's innermost dimension by one element")
 *     {
 *             return xf_each(c, "shared_array", pad_shared_array_row);
 *     }
 *
 * The build reads these declarations (registry_gen.cmake) into the registry
 * table and the prototypes (xf_registry.h): the name is the file's with
 * dashes (`pad-shared-array`), the safety is the ceiling, the best class any
 * fix of the transform gets (it decides per fix with xf_fix, which never
 * goes above the ceiling; a rule's fix_safety may only demote further).
 * The worker that handles one facts row is named `<name>_row`. */
#ifndef KA_REWRITER_XFORM_H
#define KA_REWRITER_XFORM_H
#include "rewriter/rewriter.h"
#include <stddef.h>

typedef struct xf_ctx {
	ka_fixset *fs;
	sqlite3 *db;
	const ka_fix_request *req;
	const char *name;      /* the transform's name */
	ka_fix_safety ceiling; /* its declared ceiling */
} xf_ctx;

typedef int (*xf_fn)(xf_ctx *c);

/* The entry function of transform `id` (see above); `c` is its context.
 * The macro drops `ceiling` and `summary`; the build copies them into the
 * generated table, where a misspelt safety is a compile error. */
#define XF_TRANSFORM(id, ceiling, summary) int xf_##id(xf_ctx *c)

/* A facts row read by column name.  The columns every located fact has are
 * bound when it loads: file, begin_off, end_off. */
typedef struct xf_fact {
	sqlite3_stmt *st;
	const char *file; /* `file`; "" when absent */
	size_t b, e;      /* `begin_off`, `end_off`; 0 when absent or NULL */
} xf_fact;

/* Run sql with ?1 = id: 1 with a row in f (release it with xf_fact_done),
 * 0 when there is none, < 0 on an error. */
int xf_fact_load(xf_ctx *c, const char *sql, sqlite3_int64 id, xf_fact *f);
void xf_fact_done(xf_fact *f);
/* Columns of the row by name (a name not in the SELECT is a programming
 * error: asserted; "" / 0 / NULL in a release build). */
const char *xf_str(const xf_fact *f, const char *col);
long long xf_int(const xf_fact *f, const char *col);
size_t xf_off(const xf_fact *f, const char *col);
double xf_real(const xf_fact *f, const char *col);
int xf_is_null(const xf_fact *f, const char *col);

/* Prepare `sql`, bind ?1 = id, step once: 1 row, 0 none, < 0 error (the
 * statement is finalized unless a row came back). */
int xf_row(xf_ctx *c, const char *sql, sqlite3_int64 id, sqlite3_stmt **st);
/* Ids of `table` rows belonging to the finding: its own row when the scope is
 * `table`, else the rows of `table` inside the scope row's byte range. */
int xf_rowids(xf_ctx *c, const char *table, sqlite3_int64 **ids, size_t *n);
/* The kernel the finding belongs to (its row when the scope is `kernel`,
 * else the row's kernel_id): 1 found, 0 none, < 0 error. */
int xf_kernel_of(xf_ctx *c, sqlite3_int64 *kernel_id);
/* Text column or "" */
const char *xf_text(sqlite3_stmt *st, int col);
/* 1 when the column is NULL */
int xf_null(sqlite3_stmt *st, int col);

int xf_source(xf_ctx *c, const char *file, const char **src, size_t *len);
/* A new fix; its safety is the strictest of `s`, the transform's ceiling
 * and the request's (the rule's fix_safety). */
ka_fix *xf_fix(xf_ctx *c, const char *file, ka_fix_safety s, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A note "FILE:LINE: TRANSFORM skipped [RULE]: why"; returns 0. */
int xf_skip(xf_ctx *c, const char *file, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* 1 when src[b..e) equals want; else a note (macro expansion or file changed
 * on disk since the analysis) and 0. */
int xf_expect(xf_ctx *c, const char *file, const char *src, size_t len, size_t b, size_t e, const char *want);

/* Lexing helpers over raw bytes (comments, strings and chars skipped). */
int xf_ident_char(int ch);
size_t xf_skip_ws(const char *s, size_t len, size_t i);
/* Index just after the last non-blank byte before i (blanks only). */
size_t xf_skip_ws_back(const char *s, size_t i);
/* i at an opener ( [ {: index just past its closer, or (size_t)-1. */
size_t xf_match(const char *s, size_t len, size_t i);
/* Column-1 indentation (spaces/tabs) of the line holding off, malloc'd. */
char *xf_indent_of(const char *s, size_t off);
/* Duplicate src[b..e) */
char *xf_dup(const char *s, size_t b, size_t e);
/* 1 when the whole word `word` starts at b. */
int xf_word_at(const char *s, size_t len, size_t b, const char *word);
/* 1 when the expression has no call, assignment, ++/-- or comma at top level:
 * safe to evaluate twice. */
int xf_pure_expr(const char *s, size_t b, size_t e);

/* Rename a call's callee by a {from, to} table ending in {NULL, NULL}. */
int xf_call_rename(xf_ctx *c, sqlite3_int64 id, const char *const map[][2], ka_fix_safety safety,
		   int need_float_arg);
/* Run fn on every row of `table` that belongs to the finding (xf_rowids). */
int xf_each(xf_ctx *c, const char *table, int (*fn)(xf_ctx *, sqlite3_int64));

/* The entry functions: generated from the XF_TRANSFORM declarations. */
#include "xf_registry.h"

#endif
