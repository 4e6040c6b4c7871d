/* analyzer/frontend.c: the front end.  Parses one CUDA/HIP file with
 * libclang 19 and lowers the cursors of project files into the kernel model
 * (model.h), allocated in the TU's arena.  This is the only file that sees
 * libclang; its compiler arguments live in frontend_args.c.
 *
 * Facts checked on libclang 19.1.7 + CUDA 13.0 (2026-11): threadIdx.x is a
 * MemberRefExpr with an empty spelling (the member is read from the source);
 * __launch_bounds__ is an unexposed attribute (read from the pretty-printed
 * declaration); a <<<>>> launch is a CallExpr with a nested configuration call.
 */
#include "analyzer/frontend.h"
#include "analyzer/ranges.h"
#include "util/error.h"
#include "util/fs.h"
#include <clang-c/Index.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	int *macros;              /* main-file macro expansion ranges: begin, end pairs */
	int nmacros, capmacros;
	int *macro_maxend;        /* ka_ranges_index over macros (after macro_visit) */
	CXFile last_file;         /* file_name()'s last answer: nodes come in runs of one file */
	const char *last_name;
	const char *macro_file;
	int depth;                /* nesting of lower_expr/lower_stmt calls */
	int too_deep;             /* the depth limit was hit (reported once) */
} lower_ctx;

/* Deeper nesting (a 20,000-term sum is a left-deep tree of that height) is
 * cut: the subtree becomes an opaque node and the TU gets a warning, so the
 * recursive lowering and the walk that follows have a bounded stack. */
#define KA_MAX_AST_DEPTH 256

static ka_node *lower_expr(lower_ctx *cx, CXCursor c);
static ka_node *lower_stmt(lower_ctx *cx, CXCursor c);
static ka_node *lower_stmt_at(lower_ctx *cx, CXCursor c);

/* ---- small helpers ------------------------------------------------------ */

