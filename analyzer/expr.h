/* analyzer/expr.h: symbolic values of the index analysis.
 *
 * Every integer value a kernel computes is an expression tree (sx) over
 * symbols: thread and block ids, block and grid dims, parameters, loop
 * iteration counters, loaded values and opaque variables.  From a tree we get
 * (1) its dependence bits (which kinds of symbol it depends on), (2) its
 * coefficient along a symbol when it is affine in it, and (3) its value for a
 * given lane of the modelled warp.  Nothing is guessed: unknown pieces stay
 * symbols, and evaluation fails on values that vary per lane unpredictably.
 */
#ifndef KA_ANALYZER_EXPR_H
#define KA_ANALYZER_EXPR_H
#include <stdint.h>
#include "util/arena.h"

enum {
	D_TX = 1u << 0,
	D_TY = 1u << 1,
	D_TZ = 1u << 2,    /* lane-varying */
	D_BLOCK = 1u << 3, /* blockIdx */
	D_LOOP = 1u << 4,  /* loop iteration or loop-carried variable */
	D_DATA = 1u << 5,  /* a value loaded from memory */
	D_PARAM = 1u << 6, /* kernel parameter or dims */
	D_OPAQUE = 1u << 7 /* float math, unknown calls */
};
#define D_LANE (D_TX | D_TY | D_TZ)

typedef enum sx_sym_kind {
	SYM_TID_X,
	SYM_TID_Y,
	SYM_TID_Z,
	SYM_BID_X,
	SYM_BID_Y,
	SYM_BID_Z,
	SYM_BDIM_X,
	SYM_BDIM_Y,
	SYM_BDIM_Z,
	SYM_GDIM_X,
	SYM_GDIM_Y,
	SYM_GDIM_Z,
	SYM_WARPSIZE,
	SYM_PARAM,
	SYM_ITER,
	SYM_VAR,
	SYM_LOAD,
	SYM_OTHER
} sx_sym_kind;

typedef struct sx_sym {
	sx_sym_kind kind;
	const char *name;
	unsigned dep;     /* D_* of this symbol */
	uint64_t loops;   /* loops it varies in (bit = loop slot) */
	int64_t value;    /* value used when evaluating */
	int has_value;    /* known (dims, bound template args) vs assumed */
	int lane_varying; /* value differs per lane in a way we cannot evaluate */
	int is_static;    /* a compile-time constant of unknown value (template parameter) */
	int carried;      /* a loop-carried variable other than the loop's counter: a value
			   * a loop updates in its body (`n++`, `acc += v`), as seen in it */
	int warp_uniform; /* one value in all lanes of a warp, maybe another in the next warp
			   * (a vote, a broadcast shuffle): lane-dependent at block level */
	int seg_uniform;  /* one value in each aligned group of this many lanes (a load
			   * from an address the group shares); 0 unknown */
	/* warp butterflies: a `__shfl_xor_sync(m, v, k)` result has xsrc = v
	 * and xk = k; a value combined with its butterfly partner has bsrc =
	 * that value and bk = k, and xbits the lane bits across which it is
	 * known to be the same (all of them: warp_uniform) */
	const struct sx *xsrc, *xk, *bsrc, *bk;
	unsigned xbits;
	const struct sx *merged[2]; /* a variable's values on the two paths that joined here */

	/* A kernel parameter every launch passes the same constant, and that
	 * constant: read by sx_eval_launch only. */
	int has_launch_value;
	int64_t launch_value;
} sx_sym;

typedef enum sx_kind {
	SX_CONST,
	SX_SYM,
	SX_ADD,
	SX_MUL,
	SX_DIV,
	SX_REM,
	SX_SHL,
	SX_SHR,
	SX_AND,
	SX_OR,
	SX_XOR,
	SX_MIN,
	SX_MAX,
	SX_CMP,
	SX_OPAQUE
} sx_kind;

