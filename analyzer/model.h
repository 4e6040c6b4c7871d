/* analyzer/model.h: the kernel model, the front end's output.
 *
 * The front end (frontend*.c, the only files that include libclang) lowers each
 * translation unit into these plain structs, allocated in one per-file arena.
 * Everything after it (walk*.c, emit*.c, expr.c, warp.c) works on this model
 * only, so it can be tested and fuzzed without parsing a file.
 */
#ifndef KA_ANALYZER_MODEL_H
#define KA_ANALYZER_MODEL_H
#include <stdint.h>
#include "util/arena.h"

typedef enum ka_nkind {
	KN_OTHER = 0,
	/* expressions */
	KN_INT,
	KN_FLOAT,
	KN_STRING,
	KN_DECLREF,
	KN_MEMBER,
	KN_SUBSCRIPT,
	KN_BINOP,
	KN_UNOP,
	KN_CALL,
	KN_CAST,
	KN_PAREN,
	KN_COND,
	KN_INITLIST,
	KN_SIZEOF,
	/* statements */
	KN_COMPOUND,
	KN_DECLSTMT,
	KN_VARDECL,
	KN_IF,
	KN_FOR,
	KN_WHILE,
	KN_DO,
	KN_RETURN,
	KN_BREAK,
	KN_CONTINUE,
	KN_SWITCH,
	KN_CASE,
	KN_NULLSTMT
} ka_nkind;

/* Binary and unary operators (our own numbering; the front end maps them). */
typedef enum ka_op {
	OP_NONE = 0,
	OP_MUL,
	OP_DIV,
	OP_REM,
	OP_ADD,
	OP_SUB,
	OP_SHL,
	OP_SHR,
	OP_LT,
	OP_GT,
	OP_LE,
	OP_GE,
	OP_EQ,
	OP_NE,
	OP_AND,
	OP_XOR,
	OP_OR,
	OP_LAND,
	OP_LOR,
	OP_ASSIGN,
	OP_MULA,
	OP_DIVA,
	OP_REMA,
	OP_ADDA,
	OP_SUBA,
	OP_SHLA,
	OP_SHRA,
	OP_ANDA,
	OP_XORA,
	OP_ORA,
	OP_COMMA,
	/* unary */
	OP_POSTINC,
	OP_POSTDEC,
	OP_PREINC,
	OP_PREDEC,
	OP_ADDROF,
	OP_DEREF,
	OP_PLUS,
	OP_MINUS,
	OP_NOT,
	OP_LNOT
} ka_op;

/* Type facts of an expression or declaration. */
enum {
	KT_INT = 1u << 0,
	KT_UNSIGNED = 1u << 1,
	KT_FLOAT = 1u << 2,
	KT_DOUBLE = 1u << 3,
	KT_POINTER = 1u << 4,
	KT_ARRAY = 1u << 5,
	KT_CONST_POINTEE = 1u << 6,
	KT_RESTRICT = 1u << 7,
	KT_RECORD = 1u << 8,
	KT_DEPENDENT = 1u << 9,
	KT_VOLATILE = 1u << 10,
	KT_HALF = 1u << 11,
	KT_VECTOR = 1u << 12,          /* float4, int2, ... (CUDA vector structs) */
	KT_VOLATILE_POINTEE = 1u << 13 /* a pointer to volatile (`volatile T *p`) */
};

/* A source range.  line/col come from the expansion location (what a user
 * sees); begin/end are byte offsets of the file location (spelling) and are
 * only meaningful for rewriting when !in_macro. */
typedef struct ka_loc {
	const char *file;
	int line, col, end_line, end_col;
	int begin, end; /* byte offsets in `file`, end exclusive; -1 unknown */
	int in_macro;   /* the node comes from a macro expansion */
} ka_loc;

typedef struct ka_decl ka_decl;

typedef struct ka_node {
	ka_nkind kind;
	ka_op op;
	const char *name;    /* DECLREF/CALL/MEMBER name, VARDECL name */
	const char *type;    /* canonical type spelling */
	unsigned tflags;     /* KT_* */
	int type_bytes;      /* sizeof(type), -1 unknown */
	int pointee_bytes;   /* for pointers/arrays: sizeof(element), -1 unknown */
	int field_offset;    /* MEMBER: byte offset of the field, -1 unknown */
	int is_arrow;        /* MEMBER: p->x */
	int64_t ival;        /* INT literal value; SIZEOF folded value (-1 unknown) */
	int const_known;     /* DECLREF, MEMBER: a known integer constant, in ival */
	double fval;         /* FLOAT literal value */
	int has_f_suffix;    /* FLOAT literal written with f/F */
	ka_decl *ref;        /* DECLREF/CALL: the referenced declaration, if lowered */
	const char *ref_usr; /* its USR, to resolve functions defined later */
	ka_loc loc;
	int name_begin, name_end; /* CALL: callee token range (offsets), -1 unknown */
	struct ka_node **kids;
	int nkids;
	/* statements */
	struct ka_node *cfg;    /* CALL: the <<<...>>> configuration call, if a launch */
	struct ka_node *callee; /* CALL: the callee expression (p.f / p->f: its object) */
	int64_t targs[4];       /* CALL/DECLREF: integer template arguments written */
	int ntargs;
	/* CALL/DECLREF of a function template specialization: its template
	 * arguments by position as the compiler resolved them (an integral
	 * one's value, bit i of ptargs_known set), NULL when none */
	const int64_t *ptargs;
	unsigned ptargs_known;
	int nptargs;
	unsigned mut_ref_args;   /* CALL: bit i, argument i binds to a non-const lvalue reference */
	const char *debug_guard; /* CALL of a CUDA/HIP API: the debug-only `#if` around its text, or NULL */
	int unroll_pragma;       /* FOR/WHILE/DO: preceded by #pragma unroll */
	int unroll_count;        /* its argument, 0 none, -1 'unroll 1'... */
} ka_node;

