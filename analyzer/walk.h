/* analyzer/walk.h: internals shared by the kernel walker (walk*.c).
 *
 * The walker runs over one function of the model with an environment of
 * symbolic values (expr.h), substituting local definitions as it goes:
 * expressions (walk_expr.c), memory accesses (walk_access.c), statements
 * (walk_stmt.c), calls (walk_call.c), launch sites (walk_host.c).  What it
 * finds becomes rows through emit_*.c, on the typed facts writer.  Device
 * functions are walked again in the context of each kernel that calls them,
 * with their parameters bound to the caller's arguments.
 *
 * The state (struct walk) is split by lifetime: file (the TU), sym (the
 * symbolic environment), ctl (control stacks), tally (the kernel row's
 * counters), host (launch sites); shared functions carry the walk_ prefix.
 */
#ifndef KA_ANALYZER_WALK_H
#define KA_ANALYZER_WALK_H
#include <sqlite3.h>
#include "analyzer/arch.h"
#include "analyzer/expr.h"
#include "facts/facts.h"
#include "analyzer/model.h"

enum { SP_NONE = 0, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_CONSTANT, SP_UNKNOWN };

/* How a run-time index of a local array varies (local_array.index_kind),
 * from the tamest: with the counters of loops the compiler cannot unroll
 * (`v[i]`, i < n), with the thread, with another loop-carried variable
 * (`win[b + 1]` in an insertion sort), with loaded data; a store indexed by
 * a loop-carried variable itself is a running counter (`buf[n++] = x`,
 * `data[reg_count] = v`: fills as far as the data goes). */
enum { LX_NONE = 0, LX_LOOP, LX_THREAD, LX_CARRIED, LX_DATA, LX_COUNTER };

/* A value: an integer expression, or a pointer (base + byte offset). */
typedef struct val {
	const sx *x;   /* integer value, or the pointer's byte offset */
	ka_decl *base; /* pointer/array base declaration, else NULL */
	int space;     /* SP_* for pointers */
	int host_kind; /* host pointers: 1 malloc, 2 pinned */
} val;

typedef struct loop_ctx {
	int id, slot;    /* facts id, bit in sx loops masks */
	int nonuniform;  /* trip count differs between lanes */
	int unrollable;  /* constant trip count the compiler can unroll fully */
	int trip_static; /* start, bound and step are compile-time constants */
	int small;       /* at most 8 trips, or a compile-time count not known here
			  * (a template tile): a register loop, not a traffic loop */
	int has_launch;  /* host: a kernel launch inside */
	int has_trip;    /* a known trip count: trip iterations of the counter iter_sym */
	int iter_sym;    /* the SYM_ITER whose value is the iteration number (0..trip-1) */
	int64_t trip;
	/* a trip count that changes with the enclosing loops' counters (`for
	 * (j = i; j < 6; j++)` inside `for (i = 0; i < 6; i++)`): has_nest
	 * when every enclosing loop has a known trip count, and nest_trips the
	 * body's executions over the whole nest (loop.nest_trips) */
	int has_nest;
	int64_t nest_trips;
	int grid_stride;  /* the step's value is a multiple of gridDim, written out or held in
			  * a variable (`i += stride` after `stride = gridDim.x * blockDim.x`) */
	int block_stride; /* a block-aligned stride loop whose bound nothing shows to be a
			   * multiple of the block's width (loop.block_stride) */
	int n_accesses, n_barriers, n_shared_writes;
	const char *shared_written; /* a shared array stored to inside */
	const sx *cond;             /* the condition, as the body sees it (NULL: none) */
	/* a loop whose trips differ between threads: where the threads that
	 * leave it early go (barrier.skip_exits), as br_ctx has for a branch */
	long begin_off, end_off;
	int has_off, axes;
	int64_t id0;
	int div_continue; /* a thread-dependent `continue` inside: the threads that take
			   * it meet the next trip's barriers while the others meet this one's */
} loop_ctx;

/* How far a value agrees across threads: from "differs between lanes of a
 * warp" to "the same in the whole grid" (branch.uniformity). */
typedef enum walk_uni {
	WALK_UNI_THREAD, /* can differ between lanes of a warp */
	WALK_UNI_WARP,   /* the same within each warp */
	WALK_UNI_BLOCK,  /* the same within a block */
	WALK_UNI_GRID    /* a constant */
} walk_uni;

