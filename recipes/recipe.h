/* recipes/recipe.h: the offline expert's structural recipes.  A recipe is a
 * named rewrite of a kernel's memory-access or work structure (warp per row,
 * vectorized grid-stride, shared-memory privatization, ...), tied to the
 * rules whose findings call for it, with parameters (block size, vector
 * width, ...) and a small grid of parameter sets the planner tries in
 * order.  A recipe checks the shape it needs on the kernel's source model
 * (recipes/csrc.h) and declines, with the reason, when it cannot prove it:
 * it never guesses.  What it writes is a candidate; the compile gate and
 * the bench decide whether it is correct and faster.
 *
 *   planner --(recipe, params)--> ka_recipe_apply --> candidate --> bench
 */
#ifndef KA_RECIPES_RECIPE_H
#define KA_RECIPES_RECIPE_H
#include <stddef.h>
#include "recipes/csrc.h"
#include "util/buf.h"

/* ka_recipe_apply's positive answer: the recipe does not apply (why says). */
#define KA_RECIPE_DECLINED 1

typedef struct ka_recipe_ctx {
	const ka_csrc *m;        /* the whole file */
	const ka_csrc_kernel *k; /* the kernel rewritten */
	const char *params;      /* "block=256 vec=4" */
	char why[256];           /* a decline's reason */
} ka_recipe_ctx;

typedef struct ka_recipe {
	const char *name;        /* kebab-case, e.g. "warp-per-row" */
	const char *summary;     /* one line */
	const char *rules;       /* rule ids that call for it, space-separated */
	const char *const *grid; /* parameter sets, tried in order; NULL-terminated */
	/* Append the rewritten file to out; KA_RECIPE_DECLINED with c->why set,
	 * or a negative error. */
	int (*apply)(ka_recipe_ctx *c, ka_buf *out);
} ka_recipe;

size_t ka_recipe_count(void);
const ka_recipe *ka_recipe_get(size_t i);
const ka_recipe *ka_recipe_find(const char *name);
/* 1 when rule id is among the recipe's rules (an empty id never is). */
int ka_recipe_serves(const ka_recipe *r, const char *rule);

/* Apply recipe `name` with `params` (NULL: its grid's first set) to kernel
 * `kernel` of the file, or, kernel NULL, to every kernel it applies to.
 * KA_OK with *out (malloc'd, NUL-terminated) the new file; KA_RECIPE_DECLINED
 * with the reason in why, also when the file cannot be modelled (unbalanced
 * brackets, more kernels or launches than recipes/csrc.h holds); negative on
 * error (unknown recipe, out of memory). */
int ka_recipe_apply(const char *name, const char *text, size_t len, const char *kernel, const char *params,
		    char **out, size_t *out_len, char *why, size_t why_cap);

/* The folder of the file being rewritten, where its quoted includes
 * resolve when a recipe builds the kernel model (analyzer/kmodel.h) from
 * the text; the folder of `path` is kept (path NULL: none, and the model
 * blanks includes it cannot find).  Per thread. */
void ka_recipe_set_source_path(const char *path);
/* That folder, or NULL. */
const char *ka_recipe_source_dir(void);
/* That path as given, or NULL. */
const char *ka_recipe_source_path(void);
/* The compiler flags of the file being rewritten (a compile command's -I,
 * -D, -std, ...; nvcc's or clang's spelling), which reach the kernel model
 * with the source folder, so that a file whose includes or macros come
 * from its build is modelled as it is compiled.  Copied (at most
 * KA_RECIPE_MAX_FLAGS flags of 8 KiB in all; the rest are dropped); n 0:
 * none.  Per thread. */
#define KA_RECIPE_MAX_FLAGS 64
void ka_recipe_set_flags(const char *const *flags, int n);
/* Those flags: their count, the array to *flags. */
int ka_recipe_flags(const char *const **flags);
/* The kernel model (analyzer/kmodel.h) of kernel `name` of text, parsed
 * with the source folder and the flags above: ka_kmodel_of_text's return
 * value.  The parse of a text is kept for the next calls on the same text,
 * folder and flags (per thread): release doc with ka_recipe_kmodel_free,
 * never ka_kmodel_free.  ka_recipe_kmodel_forget frees the kept parses
 * that no doc holds. */
struct ka_kmodel_doc;
int ka_recipe_kmodel(const char *text, size_t len, const char *name, struct ka_kmodel_doc *doc);
void ka_recipe_kmodel_free(struct ka_kmodel_doc *doc);
void ka_recipe_kmodel_forget(void);
/* The analyzer's facts (facts/facts_tables.def, analyzer/analyzer.h) of
 * text, analyzed as kcheck analyzes a file, with the source folder, the
 * flags above and the target below (recipes/recipe_facts.c): what lint sees
 * (shared arrays and their bank conflicts, launch sites, block sizes), for
 * a recipe that decides from it or checks its own rewrite with it.  Offsets
 * are the text's; the rows' file names are a temporary file's.  Clang
 * errors in the text leave the facts of what parsed.  *db is borrowed: it
 * stays valid through one more call on another text (two analyses are kept
 * per thread) and until ka_recipe_kmodel_forget, which drops them too.
 * KA_OK, or < 0 with the message. */
