/* recipes/recipe_scan_int.h: what the two scan recipes share (defined in
 * recipes/recipe_scan.c): the device helpers they insert and the lexical
 * checks on squeezed statements (recipes/csrc.h's ka_csrc_squeeze).  Not a
 * public header. */
#ifndef KA_RECIPES_RECIPE_SCAN_INT_H
#define KA_RECIPES_RECIPE_SCAN_INT_H
#include "recipes/recipe.h"

/* ka_block_exclusive_scan(v) (every thread of a block of a multiple of 32
 * threads, at most 1024, calls it) and ka_scan_overlap(a, b, n), under an
 * include guard so that several kernels of one file can take them. */
extern const char ka_recipe_scan_helpers[];

/* 1 when s is a zero literal: 0, 0u, 0ULL, ... */
int ka_recipe_scan_is_zero(const char *s);
/* The type text without `const`, normalized into out: 1 for an integer
 * type the warp shuffles take, 2 for a floating-point type (out not set),
 * 0 for anything else. */
int ka_recipe_scan_type(const char *type, char *out, size_t cap);
/* `TYPE NAME = RHS` (squeezed, no ';'), a plain variable of a type
 * without pointers or references: the parts and 1; otherwise 0. */
int ka_recipe_scan_decl(const char *sq, char *type, size_t tcap, char *name, size_t ncap, char *rhs,
			size_t rcap);
/* The statement [s, e) squeezed into buf without its ';'; 0 when it does
 * not fit or does not end in ';'. */
int ka_recipe_scan_stmt(const char *t, size_t s, size_t e, char *buf, size_t cap);

#endif