/* Varies between threads of a block (thread or warp). */
static inline int walk_uni_thread_dep(walk_uni u)
{
	return u == WALK_UNI_THREAD || u == WALK_UNI_WARP;
}

#define WALK_MAX_BR_SHARED 24 /* shared accesses a branch keeps for walk_branch_lanes_independent */
typedef struct br_ctx {
	walk_uni uniformity;
	int line;
	const char *file; /* the condition's file (a helper's caller, a header) */
	int is_guard;
	int n_shared_writes, n_syncwarp, n_barriers, uses_volatile;
	int seg; /* a thread-dependent condition the same in each aligned group of
		  * seg lanes (2..16), 0 when not shown */
	/* the shared-memory accesses inside (walk_branch_lanes_independent):
	 * base, byte address, rw; nsh_over when more than WALK_MAX_BR_SHARED */
	struct {
		const ka_decl *base;
		const sx *x;
		int rw;
		const sx *cond; /* the innermost branch's condition where it runs */
	} sh[WALK_MAX_BR_SHARED];
	int nsh, nsh_over;
	int threads[2]; /* the block's threads that run the then [0] and else [1]
			 * branches by its bounds on thread ids (walk_cond_threads);
			 * 0 unknown */
	int pin;        /* the branch being walked runs on at most two lanes of each
			 * warp (walk_lane_pinned: `threadIdx.x == 0`, `lane != 0` in
			 * the else branch) */
	const sx *cond; /* the condition (NULL: not kept) */
	int nloops;     /* the loops open where the branch starts (it lies inside
			 * w->ctl.loops[0 .. nloops-1]) */
	int in_else;    /* the else branch is being walked (cond does not hold) */
	/* host code: the condition tests a CUDA or HIP status for failure (1:
	 * the then branch runs on failure, `e != cudaSuccess`; -1: the else
	 * branch does, `e == cudaSuccess`; 0 neither) */
	int fails;
	/* host code: the condition holds only on a program's first pass (1:
	 * the then branch, `if (step == 0)`, `if (!initialized)`; -1: the else
	 * branch, `if (step > 0) ... else`), or on every Nth pass only (2: `if
	 * (step % N == 0)`; -2: `if (step % N)`); 0 neither: call.first_run */
	int first_run;
	/* where the threads that skip a barrier inside go (barrier.skip_exits):
	 * the statement's text range in the walked function's own body (has_off
	 * 0 inside an inlined helper or a macro), the thread axes its condition
	 * reads (bit 0 x, 1 y, 2 z), and the facts id counter when it opened */
	long begin_off, end_off;
	int has_off, axes;
	int64_t id0;
} br_ctx;

typedef struct launch_info {
	ka_node *call;
	ka_decl *kernel;
	int bx, by, bz; /* 0 unknown */
	/* with the whole block unknown, the axes that fold (`dim3
	 * threads(nthreads, ntcol)` with `const int ntcol = 1`); 0 unknown */
	int bpart[3];
	int64_t grid[3];  /* the grid's blocks per axis; 0 unknown */
	int64_t dyn_smem; /* -1 unknown */
	int ntargs;
	int64_t targs[4];
	int next_same; /* next launch of the same kernel, -1 none */
	int argb[16];  /* bytes of each argument's pointee (pointers) or value; 0 unknown */

	/* integer arguments folded to a constant: bit i of argv_known says
	 * argv[i] holds one */
	int64_t argv[16];
	unsigned argv_known;

	/* bit i: argument i is a multiple of the block's x size: a host branch
	 * around the launch tests it (`if (n % NTX == 0)` around a launch of
	 * dim3(NTX, ...)), or it is a product with the block's x size as a
	 * factor (`batch * h * w * c` over a block of `c`) */
	unsigned argmul;
	/* bit i: argument i is shown not to be such a multiple: the launch sits
	 * in the else branch of a host test that it is one */
	unsigned argnotmul;
	/* per grid axis, bit i: that axis is argument i divided by the block's
	 * extent along it, rounded down (`dim3 grid(N / 32, M / 32)` over
	 * 32x32 blocks, passing N and M): every launched thread's global index
	 * along the axis is below argument i */
	unsigned argfloor[3];
	int64_t gpart[3]; /* the grid's axes that are constants when others are not; 0 unknown */
	/* bit j: the kernel's template argument j is spelled as the block's x
	 * size (`k<T, NTX><<<g, dim3(NTX, NTY)>>>`) */
	unsigned targ_is_bx;
	/* the launching host function; arg_param[i]: the index of its parameter
	 * that argument i names (-1: none); bx_tparam: the index of its template
	 * parameter that the block's x size names (-1: none) */
	const char *func;
	signed char arg_param[16];
	signed char bx_tparam;
} launch_info;

