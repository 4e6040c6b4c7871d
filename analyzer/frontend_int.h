/* analyzer/frontend_int.h: what the front end's files share (frontend*.c,
 * the only files that see libclang).  The lowering context, children lists,
 * and the helpers one file defines and another calls (prefix fe_). */
#ifndef KA_ANALYZER_FRONTEND_INT_H
#define KA_ANALYZER_FRONTEND_INT_H
#include "analyzer/frontend.h"
#include <clang-c/Index.h>
#include <stdint.h>

typedef struct usr_ent {
	char *usr;
	ka_decl *decl;
	struct usr_ent *next;
} usr_ent;

#define USR_BUCKETS 1024

typedef struct lower_ctx {
	ka_tu *tu;
	ka_arena *a;
	CXTranslationUnit ctu;
	usr_ent *usr[USR_BUCKETS];
	/* fe_usr_of's answers by declaration cursor: clang builds a USR anew
	 * on every call, and the same few declarations are referenced
	 * thousands of times in a file */
	struct usr_memo {
		CXCursor decl;
		const char *usr;
		struct usr_memo *next;
	} *usr_memo[USR_BUCKETS];
	/* fe_file_text's last answer: clang_getFileContents looks the file up
	 * anew each call, at a cost that grows with the included headers */
	CXFile text_file;
	const char *text;
	size_t text_size;
	/* macro expansion ranges (begin, end pairs) of each file outside the
	 * system headers, the main file's and a header's (a kernel in an
	 * included .cuh); maxend is ka_ranges_index's (after top_visit) */
	struct macro_set {
		const char *file;
		int *pairs, *maxend;
		int n, cap;
	} *msets;
	int nmsets, capmsets;
	/* where each expansion's macro is defined (a header's too), by the
	 * expansion's file and begin: ka_ranges_index sorts the pairs, so apart */
	struct macro_def {
		int exp_begin, def_begin, def_end;
		const char *exp_file, *file;
	} *defs;
	int ndefs, capdefs;
	CXFile last_file; /* file_name()'s last answer: nodes come in runs of one file */
	const char *last_name;
	CXCursor *tops; /* the top-level definitions to lower, in source order (top_visit) */
	int ntops, captops;
	struct pp_file *pp; /* the debug-only regions of each file asked about (frontend_pp.c) */
	int depth;          /* nesting of lower_expr/lower_stmt calls */
	int too_deep;       /* the depth limit was hit (reported once) */
} lower_ctx;

/* Deeper nesting (a 20,000-term sum is a left-deep tree of that height) is
 * cut: the subtree becomes an opaque node and the TU gets a warning, so the
 * recursive lowering and the walk that follows have a bounded stack. */
#define KA_MAX_AST_DEPTH 256

typedef struct kid_list {
	CXCursor *v;
	int n, cap;
} kid_list;

/* frontend.c */
/* the text of file F (clang's buffer, NULL when it has none); *size its length */
const char *fe_file_text(lower_ctx *cx, CXFile f, size_t *size);
const char *fe_usr_of(lower_ctx *cx, CXCursor c);
/* the CUDA attributes of a declaration (KDF_GLOBAL, KDF_DEVICE, KDF_HOST, ...) */
unsigned fe_cuda_attrs(CXCursor c);
void fe_usr_put(lower_ctx *cx, const char *usr, ka_decl *d);
ka_decl *fe_usr_get(lower_ctx *cx, const char *usr);
const char *fe_spelling(lower_ctx *cx, CXCursor c);
const char *fe_file_name(lower_ctx *cx, CXFile f);
/* The macro expansion ranges of FILE (an interned name), or NULL. */
const struct macro_set *fe_macro_set(const lower_ctx *cx, const char *file);
void fe_fill_loc(lower_ctx *cx, CXCursor c, ka_loc *l);
int64_t fe_eval_int(CXCursor c, int *ok);
double fe_eval_float(CXCursor c, int *ok);
unsigned fe_type_flags(CXType t);
int fe_size_of(CXType t);
const char *fe_type_name(lower_ctx *cx, CXType t);
void fe_set_type(lower_ctx *cx, ka_node *n, CXCursor c);
kid_list fe_kids_of(CXCursor c);
int fe_is_expr_kind(enum CXCursorKind k);
void fe_set_kids(lower_ctx *cx, ka_node *n, kid_list *k, int from, int as_stmt);
ka_node *fe_new_node(lower_ctx *cx, ka_nkind kind, CXCursor c);

/* frontend_pp.c: where the call C is spelled (or, failing that, expanded)
 * inside a preprocessor branch that only debug builds compile (`#ifndef
 * NDEBUG`, the `#else` of `#ifdef NDEBUG`, `#ifdef DEBUG`), the opening
 * directive and its place ("`#ifndef NDEBUG` at debug_cuda.hpp:55"); NULL
 * otherwise. */
const char *fe_debug_guard(lower_ctx *cx, CXCursor c);

/* frontend_ops.c */
ka_nkind fe_expr_kind(enum CXCursorKind k);
ka_op fe_map_binop(enum CXBinaryOperatorKind k);
ka_op fe_map_unop(enum CXUnaryOperatorKind k);
/* A dependent operator in a template: with some operator of its spelling
 * declared in scope (cuda_fp16.h's global `operator+`, a library's
 * `operator<`), clang keeps `++i`, `a += b` or `i < n` on a template
 * parameter's type as an unresolved operator call, a CallExpr with no name
 * whose unnamed callee sits on the operator's token.  The built-in operator it
 * stands for (*unary set for the unary ones; a postfix `++` has a second,
 * implicit argument), or OP_NONE for any other call. */
ka_op fe_dependent_operator(lower_ctx *cx, CXCursor c, int *unary);

/* frontend_expr.c */
ka_node *fe_lower_expr(lower_ctx *cx, CXCursor c);
ka_node *fe_lower_stmt(lower_ctx *cx, CXCursor c);

/* frontend_decl.c */
void fe_decl_type(lower_ctx *cx, ka_decl *d, CXType t);
ka_decl *fe_new_decl(lower_ctx *cx, CXCursor c, ka_dkind kind);
/* A function's (or a lambda's) parameters, template parameters and body,
 * from its cursor's kids, into d. */
void fe_lower_params_body(lower_ctx *cx, CXCursor c, ka_decl *d);
ka_decl *fe_lower_vardecl(lower_ctx *cx, CXCursor c);
ka_node *fe_lower_declstmt(lower_ctx *cx, CXCursor c);

/* frontend_chevron.c: the parse's copies of files with spaced launches.
 * fe_chevrons_joined: text with its launches joined, NULL when it has
 * none.  fe_chevron_headers: the user's headers clang reported errors in
 * that hold spaced launches, joined into unsaved (at most FE_CHEVRON_FILES,
 * *n grows); 1 when any was, and the file must be parsed again. */
#define FE_CHEVRON_FILES 8
const char *fe_chevrons_joined(ka_arena *a, const char *text, size_t len);
int fe_chevron_headers(lower_ctx *cx, struct CXUnsavedFile *unsaved, int *n, const char *main_path);

/* frontend_stmt.c */
ka_node *fe_lower_stmt_at(lower_ctx *cx, CXCursor c);

#endif