static unsigned hash_str(const char *s)
{
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static const char *usr_of(lower_ctx *cx, CXCursor c)
{
	CXString s = clang_getCursorUSR(c);
	const char *p = clang_getCString(s);
	const char *r = (p && *p) ? ka_arena_strdup(cx->a, p) : NULL;
	clang_disposeString(s);
	return r;
}

static void usr_put(lower_ctx *cx, const char *usr, ka_decl *d)
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

static ka_decl *usr_get(lower_ctx *cx, const char *usr)
{
	if (!usr)
		return NULL;
	for (usr_ent *e = cx->usr[hash_str(usr) % USR_BUCKETS]; e; e = e->next)
		if (strcmp(e->usr, usr) == 0)
			return e->decl;
	return NULL;
}

static const char *spelling(lower_ctx *cx, CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	const char *r = ka_arena_strdup(cx->a, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

static const char *file_name(lower_ctx *cx, CXFile f)
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

static void fill_loc(lower_ctx *cx, CXCursor c, ka_loc *l)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXSourceLocation b = clang_getRangeStart(r), e = clang_getRangeEnd(r);
	CXFile fb, fe, sb, se;
	unsigned lb, cb, le, ce, ob, oe, eb, ee;
	clang_getExpansionLocation(b, &fb, &lb, &cb, &eb);
	clang_getExpansionLocation(e, &fe, &le, &ce, &ee);
	l->file = file_name(cx, fb);
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
	l->in_macro = 0;
	if (l->file == cx->macro_file)
		l->in_macro = ka_ranges_cover(cx->macros, cx->macro_maxend, cx->nmacros, l->begin, l->end);
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

static int64_t eval_int(CXCursor c, int *ok)
{
	int64_t v = 0;
	*ok = evaluate(c, CXEval_Int, &v, NULL);
	return v;
}

static double eval_float(CXCursor c, int *ok)
{
	double v = 0;
	*ok = evaluate(c, CXEval_Float, NULL, &v);
	return v;
}

/* ---- types -------------------------------------------------------------- */

static int is_vector_name(const char *s)
{
	static const char *const base[] = {"float", "int", "uint", "double", "char", "uchar",
		"short", "ushort", "long", "ulong", "longlong", "ulonglong", "half", NULL};
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

static unsigned type_flags(CXType t)
{
	unsigned f = 0;
	CXType ct = clang_getCanonicalType(t);
	if (clang_isVolatileQualifiedType(ct))
		f |= KT_VOLATILE;
	switch (ct.kind) {
	case CXType_Float: f |= KT_FLOAT; break;
	case CXType_Double: case CXType_LongDouble: f |= KT_DOUBLE; break;
	case CXType_Half: case CXType_Float16: f |= KT_HALF; break;
	case CXType_Bool: case CXType_Char_S: case CXType_SChar: case CXType_Short:
	case CXType_Int: case CXType_Long: case CXType_LongLong: case CXType_Int128:
	case CXType_WChar:
		f |= KT_INT; break;
	case CXType_Char_U: case CXType_UChar: case CXType_UShort: case CXType_UInt:
	case CXType_ULong: case CXType_ULongLong: case CXType_UInt128:
		f |= KT_INT | KT_UNSIGNED; break;
	case CXType_Enum: f |= KT_INT; break;
	case CXType_Pointer: {
		f |= KT_POINTER;
		CXType p = clang_getPointeeType(ct);
		if (clang_isConstQualifiedType(p))
			f |= KT_CONST_POINTEE;
		if (clang_isRestrictQualifiedType(ct))
			f |= KT_RESTRICT;
		break;
	}
	case CXType_ConstantArray: case CXType_IncompleteArray: case CXType_VariableArray:
	case CXType_DependentSizedArray:
		f |= KT_ARRAY; break;
	case CXType_Record: f |= KT_RECORD; break;
	case CXType_Dependent: case CXType_Unexposed: f |= KT_DEPENDENT; break;
	default: break;
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
static int size_of(CXType t)
{
	CXType ct = clang_getCanonicalType(t);
	if (ct.kind == CXType_Unexposed || ct.kind == CXType_Dependent || ct.kind == CXType_Invalid ||
	    ct.kind == CXType_Overload || ct.kind == CXType_Auto)
		return -1;
	long long n = clang_Type_getSizeOf(ct);
	return n > 0 && n < (1LL << 31) ? (int)n : -1;
}

static const char *type_name(lower_ctx *cx, CXType t)
{
	CXString s = clang_getTypeSpelling(t);
	const char *r = ka_arena_strdup(cx->a, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

static void set_type(lower_ctx *cx, ka_node *n, CXCursor c)
{
	CXType t = clang_getCursorType(c);
	n->type = type_name(cx, t);
	n->tflags = type_flags(t);
	n->type_bytes = size_of(t);
	n->pointee_bytes = -1;
	CXType ct = clang_getCanonicalType(t);
	if (ct.kind == CXType_Pointer)
		n->pointee_bytes = size_of(clang_getPointeeType(ct));
	else if (n->tflags & KT_ARRAY)
		n->pointee_bytes = size_of(clang_getArrayElementType(ct));
}

/* ---- children ----------------------------------------------------------- */

typedef struct kid_list {
	CXCursor *v;
	int n, cap;
} kid_list;

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

static kid_list kids_of(CXCursor c)
{
	kid_list k = {0};
	clang_visitChildren(c, collect_kid, &k);
	return k;
}

static int is_expr_kind(enum CXCursorKind k)
{
	return clang_isExpression(k) || k == CXCursor_DeclRefExpr;
}

static void set_kids(lower_ctx *cx, ka_node *n, kid_list *k, int from, int as_stmt)
{
	int cnt = k->n - from;
	if (cnt <= 0)
		return;
	n->kids = ka_arena_alloc(cx->a, sizeof *n->kids * (size_t)cnt);
	for (int i = from; i < k->n; i++) {
		ka_node *kn = as_stmt ? lower_stmt(cx, k->v[i]) : lower_expr(cx, k->v[i]);
		if (kn)
			n->kids[n->nkids++] = kn;
	}
}

static ka_node *new_node(lower_ctx *cx, ka_nkind kind, CXCursor c)
{
	ka_node *n = ka_arena_alloc(cx->a, sizeof *n);
	n->kind = kind;
	n->field_offset = -1;
	n->type_bytes = -1;
	n->pointee_bytes = -1;
	n->ival = -1;
	n->name_begin = n->name_end = -1;
	fill_loc(cx, c, &n->loc);
	return n;
}

#include "analyzer/frontend_ops.inc"

/* ---- expressions -------------------------------------------------------- */

/* The member name of a MemberRefExpr: libclang spells the CUDA builtin
 * members (threadIdx.x) as "", so read the identifier that ends the extent. */
static const char *member_name(lower_ctx *cx, CXCursor c, ka_node *n)
{
	const char *s = spelling(cx, c);
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f;
	unsigned off;
	clang_getFileLocation(clang_getRangeEnd(r), &f, NULL, NULL, &off);
	const char *path = file_name(cx, f);
	const ka_srcfile *sf = path ? ka_tu_file(cx->tu, path) : NULL;
	if (sf && off <= (unsigned)sf->len && !n->loc.in_macro) {
		int e = (int)off, b = e;
		while (b > 0 && (isalnum((unsigned char)sf->data[b - 1]) || sf->data[b - 1] == '_'))
			b--;
		int p = b;
		while (p > 0 && isspace((unsigned char)sf->data[p - 1]))
			p--;
		n->is_arrow = p >= 2 && sf->data[p - 1] == '>' && sf->data[p - 2] == '-';
		if (!*s && e > b)
			s = ka_arena_strndup(cx->a, sf->data + b, (size_t)(e - b));
	}
	return s;
}

/* libclang 19 gives no name, no spelling location and no pretty print for
 * a builtin member written in a macro body (`#define GX (blockIdx.x*...)`).
 * Read the macro's definition: when it uses one member of this variable
 * (all .x, say) that is the member. */
static const char *member_from_macro(lower_ctx *cx, ka_node *n, const char *base)
{
	const ka_srcfile *sf = ka_tu_file(cx->tu, n->loc.file);
	if (!sf || !base)
		return "";
	int mb = -1;
	for (int i = 0; i < cx->nmacros; i++)
		if (n->loc.begin >= cx->macros[2 * i] && n->loc.end <= cx->macros[2 * i + 1])
			mb = cx->macros[2 * i];
	if (mb < 0)
		return "";
	int e = mb;
	while (e < sf->len && (isalnum((unsigned char)sf->data[e]) || sf->data[e] == '_'))
		e++;
	char def[160];
	snprintf(def, sizeof def, "#define %.*s", e - mb, sf->data + mb);
	const char *d = strstr(sf->data, def);
	if (!d)
		return "";
	char found = 0;
	size_t bl = strlen(base);
	for (const char *p = d + strlen(def); *p && !(*p == '\n' && p[-1] != '\\'); p++) {
		if (strncmp(p, base, bl) == 0 && p[bl] == '.' && p[bl + 1] >= 'x' && p[bl + 1] <= 'z') {
			if (found && found != p[bl + 1])
				return "";
			found = p[bl + 1];
		}
	}
	return found ? ka_arena_strndup(cx->a, &found, 1) : "";
}

static void lower_member(lower_ctx *cx, CXCursor c, ka_node *n, kid_list *k)
{
	n->name = member_name(cx, c, n);
	CXCursor ref = clang_getCursorReferenced(c);
	if (clang_getCursorKind(ref) == CXCursor_FieldDecl) {
		long long bits = clang_Cursor_getOffsetOfField(ref);
		if (bits >= 0)
			n->field_offset = (int)(bits / 8);
	}
	set_kids(cx, n, k, 0, 0);
	if (!*n->name && n->loc.in_macro && n->nkids == 1)
		n->name = member_from_macro(cx, n, n->kids[0]->name);
}

static void lower_call(lower_ctx *cx, CXCursor c, ka_node *n, kid_list *k)
{
	n->name = spelling(cx, c);
	CXCursor ref = clang_getCursorReferenced(c);
	if (!clang_Cursor_isNull(ref)) {
		n->ref_usr = usr_of(cx, ref);
		n->ref = usr_get(cx, n->ref_usr);
	}
	int nargs = clang_Cursor_getNumArguments(c);
	if (nargs < 0)
		nargs = 0;
	n->kids = ka_arena_alloc(cx->a, sizeof *n->kids * (size_t)(nargs + 1));
	for (int i = 0; i < nargs; i++) {
		ka_node *a = lower_expr(cx, clang_Cursor_getArgument(c, (unsigned)i));
		if (a)
			n->kids[n->nkids++] = a;
	}
	/* Non-argument children: the callee (name range, template arguments)
	 * and, for a launch, the configuration call. */
	for (int i = 0; i < k->n; i++) {
		int is_arg = 0;
		for (int j = 0; j < nargs && !is_arg; j++)
			is_arg = clang_equalCursors(k->v[i], clang_Cursor_getArgument(c, (unsigned)j));
		if (is_arg)
			continue;
		ka_node *x = lower_expr(cx, k->v[i]);
		if (!x)
			continue;
		if (x->kind == KN_CALL && x->name && (strstr(x->name, "PushCallConfiguration") ||
		                                      strstr(x->name, "ConfigureCall"))) {
			n->cfg = x;
		} else if (n->name_begin < 0) {
			ka_node *d = x;
			n->callee = x;
			while ((d->kind == KN_CAST || d->kind == KN_PAREN) && d->nkids == 1)
				d = d->kids[0];
			n->name_begin = d->loc.in_macro ? -1 : d->loc.begin;
			n->name_end = d->loc.in_macro ? -1 : d->loc.end;
			n->ntargs = d->ntargs;
			memcpy(n->targs, d->targs, sizeof n->targs);
		}
	}
	/* (kernel)<<<...>>>, as ROCm's hipLaunchKernelGGL writes it: the launch
	 * takes the kernel's name.  Only for launches: an unnamed call in a
	 * template is a dependent operator whose first kid is an operand. */
	ka_node *d = n->cfg ? n->callee : NULL;
	while (d && (d->kind == KN_CAST || d->kind == KN_PAREN) && d->nkids == 1)
		d = d->kids[0];
	if (d && (!n->name || !*n->name) && d->kind == KN_DECLREF && d->name && *d->name &&
	    strncmp(d->name, "operator", 8) != 0) {
		n->name = d->name;
		n->ref = d->ref;
		n->ref_usr = d->ref_usr;
	}
}

static void lower_literal(lower_ctx *cx, CXCursor c, ka_node *n)
{
	int ok;
	if (n->kind == KN_INT) {
		n->ival = eval_int(c, &ok);
		if (!ok)
			n->ival = -1;
	} else {
		n->fval = eval_float(c, &ok);
		n->has_f_suffix = (n->tflags & (KT_FLOAT | KT_HALF)) != 0;
	}
}

static void lower_declref(lower_ctx *cx, CXCursor c, ka_node *n, kid_list *k)
{
	n->name = spelling(cx, c);
	CXCursor ref = clang_getCursorReferenced(c);
	if (!clang_Cursor_isNull(ref)) {
		n->ref_usr = usr_of(cx, ref);
		n->ref = usr_get(cx, n->ref_usr);
		/* enumerators and constants declared where the model does not
		 * reach (Cfg::kRows, enum { kBlock = 256 }) */
		enum CXCursorKind rk = clang_getCursorKind(ref);
		int ok = 0;
		if ((n->tflags & KT_INT) && (rk == CXCursor_EnumConstantDecl || (rk == CXCursor_VarDecl &&
		    clang_isConstQualifiedType(clang_getCursorType(ref))))) {
			int64_t v = eval_int(c, &ok);
			if (ok) {
				n->ival = v;
				n->const_known = 1;
			}
		}
	}
	/* Explicit template arguments written after the name: k<4>. */
	for (int i = 0; i < k->n && n->ntargs < 4; i++) {
		enum CXCursorKind kk = clang_getCursorKind(k->v[i]);
		if (kk == CXCursor_IntegerLiteral || clang_isExpression(kk)) {
			int ok;
			int64_t v = eval_int(k->v[i], &ok);
			if (ok)
				n->targs[n->ntargs++] = v;
		}
	}
}

/* ROCm's headers (5.x) make threadIdx.x a static member of type
 * __HIP_Coordinates<...>::__X read through `operator unsigned int`: the
 * conversion call is dropped so that the member is what CUDA's is. */
static int hip_coordinate(CXCursor c, CXCursor *member)
{
	CXString s = clang_getCursorSpelling(c);
	const char *t = clang_getCString(s);
	int conv = t && strncmp(t, "operator ", 9) == 0;
	clang_disposeString(s);
	if (!conv || clang_Cursor_getNumArguments(c) != 0)
		return 0;
	kid_list k = kids_of(c);
	kid_list k2 = {0};
	int ok = 0;
	if (k.n == 1 && clang_getCursorKind(k.v[0]) == CXCursor_MemberRefExpr) {
		k2 = kids_of(k.v[0]);
		if (k2.n == 1 && clang_getCursorKind(k2.v[0]) == CXCursor_MemberRefExpr) {
			CXString ts = clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(k2.v[0])));
			ok = strstr(clang_getCString(ts), "__HIP_Coordinates") != NULL;
			clang_disposeString(ts);
			*member = k2.v[0];
		}
	}
	free(k.v);
	free(k2.v);
	return ok;
}

static ka_node *lower_expr_at(lower_ctx *cx, CXCursor c)
{
	enum CXCursorKind kk = clang_getCursorKind(c);
	CXCursor member;
	if (kk == CXCursor_TypeRef || kk == CXCursor_TemplateRef || kk == CXCursor_NamespaceRef)
		return NULL;
	if (kk == CXCursor_CallExpr && hip_coordinate(c, &member))
		return lower_expr(cx, member);
	if (!is_expr_kind(kk))
		return lower_stmt(cx, c);
	ka_nkind kind = expr_kind(kk);
	ka_node *n = new_node(cx, kind, c);
	set_type(cx, n, c);
	kid_list k = kids_of(c);
	switch (kind) {
	case KN_INT: case KN_FLOAT: lower_literal(cx, c, n); break;
	case KN_DECLREF: lower_declref(cx, c, n, &k); break;
	case KN_MEMBER: lower_member(cx, c, n, &k); break;
	case KN_CALL: lower_call(cx, c, n, &k); break;
	case KN_BINOP:
		n->op = map_binop(clang_getCursorBinaryOperatorKind(c));
		set_kids(cx, n, &k, 0, 0);
		break;
	case KN_UNOP:
		n->op = map_unop(clang_getCursorUnaryOperatorKind(c));
		set_kids(cx, n, &k, 0, 0);
		break;
	case KN_SIZEOF: {
		int ok;
		n->ival = eval_int(c, &ok);
		if (!ok)
			n->ival = -1;
		break;
	}
	default:
		set_kids(cx, n, &k, 0, 0);
		break;
	}
	free(k.v);
	return n;
}

/* The depth guard around both lowering functions. */
static ka_node *lower_guarded(lower_ctx *cx, CXCursor c, int as_stmt)
{
	if (cx->depth >= KA_MAX_AST_DEPTH) {
		ka_node *n = new_node(cx, KN_OTHER, c);
		if (!cx->too_deep++)
			ka_tu_warn(cx->tu, &n->loc, "expression too deep: nesting over %d levels is "
			           "not analysed", KA_MAX_AST_DEPTH);
		return n;
	}
	cx->depth++;
	ka_node *n = as_stmt ? lower_stmt_at(cx, c) : lower_expr_at(cx, c);
	cx->depth--;
	return n;
}

static ka_node *lower_expr(lower_ctx *cx, CXCursor c) { return lower_guarded(cx, c, 0); }
static ka_node *lower_stmt(lower_ctx *cx, CXCursor c) { return lower_guarded(cx, c, 1); }

/* ---- declarations ------------------------------------------------------- */

static enum CXChildVisitResult attr_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	unsigned *f = d;
	switch (clang_getCursorKind(c)) {
	case CXCursor_CUDAGlobalAttr: *f |= KDF_GLOBAL; break;
	case CXCursor_CUDADeviceAttr: *f |= KDF_DEVICE; break;
	case CXCursor_CUDAHostAttr: *f |= KDF_HOST; break;
	case CXCursor_CUDASharedAttr: *f |= KDF_SHARED; break;
	case CXCursor_CUDAConstantAttr: *f |= KDF_CONSTANT; break;
	default: break;
	}
	return CXChildVisit_Continue;
}

/* Offsets of the innermost `[N]` of an array declaration. */
static void inner_dim_range(lower_ctx *cx, ka_decl *d)
{
	d->inner_dim_begin = d->inner_dim_end = -1;
	if (d->loc.in_macro)
		return;
	const char *t = ka_tu_text(cx->tu, d->loc.file, d->decl_begin, d->loc.end);
	const char *eq = strchr(t, '=');
	int lim = eq ? (int)(eq - t) : (int)strlen(t);
	int close = -1;
	for (int i = lim - 1; i >= 0; i--)
		if (t[i] == ']') {
			close = i;
			break;
		}
	if (close < 0)
		return;
	int depth = 0;
	for (int i = close; i >= 0; i--) {
		if (t[i] == ']')
			depth++;
		else if (t[i] == '[' && --depth == 0) {
			d->inner_dim_begin = d->decl_begin + i + 1;
			d->inner_dim_end = d->decl_begin + close;
			return;
		}
	}
}

static void decl_type(lower_ctx *cx, ka_decl *d, CXType t)
{
	CXType ct = clang_getCanonicalType(t);
	d->type = type_name(cx, t);
	d->tflags = type_flags(t);
	d->type_bytes = size_of(t);
	d->elem_bytes = -1;
	if (clang_isConstQualifiedType(t))
		d->flags |= KDF_CONSTQ;
	if (ct.kind == CXType_Pointer) {
		d->elem_bytes = size_of(clang_getPointeeType(ct));
		return;
	}
	CXType e = ct;
	while ((e.kind == CXType_ConstantArray || e.kind == CXType_IncompleteArray ||
	        e.kind == CXType_VariableArray || e.kind == CXType_DependentSizedArray)) {
		if (d->ndims < 3)
			d->dims[d->ndims] = e.kind == CXType_ConstantArray ? clang_getArraySize(e) : -1;
		d->ndims++;
		e = clang_getCanonicalType(clang_getArrayElementType(e));
	}
	if (d->ndims)
		d->elem_bytes = size_of(e);
}

static ka_decl *new_decl(lower_ctx *cx, CXCursor c, ka_dkind kind)
{
	ka_decl *d = ka_arena_alloc(cx->a, sizeof *d);
	d->id = ++cx->tu->next_decl_id;
	d->kind = kind;
	d->name = spelling(cx, c);
	d->lb_max = d->lb_min = -1;
	fill_loc(cx, c, &d->loc);
	d->decl_begin = d->loc.begin;
	clang_visitChildren(c, attr_visit, &d->flags);
	if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
		d->flags |= KDF_SYSTEM;
	if (clang_getCursorLinkage(c) == CXLinkage_Internal)
		d->flags |= KDF_STATIC;
	usr_put(cx, usr_of(cx, c), d);
	return d;
}

static ka_decl *lower_vardecl(lower_ctx *cx, CXCursor c)
{
	ka_decl *d = new_decl(cx, c, KD_VAR);
	decl_type(cx, d, clang_getCursorType(c));
	if (clang_Cursor_getStorageClass(c) == CX_SC_Extern)
		d->flags |= KDF_EXTERN;
	/* The name's location starts the extent at the type; find the name to
	 * find the initializer (the last expression child). */
	kid_list k = kids_of(c);
	for (int i = 0; i < k.n; i++) {
		enum CXCursorKind kk = clang_getCursorKind(k.v[i]);
		if (is_expr_kind(kk) && kk != CXCursor_TypeRef)
			d->init = lower_expr(cx, k.v[i]);
	}
	free(k.v);
	if (d->ndims)
		inner_dim_range(cx, d);
	return d;
}

static ka_node *lower_declstmt(lower_ctx *cx, CXCursor c)
{
	ka_node *n = new_node(cx, KN_DECLSTMT, c);
	kid_list k = kids_of(c);
	n->kids = ka_arena_alloc(cx->a, sizeof *n->kids * (size_t)(k.n + 1));
	for (int i = 0; i < k.n; i++) {
		if (clang_getCursorKind(k.v[i]) != CXCursor_VarDecl)
			continue;
		ka_node *v = new_node(cx, KN_VARDECL, k.v[i]);
		v->ref = lower_vardecl(cx, k.v[i]);
		v->name = v->ref->name;
		set_type(cx, v, k.v[i]);
		if (v->ref->init) {
			v->kids = ka_arena_alloc(cx->a, sizeof *v->kids);
			v->kids[0] = v->ref->init;
			v->nkids = 1;
		}
		n->kids[n->nkids++] = v;
	}
	free(k.v);
	return n;
}

#include "analyzer/frontend_stmt.inc"
#include "analyzer/frontend_tu.inc"