/* A call from host code: the callee's name, for each argument the modulus M
 * of a host branch around the call that tests `arg % M == 0` (0: none), and
 * the call's template arguments by template parameter (targ_known bit j). */
typedef struct host_call_guard {
	const char *callee;
	int64_t argmod[16];
	int64_t targv[8];
	unsigned targ_known;
} host_call_guard;

/* A template parameter's binding (by decl id): the value of an integer
 * parameter, the size of a type parameter. */
typedef struct tbind {
	int64_t v;
	int state; /* 0 unbound, 1 bound, 2 the uses disagree */
} tbind;

/* Per-declaration statistics gathered during a kernel walk. */
typedef struct dstat {
	int read, written, loop_reads;
	int max_bank;              /* shared arrays: worst bank-conflict degree */
	int n_dyn;                 /* local arrays: accesses with run-time index */
	int lx_kind;               /* local arrays: the most scattered such index (LX_*) */
	int counter_stores;        /* local arrays: stores indexed by a running counter */
	int counter_unguarded;     /* ... that no enclosing loop or if condition tests */
	const char *counter_text;  /* ... the first one's index text */
	int reinterp;              /* address taken into another type / vector access */
	int holds_tile;            /* a cg::thread_group holding a tiled_partition() */
	int host_kind;             /* host pointers: 1 malloc, 2 pinned */
	int64_t dim3v[3];          /* host dim3 variables: components assigned (t.x = 256) */
	unsigned char dim3_set[3]; /* 1 assigned a constant, 2 assigned a run-time value */
	unsigned char dim3_snap;   /* host dim3 variables: dim3_decl was taken */
	const sx *dim3_decl[3];    /* ... each axis's value where the variable was declared
				    * (a dim3 copies its sizes when it is made); NULL unknown */
	unsigned stored_dep;       /* local arrays: what the values stored so far (initializer
				    * included) depend on (D_*), read back by a load */
} dstat;

/* What is fixed for the translation unit: the model, the output, the
 * by-declaration tables and the per-file budget. */
typedef struct walk_file {
	ka_tu *tu;
	sqlite3 *db;
	ka_facts_writer *fw; /* every row goes through it (sticky error) */
	const ka_arch *arch;
	ka_arena *a;
	int64_t *next_id;      /* shared id counter per table kind */
	int nenv;              /* size of the by-decl-id tables */
	unsigned char *called; /* by decl id: device function inlined somewhere */
	ka_decl **fn_sorted;   /* functions by name (walk_funcs_index) */
	int nfn_sorted;
	ka_decl *smem_decl; /* the dynamic shared memory reached through SharedMemory<T> */
	/* the per-file analysis budget (walk_budget_spent) */
	double deadline;  /* CLOCK_MONOTONIC seconds; 0 none */
	size_t mem_limit; /* arena bytes; 0 none */
	unsigned budget_ticks;
	int over_budget;
	const char *budget_text; /* "60 s, 2048 MB" for the diagnostic */
} walk_file;

/* The symbolic environment: values of the declarations in scope. */
typedef struct walk_sym {
	sx_ctx sx;
	val *env;                 /* by decl id */
	dstat *ds;                /* by decl id */
	tbind *tb;                /* by decl id: template parameter bindings */
	const sx *ret_val;        /* return value of an inlined function */
	int ret_brs_base;         /* ctl.nbrs when that function's body began */
	int ret_div;              /* a return of it sat under a lane-divergent branch of its own */
	const char *elem_assumed; /* a dependent element type whose size was assumed */
	int group_axes;           /* walk_lvalue: axes the subscripted base moves with, the subscript not */
	const sx *group_base;     /* and that base's offset */
	/* walk_scope.c: the declarations the current function's walk can reach
	 * (its own, its callees', the globals they use).  Saving, restoring and
	 * merging the environment costs the function's size, not the TU's. */
	int *scope; /* decl ids */
	int nscope, capscope;
	int *scope_pos;         /* by decl id: index in scope (valid for this gen) */
	unsigned *scope_gen_of; /* by decl id */
	unsigned scope_gen;
} walk_sym;

