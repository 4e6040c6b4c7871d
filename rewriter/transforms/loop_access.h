/* rewriter/transforms/loop_access.h: a global access inside a loop, as the
 * register transforms (hoist-invariant-load, accumulate-in-register) see it. */
#ifndef KA_REWRITER_LOOP_ACCESS_H
#define KA_REWRITER_LOOP_ACCESS_H
#include "rewriter/transforms/xform.h"

typedef struct xf_loop_access {
	char *file, *base, *rw;
	size_t b, e;   /* the access expression */
	size_t lb, le; /* its loop statement */
	size_t kb;     /* the kernel's start */
	size_t at;     /* where a statement before the loop goes */
	int invariant, global;
	char *text;   /* the access text, e.g. "C[row * N + col]" */
	char *name;   /* the register's name, e.g. "C_reg" */
	char *indent; /* the loop's indentation */
} xf_loop_access;

/* 1 loaded, 0 no such access (or no loop), < 0 error. */
int xf_loop_access_load(xf_ctx *c, sqlite3_int64 id, xf_loop_access *la);
/* 1 when the rewrite is possible (text, name, indent filled), 0 skipped with a note. */
int xf_loop_access_check(xf_ctx *c, xf_loop_access *la, const char *s, size_t len);
/* Replace every occurrence of the access text in the loop with the register. */
int xf_loop_access_replace(ka_fix *f, const xf_loop_access *la, const char *s, size_t len);
void xf_loop_access_free(xf_loop_access *la);
/* 1: w is assigned in s[lb..le); 2: an element w[...] is; 0: neither. */
int xf_assigned(const char *s, size_t lb, size_t le, const char *w);

#endif
