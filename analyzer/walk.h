/* analyzer/walk.h: internals shared by the kernel walker (walk*.c).
 *
 * The walker runs over one function of the model with an environment of
 * symbolic values (expr.h), substituting local definitions as it goes, and
 * emits facts rows: accesses, branches, barriers, loops, calls, atomics,
 * literals (walk_expr.c, walk_stmt.c), launches and host calls (walk_host.c).
 * Device functions are walked again in the context of each kernel that calls
 * them, with their parameters bound to the caller's arguments.
 */
#ifndef KA_ANALYZER_WALK_H
#define KA_ANALYZER_WALK_H
#include <sqlite3.h>
#include "analyzer/arch.h"
#include "analyzer/expr.h"
#include "analyzer/facts.h"
#include "analyzer/model.h"

enum { SP_NONE = 0, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_CONSTANT, SP_UNKNOWN };

/* A value: an integer expression, or a pointer (base + byte offset). */
typedef struct val {
	const sx *x;            /* integer value, or the pointer's byte offset */
	ka_decl *base;          /* pointer/array base declaration, else NULL */
	int space;              /* SP_* for pointers */
	int host_kind;          /* host pointers: 1 malloc, 2 pinned */
} val;

typedef struct loop_ctx {
	int id, slot;           /* facts id, bit in sx loops masks */
	int nonuniform;         /* trip count differs between lanes */
	int unrollable;         /* constant trip count the compiler can unroll fully */
	int trip_static;        /* start, bound and step are compile-time constants */
	int has_launch;         /* host: a kernel launch inside */
	int n_accesses, n_barriers, n_shared_writes;
	const char *shared_written;   /* a shared array stored to inside */
} loop_ctx;

typedef struct br_ctx {
	const char *uniformity; /* thread | warp | block | grid */
	int line;
	int is_guard;
	int n_shared_writes, n_syncwarp, n_barriers, uses_volatile;
} br_ctx;

typedef struct launch_info {
	ka_node *call;
	ka_decl *kernel;
	int bx, by, bz;          /* 0 unknown */
	int64_t dyn_smem;        /* -1 unknown */
	int ntargs;
	int64_t targs[4];
	int next_same;           /* next launch of the same kernel, -1 none */
	int argb[16];            /* bytes of each argument's pointee (pointers) or value; 0 unknown */
} launch_info;

/* A template parameter's binding (by decl id): the value of an integer
 * parameter, the size of a type parameter. */
typedef struct tbind {
	int64_t v;
	int state;               /* 0 unbound, 1 bound, 2 the uses disagree */
} tbind;

/* Per-declaration statistics gathered during a kernel walk. */
typedef struct dstat {
	int read, written, loop_reads;
	int max_bank;            /* shared arrays: worst bank-conflict degree */
	int n_dyn;               /* local arrays: accesses with run-time index */
	int reinterp;            /* address taken into another type / vector access */
	int holds_tile;          /* a cg::thread_group holding a tiled_partition() */
	int host_kind;           /* host pointers: 1 malloc, 2 pinned */
	int64_t dim3v[3];        /* host dim3 variables: components assigned (t.x = 256) */
	unsigned char dim3_set[3]; /* 1 assigned a constant, 2 assigned a run-time value */
} dstat;

typedef struct walk {
	ka_tu *tu;
	sqlite3 *db;
	const ka_arch *arch;
	ka_arena *a;
	sx_ctx sx;
	/* the function being walked */
	ka_decl *fn;             /* the function walked at top level */
	ka_decl *kernel;         /* NULL for host code */
	int kernel_id;
	const char *func;        /* where the current code is written */
	int is_device;
	int block[3];
	const char *block_source;
	const char *assumption;  /* block assumption text, NULL when known */
	val *env;                /* by decl id */
	dstat *ds;               /* by decl id */
	int nenv;
	/* control context */
	loop_ctx loops[16];
	int nloops, next_loop_slot;
	br_ctx brs[32];
	int nbrs;
	int div_return_line;     /* a thread-dependent return seen before */
	int guard_return;        /* a bounds-guard return seen before */
	int quiet;               /* > 0: evaluate without emitting facts */
	int inline_depth;
	ka_decl *inline_stack[8];
	const sx *ret_val;       /* return value of an inlined function */
	int stmt_level_call;     /* the call being evaluated is a whole statement */
	int last_was_barrier;
	int at_last_stmt;        /* walking the kernel body's last statement */
	/* counters for the kernel row */
	int n_barriers, n_accesses, n_loops, uses_warp, has_guard;
	/* host code */
	launch_info *launches;
	int nlaunches, caplaunches;
	const char **optin_kernels;
	int noptin;
	int64_t *next_id;        /* shared id counter per table kind */
	ka_decl *arrays[64];     /* shared and local arrays the kernel uses */
	int narrays;
	unsigned char *called;   /* by decl id: device function inlined somewhere */
	ka_node *next_stmt;      /* the statement after the current one */
	/* walk_scope.c: the declarations the current function's walk can reach
	 * (its own, its callees', the globals they use).  Saving, restoring and
	 * merging the environment costs the function's size, not the TU's. */
	int *scope;              /* decl ids */
	int nscope, capscope;
	int *scope_pos;          /* by decl id: index in scope (valid for this gen) */
	unsigned *scope_gen_of;  /* by decl id */
	unsigned scope_gen;
	/* the per-file analysis budget (walk_budget_spent) */
	double deadline;         /* CLOCK_MONOTONIC seconds; 0 none */
	size_t mem_limit;        /* arena bytes; 0 none */
	unsigned budget_ticks;
	int over_budget;
	const char *budget_text; /* "60 s, 2048 MB" for the diagnostic */
	int *first_launch;       /* by decl id: first of its launches (launch_info.next_same) */
	ka_decl **fn_sorted;     /* functions by name (walk_funcs_index) */
	int nfn_sorted;
	tbind *tb;               /* by decl id: template parameter bindings */
	const char *elem_assumed; /* a dependent element type whose size was assumed */
	ka_decl *smem_decl;      /* the dynamic shared memory reached through SharedMemory<T> */
} walk;