/* The control context of the statement being walked.  The stacks have
 * fixed depths; past one the walk goes on without that context and says so
 * (walk_limit: "analysis limit reached in K at L"). */
#define WALK_STR_(x) #x
#define WALK_STR(x) WALK_STR_(x)
#define WALK_MAX_LOOPS 16
#define WALK_MAX_BRANCHES 32
#define WALK_MAX_INLINE 6 /* device functions inlined into each other */
#define WALK_MAX_ARRAYS 64
#define WALK_MAX_OPTIN 64
#define WALK_MAX_ARGS 16 /* arguments bound when inlining a call */
typedef struct walk_ctl {
	loop_ctx loops[WALK_MAX_LOOPS];
	int nloops, next_loop_slot;
	br_ctx brs[WALK_MAX_BRANCHES];
	int nbrs;
	int div_return_line; /* a thread-dependent return seen before */
	int guard_return;    /* a bounds-guard return seen before */
	int pin_rest;        /* `if (threadIdx.x != 0) return;` seen: what follows runs on
			      * at most two lanes of each warp */
	int rest_run;        /* host: `if (step % N != 0) return;` or `if (initialized)
			      * return;` at the top of the function, or the function is a
			      * constructor: what follows runs on every Nth pass (2) or
			      * the first pass (1) only */
	int quiet;           /* > 0: evaluate without emitting facts */
	int inline_depth;
	int ref_depth; /* local references followed by walk_lvalue (bounded) */
	ka_decl *inline_stack[WALK_MAX_INLINE];
	int stmt_level_call; /* the call being evaluated is a whole statement */
	unsigned store_dep;  /* the dependence of the value the access being walked stores (D_*) */
	int api_result_used; /* a cudaLaunchKernel-style launch whose error code the code reads */
	int last_was_barrier;
	int at_last_stmt;    /* walking the kernel body's last statement */
	ka_node *next_stmt;  /* the statement after the current one */
	unsigned limits_hit; /* 1 << walk_limit_kind already reported for this function */
	int store_value_dep; /* the value being stored: -1 none known, else 1 when thread-dependent */
	ka_node *call_site;  /* inlining: the outermost call in the walked function's own body */
} walk_ctl;

/* Counters and lists for the kernel row. */
typedef struct walk_tally {
	int n_barriers, n_accesses, n_loops, uses_warp, has_guard;
	ka_decl *arrays[WALK_MAX_ARRAYS]; /* shared and local arrays the kernel uses */
	int narrays;
} walk_tally;

/* The host scan: launch sites, gathered before the kernels are walked. */
typedef struct walk_host {
	launch_info *launches;
	int nlaunches, caplaunches;
	int *first_launch; /* by decl id: first of its launches (launch_info.next_same) */
	const char **optin_kernels;
	int noptin;
	host_call_guard *guards; /* every host call (launches aside) */
	int nguards, capguards;
} walk_host;

typedef struct walk {
	walk_file file;
	walk_sym sym;
	walk_ctl ctl;
	walk_tally tally;
	walk_host host;
	/* the function being walked */
	ka_decl *fn;     /* the function walked at top level */
	ka_decl *kernel; /* NULL for host code */
	int kernel_id;
	const char *func; /* where the current code is written */
	int is_device;
	int block[3];
	/* bit i: every launch of the kernel gives block axis i this size
	 * (block_source "launch", or y and z of launches whose x is a run-time
	 * value); an axis known to be 1 makes its threadIdx the constant 0 */
	unsigned block_axes_known;
	/* blocks per axis that every launch of the kernel in this file agrees
	 * on (with block_source "launch"); 0 unknown */
	int64_t grid[3];
	/* per grid axis with no constant size, the parameters that every
	 * launch's grid covers by rounding down (launch_info.argfloor) */
	unsigned grid_floor[3];
	int64_t grid_part[3]; /* constant axes every launch agrees on (launch_info.gpart); 0 unknown */
	const char *block_source;
	const char *assumption; /* block assumption text, NULL when known */
} walk;