struct sqlite3;
int ka_recipe_facts(const char *text, size_t len, struct sqlite3 **db);
void ka_recipe_facts_forget(void);
/* The target the candidate is built for ("sm_90", "gfx942"), as the run's
 * --arch names it; NULL: unknown (a recipe then assumes the default
 * target, sm_90).  A recipe that needs hardware some targets lack (tensor
 * cores of a given type) declines on the others.  Per thread. */
void ka_recipe_set_arch(const char *arch);
const char *ka_recipe_arch(void);

/* A kernel defined in one file and launched from another of the project
 * that includes it: a header, or a `.cu` written to be included
 * (recipes/xfile.c).  The recipe runs on the includer's translation unit:
 * the includer's text with the #include line that reaches the file (itself,
 * or a header of the project that includes it, at most
 * KA_RECIPE_VIA_DEPTH include lines deep, followed as the preprocessor
 * does: in line order, each header once, a quoted name in its file's
 * folder first, then the flags' -I folders) replaced by that file's text,
 * and so on down to the file, so that the kernel model, the facts and the
 * source model see the definition and the launches as one text.  The result
 * is split into the file's and the includer's new texts.  Declines, with
 * the reason (line numbers name their file), when: the includer does not
 * reach the file, or reaches it more than once; the recipe declines on the
 * joined text; the rewrite edits the includer before its include line, or
 * edits a header between the two; or a source file under scope other than
 * those of the chain names the kernel (its uses there would not be
 * rewritten; scope NULL: the file's and the includer's longest common
 * folder, under which headers are followed too).  The source path and
 * flags set before the call are the includer's; the folders of the file
 * and of the headers between are added to the flags for the parse, and
 * both are restored. */
#define KA_RECIPE_VIA_DEPTH 3 /* include lines from the includer to the file */
typedef struct ka_recipe_via_out {
	char *file_text, *includer_text; /* malloc'd, NUL-terminated */
	size_t file_len, includer_len;
	int file_changed, includer_changed;
	/* the includer's translation unit as rewritten: its new text with the
	 * file's new text in place of the include line (between two comment
	 * lines), what a compile gate compiles as the includer (with the file's
	 * folder among the -I folders, for the file's own includes) to check
	 * both edits at once */
	char *unit_text;
	size_t unit_len;
	/* the headers between the includer and the file, in include order
	 * (real paths; "" past the last): they come back unchanged */
	char through[KA_RECIPE_VIA_DEPTH - 1][4096];
} ka_recipe_via_out;
int ka_recipe_apply_via(const char *name, const char *kernel, const char *params, const char *file,
			const char *text, size_t len, const char *includer, const char *inc_text,
			size_t inc_len, const char *scope, ka_recipe_via_out *res, char *why, size_t why_cap);
void ka_recipe_via_free(ka_recipe_via_out *res);
/* The include lines from inc_text (the file at inc_path) down to file, as
 * ka_recipe_apply_via follows them (1: inc_text includes it itself), or 0
 * when it does not reach it (or reaches it more than once: also 0). */
int ka_recipe_include_depth(const char *inc_path, const char *inc_text, size_t inc_len, const char *file);
/* The #include lines of inc_text (the file at inc_path) that resolve to
 * file, in inc_path's folder for a quoted name, then in the flags' -I
 * folders: their count, the first line's [*s, *e) (without its newline). */
int ka_recipe_include_at(const char *inc_path, const char *inc_text, size_t inc_len, const char *file,
			 size_t *s, size_t *e);

/* ---- helpers the recipes share (recipes/recipe.c) ---- */

/* Integer parameter `key` of "k1=v1 k2=v2", or dflt. */
long ka_recipe_param(const char *params, const char *key, long dflt);
/* Set c->why and return KA_RECIPE_DECLINED. */
int ka_recipe_decline(ka_recipe_ctx *c, const char *fmt, ...) KA_PRINTF(2, 3);
/* stem, or stem1, stem2, ..., the first that is no word of the kernel
 * (its declaration and body), into out: a name a rewrite may declare
 * (a fused kernel's index is ka_i, so a loop cannot be). */
void ka_recipe_unused_name(const ka_recipe_ctx *c, const char *stem, char *out, size_t cap);
/* Drop the integer casts ("(long long)", "(int)", "(size_t)", ...) a
 * squeezed index expression may carry, in place. */
