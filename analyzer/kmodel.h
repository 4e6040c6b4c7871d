/* analyzer/kmodel.h: a kernel model for rewriting, built from the clang AST.
 *
 * Where model.h is the lowered syntax tree, a ka_kmodel is what a rewrite
 * needs to know about one kernel, whatever the spelling:
 *   - the iteration space each thread owns: integer locals whose value is an
 *     affine form over threadIdx, blockIdx, blockDim (through casts, helper
 *     variables, int/long long/size_t/const types, any order of the terms),
 *     and the guard that bounds it (`if (i >= n) return;` or
 *     `if (i < n) { ... }`, casts and swapped sides included), with the
 *     bound's value when it is a product or sum of parameters, and the
 *     pointer locals at a parameter plus an offset (`out + b * T * C + c`);
 *   - the loops, with their variable, start, bound, step and constant trip
 *     count (a bound or step held in a const/constexpr variable or a
 *     #define counts), grid-stride loops marked as such;
 *   - the loop-carried accumulators, recognized as reductions by what they
 *     compute: sum, product, min, max (fmaxf/max/?:/if-compare), count,
 *     argmax/argmin as a (value, index) pair with its tie rule, sum of
 *     squares next to its sum, Welford's mean and M2, and the online
 *     max-and-sum of softmax; a partial declared outside its loop and reset
 *     in an outer one is marked as a chunk partial.
 * Every range is a byte offset pair [begin, end) in the main file.  What
 * cannot be modelled sets `why` to a reason naming the construct; the
 * rest of the model is still filled.
 */
#ifndef KA_ANALYZER_KMODEL_H
#define KA_ANALYZER_KMODEL_H
#include <stddef.h>
#include <stdint.h>
#include "analyzer/model.h"

#define KA_KM_MAX 32

typedef enum ka_km_ixkind {
	KM_IX_OTHER = 0,
	KM_IX_GLOBAL, /* blockIdx.a * blockDim.a + threadIdx.a (+ const) */
	KM_IX_THREAD, /* threadIdx.a (+ const) */
	KM_IX_BLOCK   /* blockIdx.a (+ const) */
} ka_km_ixkind;

/* An integer local computed from thread or block ids. */
typedef struct ka_km_index {
	const char *name;
	const ka_decl *decl;
	ka_km_ixkind kind;
	int axis;           /* 0 x, 1 y, 2 z (kind != OTHER) */
	const char *affine; /* the value over ids and parameters, as text */
	/* K (2 to 4096) when kind is KM_IX_OTHER and the value is K times the
	 * global index along axis, `(blockIdx.x * blockDim.x + threadIdx.x) *
	 * 8` (K a literal, a constexpr or a #define once folded): a thread
	 * that owns the K elements from there; 0 otherwise */
	int64_t scale;
	const char *type; /* canonical type ("long long", "unsigned long") */
	int is_const;
	int begin, end; /* the declaration statement */
} ka_km_index;

typedef enum ka_km_guardform {
	KM_GUARD_NONE = 0,
	KM_GUARD_RETURN, /* if (i >= n) return;   the rest of the body is guarded */
	KM_GUARD_BLOCK,  /* if (i < n) { ... }     nothing after it */
	/* for (i = <global index along x>; i < n; i += blockDim.x * gridDim.x) { ... },
	 * the body's last statement: a grid-stride loop owns the same indices */
	KM_GUARD_STRIDE
} ka_km_guardform;

typedef struct ka_km_guard {
	ka_km_guardform form;
	int index;                  /* into idx[] */
	const char *bound;          /* n, as written (casts dropped) */
	const ka_decl *bound_param; /* n when it is a parameter of the kernel */
	/* n's value when it is a sum of products of parameters and integer
	 * constants, directly or through locals (`B * T`, `N` after
	 * `int N = B * T * C;`), as text ("B*T*C"); NULL otherwise */
	const char *bound_value;
	int begin, end;           /* the if statement */
	int body_begin, body_end; /* what it guards: inside the braces, or the rest of the body */
	int loop;                 /* STRIDE: the loop, into loops[]; -1 otherwise */
} ka_km_guard;

typedef struct ka_km_loop {
	const char *var;
	const ka_decl *decl;
	int parent; /* index into loops[], -1 at the top */
	int depth;
	int begin, end; /* the for statement */
	int init_begin, init_end, cond_begin, cond_end, step_begin, step_end;
	int body_begin, body_end;
	const char *start, *bound; /* texts; bound NULL when the test is not var < / <= E */
	int bound_le;              /* the test is <= */
	int64_t step;              /* constant step, 0 when not constant */
	int64_t trips;             /* constant trip count, -1 unknown */
	int grid_stride;           /* steps by blockDim * gridDim */
} ka_km_loop;

