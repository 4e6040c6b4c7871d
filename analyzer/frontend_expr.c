/* analyzer/frontend_expr.c: expressions lowered into the model: members
 * (threadIdx.x read from the source text), calls and <<<>>> launches,
 * literals, declaration references, with a depth cut (KA_MAX_AST_DEPTH). */
#include "analyzer/frontend_int.h"
#include "analyzer/ranges.h"
#include "util/error.h"
#include "util/fs.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- expressions -------------------------------------------------------- */

/* The member name of a MemberRefExpr: libclang spells the CUDA builtin
 * members (threadIdx.x) as "", so read the identifier that ends the extent. */
static const char *member_name(lower_ctx *cx, CXCursor c, ka_node *n)
{
	const char *s = fe_spelling(cx, c);
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f;
	unsigned off;
	clang_getFileLocation(clang_getRangeEnd(r), &f, NULL, NULL, &off);
	const char *path = fe_file_name(cx, f);
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

/* libclang 19 gives no name, no fe_spelling location and no pretty print for
 * a builtin member written in a macro body (`#define GX (blockIdx.x*...)`).
 * Read the macro's definition (in this file or a header, e.g. a
 * CUDA_KERNEL_LOOP of the project's common header): when it uses one member
 * of this variable (all .x, say) that is the member. */
static const char *member_from_macro(lower_ctx *cx, ka_node *n, const char *base)
{
	const ka_srcfile *sf = ka_tu_file(cx->tu, n->loc.file);
	if (!sf || !base)
		return "";
	const struct macro_set *m = fe_macro_set(cx, n->loc.file);
	int mb = -1;
	for (int i = 0; m && i < m->n; i++)
		if (n->loc.begin >= m->pairs[2 * i] && n->loc.end <= m->pairs[2 * i + 1])
			mb = m->pairs[2 * i];
	if (mb < 0)
		return "";
	const char *d = NULL, *dend = NULL;
	for (int i = 0; i < cx->ndefs && !d; i++) {
		const ka_srcfile *df = cx->defs[i].exp_begin == mb && cx->defs[i].exp_file == n->loc.file
					       ? ka_tu_file(cx->tu, cx->defs[i].file)
					       : NULL;
		if (df && cx->defs[i].def_end <= df->len) {
			d = df->data + cx->defs[i].def_begin;
			dend = df->data + cx->defs[i].def_end;
		}
	}
	if (!d) { /* no definition recorded: look for it in this file */
		int e = mb;
		while (e < sf->len && (isalnum((unsigned char)sf->data[e]) || sf->data[e] == '_'))
			e++;
		char def[160];
		snprintf(def, sizeof def, "#define %.*s", e - mb, sf->data + mb);
		if (!(d = strstr(sf->data, def)))
			return "";
		d += strlen(def);
	}
	char found = 0;
	size_t bl = strlen(base);
	for (const char *p = d; *p && (!dend || p < dend) && !(*p == '\n' && p[-1] != '\\'); p++) {
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
	} else if ((clang_getCursorKind(ref) == CXCursor_VarDecl ||
		    clang_getCursorKind(ref) == CXCursor_EnumConstantDecl) &&
		   (n->tflags & KT_INT)) {
		/* a static constant member or an enumerator read through an
		 * object (`frag.num_elements`): the class's value, not the
		 * object's */
		int ok = 0;
		int64_t v = fe_eval_int(c, &ok);
		if (ok) {
			n->ival = v;
			n->const_known = 1;
		}
	}
	fe_set_kids(cx, n, k, 0, 0);
	if (!*n->name && n->loc.in_macro && n->nkids == 1)
		n->name = member_from_macro(cx, n, n->kids[0]->name);
}

static void lower_call(lower_ctx *cx, CXCursor c, ka_node *n, kid_list *k)
{
	n->name = fe_spelling(cx, c);
	if (!strncmp(n->name, "cuda", 4) || !strncmp(n->name, "hip", 3))
		n->debug_guard = fe_debug_guard(cx, c);
	CXCursor ref = clang_getCursorReferenced(c);
	/* a name clang could not resolve yet (a call in a template whose
	 * arguments depend on it) that several declarations carry: which one
	 * it names is left to the walk (walk_find_function_targs) */
	for (int i = -1; i < k->n; i++)
		if (clang_getNumOverloadedDecls(i < 0 ? c : k->v[i]) > 1)
			ref = clang_getNullCursor();
	if (!clang_Cursor_isNull(ref)) {
		n->ref_usr = fe_usr_of(cx, ref);
		n->ref = fe_usr_get(cx, n->ref_usr);
		/* which arguments the callee may write through a reference, known
		 * also for a callee the model has no declaration of (a method) */
		int np = clang_Cursor_getNumArguments(ref);
		for (int i = 0; i < np && i < 32; i++) {
			CXType t = clang_getCursorType(clang_Cursor_getArgument(ref, (unsigned)i));
			if (t.kind == CXType_LValueReference &&
			    !clang_isConstQualifiedType(clang_getPointeeType(t)))
				n->mut_ref_args |= 1u << i;
		}
	}
	int nargs = clang_Cursor_getNumArguments(c);
	if (nargs < 0) {
		/* `int(x)` or `T(x, y)` on a value whose type depends on a template
		 * parameter (an unresolved construct): no callee, the children are
		 * the arguments, so the value varies with them */
		n->kids = ka_arena_alloc(cx->a, sizeof *n->kids * (size_t)(k->n + 1));
		for (int i = 0; i < k->n; i++) {
			enum CXCursorKind kk = clang_getCursorKind(k->v[i]);
			ka_node *a = fe_is_expr_kind(kk) && kk != CXCursor_TypeRef
					     ? fe_lower_expr(cx, k->v[i])
					     : NULL;
			if (a)
				n->kids[n->nkids++] = a;
		}
		return;
	}
	n->kids = ka_arena_alloc(cx->a, sizeof *n->kids * (size_t)(nargs + 1));
	for (int i = 0; i < nargs; i++) {
		ka_node *a = fe_lower_expr(cx, clang_Cursor_getArgument(c, (unsigned)i));
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
		ka_node *x = fe_lower_expr(cx, k->v[i]);
		if (!x)
			continue;
		if (x->kind == KN_CALL && x->name &&
		    (strstr(x->name, "PushCallConfiguration") || strstr(x->name, "ConfigureCall"))) {
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
			n->ptargs = d->ptargs;
			n->ptargs_known = d->ptargs_known;
			n->nptargs = d->nptargs;
		}
	}
	/* (kernel)<<<...>>>, as ROCm's hipLaunchKernelGGL writes it: the launch
	 * takes the kernel's name.  So does a call whose arguments depend on a
	 * template parameter (`atomicAdd(count, 1)` with `typename P::CN
	 * *count`): clang leaves it unresolved and unnamed, its callee the
	 * overloaded name.  Not for a dependent operator (`dout + b * C` on a
	 * template's pointer type, where an overloaded operator+ is in scope):
	 * its first kid is an operand, a variable. */
	ka_node *d = n->cfg || nargs > 0 ? n->callee : NULL;
	while (d && (d->kind == KN_CAST || d->kind == KN_PAREN) && d->nkids == 1)
		d = d->kids[0];
	if (d && !n->cfg && d->ref && d->ref->kind != KD_FUNC)
		d = NULL;
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
		n->ival = fe_eval_int(c, &ok);
		if (!ok)
			n->ival = -1;
	} else {
		n->fval = fe_eval_float(c, &ok);
		n->has_f_suffix = (n->tflags & (KT_FLOAT | KT_HALF)) != 0;
	}
}