void ka_recipe_drop_casts(char *s);
/* 1 when the identifier name[0..n) is a CUDA math function (or a
 * functional cast) that writes nothing. */
int ka_recipe_pure_function(const char *name, size_t n);
/* 1 when the squeezed text sq[0..n) writes nothing: no assignment, ++ or
 * --, and no call but to ka_recipe_pure_function's. */
int ka_recipe_pure_expr(const char *sq, size_t n);
/* The same, where a call of a function-like macro the file text[0..len)
 * defines (`#define NAME(`) counts as pure too (text NULL: none). */
int ka_recipe_pure_expr_in(const char *sq, size_t n, const char *text, size_t len);
/* A global thread index's declaration, `T v = <index>;`. */
typedef struct ka_recipe_tid {
	char var[64];  /* v */
	char type[64]; /* T as written, blanks squeezed: "const unsigned int" */
	char base[64]; /* T without const: "unsigned int" */
} ka_recipe_tid;
/* 1 when the statement [s, e) is `T v = <global thread index>;` along
 * axis 'x', 'y' or 'z' (blockIdx * blockDim + threadIdx in any order,
 * casts allowed), with T an integer type of 32 bits or more (int,
 * unsigned int, uint, long long, size_t, int64_t, ..., const or not);
 * what it declares goes to d. */
int ka_recipe_tid_decl(const char *t, size_t s, size_t e, char axis, ka_recipe_tid *d);
/* 1 when [s, e) is a bare return, `return;` or `{ return; }` (blanks and
 * comments aside): what a guard `if (i >= n) ...` may do and nothing
 * more. */
int ka_recipe_bare_return(const char *t, size_t s, size_t e);
/* The same along x, the variable's name to var. */
int ka_recipe_is_tid_decl(const char *t, size_t s, size_t e, char *var, size_t cap);
/* The same along axis, the variable's name to var. */
int ka_recipe_is_tid_decl_axis(const char *t, size_t s, size_t e, char axis, char *var, size_t cap);

/* An index expression as a sum of products (recipes/recipe_affine.c):
 * sum of coef * f[0] * ... * f[nf-1], factors sorted, like terms merged,
 * so that `(size_t)r * cols + c`, `c + cols * r` and `off + c` with
 * `off = r * cols` read the same.  Integer casts and parentheses drop
 * out; division, modulo, calls and subscripts make the reading fail. */
#define KA_RECIPE_POLY_TERMS 16
#define KA_RECIPE_POLY_FACTORS 6
typedef struct ka_recipe_poly_term {
	long long coef;
	int nf;
	char f[KA_RECIPE_POLY_FACTORS][64];
} ka_recipe_poly_term;
typedef struct ka_recipe_poly {
	int n;
	ka_recipe_poly_term t[KA_RECIPE_POLY_TERMS];
} ka_recipe_poly;
/* Helper variables: lookup returns a name's defining expression
 * (squeezed), or NULL for a name that stands for itself. */
typedef struct ka_recipe_poly_env {
	const char *(*lookup)(void *ctx, const char *name);
	void *ctx;
} ka_recipe_poly_env;
/* Read the squeezed expression sq (env may be NULL); 1 read, 0 not a sum
 * of products (or larger than the form holds). */
int ka_recipe_poly_read(const char *sq, const ka_recipe_poly_env *env, ka_recipe_poly *out);
/* How many times factor occurs in t. */
int ka_recipe_poly_has(const ka_recipe_poly_term *t, const char *factor);
/* 1 when t is exactly 1 * factor. */
int ka_recipe_poly_is_unit(const ka_recipe_poly_term *t, const char *factor);
/* "2*a*b + 1*c" into out, for decline reasons. */
void ka_recipe_poly_print(const ka_recipe_poly *p, char *out, size_t cap);
/* The form as a C expression evaluated in 64 bits ("(long long)b * M * N
 * + 2LL * c"); 0 when it does not fit. */
int ka_recipe_poly_c(const ka_recipe_poly *p, char *out, size_t cap);
/* A table of helper variables (name = squeezed initializer) for an env:
 *     ka_recipe_poly_env env = {ka_recipe_poly_defs_lookup, &defs}; */
#define KA_RECIPE_POLY_DEFS 24
typedef struct ka_recipe_poly_defs {
	int n;
	char name[KA_RECIPE_POLY_DEFS][64], rhs[KA_RECIPE_POLY_DEFS][256];
} ka_recipe_poly_defs;
/* 0 when the table is full or a text too long. */
int ka_recipe_poly_defs_add(ka_recipe_poly_defs *d, const char *name, const char *rhs);
const char *ka_recipe_poly_defs_lookup(void *ctx, const char *name);