/* walk_expr.c */
val walk_ev(walk *w, ka_node *n, int rw); /* rw: 0 read, 1 write, 2 readwrite */
const sx *walk_ev_int(walk *w, ka_node *n);
const sx *walk_ev_bool(walk *w, ka_node *n); /* a condition: a pointer is an unknown non-null test */
/* the dependences of n's operands, evaluated without recording anything */
void walk_kids_dep(walk *w, ka_node *n, unsigned *dep, uint64_t *loops);
ka_node *walk_strip(ka_node *n);
/* walk_call.c: a call of a lambda whose body is `return threadIdx;` (or
 * blockIdx, blockDim, gridDim, as a dim3): 0-3 in that order, else -1. */
int walk_lambda_builtin(ka_node *call);
int walk_fold_int(walk *w, ka_node *n, int64_t *v);
walk_uni walk_uniformity(walk *w, const sx *x);
const char *walk_uni_name(walk_uni u); /* thread | warp | block | grid */
int walk_is_guard(const sx *c);
int walk_in_divergent(walk *w, walk_uni *why, int *line, const char **file, int warp_level);
const char *walk_text(walk *w, ka_node *n);
void walk_host_call_guard(walk *w, ka_node *n, const char *name, ka_decl *callee);
int walk_call_targ_text(walk *w, ka_node *n, int j, char *buf, size_t cap);
int64_t walk_next_id(walk *w);

/* walk_stmt.c */
void walk_stmt(walk *w, ka_node *n);
void walk_assign(walk *w, ka_decl *d, val v);
int walk_is_return_only(const ka_node *n); /* `return;` or `{ return; }` */

/* walk_scope.c */
void walk_scope_alloc(walk *w);                        /* by-id tables, once per TU */
void walk_scope_enter(walk *w, ka_decl *fn);           /* clear the last scope, collect fn's */
int walk_scope_index(const walk *w, const ka_decl *d); /* -1 outside */
void walk_funcs_index(walk *w);                        /* after the TU's function list is final */
/* The functions named `name`, in list order: *first and the count. */
int walk_funcs_named(const walk *w, const char *name, ka_decl *const **first);
val *walk_env_save(walk *w); /* the scope's values (free()) */
void walk_env_restore(walk *w, const val *saved);
/* 1 once the file's time or memory budget is spent (checked every few
 * hundred calls; then the walk unwinds without emitting more facts). */
int walk_budget_spent(walk *w);

/* walk_access.c */
val walk_access(walk *w, ka_node *n, int rw); /* an lvalue read or written */
void walk_record_access(walk *w, ka_node *n, val addr, int abytes, int elem, const char *field, int rw);
int walk_private_record(const ka_decl *d); /* a thread's own struct variable */
int walk_space_of_decl(const ka_decl *d);  /* SP_* of a base declaration */
/* An lvalue's address (base, space, byte offset), element size and field. */
int walk_lvalue(walk *w, ka_node *n, val *out, int *elem, const char **field);
/* 1 when the declaration's type is an lvalue reference (`T &`, `const T &`) */
int walk_lvalue_ref(const ka_decl *p);
val walk_access_expr(walk *w, ka_node *n, int rw); /* subscript, deref, field: recorded */

/* The counter of a `for` loop as walk_stmt.c reads it off the init and
 * increment. */
typedef struct iv_info {
	ka_decl *iv;
	ka_node *step_node;
	int geometric; /* 1 growing (*=, <<=), -1 shrinking (/=, >>=), 0 affine */
	int64_t step;
	int step_known;
} iv_info;

/* walk_trips.c: 1 when a loop whose condition depends on the thread runs
 * the same trips in every thread of the block (start and step as walked) */
int walk_trips_uniform(walk *w, ka_node *cond, ka_node *inc, ka_node *body, const iv_info *iv,
		       const sx *start, const sx *step);
/* 1 for the shape of a block-aligned stride loop (`i = threadIdx.x; i < n;
 * i += blockDim.x`, or the grid-stride form) whose bound no launch shows
 * to be a partial block */
int walk_stride_shape(walk *w, ka_node *cond, ka_node *body, const iv_info *iv, const sx *start,
		      const sx *step);

/* walk_call.c */
val walk_ev_call(walk *w, ka_node *n);
val walk_inline_call(walk *w, ka_node *n, ka_decl *f, unsigned *written);
void walk_barrier(walk *w, ka_node *n, const char *kind); /* block | warp | fence | grid */

/* walk_types.c: element sizes (dependent types too), template bindings,
 * vector and reduced-precision operators, load/store intrinsics. */