typedef struct sx {
	sx_kind k;
	int64_t c; /* CONST value; CMP: the ka_op */
	int sym;   /* SYM index */
	const struct sx *a, *b;
	unsigned dep;
	uint64_t loops;
	int has_rem_small; /* contains % or & by a small constant over lane ids */
	int has_rem_var;   /* contains % by a run-time value over lane ids: a lane test
			    * (`tid % (2 * s) == 0`), but no bound on the values */
	int has_rem_key;   /* contains % by a run-time value of a loaded value: a key
			    * binned into a histogram's bins (`x[i] % bins`) */
	int divrem;        /* contains a /, %, >> or & node (see sx_add's recombination) */
	int depth, size;   /* tree height and node count (saturating); see SX_MAX_* */
	int64_t atomic_id; /* OPAQUE: the fact id of the atomic whose returned old value this is */
} sx;

/* Bounds on one tree: a deeper or larger value becomes opaque, so every
 * recursive walk over a tree is bounded in stack and time (substitution
 * builds DAGs: `x = x + x` repeated 60 times is a tree of 2^60 nodes). */
#define SX_MAX_DEPTH 200
#define SX_MAX_SIZE 4096

typedef struct sx_ctx {
	ka_arena *arena;
	sx_sym *syms;
	int nsyms, capsyms;
	int nopaque; /* opaque values made so far (each one's number, in sx.sym) */
} sx_ctx;

void sx_ctx_init(sx_ctx *c, ka_arena *a);
int sx_new_sym(sx_ctx *c, sx_sym_kind kind, const char *name, unsigned dep, uint64_t loops);

const sx *sx_const(sx_ctx *c, int64_t v);
const sx *sx_symref(sx_ctx *c, int sym);
const sx *sx_bin(sx_ctx *c, sx_kind k, const sx *a, const sx *b);
/* A sum; `(X / D) * D * K + (X % D) * K` (also `>>`/`&` by powers of two)
 * recombines into `X * K`, so an index split into row and column and put
 * back together (`b = i / T; t = i % T; b * T * C + t * C`) is affine in i. */
const sx *sx_add(sx_ctx *c, const sx *a, const sx *b);
/* Structural equality (same shape, constants and symbols). */
int sx_equal(const sx *a, const sx *b);
/* 1 when x and y are the same value: equal trees, or a difference that folds
 * to 0 (the same sum written in another order). */
int sx_same_value(sx_ctx *c, const sx *x, const sx *y);
/* X and D of a quotient `X / D` or `X >> s` (D = 2^s), or of a remainder
 * `X % D` or `X & (2^s - 1)` (want_rem); 0 when f is neither. */
int sx_split_divrem(sx_ctx *c, const sx *f, int want_rem, const sx **x, const sx **d);
/* 1 when an index splits a lane-dependent value X into `X / D` and `X % D`
 * and puts them back in order: the remainder (the part that moves fastest
 * between lanes) weighs less than the quotient (`(i / bs) * W * K + (i % bs)
 * * K`), and no split in x is weighted the other way (`(i % n) * n + i / n`,
 * a transposed store).  Weights are compared at the symbols' values
 * (run-time sizes as 1024). */
int sx_split_in_order(sx_ctx *c, const sx *x);
/* 1 when an index splits a lane-dependent value and every part of the
 * split is scaled by a run-time value that shares no symbol with the
 * split's divisors (`(i / sx) % sy * stride_y + (i % sx) * stride_x`, a
 * strided view's element strides): which axis is the contiguous one is not
 * in the code, so the split's order says nothing.  Weights built from the
 * divisors (`h * T * T + t * T` with `h = i % NH`, `t = i / NH % T`) show
 * the layout. */
int sx_split_strides_runtime(sx_ctx *c, const sx *x);
/* x as rest + c0 + sum of k[j] * sym iters[j]: the terms that are a loop
 * counter alone (times a constant) taken out, with the constant term, so
 * that rest is what one lane's accesses of a record share (`p[16*i + 4*r +
 * c]`: rest 16*i, k 4 and 1).  0 when x is not a sum of products. */