/* walk_expr.c */
val ev(walk *w, ka_node *n, int rw);            /* rw: 0 read, 1 write, 2 readwrite */
const sx *ev_int(walk *w, ka_node *n);
ka_node *strip(ka_node *n);
int fold_int(walk *w, ka_node *n, int64_t *v);
const char *uniformity_of(walk *w, const sx *x);
int is_guard_value(const sx *c);
int in_divergent(walk *w, const char **why, int *line, int warp_level);
const char *node_text(walk *w, ka_node *n);
int64_t next_id(walk *w);

/* walk_stmt.c */
void st(walk *w, ka_node *n);
void branch_fact(walk *w, ka_node *n, const sx *c, br_ctx *b, int then_bar, int else_bar);
void walk_assign(walk *w, ka_decl *d, val v);

/* walk_scope.c */
void walk_scope_alloc(walk *w);                 /* by-id tables, once per TU */
void walk_scope_enter(walk *w, ka_decl *fn);    /* clear the last scope, collect fn's */
int walk_scope_index(const walk *w, const ka_decl *d);   /* -1 outside */
void walk_funcs_index(walk *w);                 /* after the TU's function list is final */
/* The functions named `name`, in list order: *first and the count. */
int walk_funcs_named(const walk *w, const char *name, ka_decl *const **first);
val *env_save(walk *w);                         /* the scope's values (free()) */
void env_restore(walk *w, const val *saved);
/* 1 once the file's time or memory budget is spent (checked every few
 * hundred calls; then the walk unwinds without emitting more facts). */
int walk_budget_spent(walk *w);
val walk_access(walk *w, ka_node *n, int rw);    /* an lvalue read or written */
void record_access(walk *w, ka_node *n, val addr, int abytes, int elem, const char *field, int rw);

/* walk_call.c */
val ev_call(walk *w, ka_node *n);
val inline_call(walk *w, ka_node *n, ka_decl *f);
void barrier_fact(walk *w, ka_node *n, const char *kind);   /* block | warp | fence | grid */
void call_fact(walk *w, ka_node *n, const char *cat, int checked);

/* walk_types.c: element sizes (dependent types too), template bindings,
 * vector and reduced-precision operators, load/store intrinsics. */
int elem_size(walk *w, ka_node *n, ka_node *ptr);
int pointee_size(walk *w, ka_node *p);
int size_of_type(walk *w, const char *type, int deref);
int value_size(walk *w, ka_node *n);
const char *access_index_text(walk *w, ka_node *n, val addr, int elem);
int vector_lanes(const ka_node *n, int abytes);
const char *call_name(walk *w, ka_node *n);
ka_decl *find_function(walk *w, const char *name, int nargs, int device);
int call_targs(walk *w, ka_node *n, ka_decl *f, int64_t *v, int *known, int max);
void bind_call_tparams(walk *w, ka_node *n, ka_decl *f);
void bind_kernel_types(walk *w, ka_decl *k);
void bind_host_templates(walk *w);
void enter_host_template(walk *w, ka_decl *f);
int loop_is_static(walk *w, ka_node *cond, ka_decl *iv, const sx *start, const sx *step);

/* walk_vec.c: calls that move data on records (operators, conversions,
 * load/store intrinsics). */
int ev_typed_call(walk *w, ka_node *n, val *out);

/* walk_cg.c: cooperative groups and the SharedMemory<T> idiom. */
int ev_cg_call(walk *w, ka_node *n, val *out);
/* Marks the parameters of f that receive a tile held in a cg::thread_group. */
void walk_cg_bind_args(walk *w, ka_node *call, ka_decl *f);
int is_block_barrier_call(ka_node *n);
void walk_smem_init(ka_tu *tu, ka_arena *a, walk *w);

/* walk_lane.c: lane and warp ids (tid & 31, tid >> 5) made affine within a warp. */
const sx *lane_linear(walk *w, const sx *x);
void walk_clobber_args(walk *w, ka_node *n, const ka_decl *f); /* by-reference and &x arguments */

/* walk_host.c */
void launch_fact(walk *w, ka_node *n);
void note_array(walk *w, ka_decl *d);
int host_dim3_assign(walk *w, ka_node *lhs, ka_node *rhs, ka_op op);

/* warp.c: the modelled warp for one address expression. */
typedef struct warp_result {
	int lanes;
	int ok;                  /* evaluated for every lane */
	int sectors, ideal_sectors, bytes;
	int bank_ways, ideal_bank_ways;
	int64_t stride_bytes;    /* between lanes 0 and 1 when ok */
	int uniform;             /* same address for all lanes */
	int warp_uniform_vals;   /* for conditions: same value within each warp */
} warp_result;
void warp_model(walk *w, const sx *addr, int access_bytes, int shared, warp_result *r);
/* 1 when x takes one value within each modelled warp (0 varies, -1 unknown). */
int warp_uniform_value(walk *w, const sx *x);

#endif