int walk_elem_size(walk *w, ka_node *n, ka_node *ptr);
int walk_subscript_elem_size(walk *w, ka_node *n, const ka_decl *base);
const ka_decl *walk_subscript_root(ka_node *n, int *depth); /* `sum` of `sum[i][j]` (depth 2) */
/* a subscript of a template's type-dependent expression that still names a
 * row of its array (`sum[tx]` of `sum[BK][5][5]` with BK bound to several
 * values, `x[i][j]` of a helper's `T x[m0][m1][m2]`): fewer subscripts than
 * the declared array has bounds */
int walk_dependent_subarray(ka_node *n);
int walk_pointee_size(walk *w, ka_node *p);
int walk_size_of_type(walk *w, const char *type, int deref);
int walk_value_size(walk *w, ka_node *n);
const char *walk_index_text(walk *w, ka_node *n, val addr, int elem);
int walk_vector_lanes(const ka_node *n, int abytes);
const char *walk_call_name(walk *w, ka_node *n);
const char *walk_call_category(const char *name, ka_decl *ref); /* walk_call.c */
ka_decl *walk_find_function(walk *w, const char *name, int nargs, int device);
/* The definition (a declaration with a body) of the function clang named by
 * decl: the same name and parameter types; NULL when the model has none. */
ka_decl *walk_find_definition(walk *w, const ka_decl *decl);
/* as walk_find_function, preferring what a call with ntargs explicit template
 * arguments can name (-1: do not check) */
ka_decl *walk_find_function_targs(walk *w, const char *name, int nargs, int device, int ntargs);
int walk_call_targs(walk *w, ka_node *n, ka_decl *f, int64_t *v, int *known, int max);
void walk_bind_call_tparams(walk *w, ka_node *n, ka_decl *f);
void walk_bind_kernel_types(walk *w, ka_decl *k);
void walk_bind_host_templates(walk *w);
void walk_enter_host_template(walk *w, ka_decl *f);
int walk_loop_is_static(walk *w, ka_node *cond, ka_decl *iv, const sx *start, const sx *step);

/* walk_vec.c: calls that move data on records (operators, conversions,
 * load/store intrinsics). */
int walk_ev_typed_call(walk *w, ka_node *n, val *out);

/* walk_cg.c: cooperative groups and the SharedMemory<T> idiom. */
/* 0 threadIdx, 1 blockIdx, 2 blockDim, 3 gridDim: the built-in dim3 that a
 * cooperative-groups call returns (`block.group_index()`); -1 otherwise. */
int walk_cg_dim3(const ka_node *c);
int walk_ev_cg_call(walk *w, ka_node *n, val *out);
int walk_is_block_barrier(ka_node *n);
/* Marks the parameters of f that receive a tile held in a cg::thread_group. */
void walk_cg_bind_args(walk *w, ka_node *call, ka_decl *f);
void walk_smem_init(ka_tu *tu, ka_arena *a, walk *w);

/* walk_lane.c: lane and warp ids (tid & 31, tid >> 5) made affine within a warp. */
const sx *walk_lane_linear(walk *w, const sx *x);
/* 1 when `d == 0` holds on at most two lanes of each modelled warp: d is,
 * with lane and warp ids linearized (walk_lane_linear), affine in the
 * thread ids with coefficients known here, plus terms that do not vary
 * across lanes, and no value of its lane part repeats on more than two
 * lanes of the warp (`threadIdx.x == 0`, `(tid & 31) == 0`, `u == 0` with
 * `u = threadIdx.x + k`, `step - threadIdx.x == len - 1`). */
int walk_lane_pinned(walk *w, const sx *d);
/* The condition c, true (when_true) or false, lets at most two lanes of a
 * warp through: an `==` (true) or `!=` (false) that walk_lane_pinned
 * proves, or a conjunction (true) / disjunction (false) with one. */
int walk_cond_pins_lane(walk *w, const sx *c, int when_true);
/* How many threads of a block that every launch sizes satisfy the bounds
 * on thread ids among c's conjuncts (when_true), or the one bound c is
 * (its negation); -1 when c holds none or a count cannot be made. */
int walk_cond_threads(walk *w, const sx *c, int when_true);
/* The least of those counts over the branches open where the walk is (the
 * side each is on); 0 when none says (emit_access.c). */