int sx_split_iters(sx_ctx *c, const sx *x, const int *iters, int nit, const sx **rest, int64_t *k,
		   int64_t *c0);
const sx *sx_mul(sx_ctx *c, const sx *a, const sx *b);
const sx *sx_neg(sx_ctx *c, const sx *a);
/* An opaque value that depends on what `a` and `b` depend on. */
const sx *sx_opaque(sx_ctx *c, unsigned dep, uint64_t loops);
/* an opaque value that is the old value an atomic returned (its fact id) */
const sx *sx_atomic_result(sx_ctx *c, unsigned dep, uint64_t loops, int64_t atomic_id);

int sx_is_const(const sx *x, int64_t *v);
/* Coefficient of `x` along symbol kind `kind` when x is affine in it;
 * NULL when it is not (the symbol occurs under /, %, &, ...). */
const sx *sx_coef(sx_ctx *c, const sx *x, sx_sym_kind kind);
/* Divide by a constant when every term divides exactly; NULL otherwise. */
const sx *sx_div_exact(sx_ctx *c, const sx *x, int64_t d);
/* The constant term of a polynomial (0 for pure symbol terms); 0 when x
 * is not a polynomial. */
int sx_const_term(const sx *x, int64_t *out);
/* 1 when a lane-dependent part of x (not just an added offset) involves
 * a value of unknown size: then per-lane figures rest on an assumption. */
int sx_mixes_unknown_with_lanes(const sx_ctx *c, const sx *x);
/* 1 when x is a compile-time constant: constants and static symbols only. */
int sx_is_static(const sx_ctx *c, const sx *x);
/* Symbols of unknown value (params, loaded data...) in x (ignoring dims). */
int sx_has_unknown(const sx_ctx *c, const sx *x);
/* 1 when x holds an opaque value (a call the model did not follow, an
 * unresolved construct): x's dependences are then only what was seen. */
int sx_has_opaque(const sx *x);
/* The first loop-carried symbol (sx_sym.carried) in x, -1 when none. */
int sx_carried_sym(const sx_ctx *c, const sx *x);
/* 1 when x refers to symbol sym. */
int sx_uses_sym(const sx *x, int sym);

typedef struct sx_lane {
	int64_t tid[3];
} sx_lane;

/* The launched threads: thread and block indices run over [0, dim - 1] on
 * each axis; 0 in a dimension means unknown. */
typedef struct sx_box {
	int64_t block[3];
	int64_t grid[3];
} sx_box;

/* The range [lo, hi] of x over every thread of the box, with parameters
 * that every launch passes the same constant; 0 on success, -1 when x
 * depends on anything else (data, loops, unknown sizes) or an operation the
 * bounds do not follow.  Comparisons and && give 0/1 ranges: lo == hi means
 * the same value in every launched thread. */
int sx_range(const sx_ctx *c, const sx *x, const sx_box *box, int64_t *lo, int64_t *hi);

/* Value for one lane; 0 on success, -1 when it depends on per-lane data. */
int sx_eval(const sx_ctx *c, const sx *x, const sx_lane *lane, int64_t *out);
/* The same with kernel parameters at the value every launch passes
 * (has_launch_value); -1 also when x holds a symbol of no known value
 * (a parameter the launches do not fix, blockIdx, a loaded value...). */
int sx_eval_launch(const sx_ctx *c, const sx *x, const sx_lane *lane, int64_t *out);
/* Text form, e.g. "blockIdx.x*blockDim.x + threadIdx.x" (arena string). */
const char *sx_render(const sx_ctx *c, ka_arena *a, const sx *x);
const char *sx_render_key(const sx_ctx *c, ka_arena *a, const sx *x);
/* x without its additive constant, as a canonical text: sums and products
 * flattened, constants folded, terms and factors sorted, so that two
 * indexes that differ only by a constant (4*i + 1, i*4 + 3) give one text.
 * NULL when a folded constant overflows. */
const char *sx_render_var(const sx_ctx *c, ka_arena *a, const sx *x);

#endif