/* The one-thread-per-element shape (recipes/recipe_elementwise.c):
 *     T i = <global thread index>;  if (i < N) BODY    (or: if (i >= N) return; BODY...)
 * with N a parameter and a BODY that does not use thread ids, barriers,
 * shared memory or inline asm, return, or assign i.  A recipe that loops
 * over the elements declares its own 64-bit loop variable and gives BODY
 * `T i = <element>;` with T as written (const included), so BODY sees the
 * type it had.  BODY must not assign a parameter either: a thread that
 * loops over several elements would start the next one from its new value
 * (ka_recipe_ew_shape, which a recipe that keeps one element a thread
 * calls, lets it: KA_RECIPE_EW_ONE).  KA_OK or KA_RECIPE_DECLINED. */
#define KA_RECIPE_EW_REP 16
typedef struct ka_recipe_ew {
	char var[64], count[256];
	char type[64], base[64]; /* T as written, and without const */
	size_t decl_s, decl_e;   /* the index declaration */
	size_t body_s, body_e;   /* BODY: the statements the bound guards */
	size_t pre_s, pre_e;     /* KA_RECIPE_EW_PRODUCT: the locals declared between the index
				  * and the guard (empty when none) */
	int stride_loop;         /* 1: the kernel loops over the grid (any grid covers the count) */
	int unguarded;           /* KA_RECIPE_EW_UNGUARDED: no guard; count names the parameter the
				  * rewrite adds for the launch's thread count */
	int returns;             /* KA_RECIPE_EW_RETURN: BODY returns; a loop writes it continue */
	int yz;                  /* KA_RECIPE_EW_YZ: BODY or a replayed declaration reads an id's y or z */
	long scale;              /* KA_RECIPE_EW_SCALED: the index is scale times the global index
				  * (0: it is the global index) */
	char scale_text[64];     /* that factor as the index's initializer writes it */
	/* KA_RECIPE_EW_MODEL: declarations before the guard that BODY reads
	 * (directly or through one another), written again per element right
	 * after `T i = ...;` in their order: their values depend on the index
	 * or on nothing a thread owns, and they write nothing */
	int nrep;
	size_t rep_s[KA_RECIPE_EW_REP], rep_e[KA_RECIPE_EW_REP];
} ka_recipe_ew;
int ka_recipe_ew_shape(ka_recipe_ctx *c, ka_recipe_ew *sh);
/* The same, where flag KA_RECIPE_EW_PRODUCT also accepts a bound N that is
 * a sum of products of parameters and integer constants, written so
 * (`i < B * T`) or held in integer locals declared between the index and
 * the guard (`int N = B * T * C; if (idx < N)`): its value comes from the
 * kernel model (analyzer/kmodel.h, guard.bound_value) and goes to count as
 * a parenthesized 64-bit expression over the parameters,
 * "((long long)B * T * C)", which ka_recipe_relaunch accepts for a count. */
#define KA_RECIPE_EW_PRODUCT 1u
/* Flag KA_RECIPE_EW_MODEL: when the statements are not in that order or
 * spelling, the shape comes from the kernel model (analyzer/kmodel.h): a
 * guarded index whose value is blockIdx.x * blockDim.x + threadIdx.x
 * however it is computed (helper variables, any order, casts), declared
 * anywhere before the guard; the guard `if (i < n) {...}` last, `if (i >=
 * n) return;` or a grid-stride loop over the rest; every other statement
 * before it a declaration that writes nothing.  Those computed from the
 * thread ids apart from the index are dropped (BODY must not read them),
 * the others that BODY reads are replayed per element (nrep).  What does
 * not fit declines naming the construct. */
#define KA_RECIPE_EW_MODEL 2u
/* Flag KA_RECIPE_EW_UNGUARDED (with KA_RECIPE_EW_MODEL): a kernel whose
 * model has one global index along x and no guard at all (every launched
 * thread does one element, the launch's threads being the count) is read
 * too: BODY is everything after the index's declaration, unguarded is set
 * and count names a new parameter (ka_n, or the first unused of ka_n1,
 * ...) that the rewrite adds to the kernel and that every launch passes as
 * its thread count along x (ka_recipe_relaunch_threads). */
#define KA_RECIPE_EW_UNGUARDED 4u
/* Flag KA_RECIPE_EW_RETURN (for a recipe that keeps BODY whole in a loop):
 * BODY may break or continue (a loop's or switch's of BODY, or of the
 * grid-stride loop the kernel has, which the new loop stands for), and a
 * BODY with `return;` is read too when no loop of BODY holds one and BODY
 * has no switch or lambda (ka_recipe_return_as_continue):
 * returns is set, and ka_recipe_ew_loop writes each `return;` as
 * `continue;`, which ends the element as the return ended the thread.
 * Not with a grid-stride loop the kernel has already (its return ends
 * every later element of the thread). */