/* A pointer local `T *q = P + off;` (also `&P[off]`, `off + P`, or a
 * pointer local of that kind plus an offset) with P a pointer parameter:
 * where q points, in elements of P, whatever the spelling, as declared (a
 * recipe checks that q is not assigned afterwards). */
typedef struct ka_km_ptr {
	const char *name;
	const ka_decl *decl;
	const char *base;   /* P */
	const char *offset; /* off over ids, parameters and locals, as text */
	int is_index;       /* off is the value of the guarded index (`b * T * C + t * C + c`
			     * with b, t, c split from it): one element per thread */
	int begin, end;     /* the declaration statement */
} ka_km_ptr;

typedef enum ka_km_red {
	KM_RED_NONE = 0,
	KM_RED_SUM,
	KM_RED_PROD,
	KM_RED_MIN,
	KM_RED_MAX,
	KM_RED_COUNT,
	KM_RED_ARGMAX,
	KM_RED_ARGMIN,
	KM_RED_WELFORD,       /* mean and M2 (partner) with a count */
	KM_RED_ONLINE_SOFTMAX /* the sum, rescaled by the running max (partner) */
} ka_km_red;

typedef struct ka_km_acc {
	const char *name;
	const ka_decl *decl;
	ka_km_red red;
	int loop;             /* the innermost loop that updates it */
	const char *index;    /* ARGMAX/ARGMIN: the index variable of the pair */
	int tie_first;        /* ARGMAX/ARGMIN: a strict compare keeps the first */
	const char *partner;  /* WELFORD: M2 of this mean; ONLINE_SOFTMAX: the max; SUM: its square's sum */
	const char *sumsq_of; /* SUM: the accumulator whose terms it squares */
	int partial;          /* reset inside an outer loop: a chunk partial */
	int reset_loop;       /* the loop that resets it, -1 none */
	int begin, end;       /* its (first) update statement */
	int decl_begin, decl_end;
} ka_km_acc;

typedef struct ka_kmodel {
	const char *kernel;
	const ka_decl *fn;
	int body_begin, body_end; /* inside the braces */
	ka_km_index idx[KA_KM_MAX];
	int nidx;
	ka_km_guard guard;
	ka_km_loop loops[KA_KM_MAX];
	int nloops;
	ka_km_acc accs[KA_KM_MAX];
	int naccs;
	ka_km_ptr ptrs[KA_KM_MAX];
	int nptrs;
	int uses_shared, uses_barrier, uses_griddim, returns; /* returns: count of return statements */
	char why[256];                                        /* "" when everything was modelled */
} ka_kmodel;

/* Build the model of kernel `name` from a lowered TU (allocated in
 * tu->arena).  KA_OK; KA_EINPUT when there is no such kernel. */
int ka_kmodel_of_tu(ka_tu *tu, const char *name, ka_kmodel **out);

/* Parse text (a CUDA or HIP main file whose quoted includes resolve in
 * include_dir or in a folder extra names, or are blanked when they do not)
 * and model kernel `name`.  extra: the file's compiler flags as a compile
 * command has them (nvcc's or clang's spelling: -I, -D, -std, ...;
 * analyzer/frontend_flags.c translates and filters them).  *tu_out holds the
 * model; free it with ka_kmodel_free.  KA_OK, KA_EINPUT (no such kernel,
 * or it did not parse), KA_EIO. */
typedef struct ka_kmodel_doc {
	ka_tu *tu;
	ka_kmodel *km;
} ka_kmodel_doc;
int ka_kmodel_of_text(const char *text, size_t len, const char *lang, const char *name,
		      const char *include_dir, const char *const *extra, int nextra, ka_kmodel_doc *out);
void ka_kmodel_free(ka_kmodel_doc *d);
/* The TU ka_kmodel_of_text models, parsed the same way, for a caller that
 * models several kernels of one text (ka_kmodel_of_tu on it; ka_tu_free). */
int ka_kmodel_parse_text(const char *text, size_t len, const char *lang, const char *include_dir,
			 const char *const *extra, int nextra, ka_tu **out);

const char *ka_kmodel_red_name(ka_km_red r);
/* The accumulator named `name`, or NULL. */
const ka_km_acc *ka_kmodel_acc(const ka_kmodel *m, const char *name);
/* The pointer local named `name`, or NULL. */
const ka_km_ptr *ka_kmodel_ptr(const ka_kmodel *m, const char *name);
/* The index the guard bounds, or NULL (STRIDE: the loop's variable, whose
 * begin/end are the loop header's init part). */
const ka_km_index *ka_kmodel_guarded_index(const ka_kmodel *m);

#endif
