/* analyzer/frontend.c: the front end.  Parses one CUDA/HIP file with
 * libclang 19 and lowers the cursors of project files into the kernel model
 * (model.h), allocated in the TU's arena.  The frontend*.c files are the only
 * ones that see libclang (shared internals: frontend_int.h); this one holds
 * the small helpers, the others expressions (frontend_expr.c, operator kinds
 * in frontend_ops.c), declarations (frontend_decl.c), statements
 * (frontend_stmt.c) and functions and the parse entry (frontend_tu.c); the
 * compiler arguments live in frontend_args.c.
 *
 * Facts checked on libclang 19.1.7 + CUDA 13.0 (2026-11): threadIdx.x is a
 * MemberRefExpr with an empty spelling (the member is read from the source);
 * __launch_bounds__ is an unexposed attribute (read from the pretty-printed
 * declaration); a <<<>>> launch is a CallExpr with a nested configuration call.
 */
#include "analyzer/frontend_int.h"
#include "analyzer/ranges.h"
#include "util/error.h"
#include "util/fs.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------ */

static unsigned hash_str(const char *s)
{
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

const char *fe_usr_of(lower_ctx *cx, CXCursor c)
{
	unsigned b = clang_hashCursor(c) % USR_BUCKETS;
	for (struct usr_memo *m = cx->usr_memo[b]; m; m = m->next)
		if (clang_equalCursors(m->decl, c))
			return m->usr;
	CXString s = clang_getCursorUSR(c);
	const char *p = clang_getCString(s);
	const char *r = (p && *p) ? ka_arena_strdup(cx->a, p) : NULL;
	clang_disposeString(s);
	struct usr_memo *m = ka_arena_alloc(cx->a, sizeof *m);
	m->decl = c;
	m->usr = r;
	m->next = cx->usr_memo[b];
	cx->usr_memo[b] = m;
	return r;
}

const char *fe_file_text(lower_ctx *cx, CXFile f, size_t *size)
{
	if (!f) {
		*size = 0;
		return NULL;
	}
	if (!cx->text_file || !clang_File_isEqual(cx->text_file, f)) {
		size_t n = 0;
		cx->text = clang_getFileContents(cx->ctu, f, &n);
		cx->text_size = cx->text ? n : 0;
		cx->text_file = f;
	}
	*size = cx->text_size;
	return cx->text;
}

void fe_usr_put(lower_ctx *cx, const char *usr, ka_decl *d)
{
	if (!usr)
		return;
	usr_ent *e = ka_arena_alloc(cx->a, sizeof *e);
	e->usr = (char *)usr;
	e->decl = d;
	unsigned b = hash_str(usr) % USR_BUCKETS;
	e->next = cx->usr[b];
	cx->usr[b] = e;
}

ka_decl *fe_usr_get(lower_ctx *cx, const char *usr)
{
	if (!usr)
		return NULL;
	for (usr_ent *e = cx->usr[hash_str(usr) % USR_BUCKETS]; e; e = e->next)
		if (strcmp(e->usr, usr) == 0)
			return e->decl;
	return NULL;
}

const char *fe_spelling(lower_ctx *cx, CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	const char *r = ka_arena_strdup(cx->a, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

const char *fe_file_name(lower_ctx *cx, CXFile f)
{
	if (!f)
		return NULL;
	if (f == cx->last_file)
		return cx->last_name;
	CXString s = clang_getFileName(f);
	const char *p = clang_getCString(s);
	const char *r = ka_frontend_intern_file(cx->tu, p);
	clang_disposeString(s);
	cx->last_file = f;
	cx->last_name = r;
	return r;
}

void fe_fill_loc(lower_ctx *cx, CXCursor c, ka_loc *l)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXSourceLocation b = clang_getRangeStart(r), e = clang_getRangeEnd(r);
	CXFile fb, fe, sb, se;
	unsigned lb, cb, le, ce, ob, oe, eb, ee;
	clang_getExpansionLocation(b, &fb, &lb, &cb, &eb);
	clang_getExpansionLocation(e, &fe, &le, &ce, &ee);
	l->file = fe_file_name(cx, fb);
	l->line = (int)lb;
	l->col = (int)cb;
	l->end_line = (int)le;
	l->end_col = (int)ce;
	/* File locations: a macro argument's own text (CHECK(cudaMemcpy(...))),
	 * or the macro use for tokens of a macro body. */
	clang_getFileLocation(b, &sb, NULL, NULL, &ob);
	clang_getFileLocation(e, &se, NULL, NULL, &oe);
	int same = clang_File_isEqual(sb, fb) && clang_File_isEqual(se, fb) && oe >= ob;
	l->begin = (int)(same ? ob : eb);
	l->end = (int)(same ? oe : ee);
	/* libclang 19 reports macro-expanded nodes at the macro use, so a node
	 * is "in a macro" when its range lies within a macro expansion. */
	const struct macro_set *m = fe_macro_set(cx, l->file);
	l->in_macro = m && m->maxend ? ka_ranges_cover(m->pairs, m->maxend, m->n, l->begin, l->end) : 0;
}

/* clang_Cursor_Evaluate as a number of the wanted kind; 1 when it is one. */
static int evaluate(CXCursor c, CXEvalResultKind want, int64_t *iv, double *fv)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	int ok = r && clang_EvalResult_getKind(r) == want;
	if (ok && iv)
		*iv = clang_EvalResult_getAsLongLong(r);
	if (ok && fv)
		*fv = clang_EvalResult_getAsDouble(r);
	if (r)
		clang_EvalResult_dispose(r);
	return ok;
}

int64_t fe_eval_int(CXCursor c, int *ok)
{
	int64_t v = 0;
	*ok = evaluate(c, CXEval_Int, &v, NULL);
	return v;
}

double fe_eval_float(CXCursor c, int *ok)
{
	double v = 0;
	*ok = evaluate(c, CXEval_Float, NULL, &v);
	return v;
}

/* ---- types -------------------------------------------------------------- */

static int is_vector_name(const char *s)
{
	static const char *const base[] = {"float",    "int",       "uint",   "double", "char",
					   "uchar",    "short",     "ushort", "long",   "ulong",
					   "longlong", "ulonglong", "half",   NULL};
	if (strncmp(s, "const ", 6) == 0)
		s += 6;
	if (strcmp(s, "__half2") == 0 || strcmp(s, "__nv_bfloat162") == 0)
		return 1;
	for (int i = 0; base[i]; i++) {
		size_t n = strlen(base[i]);
		if (strncmp(s, base[i], n) == 0 && s[n] >= '1' && s[n] <= '4' && s[n + 1] == '\0')
			return 1;
	}
	return 0;
}

unsigned fe_type_flags(CXType t)
{
	unsigned f = 0;
	CXType ct = clang_getCanonicalType(t);
	if (clang_isVolatileQualifiedType(ct))
		f |= KT_VOLATILE;
	switch (ct.kind) {
	case CXType_Float:
		f |= KT_FLOAT;
		break;
	case CXType_Double:
	case CXType_LongDouble:
		f |= KT_DOUBLE;
		break;
	case CXType_Half:
	case CXType_Float16:
		f |= KT_HALF;
		break;
	case CXType_Bool:
	case CXType_Char_S:
	case CXType_SChar:
	case CXType_Short:
	case CXType_Int:
	case CXType_Long:
	case CXType_LongLong:
	case CXType_Int128:
	case CXType_WChar:
		f |= KT_INT;
		break;
	case CXType_Char_U:
	case CXType_UChar:
	case CXType_UShort:
	case CXType_UInt:
	case CXType_ULong:
	case CXType_ULongLong:
	case CXType_UInt128:
		f |= KT_INT | KT_UNSIGNED;
		break;
	case CXType_Enum:
		f |= KT_INT;
		break;
	case CXType_Pointer: {
		f |= KT_POINTER;
		CXType p = clang_getPointeeType(ct);
		if (clang_isConstQualifiedType(p))
			f |= KT_CONST_POINTEE;
		if (clang_isVolatileQualifiedType(p))
			f |= KT_VOLATILE_POINTEE;
		if (clang_isRestrictQualifiedType(ct))
			f |= KT_RESTRICT;
		break;
	}
	case CXType_ConstantArray:
	case CXType_IncompleteArray:
	case CXType_VariableArray:
	case CXType_DependentSizedArray:
		f |= KT_ARRAY;
		break;
	case CXType_Record:
		f |= KT_RECORD;
		break;
	case CXType_Dependent:
	case CXType_Unexposed:
		f |= KT_DEPENDENT;
		break;
	default:
		break;
	}
	if (clang_isRestrictQualifiedType(t))
		f |= KT_RESTRICT;
	if (f & KT_RECORD) {
		CXString s = clang_getTypeSpelling(clang_getUnqualifiedType(ct));
		if (is_vector_name(clang_getCString(s)))
			f |= KT_VECTOR;
		clang_disposeString(s);
	}
	return f;
}

/* clang_Type_getSizeOf never returns on the pseudo-object type of CUDA's
 * builtin members (libclang 19.1.7), so unexposed types are not asked. */
int fe_size_of(CXType t)
{
	CXType ct = clang_getCanonicalType(t);
	if (ct.kind == CXType_Unexposed || ct.kind == CXType_Dependent || ct.kind == CXType_Invalid ||
	    ct.kind == CXType_Overload || ct.kind == CXType_Auto)
		return -1;
	long long n = clang_Type_getSizeOf(ct);
	return n > 0 && n < (1LL << 31) ? (int)n : -1;
}

const char *fe_type_name(lower_ctx *cx, CXType t)
{
	CXString s = clang_getTypeSpelling(t);
	const char *r = ka_arena_strdup(cx->a, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

void fe_set_type(lower_ctx *cx, ka_node *n, CXCursor c)
{
	CXType t = clang_getCursorType(c);
	n->type = fe_type_name(cx, t);
	n->tflags = fe_type_flags(t);
	n->type_bytes = fe_size_of(t);
	n->pointee_bytes = -1;
	CXType ct = clang_getCanonicalType(t);
	if (ct.kind == CXType_Pointer)
		n->pointee_bytes = fe_size_of(clang_getPointeeType(ct));
	else if (n->tflags & KT_ARRAY)
		n->pointee_bytes = fe_size_of(clang_getArrayElementType(ct));
}

/* ---- children ----------------------------------------------------------- */

static enum CXChildVisitResult collect_kid(CXCursor c, CXCursor parent, CXClientData d)
{
	kid_list *k = d;
	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 8;
		CXCursor *nv = realloc(k->v, sizeof *nv * (size_t)k->cap);
		if (!nv)
			abort();
		k->v = nv;
	}
	k->v[k->n++] = c;
	return CXChildVisit_Continue;
}

kid_list fe_kids_of(CXCursor c)
{
	kid_list k = {0};
	clang_visitChildren(c, collect_kid, &k);
	return k;
}

int fe_is_expr_kind(enum CXCursorKind k)
{
	return clang_isExpression(k) || k == CXCursor_DeclRefExpr;
}

void fe_set_kids(lower_ctx *cx, ka_node *n, kid_list *k, int from, int as_stmt)
{
	int cnt = k->n - from;
	if (cnt <= 0)
		return;
	n->kids = ka_arena_alloc(cx->a, sizeof *n->kids * (size_t)cnt);
	for (int i = from; i < k->n; i++) {
		ka_node *kn = as_stmt ? fe_lower_stmt(cx, k->v[i]) : fe_lower_expr(cx, k->v[i]);
		if (kn)
			n->kids[n->nkids++] = kn;
	}
}

ka_node *fe_new_node(lower_ctx *cx, ka_nkind kind, CXCursor c)
{
	ka_node *n = ka_arena_alloc(cx->a, sizeof *n);
	n->kind = kind;
	n->field_offset = -1;
	n->type_bytes = -1;
	n->pointee_bytes = -1;
	n->ival = -1;
	n->name_begin = n->name_end = -1;
	fe_fill_loc(cx, c, &n->loc);
	return n;
}