#define KA_RECIPE_EW_RETURN 8u
/* Flag KA_RECIPE_EW_MEMBER: a bound that is a member of a parameter passed
 * by value, `i < size.y` (a struct of sizes; any arithmetic type, so only
 * for a recipe that compares with it and no more): count is "(size.y)",
 * which ka_recipe_relaunch reads from each launch's argument.  The kernel
 * may read the parameter only through members, and assign none. */
#define KA_RECIPE_EW_MEMBER 16u
/* Flag KA_RECIPE_EW_YZ: BODY and the declarations it reads may read the
 * thread, block and grid ids along y and z (`blockIdx.y`, a batch or row
 * the launch's second axis gives), which a loop along x does not change;
 * yz is set, and the launches must keep their blocks and their grids' y
 * and z (ka_recipe_relaunch_cap).  Any use along x still declines. */
#define KA_RECIPE_EW_YZ 32u
/* Flag KA_RECIPE_EW_ONE: the caller keeps one element a thread (launch
 * tuning, fusion), so BODY may assign a parameter (`id += x;`); the
 * flag-free ka_recipe_ew_shape sets it. */
#define KA_RECIPE_EW_ONE 64u
/* Flag KA_RECIPE_EW_SCALED (with KA_RECIPE_EW_MODEL, for a recipe that
 * keeps BODY whole in a loop): the guarded index may be K times the global
 * index along x, `int i = (blockIdx.x * blockDim.x + threadIdx.x) * 8;`
 * (K a constant from 2 to 4096 once folded, ka_km_index.scale): a thread
 * that owns the K elements from i, BODY reading them (a packed load) and
 * its guard `i < n` keeping only the start below n.  scale is K, and
 * ka_recipe_ew_loop steps over the starts K * (global index + j * the
 * grid's threads), every start below n once, as the launch covered them. */
#define KA_RECIPE_EW_SCALED 128u
int ka_recipe_ew_shape_ex(ka_recipe_ctx *c, ka_recipe_ew *sh, unsigned flags);
/* Append the replayed declarations (nrep), each on its own line after
 * indent. */
void ka_recipe_ew_replay(ka_buf *b, const ka_recipe_ctx *c, const ka_recipe_ew *sh, const char *indent);
/* 1 when a replayed declaration names `name` (a pointer the rewrite must
 * then leave scalar: the declaration may alias it). */
int ka_recipe_ew_replay_reads(const ka_recipe_ctx *c, const ka_recipe_ew *sh, const char *name);
/* Append the locals of [pre_s, pre_e) that BODY reads, as declared. */
void ka_recipe_ew_pre(ka_buf *b, const ka_recipe_ctx *c, const ka_recipe_ew *sh);
/* BODY into b with every `p[var]` (var the index, p a parameter that
 * which[p] marks) written `ka_<p><suffix>`: a vectorized element's
 * register ("ka_x.y" with suffix ".y"). */
void ka_recipe_ew_subst(ka_buf *b, const ka_recipe_ctx *c, const ka_recipe_ew *sh, const int *which,
			const char *suffix);
/* The header of the `for` whose keyword starts at s: its three parts,
 * blanks squeezed, into parts (np: how many; 3 for a well-formed header).
 * KA_OK, or KA_RECIPE_DECLINED ("cannot read the loop header") when the
 * parentheses do not balance or a part does not fit. */
#define KA_RECIPE_FOR_PART 300
int ka_recipe_for_parts(ka_recipe_ctx *c, size_t s, char parts[3][KA_RECIPE_FOR_PART], int *np);
/* Append [s, e) as one braced statement. */
void ka_recipe_add_body(ka_buf *b, const char *t, size_t s, size_t e);
/* 1 when every `return` of [s, e) is a bare `return;` that no loop of
 * [s, e) holds, and [s, e) has no switch or lambda (where `continue`
 * would be another's): in a loop over the elements that holds [s, e),
 * each can be written `continue;` (ka_recipe_add_body_continue). */
int ka_recipe_return_as_continue(const char *t, size_t s, size_t e);
/* ka_recipe_add_body with every `return` token written `continue`. */
void ka_recipe_add_body_continue(ka_buf *b, const char *t, size_t s, size_t e);
/* Append the loop over the elements from `first` on, by ka_step (which
 * the caller declares):
 *     for (long long ka_e = FIRST; ka_e < N; ka_e += ka_step) { T i = ka_e; BODY }
 * (ka_e, or the first unused of ka_e1, ka_e2, ...).  The index keeps its
 * declared type, and a const one is never stepped. */
void ka_recipe_ew_loop(ka_buf *b, const ka_recipe_ctx *c, const ka_recipe_ew *sh, const char *first);