static void lower_declref(lower_ctx *cx, CXCursor c, ka_node *n, kid_list *k)
{
	n->name = fe_spelling(cx, c);
	/* an unresolved name in a template (`kern<T, N><<<...>>>` in a host
	 * template, spelled in a macro): the name of the declarations it may
	 * name */
	for (int i = -1; (!n->name || !*n->name) && i < k->n; i++) {
		CXCursor o = i < 0 ? c : k->v[i];
		if (clang_getNumOverloadedDecls(o) > 0)
			n->name = fe_spelling(cx, clang_getOverloadedDecl(o, 0));
	}
	CXCursor ref = clang_getCursorReferenced(c);
	if (!clang_Cursor_isNull(ref)) {
		n->ref_usr = fe_usr_of(cx, ref);
		n->ref = fe_usr_get(cx, n->ref_usr);
		/* enumerators and constants declared where the model does not
		 * reach (Cfg::kRows, enum { kBlock = 256 }) */
		enum CXCursorKind rk = clang_getCursorKind(ref);
		int ok = 0;
		if ((n->tflags & KT_INT) &&
		    (rk == CXCursor_EnumConstantDecl ||
		     (rk == CXCursor_VarDecl && clang_isConstQualifiedType(clang_getCursorType(ref))))) {
			int64_t v = fe_eval_int(c, &ok);
			if (ok) {
				n->ival = v;
				n->const_known = 1;
			}
		}
	}
	/* The specialization's template arguments as clang resolved them
	 * (`k<WPB, VPT>` with `constexpr int VPT = 16 / sizeof(__half)`). */
	int nta = clang_Cursor_isNull(ref) ? -1 : clang_Cursor_getNumTemplateArguments(ref);
	if (nta > 0) {
		if (nta > 16)
			nta = 16;
		int64_t *pv = ka_arena_alloc(cx->a, sizeof *pv * (size_t)nta);
		if (pv) {
			for (int i = 0; i < nta; i++) {
				pv[i] = 0;
				if (clang_Cursor_getTemplateArgumentKind(ref, (unsigned)i) ==
				    CXTemplateArgumentKind_Integral) {
					pv[i] = clang_Cursor_getTemplateArgumentValue(ref, (unsigned)i);
					n->ptargs_known |= 1u << i;
				}
			}
			n->ptargs = pv;
			n->nptargs = nta;
		}
	}
	/* Explicit template arguments written after the name: k<4>. */
	for (int i = 0; i < k->n && n->ntargs < 4; i++) {
		enum CXCursorKind kk = clang_getCursorKind(k->v[i]);
		if (kk == CXCursor_IntegerLiteral || clang_isExpression(kk)) {
			int ok;
			int64_t v = fe_eval_int(k->v[i], &ok);
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
	kid_list k = fe_kids_of(c);
	kid_list k2 = {0};
	int ok = 0;
	if (k.n == 1 && clang_getCursorKind(k.v[0]) == CXCursor_MemberRefExpr) {
		k2 = fe_kids_of(k.v[0]);
		if (k2.n == 1 && clang_getCursorKind(k2.v[0]) == CXCursor_MemberRefExpr) {
			CXString ts = clang_getTypeSpelling(
				clang_getCanonicalType(clang_getCursorType(k2.v[0])));
			ok = strstr(clang_getCString(ts), "__HIP_Coordinates") != NULL;
			clang_disposeString(ts);
			*member = k2.v[0];
		}
	}
	free(k.v);
	free(k2.v);
	return ok;
}

/* A lambda: its call operator as a function of the model (parameters and
 * body, flagged KDF_LAMBDA), referenced by the node that stands for the
 * closure.  The body is walked where the lambda is called (walk_call.c),
 * not where it is written: its names of the enclosing function's locals
 * are those locals, so the captures read their values at the call. */
static ka_node *lower_lambda(lower_ctx *cx, CXCursor c)
{
	ka_node *n = fe_new_node(cx, KN_DECLREF, c);
	ka_decl *f = fe_new_decl(cx, c, KD_FUNC);
	f->flags |= KDF_LAMBDA | KDF_DEVICE;
	f->name = "(lambda)";
	fe_lower_params_body(cx, c, f);
	n->name = f->name;
	n->ref = f;
	return n;
}

static ka_node *lower_expr_at(lower_ctx *cx, CXCursor c)
{
	enum CXCursorKind kk = clang_getCursorKind(c);
	CXCursor member;
	if (kk == CXCursor_TypeRef || kk == CXCursor_TemplateRef || kk == CXCursor_NamespaceRef)
		return NULL;
	if (kk == CXCursor_LambdaExpr)
		return lower_lambda(cx, c);
	if (kk == CXCursor_CallExpr && hip_coordinate(c, &member))
		return fe_lower_expr(cx, member);
	if (!fe_is_expr_kind(kk))
		return fe_lower_stmt(cx, c);
	ka_nkind kind = fe_expr_kind(kk);
	int unary = 0;
	ka_op dep = kind == KN_CALL ? fe_dependent_operator(cx, c, &unary) : OP_NONE;
	if (dep != OP_NONE) { /* the operands, without the callee (nor a postfix's implicit 0) */
		ka_node *n = fe_new_node(cx, unary ? KN_UNOP : KN_BINOP, c);
		fe_set_type(cx, n, c);
		n->op = dep;
		kid_list args = {0};
		CXCursor v[2];
		args.v = v;
		args.n = unary ? 1 : 2;
		for (int i = 0; i < args.n; i++)
			v[i] = clang_Cursor_getArgument(c, (unsigned)i);
		fe_set_kids(cx, n, &args, 0, 0);
		return n;
	}
	ka_node *n = fe_new_node(cx, kind, c);
	fe_set_type(cx, n, c);
	kid_list k = fe_kids_of(c);
	switch (kind) {
	case KN_INT:
	case KN_FLOAT:
		lower_literal(cx, c, n);
		break;
	case KN_DECLREF:
		lower_declref(cx, c, n, &k);
		break;
	case KN_MEMBER:
		lower_member(cx, c, n, &k);
		break;
	case KN_CALL:
		lower_call(cx, c, n, &k);
		break;
	case KN_BINOP:
		n->op = fe_map_binop(clang_getCursorBinaryOperatorKind(c));
		fe_set_kids(cx, n, &k, 0, 0);
		break;
	case KN_UNOP:
		n->op = fe_map_unop(clang_getCursorUnaryOperatorKind(c));
		fe_set_kids(cx, n, &k, 0, 0);
		break;
	case KN_SIZEOF: {
		int ok;
		n->ival = fe_eval_int(c, &ok);
		if (!ok)
			n->ival = -1;
		break;
	}
	default:
		fe_set_kids(cx, n, &k, 0, 0);
		break;
	}
	free(k.v);
	return n;
}

/* The depth guard around both lowering functions. */
static ka_node *lower_guarded(lower_ctx *cx, CXCursor c, int as_stmt)
{
	if (cx->depth >= KA_MAX_AST_DEPTH) {
		ka_node *n = fe_new_node(cx, KN_OTHER, c);
		if (!cx->too_deep++)
			ka_tu_warn(cx->tu, &n->loc,
				   "expression too deep: nesting over %d levels is "
				   "not analysed",
				   KA_MAX_AST_DEPTH);
		return n;
	}
	cx->depth++;
	ka_node *n = as_stmt ? fe_lower_stmt_at(cx, c) : lower_expr_at(cx, c);
	cx->depth--;
	return n;
}

ka_node *fe_lower_expr(lower_ctx *cx, CXCursor c)
{
	return lower_guarded(cx, c, 0);
}
ka_node *fe_lower_stmt(lower_ctx *cx, CXCursor c)
{
	return lower_guarded(cx, c, 1);
}

/* ---- declarations ------------------------------------------------------- */
