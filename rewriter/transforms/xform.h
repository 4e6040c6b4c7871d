/* rewriter/transforms/xform.h: what transforms share (private to rewriter/).
 *
 * A transform reads the facts row of a finding, checks the source bytes at
 * the row's offsets, and adds one fix (a group of edits) to the fixset, or a
 * note saying why it did not.  Every transform lives in its own file named
 * after it and is listed in registry.c. */
#ifndef KA_REWRITER_XFORM_H
#define KA_REWRITER_XFORM_H
#include "rewriter/rewriter.h"
#include <stddef.h>

typedef struct xf_ctx {
	ka_fixset *fs;
	sqlite3 *db;
	const ka_fix_request *req;
	const char *name;        /* the transform's name */
} xf_ctx;

typedef int (*xf_fn)(xf_ctx *c);

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
/* A new fix; safety is the stricter of `s` and the request's. */
ka_fix *xf_fix(xf_ctx *c, const char *file, ka_fix_safety s, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A note "FILE:LINE: TRANSFORM skipped [RULE]: why"; returns 0. */
int xf_skip(xf_ctx *c, const char *file, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* 1 when src[b..e) equals want; else a note (macro expansion or file changed
 * on disk since the analysis) and 0. */
int xf_expect(xf_ctx *c, const char *file, const char *src, size_t len, size_t b, size_t e,
	      const char *want);

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

/* The transforms (one file each). */
int xf_pad_shared_array(xf_ctx *c);
int xf_float_literal_suffix(xf_ctx *c);
int xf_double_math_to_float(xf_ctx *c);
int xf_pow_to_multiply(xf_ctx *c);
int xf_legacy_intrinsic_to_sync(xf_ctx *c);
int xf_insert_syncwarp(xf_ctx *c);
int xf_rsqrt(xf_ctx *c);
int xf_fast_math_intrinsic(xf_ctx *c);
int xf_const_restrict_params(xf_ctx *c);
int xf_hoist_invariant_load(xf_ctx *c);
int xf_accumulate_in_register(xf_ctx *c);
int xf_early_return_to_guard(xf_ctx *c);
int xf_index_to_64bit(xf_ctx *c);
int xf_swap_thread_dims(xf_ctx *c);
int xf_sequential_reduction(xf_ctx *c);
int xf_privatize_atomics(xf_ctx *c);
int xf_round_block_size(xf_ctx *c);
int xf_add_launch_bounds(xf_ctx *c);
int xf_smem_optin_attribute(xf_ctx *c);
int xf_hip_warpsize(xf_ctx *c);
int xf_hip_64bit_mask(xf_ctx *c);

#endif