int walk_active_threads(const walk *w);
/* At most two lanes of a warp run the code being walked: an enclosing
 * branch or an earlier return pins threadIdx.x (walk_cond_pins_lane);
 * access.single_lane, atomic.single_lane. */
int walk_single_lane(const walk *w);
/* The kernels of this file that x can name: the kernel itself, a variable
 * initialized with one (`auto k = transpose<32>;`), a table of kernels,
 * either side of `c ? a : b`, a template's instance (at most max, into
 * out); their count. */
int walk_kernels_behind(walk *w, const ka_node *x, ka_decl **out, int max);
int walk_same_in_modelled_warps(walk *w, const sx *x);
/* 1 when x is a product with a factor of f's value (`batch * h * w * c`
 * and `c`), or a multiple of the constant f. */
int walk_has_factor(walk *w, const sx *x, const sx *f);
/* 1 when the shared-memory accesses of branch b provably never read a
 * slot that another lane running the branch writes: the condition is
 * `threadIdx.x < B` (B the same on every lane), each write's address steps
 * by m bytes from lane to lane, and every read of the same array sits at
 * k*m*B + r bytes from the write (k an integer, r a constant) where no lane
 * below B meets it: a multiple of m off the other lanes' slots, or k >= 1
 * (the writer would be a lane at B or above) or k <= -1 (below lane 0).
 * The shared-memory tree reduction's `if (tid < s) { c[tid] += c[tid + s];
 * c[tid] += c[tid + 2 * s]; }`, but not the warp-synchronous tail's
 * `if (tid < 32) { c[tid] += c[tid + 16]; c[tid] += c[tid + 8]; }`. */
int walk_branch_lanes_independent(walk *w, const br_ctx *b);
/* by-reference and &x arguments, but those in skip */
void walk_clobber_args(walk *w, ka_node *n, const ka_decl *f, unsigned skip);
void walk_clobber_arrays(walk *w, ka_node *n, unsigned dep);
unsigned walk_arg_dep_stored(walk *w, ka_node *a);
/* after inlining f: its reference parameters' values into the caller's
 * variables; the mask of those */
unsigned walk_ref_write_back(walk *w, ka_node *n, const ka_decl *f);

/* walk_host.c */
void walk_launch(walk *w, ka_node *n);
/* cudaLaunchKernel and its kin as a launch; 1 when n is one (walk_host.c) */
int walk_launch_api(walk *w, ka_node *n);
void walk_note_array(walk *w, ka_decl *d);
int walk_host_dim3_assign(walk *w, ka_node *lhs, ka_node *rhs, ka_op op);
void walk_host_dim3_decl(walk *w, ka_decl *d);

/* warp.c: the modelled warp for one address expression. */
typedef struct warp_result {
	int lanes;
	int ok; /* evaluated for every lane */
	int sectors, ideal_sectors, bytes;
	int bank_ways, ideal_bank_ways;
	int64_t stride_bytes;  /* between lanes 0 and 1 when ok */
	int uniform;           /* same address for all lanes */
	int warp_uniform_vals; /* for conditions: same value within each warp */
} warp_result;
void walk_warp_model(walk *w, const sx *addr, int access_bytes, int shared, warp_result *r);
/* The same for the first `lanes` lanes of the modelled warp only (an access
 * that at most that many lanes run: walk_lane_pinned). */
void walk_warp_model_lanes(walk *w, const sx *addr, int access_bytes, int shared, int lanes, warp_result *r);
/* 1 when x takes one value within each modelled warp (0 varies, -1 unknown). */
int walk_warp_uniform(walk *w, const sx *x);
/* 1 when x is the same in every lane of each modelled warp (run-time values
 * never guessed; a load from an address the lanes share counts) */
int walk_lanes_agree(walk *w, const sx *x);
/* Warp butterflies (warp.c): the value of `__shfl_xor_sync(m, v, k)`; v
 * combined with such a partner of itself (`v += __shfl_xor_sync(m, v, k)`,
 * `fmaxf(v, ...)`), else NULL; and after a loop whose counter halves from
 * start to 1, a variable left as such a combination by counter iv_sym:
 * the same in every lane of each group of 2 * start (the warp: warp-
 * uniform), else NULL. */
const sx *walk_shfl_xor(walk *w, const sx *v, const sx *k, unsigned dep, uint64_t loops);
/* A shuffle's width argument arg (value x): a constant, warpSize, or the
 * header's default; 0 when it is a run-time value. */
