/* analyzer/frontend_decl.c: declarations lowered into the model: CUDA
 * attributes, variables with their types and array dimensions (the text
 * range of the innermost one, for padding fixes), declaration statements. */
#include "analyzer/frontend_int.h"
#include "analyzer/ranges.h"
#include "util/error.h"
#include "util/fs.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum CXChildVisitResult attr_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	unsigned *f = d;
	switch (clang_getCursorKind(c)) {
	case CXCursor_CUDAGlobalAttr:
		*f |= KDF_GLOBAL;
		break;
	case CXCursor_CUDADeviceAttr:
		*f |= KDF_DEVICE;
		break;
	case CXCursor_CUDAHostAttr:
		*f |= KDF_HOST;
		break;
	case CXCursor_CUDASharedAttr:
		*f |= KDF_SHARED;
		break;
	case CXCursor_CUDAConstantAttr:
		*f |= KDF_CONSTANT;
		break;
	default:
		break;
	}
	return CXChildVisit_Continue;
}

unsigned fe_cuda_attrs(CXCursor c)
{
	unsigned f = 0;
	clang_visitChildren(c, attr_visit, &f);
	return f;
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

void fe_decl_type(lower_ctx *cx, ka_decl *d, CXType t)
{
	CXType ct = clang_getCanonicalType(t);
	d->type = fe_type_name(cx, t);
	d->tflags = fe_type_flags(t);
	d->type_bytes = fe_size_of(t);
	d->elem_bytes = -1;
	if (clang_isConstQualifiedType(t))
		d->flags |= KDF_CONSTQ;
	if (ct.kind == CXType_Pointer) {
		d->elem_bytes = fe_size_of(clang_getPointeeType(ct));
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
		d->elem_bytes = fe_size_of(e);
}

ka_decl *fe_new_decl(lower_ctx *cx, CXCursor c, ka_dkind kind)
{
	ka_decl *d = ka_arena_alloc(cx->a, sizeof *d);
	d->id = ++cx->tu->next_decl_id;
	d->kind = kind;
	d->name = fe_spelling(cx, c);
	d->lb_max = d->lb_min = -1;
	fe_fill_loc(cx, c, &d->loc);
	d->decl_begin = d->loc.begin;
	clang_visitChildren(c, attr_visit, &d->flags);
	if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
		d->flags |= KDF_SYSTEM;
	if (clang_getCursorLinkage(c) == CXLinkage_Internal)
		d->flags |= KDF_STATIC;
	fe_usr_put(cx, fe_usr_of(cx, c), d);
	return d;
}

void fe_lower_params_body(lower_ctx *cx, CXCursor c, ka_decl *d)
{
	kid_list k = fe_kids_of(c);
	d->params = ka_arena_alloc(cx->a, sizeof *d->params * (size_t)(k.n + 1));
	d->tparams = ka_arena_alloc(cx->a, sizeof *d->tparams * (size_t)(k.n + 1));
	for (int i = 0; i < k.n; i++) {
		enum CXCursorKind kk = clang_getCursorKind(k.v[i]);
		if (kk == CXCursor_ParmDecl) {
			ka_decl *p = fe_new_decl(cx, k.v[i], KD_PARAM);
			fe_decl_type(cx, p, clang_getCursorType(k.v[i]));
			d->params[d->nparams++] = p;
		} else if (kk == CXCursor_NonTypeTemplateParameter || kk == CXCursor_TemplateTypeParameter) {
			ka_decl *p = fe_new_decl(cx, k.v[i], KD_TPARAM);
			p->tflags = kk == CXCursor_NonTypeTemplateParameter ? KT_INT : KT_DEPENDENT;
			d->tparams[d->ntparams++] = p;
		} else if (kk == CXCursor_CompoundStmt && !d->body) {
			d->body = fe_lower_stmt(cx, k.v[i]);
			d->body_begin = d->body ? d->body->loc.begin : -1;
		}
	}
	free(k.v);
}

ka_decl *fe_lower_vardecl(lower_ctx *cx, CXCursor c)
{
	ka_decl *d = fe_new_decl(cx, c, KD_VAR);
	fe_decl_type(cx, d, clang_getCursorType(c));
	if (clang_Cursor_getStorageClass(c) == CX_SC_Extern)
		d->flags |= KDF_EXTERN;
	/* The name's location starts the extent at the type; find the name to
	 * find the initializer (the last expression child). */
	kid_list k = fe_kids_of(c);
	for (int i = 0; i < k.n; i++) {
		enum CXCursorKind kk = clang_getCursorKind(k.v[i]);
		if (fe_is_expr_kind(kk) && kk != CXCursor_TypeRef)
			d->init = fe_lower_expr(cx, k.v[i]);
	}
	free(k.v);
	if (d->ndims)
		inner_dim_range(cx, d);
	return d;
}

/* A variable's node in a declaration statement: its initializer as kid. */
static ka_node *vardecl_node(lower_ctx *cx, CXCursor c, ka_decl *d)
{
	ka_node *v = fe_new_node(cx, KN_VARDECL, c);
	v->ref = d;
	v->name = d->name;
	fe_set_type(cx, v, c);
	if (d->init) {
		v->kids = ka_arena_alloc(cx->a, sizeof *v->kids);
		v->kids[0] = d->init;
		v->nkids = 1;
	}
	return v;
}

/* `auto [st, ker] = locate(i)`: libclang shows the decomposition and its
 * bindings as unexposed declarations.  The decomposition becomes a
 * variable holding the initializer, and each binding a variable
 * initialized from it, so a use of `st` varies with what `locate(i)`
 * varies with.  *kids gets the nodes (at most 1 + the bindings). */
static int lower_decomposition(lower_ctx *cx, CXCursor c, ka_node **out)
{
	kid_list k = fe_kids_of(c);
	int nb = 0, has_init = 0;
	for (int i = 0; i < k.n; i++) {
		enum CXCursorKind kk = clang_getCursorKind(k.v[i]);
		nb += kk == CXCursor_UnexposedDecl;
		has_init |= fe_is_expr_kind(kk) && kk != CXCursor_TypeRef;
	}
	int n = 0;
	if (nb && has_init) {
		ka_decl *whole = fe_lower_vardecl(cx, c);
		out[n++] = vardecl_node(cx, c, whole);
		for (int i = 0; i < k.n; i++) {
			if (clang_getCursorKind(k.v[i]) != CXCursor_UnexposedDecl)
				continue;
			ka_decl *b = fe_new_decl(cx, k.v[i], KD_VAR);
			fe_decl_type(cx, b, clang_getCursorType(k.v[i]));
			ka_node *r = fe_new_node(cx, KN_DECLREF, k.v[i]);
			r->name = whole->name;
			r->ref = whole;
			r->tflags = whole->tflags;
			b->init = r;
			out[n++] = vardecl_node(cx, k.v[i], b);
		}
	}
	free(k.v);
	return n;
}

ka_node *fe_lower_declstmt(lower_ctx *cx, CXCursor c)
{
	ka_node *n = fe_new_node(cx, KN_DECLSTMT, c);
	kid_list k = fe_kids_of(c);
	int room = k.n + 1;
	for (int i = 0; i < k.n; i++)
		if (clang_getCursorKind(k.v[i]) == CXCursor_UnexposedDecl) {
			kid_list d = fe_kids_of(k.v[i]);
			room += d.n;
			free(d.v);
		}
	n->kids = ka_arena_alloc(cx->a, sizeof *n->kids * (size_t)room);
	for (int i = 0; i < k.n; i++) {
		if (clang_getCursorKind(k.v[i]) == CXCursor_UnexposedDecl) {
			n->nkids += lower_decomposition(cx, k.v[i], n->kids + n->nkids);
			continue;
		}
		if (clang_getCursorKind(k.v[i]) != CXCursor_VarDecl)
			continue;
		n->kids[n->nkids++] = vardecl_node(cx, k.v[i], fe_lower_vardecl(cx, k.v[i]));
	}
	free(k.v);
	return n;
}
