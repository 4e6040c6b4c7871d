/* recipes/recipe_gemm_int.h: the naive GEMM shape the two GEMM recipes
 * share (read in recipes/recipe_gemm.c): smem-tile-gemm on float operands,
 * wmma-gemm (recipes/recipe_wmma.c) on __half / __nv_bfloat16 ones.  Not a
 * public header.
 *
 *     T j = <x thread index>, i = <y thread index>;   (either order; or two statements)
 *     if (i >= M || j >= N) return;                    (either side first; or
 *                                                       if (i < M && j < N) { the rest } last) 
 *     float acc = 0.0f;
 *     for (I l = 0; l < K; l++) acc += CV(A[i * K + l]) * CV(B[l * N + j]);
 *     C[i * N + j] = E;
 *
 * (or B[j * K + l], B stored transposed: b_transposed) with M, N, K parameters; the loop header also `++l` / `l += 1`, I an
 * integer type; the update also `acc = acc + X * Y` or `acc = fmaf(X, Y,
 * acc)` (`__fmaf_rn`), the two factors in either order, each read bare or
 * through a conversion to float CV (`__bfloat162float`, `__half2float`,
 * `(float)`, `float(..)`, `static_cast<float>(..)`); the indices read as
 * sums of products (any order of terms and factors, widening casts); E
 * pure, reading the accumulator (and possibly i, j, parameters, C at the
 * stored element), no thread or block id. */
#ifndef KA_RECIPES_RECIPE_GEMM_INT_H
#define KA_RECIPES_RECIPE_GEMM_INT_H
#include "recipes/recipe.h"

typedef struct ka_recipe_gemm {
	char i[64], j[64], l[64], acc[64]; /* row, column, k-loop variable, accumulator */
	char itype[64], jtype[64];         /* i's and j's declared types, without const */
	char m[KA_CSRC_NAME], n[KA_CSRC_NAME], k[KA_CSRC_NAME];
	char a[KA_CSRC_NAME], b[KA_CSRC_NAME], c[KA_CSRC_NAME];
	char e[512];             /* E, squeezed, widening casts dropped */
	int converted;           /* both factors go through a conversion to float */
	int e_plain;             /* E reads nothing indexed and neither i nor j */
	int b_transposed;        /* B read as B[j * K + l] (N x K row-major, "NT") */
	size_t store_s, store_e; /* the store statement as written */
} ka_recipe_gemm;

/* KA_OK with g filled, or KA_RECIPE_DECLINED naming what differs. */
int ka_recipe_gemm_shape(ka_recipe_ctx *c, ka_recipe_gemm *g);

#endif