int walk_shfl_width(walk *w, const ka_node *call, const ka_node *arg, const sx *x, int64_t *width);
const sx *walk_butterfly(walk *w, const sx *a, const sx *b);
const sx *walk_butterfly_loop(walk *w, const sx *v, int iv_sym, int64_t start);
/* An opaque value of x and y (a floating-point comparison) that keeps the
 * lanes across which both are known to agree. */
const sx *walk_opaque_pair(walk *w, const sx *x, const sx *y);
/* The widest aligned lane group (16, 8, 4 or 2 lanes) in which the
 * condition c has one value, in every modelled warp and whatever the
 * run-time values it compares with; 0 when none is shown or the block
 * shape is assumed. */
int walk_segment_width(walk *w, const sx *c);

/* emit_tu.c, emit_code.c, emit_access.c: the rows, on the typed writer.
 * The walker computes and keeps the tallies; these only write. */
void walk_emit_loc(ka_facts_row *r, const ka_loc *l);
void walk_emit_tu(walk *w); /* arch, file, line, diag, constant_var */
void walk_emit_kernel(walk *w, ka_decl *k, const char *kind, int nlaunch, int agree,
		      int64_t max_dyn);     /* kernel, param, shared/local arrays */
void walk_emit_budget(walk *w, ka_decl *f); /* the budget ran out in f */
/* A fixed depth of the walk was reached at `at` (WALK_MAX_*): a warning in
 * the diag table, once per function and kind ("analysis limit reached in K
 * at L: ..."); the caller goes on with less context, as the message says. */
typedef enum walk_limit {
	WALK_LIMIT_LOOPS,
	WALK_LIMIT_BRANCHES,
	WALK_LIMIT_INLINE,
	WALK_LIMIT_ARRAYS,
	WALK_LIMIT_OPTIN,
	WALK_LIMIT_ARGS
} walk_limit;
void walk_limit_reached(walk *w, walk_limit what, const ka_loc *at);
void walk_emit_barrier(walk *w, ka_node *n, const char *kind, int div, walk_uni why, int line,
		       const char *file, int warp);
int64_t walk_emit_atomic(walk *w, ka_node *n, const val *addr, const sx *ax, const sx *v, ka_node *vn);
/* marks the atomics whose returned value the condition compares (atomic.result_compared) */
void walk_note_compared_atomics(walk *w, const sx *cond);
void walk_note_indexing_atomics(walk *w, const sx *addr);
int walk_first_run(const walk *w);
void walk_emit_call(walk *w, ka_node *n, const char *cat, int checked);
void walk_emit_literal(walk *w, ka_node *n, int promotes, int folds);
/* 1 when n is a value the compiler folds (literals, math of them, locals
 * only ever assigned such values): no run-time arithmetic is left. */
int walk_static_value(walk *w, ka_node *n);
void walk_emit_loop(walk *w, ka_node *n, const loop_ctx *lc, const char *kind, ka_decl *iv, const sx *cond,
		    int64_t trip, int trip_ok);
void walk_emit_reduction(walk *w, ka_node *n, const char *style, const char *iv, const char *array);
void walk_emit_early_return(walk *w, ka_node *n, const sx *c, walk_uni u, int thread_dep);
/* The thread axes x reads: bit 0 threadIdx.x, 1 y, 2 z. */
int walk_thread_axes(walk *w, const sx *x);
const char *walk_axes_text(int m, char buf[4]); /* "x", "xy"...; NULL when none */
/* A thread-dependent branch b that holds block barriers has closed: the
 * barriers emitted inside it since it opened, whose innermost divergent
 * branch it is, learn the id counter at its end (barrier.div_close_id). */
void walk_close_divergent_branch(walk *w, const br_ctx *b);
void walk_close_nonuniform_loop(walk *w, const loop_ctx *lc);
void walk_emit_branch(walk *w, ka_node *n, const sx *c, br_ctx *b, int then_bar, int else_bar);
void walk_emit_launch(walk *w, ka_node *n, ka_decl *k, const int64_t g[3], int gaxes, const int64_t b[3],
		      int baxes, int64_t smem, int sok);
void walk_emit_access(walk *w, ka_node *n, val addr, int abytes, int elem, const char *field, int rw,
		      const char *assumed_type, int group_axes, const sx *group_base, warp_result *out);

#endif