/* vectorize on lane-strided loops (recipes/recipe_lanevec.c): each
 * `for (T j = (S) + lane; j < B; j += W)` whose group of W lanes shares S
 * and B (warp-per-row's column loops) walks float4 chunks, with a scalar
 * tail and a run-time alignment check.  KA_OK, or KA_RECIPE_DECLINED with
 * the first loop's reason ("no lane-strided loop" when there is none). */
int ka_recipe_lane_vectorize(ka_recipe_ctx *c, ka_buf *out);
/* The same for vectorize-2byte: loops over __half / __nv_bfloat16 rows
 * (float ones beside them) walk chunks of 8 elements, each pointer as
 * 16-byte words (one for 8 two-byte elements, two for 8 floats), the body
 * once per element on the registers' copy; at least one 2-byte pointer
 * must move, else it declines.  With the block's lanes (`j = threadIdx.x`,
 * `j += blockDim.x`) a partial sum carried out of the loop must go straight
 * into a shared-memory tree over the whole block. */
int ka_recipe_lane_vectorize_2byte(ka_recipe_ctx *c, ka_buf *out);

/* A lane-strided loop (recipes/recipe_lanevec.c's reading of it, for
 * recipes that rewrite warp-per-row's loops):
 *     for (T j = (S) + L; COND; j += W) BODY
 * with L a lane variable (`threadIdx.x & (W-1)`, `% W`) or threadIdx.x
 * itself (W is then the block, blockDim.x), S the same on every lane of
 * the group.  KA_OK filled in; KA_RECIPE_DECLINED with c->why empty when
 * the loop is no lane loop, or with the reason when it is one that cannot
 * be read. */
typedef struct ka_recipe_lane_loop {
	char var[64], type[128]; /* j, and T as written ("long long ") */
	char lane[64];           /* L */
	int width;               /* W: 32, 16, 8, ...; 0 the block (blockDim.x) */
	char start[KA_RECIPE_FOR_PART], cond[KA_RECIPE_FOR_PART], step[KA_RECIPE_FOR_PART]; /* squeezed */
	size_t hdr_close;      /* the header's ')' */
	size_t body_s, body_e; /* BODY, inside its braces when it has them */
} ka_recipe_lane_loop;
int ka_recipe_lane_loop_read(ka_recipe_ctx *c, size_t s, size_t e, ka_recipe_lane_loop *lp);
/* 1 when the squeezed expression holds one value on every lane of a group
 * of width lanes (0: the block): parameters, block ids, and locals never
 * assigned again computed from them or from the group's row; else 0 with
 * the name the proof stopped at in bad. */
int ka_recipe_lane_uniform(ka_recipe_ctx *c, const char *sq, int width, char *bad, size_t cap);
/* The same for one name (a row pointer). */
int ka_recipe_lane_uniform_name(ka_recipe_ctx *c, const char *name, int width);
/* 1 when the word or subscript at t[p..p+n) is written there (=, op=, ++,
 * --, or its address taken), [b0, b1) the text around it. */
int ka_recipe_written_at(const char *t, size_t b0, size_t b1, size_t p, size_t n);

/* The 2-D one-thread-per-point shape (recipes/recipe_launch2d.c):
 *     T j = <thread index along x>, i = <... along y>;   (or two statements)
 *     if (i >= H || j >= W) return; BODY...              (or: if (i < H && j < W) BODY)
 * with H and W parameters; nothing in the kernel past the indices reads a
 * thread or block id, warpSize, shared memory, a barrier, a warp-level
 * intrinsic or inline asm, it has no __launch_bounds__, and no such name
 * is in device code or macros outside the file's kernels.  A point's work
 * is then a function of (i, j) alone, whatever the block shape.
 * KA_OK or KA_RECIPE_DECLINED. */
typedef struct ka_recipe_2d {
	char i[64], j[64];                     /* the y and x indices */
	char itype[64], jtype[64];             /* their types, without const */
	char h[KA_CSRC_NAME], w[KA_CSRC_NAME]; /* their bounds */
	size_t body_s, body_e;                 /* BODY (inside its braces, if any) */
	int unguarded;                         /* KA_RECIPE_2D_UNGUARDED took it */
	char why[200];                         /* then: why the guard was not read */
} ka_recipe_2d;
int ka_recipe_2d_shape(ka_recipe_ctx *c, ka_recipe_2d *sh);
/* The same; with flag KA_RECIPE_2D_UNGUARDED a kernel whose indices are
 * not followed by a guard this reads is taken too, as one point per
 * launched thread: BODY is every statement after the indices, h and w are
 * empty and unguarded is set (the other checks stay). */
#define KA_RECIPE_2D_UNGUARDED 1u
/* Flag KA_RECIPE_2D_Z: past the indices the kernel may read the ids along
 * z (`blockIdx.z`: a batch or a slice), which loops over x and y leave as
 * they were; any other use of an id still declines. */