typedef enum ka_dkind { KD_VAR, KD_PARAM, KD_FUNC, KD_TPARAM } ka_dkind;

enum {
	KDF_GLOBAL = 1u << 0,
	KDF_DEVICE = 1u << 1,
	KDF_HOST = 1u << 2,
	KDF_SHARED = 1u << 3,
	KDF_CONSTANT = 1u << 4,
	KDF_EXTERN = 1u << 5,
	KDF_FILE_SCOPE = 1u << 6,
	KDF_TEMPLATE = 1u << 7,
	KDF_CONSTQ = 1u << 8,
	KDF_SYSTEM = 1u << 9,
	KDF_STATIC = 1u << 10,
	KDF_LAMBDA =
		1u << 11, /* a lambda's call operator: params and body, inlined where the lambda is called */
	KDF_CTOR = 1u << 12 /* a class's constructor (host code in it runs once per object) */
};

struct ka_decl {
	int id;
	ka_dkind kind;
	unsigned flags; /* KDF_* */
	const char *name;
	const char *mangled;
	const char *type;
	unsigned tflags;
	int type_bytes, elem_bytes;         /* elem_bytes: pointee or array element */
	int ndims;                          /* arrays: dimensions (up to 3 kept) */
	int64_t dims[3];                    /* -1 for [] */
	int inner_dim_begin, inner_dim_end; /* offsets of the innermost dim's text */
	ka_loc loc;
	int decl_begin;         /* offset of the whole declaration start */
	ka_node *init;          /* VAR: initializer, may be NULL */
	struct ka_decl *lambda; /* PARAM: the lambda passed to it in the call being walked */
	/* functions */
	ka_decl **params;
	int nparams;
	ka_decl **tparams;
	int ntparams;
	ka_node *body;        /* NULL for a declaration only */
	int body_begin;       /* offset of the body's '{' */
	int lb_max, lb_min;   /* __launch_bounds__, -1 when absent */
	struct ka_decl *next; /* in the TU's list */
};

typedef struct ka_diag {
	const char *file;
	int line, col;
	const char *severity; /* warning | error | fatal */
	const char *message;
	int off;          /* byte offset in `file` (expansion location) */
	const char *func; /* the function it lies in, which was not analyzed */
	int quiet;        /* a clang error past the first KA_DIAG_SHOWN: counted, not listed */
	struct ka_diag *next;
} ka_diag;

/* clang's errors are all collected (they tell which functions did not
 * parse, wherever they are), but only the first ones of a file are listed
 * in the facts' diag table, as clang's -ferror-limit would print them. */
#define KA_DIAG_SHOWN 50

/* An error or fatal error (not a warning, nor kcheck's own note). */
static inline int ka_diag_is_error(const ka_diag *d)
{
	return d->severity[0] == 'e' || d->severity[0] == 'f';
}

typedef struct ka_srcfile {
	const char *path;
	const char *data; /* bytes, NUL-terminated */
	int len;
	int is_main;
	struct ka_srcfile *next;
} ka_srcfile;

/* One lowered translation unit. */
typedef struct ka_tu {
	ka_arena *arena;
	const char *main_file;
	const char *lang; /* cuda | hip */
	ka_decl *funcs;   /* functions with bodies from project files */
	ka_decl *globals; /* file-scope variables (shared, constant, const) */
	ka_diag *diags;
	int n_errors;
	int n_skipped; /* functions not analyzed: errors in their bodies */
	ka_srcfile *files;
	int next_decl_id;
} ka_tu;

/* Source text of a range from the TU's file table ("" when unknown). */
const char *ka_tu_text(ka_tu *tu, const char *file, int begin, int end);
/* A warning of kcheck's own on the TU (analysis limits): a diag row, and a
 * line on stderr from the CLI. */
void ka_tu_warn(ka_tu *tu, const ka_loc *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The file table's entry for path (its bytes read on first use), or NULL. */
const ka_srcfile *ka_tu_file(ka_tu *tu, const char *path);

#endif