#define KA_RECIPE_2D_Z 2u
int ka_recipe_2d_shape_ex(ka_recipe_ctx *c, ka_recipe_2d *sh, unsigned flags);
/* An edit list over the file's text, applied in one pass. */
typedef struct ka_recipe_edits {
	int n;
	struct {
		size_t s, e;
		char *text;
	} e[64];
} ka_recipe_edits;
/* Replace [s, e) with text (copied); KA_ETOOBIG past 64 edits. */
int ka_recipe_edit(ka_recipe_edits *ed, size_t s, size_t e, const char *text);
/* The text with the edits applied into out (they must not overlap: KA_EINPUT). */
int ka_recipe_edits_apply(ka_recipe_edits *ed, const char *text, size_t len, ka_buf *out);
void ka_recipe_edits_free(ka_recipe_edits *ed);
/* The kernel's body := body (braces included) and `__launch_bounds__(threads)`
 * before its name, as two edits in ed.  KA_OK, KA_ENOMEM for a body that
 * ran out of memory (body->data NULL), or ka_recipe_edit's error. */
int ka_recipe_new_body(ka_recipe_ctx *c, ka_recipe_edits *ed, const ka_buf *body, long threads);
/* A kernel declared with `__launch_bounds__(N)` or `(N, M)`, integer
 * literals (as a recipe writes it): an edit in ed that drops it, so that a
 * recipe that rewrites every launch to its own block (and writes its own
 * bounds) applies to another recipe's result.  KA_OK (also when there is
 * none), KA_RECIPE_DECLINED for bounds of another form. */
int ka_recipe_drop_launch_bounds(ka_recipe_ctx *c, ka_recipe_edits *ed);
/* KA_OK when every occurrence of the kernel's name in the file (macro
 * bodies included) is its definition, a launch in the source model, or
 * followed by '(' (a declaration, or a host function of the same name
 * defined or called: a kernel is never called without <<<>>>), or an
 * argument of a runtime query (ka_recipe_in_query), so that
 * rewriting the model's launches rewrites them all;
 * else KA_RECIPE_DECLINED with the line.  Every recipe that changes what a
 * kernel's launches must be, or proves something from them, calls it
 * (ka_recipe_relaunch does). */
int ka_recipe_launches_known(ka_recipe_ctx *c);
/* 1 when the kernel's name at offset at of the text is an argument of a
 * runtime query of its attributes or occupancy (cudaFuncGetAttributes,
 * cudaOccupancy*, hipOccupancy*), per the kernel model of the file: no
 * launch, so ka_recipe_launches_known and the thread relaunch pass it;
 * 0 otherwise, also when the file cannot be modelled (recipes/launch_query.c). */
int ka_recipe_in_query(ka_recipe_ctx *c, size_t at);
/* 1 when var, as read at offset at (a launch), holds one constant: a
 * `#define VAR N` defined once, or a local `[const|constexpr] INT VAR = N;`
 * of the block that holds at, changed nowhere before it (no assignment,
 * ++, -- or address); its value goes to *value. */
/* The one `#define NAME VALUE` of the file, an object-like macro that no
 * other directive names (#undef, #ifdef, another macro's body): 1 with the
 * offsets of its line [*line_s, *line_e) and of its value's first character;
 * 0 when NAME is no macro; -1 when it is one this cannot stand for. */
int ka_recipe_define_of(const ka_recipe_ctx *c, const char *name, size_t *line_s, size_t *line_e,
			size_t *value_s);
int ka_recipe_const_var(const ka_recipe_ctx *c, size_t at, const char *var, long *value);
/* 1 when the block of launch l names a const-qualified integer variable of
 * this file, at any scope (`const int BLOCK = 256;` at file scope, a
 * constexpr, `const dim3 b(256)`), whose initializer folds to a constant in
 * [1, 1024], per the kernel model's reading of the launch (the name
 * resolved as the compiler does, so a shadowing local is no such name);
 * its value goes to *value (recipes/recipe_launch.c). */
int ka_recipe_model_const_block(ka_recipe_ctx *c, const ka_csrc_launch *l, long *value);
/* After launch l's config slot q (0 grid, 1 block) was rewritten in ed:
 * drop the declaration of the scalar variable it read when nothing else
 * reads it. */
int ka_recipe_drop_dead_config(ka_recipe_ctx *c, ka_recipe_edits *ed, const ka_csrc_launch *l, int q);
/* Rewrite every launch of kernel k: grid := grid_fmt with "@N" replaced by
 * the launch's argument for parameter `count_param` (the thread count the
 * recipe derives the grid from; or, count_param a parenthesized expression
 * over the parameters, that expression with each parameter replaced by
 * its argument), block := block.  KA_RECIPE_DECLINED when
 * the file has no such launch, a launch cannot be read, or the kernel is
 * named where no launch was read (ka_recipe_launches_known).  A grid or
 * block held in a scalar variable that nothing else reads loses its
 * declaration (`const int grid_size = CEIL_DIV(N, bs);` would be dead, and
 * nvcc warns about it), when that declaration is a plain one in the
 * launch's block whose initializer has no side effects. */
int ka_recipe_relaunch(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *count_param, const char *grid_fmt,
		       const char *block);
/* The same, and the dynamic shared memory := smem_fmt with "@B" replaced
 * by the argument for parameter smem_param (smem_fmt NULL: kept); "@B" in
 * grid_fmt is replaced the same way (a 2-D grid from two parameters). */
int ka_recipe_relaunch_smem(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *count_param,
			    const char *grid_fmt, const char *block, const char *smem_param,
			    const char *smem_fmt);
/* The same for a 3-D grid: "@B" and "@Z" in grid_fmt are replaced by the
 * arguments for parameters b_param and z_param (as `(long long)(ARG)`),
 * "@A" by z_param's argument as written, parenthesized (a pointer stays a
 * pointer), and "@S" by the launch's stream (0 when it names none); the
 * dynamic shared memory is kept. */
int ka_recipe_relaunch_z(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *count_param, const char *grid_fmt,
			 const char *block, const char *b_param, const char *z_param);
/* For a kernel without a guard (ka_recipe_ew's unguarded): add the
 * parameter `long long count_name` last to the kernel's definition and to
 * every file-level declaration of it, and rewrite every launch `k<<<G, B,
 * ...>>>(args)` to
 *     k<<<dim3(min((dim3(G).x + vec - 1) / vec, cap), dim3(G).y, dim3(G).z), B, ...>>>(
 *         args, (long long)dim3(G).x * dim3(B).x)
 * so that the kernel learns the thread count along x the launch had (its
 * element count), its block and the grid's y and z stay, and the grid
 * along x is capped.  Declines when the kernel's name is found anywhere
 * else (a call, a host function of that name, a function pointer, a
 * macro), when G or B may have side effects (they are evaluated twice) or
 * is a braced list, or the kernel has no parameters.  KA_OK or
 * KA_RECIPE_DECLINED. */
int ka_recipe_relaunch_threads(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *count_name, long vec,
			       long cap);
/* The same for a kernel whose threads loop over x and y (grid-stride's
 * 2-D form): every launch keeps its block and gets the grid
 *     dim3(X, min(dim3(G).y, cap / max(X, 1)), dim3(G).z),  X = min(dim3(G).x, cap)
 * (at most cap blocks per z layer).  With nx and ny (both not NULL) the
 * kernel also gets the parameters `long long nx, long long ny` last and
 * each launch passes its threads along x and y, `(long long)dim3(G).x *
 * dim3(B).x` and the same along y; with both NULL the parameters stay (a
 * guarded kernel knows its bounds) and a use of the name it cannot read
 * stays as it is (as ka_recipe_relaunch_cap).  Declines as
 * ka_recipe_relaunch_threads does. */
int ka_recipe_relaunch_threads_2d(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *nx, const char *ny,
				  long cap);
/* For a kernel whose threads loop over the elements up to a count it
 * knows (grid-stride's guarded 1-D form, where some launch is one this
 * recipe cannot read): every launch it reads keeps its block and gets the
 * grid dim3(min(dim3(G).x, cap), dim3(G).y, dim3(G).z); a use of the name
 * it cannot read (cudaLaunchKernel, a function pointer, a macro, an
 * occupancy query) is left as it is, and is still right: the kernel's loop
 * covers its count whatever the grid and block.  Declines when it reads no
 * launch, and as ka_recipe_relaunch_threads does on the launches it reads. */
int ka_recipe_relaunch_cap(ka_recipe_ctx *c, ka_recipe_edits *ed, long cap);
/* 2-D launches (recipes/recipe_launch2d.c): rewrite every launch of the
 * kernel.  Each must read
 *     grid((W + BX - 1) / BX, (H + BY - 1) / BY), block(BX, BY)
 * inline as dim3(...) or through dim3 variables declared before the
 * launch in its block and used by nothing else, with BX and BY integer
 * literals the kernel's body does not use and W, H the launch's arguments
 * for sh->w and sh->h.  block := (bx, by), grid := ((W + bx - 1) / bx,
 * (H + R - 1) / R) with R = by * rows (rows: points per thread along y).
 * With tune set, a launch already bx x by, or wider than bx, declines as
 * bad parameters.  KA_RECIPE_DECLINED when a launch cannot be read. */
int ka_recipe_relaunch_2d(ka_recipe_ctx *c, const ka_recipe_2d *sh, ka_recipe_edits *ed, long bx, long by,
			  long rows, int tune);

#endif
