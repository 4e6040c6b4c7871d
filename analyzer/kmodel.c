/* analyzer/kmodel.c: the kernel model for rewriting (kmodel.h), from the
 * lowered AST of one kernel.  Integer values go through the symbolic
 * expressions of expr.h, so `blockIdx.x * blockDim.x + threadIdx.x`,
 * `threadIdx.x + (size_t)blockDim.x * blockIdx.x` and the same through a
 * helper variable are one affine form; reductions are recognized from the
 * operation an update performs, not from its text. */
#include "analyzer/kmodel.h"
#include "analyzer/expr.h"
#include "util/error.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_ENV 128

typedef struct km {
	ka_tu *tu;
	ka_kmodel *m;
	sx_ctx sx;
	int ids[12]; /* symbols of threadIdx, blockIdx, blockDim, gridDim x/y/z */
	struct {
		const ka_decl *d;
		const sx *v;
	} env[MAX_ENV];
	int nenv;
	struct {
		const ka_decl *d;
		int loop;
	} resets[KA_KM_MAX];
	int nresets;
	ka_node *terms[KA_KM_MAX];    /* the term each sum adds (sum-of-squares pairing) */
	const sx *ptr_off[KA_KM_MAX]; /* each pointer local's offset (ka_km_ptr) */
	const ka_decl *ptr_base[KA_KM_MAX];
} km;

static ka_node *strip(ka_node *n)
{
	while (n && (n->kind == KN_PAREN || n->kind == KN_CAST) && n->nkids == 1)
		n = n->kids[0];
	return n;
}

static const char *text_of(km *k, const ka_node *n)
{
	if (!n || n->loc.in_macro || n->loc.begin < 0)
		return "";
	return ka_tu_text(k->tu, n->loc.file, n->loc.begin, n->loc.end);
}

static void why(km *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void why(km *k, const char *fmt, ...)
{
	if (k->m->why[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(k->m->why, sizeof k->m->why, fmt, ap);
	va_end(ap);
}

static int is_decl(const ka_node *n, const ka_decl *d)
{
	n = strip((ka_node *)n);
	return n && n->kind == KN_DECLREF && d &&
	       (n->ref == d || (!n->ref && n->name && d->name && !strcmp(n->name, d->name)));
}

static const ka_decl *decl_of(ka_node *n)
{
	n = strip(n);
	return n && n->kind == KN_DECLREF ? n->ref : NULL;
}

/* A builtin member: 0..11 for threadIdx/blockIdx/blockDim/gridDim x/y/z,
 * -1 otherwise. */
static int builtin(const ka_node *n)
{
	static const char *const vars[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
	if (!n || n->kind != KN_MEMBER || n->nkids != 1 || !n->name || strlen(n->name) != 1 ||
	    n->name[0] < 'x' || n->name[0] > 'z')
		return -1;
	const ka_node *b = strip(n->kids[0]);
	if (!b || b->kind != KN_DECLREF || !b->name)
		return -1;
	for (int v = 0; v < 4; v++)
		if (!strcmp(b->name, vars[v]))
			return v * 3 + (n->name[0] - 'x');
	return -1;
}

static const sx *env_get(km *k, const ka_decl *d)
{
	for (int i = k->nenv - 1; i >= 0; i--)
		if (k->env[i].d == d)
			return k->env[i].v;
	return NULL;
}

static void env_set(km *k, const ka_decl *d, const sx *v)
{
	if (k->nenv < MAX_ENV) {
		k->env[k->nenv].d = d;
		k->env[k->nenv++].v = v;
	}
}

/* The integer value of n as a symbolic expression. */
static const sx *aff(km *k, ka_node *n, int depth)
{
	n = strip(n);
	if (!n || depth > 64)
		return sx_opaque(&k->sx, D_OPAQUE, 0);
	int b = builtin(n);
	if (b >= 0)
		return sx_symref(&k->sx, k->ids[b]);
	switch (n->kind) {
	case KN_INT:
		return sx_const(&k->sx, n->ival);
	case KN_DECLREF: {
		if (n->const_known)
			return sx_const(&k->sx, n->ival);
		const ka_decl *d = n->ref;
		const sx *v = d ? env_get(k, d) : NULL;
		if (v)
			return v;
		if (d && (d->flags & KDF_CONSTQ) && d->init && !(d->tflags & (KT_FLOAT | KT_DOUBLE)))
			return aff(k, d->init, depth + 1);
		if (d && (d->kind == KD_PARAM || (d->kind == KD_VAR && d->init == NULL))) {
			int s = sx_new_sym(&k->sx, d->kind == KD_PARAM ? SYM_PARAM : SYM_VAR, d->name,
					   d->kind == KD_PARAM ? D_PARAM : D_OPAQUE, 0);
			if (s < 0)
				return sx_opaque(&k->sx, D_OPAQUE, 0);
			const sx *x = sx_symref(&k->sx, s);
			env_set(k, d, x);
			return x;
		}
		return sx_opaque(&k->sx, D_OPAQUE, 0);
	}
	case KN_UNOP:
		if (n->op == OP_MINUS && n->nkids == 1)
			return sx_neg(&k->sx, aff(k, n->kids[0], depth + 1));
		if (n->op == OP_PLUS && n->nkids == 1)
			return aff(k, n->kids[0], depth + 1);
		break;
	case KN_BINOP: {
		if (n->nkids != 2)
			break;
		const sx *a = aff(k, n->kids[0], depth + 1), *c = aff(k, n->kids[1], depth + 1);
		switch (n->op) {
		case OP_ADD:
			return sx_add(&k->sx, a, c);
		case OP_SUB:
			return sx_add(&k->sx, a, sx_neg(&k->sx, c));
		case OP_MUL:
			return sx_mul(&k->sx, a, c);
		case OP_DIV:
			return sx_bin(&k->sx, SX_DIV, a, c);
		case OP_REM:
			return sx_bin(&k->sx, SX_REM, a, c);
		case OP_SHL:
			return sx_bin(&k->sx, SX_SHL, a, c);
		case OP_SHR:
			return sx_bin(&k->sx, SX_SHR, a, c);
		default:
			break;
		}
		break;
	}
	default:
		break;
	}
	return sx_opaque(&k->sx, D_OPAQUE, 0);
}

static int is_const(const sx *x, int64_t want)
{
	int64_t v;
	return x && sx_is_const(x, &v) && v == want;
}

/* 1 when every symbol of x is one of a, b, c. */
static int only_syms(const sx *x, int a, int b, int c, int depth)
{
	if (!x || depth > SX_MAX_DEPTH)
		return 0;
	if (x->k == SX_SYM)
		return x->sym == a || x->sym == b || x->sym == c;
	if (x->k == SX_OPAQUE)
		return 0;
	return (!x->a || only_syms(x->a, a, b, c, depth + 1)) &&
	       (!x->b || only_syms(x->b, a, b, c, depth + 1));
}

/* Classify an index value along each axis; *scale (when not NULL) gets K
 * for a value K * (blockIdx.a * blockDim.a + threadIdx.a), K a constant
 * in [2, 4096] (ka_km_index.scale), 0 otherwise. */
static ka_km_ixkind classify(km *k, const sx *v, int *axis, int64_t *scale)
{
	if (scale)
		*scale = 0;
	for (int a = 0; a < 3; a++) {
		const sx *ct = sx_coef(&k->sx, v, (sx_sym_kind)(SYM_TID_X + a));
		const sx *cb = sx_coef(&k->sx, v, (sx_sym_kind)(SYM_BID_X + a));
		if (!ct || !cb)
			continue;
		int others = 0;
		for (int o = 0; o < 3; o++) {
			if (o == a)
				continue;
			others |= !is_const(sx_coef(&k->sx, v, (sx_sym_kind)(SYM_TID_X + o)), 0);
			others |= !is_const(sx_coef(&k->sx, v, (sx_sym_kind)(SYM_BID_X + o)), 0);
		}
		if (others)
			continue;
		*axis = a;
		int t1 = is_const(ct, 1), t0 = is_const(ct, 0), b0 = is_const(cb, 0);
		const sx *bd = sx_symref(&k->sx, k->ids[6 + a]);
		int64_t c0 = 0;
		if (!only_syms(v, k->ids[a], k->ids[3 + a], k->ids[6 + a], 0) ||
		    (sx_const_term(v, &c0) && c0))
			return KM_IX_OTHER;
		if (t1 && sx_equal(cb, bd))
			return KM_IX_GLOBAL;
		if (t1 && b0)
			return KM_IX_THREAD;
		if (t0 && is_const(cb, 1))
			return KM_IX_BLOCK;
		int64_t kc = 0;
		if (scale && sx_is_const(ct, &kc) && kc >= 2 && kc <= 4096 &&
		    sx_equal(sx_div_exact(&k->sx, cb, kc), bd))
			*scale = kc;
		return KM_IX_OTHER;
	}
	return KM_IX_OTHER;
}

static int is_index_type(const ka_node *v)
{
	return (v->tflags & KT_INT) && !(v->tflags & (KT_POINTER | KT_ARRAY | KT_FLOAT | KT_DOUBLE));
}

/* 1 when x is a sum of products of parameters and integer constants. */
static int params_only(const sx_ctx *c, const sx *x, int depth)
{
	if (!x || depth > SX_MAX_DEPTH)
		return 0;
	switch (x->k) {
	case SX_CONST:
		return 1;
	case SX_SYM:
		return x->sym >= 0 && x->sym < c->nsyms && c->syms[x->sym].kind == SYM_PARAM;
	case SX_ADD:
	case SX_MUL:
		return params_only(c, x->a, depth + 1) && params_only(c, x->b, depth + 1);
	default:
		return 0;
	}
}

/* Parentheses, and casts that keep the element size of a pointer. */
static ka_node *strip_ptr(ka_node *n)
{
	while (n && n->nkids == 1 &&
	       (n->kind == KN_PAREN ||
		(n->kind == KN_CAST && (n->kids[0]->tflags & KT_POINTER) && n->pointee_bytes > 0 &&
		 n->pointee_bytes == n->kids[0]->pointee_bytes)))
		n = n->kids[0];
	return n;
}

/* Where pointer expression n points: a pointer parameter (*base) plus an
 * offset in its elements; NULL when it is not such a sum. */
static const sx *ptr_value(km *k, ka_node *n, const ka_decl **base, int depth)
{
	n = strip_ptr(n);
	if (!n || depth > 16 || !(n->tflags & KT_POINTER))
		return NULL;
	if (n->kind == KN_DECLREF && n->ref) {
		if (n->ref->kind == KD_PARAM && (n->ref->tflags & KT_POINTER)) {
			*base = n->ref;
			return sx_const(&k->sx, 0);
		}
		for (int i = 0; i < k->m->nptrs; i++)
			if (k->m->ptrs[i].decl == n->ref) {
				*base = k->ptr_base[i];
				return k->ptr_off[i];
			}
		return NULL;
	}
	if (n->kind == KN_UNOP && n->op == OP_ADDROF && n->nkids == 1) {
		ka_node *sub = strip(n->kids[0]);
		if (!sub || sub->kind != KN_SUBSCRIPT || sub->nkids != 2)
			return NULL;
		const sx *b = ptr_value(k, sub->kids[0], base, depth + 1);
		return b ? sx_add(&k->sx, b, aff(k, sub->kids[1], 0)) : NULL;
	}
	if (n->kind == KN_BINOP && (n->op == OP_ADD || n->op == OP_SUB) && n->nkids == 2) {
		int side = (n->kids[0]->tflags & KT_POINTER) ? 0 : 1;
		if (n->op == OP_SUB && side)
			return NULL;
		const sx *b = ptr_value(k, n->kids[side], base, depth + 1);
		if (!b)
			return NULL;
		const sx *o = aff(k, n->kids[1 - side], 0);
		return sx_add(&k->sx, b, n->op == OP_SUB ? sx_neg(&k->sx, o) : o);
	}
	return NULL;
}

/* A pointer local initialized to a parameter plus an offset (ka_km_ptr). */
static void note_ptr(km *k, ka_node *ds, ka_node *v)
{
	const ka_decl *base = NULL;
	const sx *off = ptr_value(k, v->kids[0], &base, 0);
	if (!off || !base || k->m->nptrs >= KA_KM_MAX || v->pointee_bytes <= 0 ||
	    v->pointee_bytes != base->elem_bytes)
		return;
	ka_km_ptr *p = &k->m->ptrs[k->m->nptrs];
	k->ptr_off[k->m->nptrs] = off;
	k->ptr_base[k->m->nptrs++] = base;
	p->name = v->name;
	p->decl = v->ref;
	p->base = base->name;
	p->offset = sx_render(&k->sx, k->tu->arena, off);
	p->begin = ds->loc.begin;
	p->end = ds->loc.end;
}

static void note_decl(km *k, ka_node *ds)
{
	for (int i = 0; i < ds->nkids; i++) {
		ka_node *v = ds->kids[i];
		if (v && v->kind == KN_VARDECL && v->ref && v->nkids == 1 && (v->tflags & KT_POINTER) &&
		    !(v->tflags & KT_ARRAY))
			note_ptr(k, ds, v);
		if (!v || v->kind != KN_VARDECL || !v->ref || !v->nkids || !is_index_type(v))
			continue;
		const sx *x = aff(k, v->kids[0], 0);
		env_set(k, v->ref, x);
		if (!(x->dep & (D_LANE | D_BLOCK)) || k->m->nidx >= KA_KM_MAX)
			continue;
		ka_km_index *ix = &k->m->idx[k->m->nidx++];
		ix->name = v->name;
		ix->decl = v->ref;
		ix->kind = classify(k, x, &ix->axis, &ix->scale);
		ix->affine = sx_render(&k->sx, k->tu->arena, x);
		ix->type = v->type;
		ix->is_const = (v->ref->flags & KDF_CONSTQ) != 0;
		ix->begin = ds->loc.begin;
		ix->end = ds->loc.end;
	}
}

static int index_of_decl(km *k, const ka_decl *d)
{
	for (int i = 0; d && i < k->m->nidx; i++)
		if (k->m->idx[i].decl == d)
			return i;
	return -1;
}

/* `i >= n` / `n <= i` (want_lt 0) or `i < n` / `n > i` (want_lt 1) with i
 * an index: the index and the bound. */
static int guard_test(km *k, ka_node *c, int want_lt, int *ix, ka_node **bound)
{
	c = strip(c);
	if (!c || c->kind != KN_BINOP || c->nkids != 2)
		return 0;
	ka_op lhs_op = want_lt ? OP_LT : OP_GE, rhs_op = want_lt ? OP_GT : OP_LE;
	int side = c->op == lhs_op ? 0 : c->op == rhs_op ? 1 : -1;
	if (side < 0)
		return 0;
	int i = index_of_decl(k, decl_of(c->kids[side]));
	if (i < 0)
		return 0;
	*ix = i;
	*bound = strip(c->kids[1 - side]);
	return 1;
}

static int is_return(ka_node *s)
{
	if (s && s->kind == KN_COMPOUND && s->nkids == 1)
		s = s->kids[0];
	return s && s->kind == KN_RETURN && s->nkids == 0;
}

static void set_guard(km *k, ka_node *ifs, ka_km_guardform form, int ix, ka_node *bound, int b0, int b1)
{
	ka_km_guard *g = &k->m->guard;
	g->form = form;
	g->index = ix;
	g->bound = text_of(k, bound);
	const ka_decl *bd = decl_of(bound);
	g->bound_param = bd && bd->kind == KD_PARAM ? bd : NULL;
	const sx *bv = aff(k, bound, 0);
	g->bound_value = params_only(&k->sx, bv, 0) ? sx_render(&k->sx, k->tu->arena, bv) : NULL;
	g->begin = ifs->loc.begin;
	g->end = ifs->loc.end;
	/* a statement's extent stops before its `;` (`if (c) return;`) */
	const ka_srcfile *sf = ka_tu_file(k->tu, ifs->loc.file);
	int e = g->end;
	while (sf && e >= 0 && e < sf->len &&
	       (sf->data[e] == ' ' || sf->data[e] == '\t' || sf->data[e] == '\n'))
		e++;
	if (sf && e >= 0 && e < sf->len && sf->data[e] == ';')
		g->end = e + 1;
	if (form == KM_GUARD_RETURN)
		b0 = g->end;
	g->body_begin = b0;
	g->body_end = b1;
}

/* ---- loops ---- */

static int loop_var_of(ka_node *init, const ka_decl **d, ka_node **start)
{
	if (!init)
		return 0;
	if (init->kind == KN_DECLSTMT && init->nkids == 1 && init->kids[0]->kind == KN_VARDECL &&
	    init->kids[0]->nkids == 1) {
		*d = init->kids[0]->ref;
		*start = init->kids[0]->kids[0];
		return *d != NULL;
	}
	ka_node *e = strip(init);
	if (e && e->kind == KN_BINOP && e->op == OP_ASSIGN && e->nkids == 2 && decl_of(e->kids[0])) {
		*d = decl_of(e->kids[0]);
		*start = e->kids[1];
		return 1;
	}
	return 0;
}

static const sx *loop_step(km *k, ka_node *inc, const ka_decl *d)
{
	ka_node *e = strip(inc);
	if (!e || !d)
		return NULL;
	if (e->kind == KN_UNOP && (e->op == OP_POSTINC || e->op == OP_PREINC) && is_decl(e->kids[0], d))
		return sx_const(&k->sx, 1);
	if (e->kind == KN_BINOP && e->op == OP_ADDA && e->nkids == 2 && is_decl(e->kids[0], d))
		return aff(k, e->kids[1], 0);
	if (e->kind == KN_BINOP && e->op == OP_ASSIGN && e->nkids == 2 && is_decl(e->kids[0], d)) {
		ka_node *r = strip(e->kids[1]);
		if (r && r->kind == KN_BINOP && r->op == OP_ADD && r->nkids == 2) {
			if (is_decl(r->kids[0], d))
				return aff(k, r->kids[1], 0);
			if (is_decl(r->kids[1], d))
				return aff(k, r->kids[0], 0);
		}
	}
	return NULL;
}

static int add_loop(km *k, ka_node *f, int parent, int depth)
{
	if (k->m->nloops >= KA_KM_MAX) {
		why(k, "more than %d loops", KA_KM_MAX);
		return -1;
	}
	int li = k->m->nloops++;
	ka_km_loop *l = &k->m->loops[li];
	memset(l, 0, sizeof *l);
	l->parent = parent;
	l->depth = depth;
	l->begin = f->loc.begin;
	l->end = f->loc.end;
	l->trips = -1;
	ka_node *init = f->nkids > 0 ? f->kids[0] : NULL, *cond = f->nkids > 1 ? f->kids[1] : NULL;
	ka_node *inc = f->nkids > 2 ? f->kids[2] : NULL, *body = f->nkids > 3 ? f->kids[3] : NULL;
	if (init) {
		l->init_begin = init->loc.begin;
		l->init_end = init->loc.end;
	}
	if (cond) {
		l->cond_begin = cond->loc.begin;
		l->cond_end = cond->loc.end;
	}
	if (inc) {
		l->step_begin = inc->loc.begin;
		l->step_end = inc->loc.end;
	}
	if (body) {
		l->body_begin = body->loc.begin;
		l->body_end = body->loc.end;
	}
	const ka_decl *d = NULL;
	ka_node *start = NULL;
	if (!loop_var_of(init, &d, &start)) {
		why(k, "the loop at line %d has no index variable set in its header", f->loc.line);
		return li;
	}
	l->decl = d;
	l->var = d->name;
	l->start = text_of(k, strip(start));
	const sx *s0 = aff(k, start, 0);
	int sym = sx_new_sym(&k->sx, SYM_ITER, d->name, D_LOOP, 0);
	if (sym >= 0)
		env_set(k, d, sx_symref(&k->sx, sym));
	ka_node *c = strip(cond), *bound = NULL;
	if (c && c->kind == KN_BINOP && c->nkids == 2) {
		if ((c->op == OP_LT || c->op == OP_LE) && is_decl(c->kids[0], d))
			bound = c->kids[1];
		else if ((c->op == OP_GT || c->op == OP_GE) && is_decl(c->kids[1], d))
			bound = c->kids[0];
		l->bound_le = c->op == OP_LE || c->op == OP_GE;
	}
	if (bound)
		l->bound = text_of(k, strip(bound));
	const sx *st = loop_step(k, inc, d);
	int64_t sv, s0v, bv;
	if (st && sx_is_const(st, &sv) && sv > 0)
		l->step = sv;
	if (st) {
		const sx *cg = sx_coef(&k->sx, st, SYM_GDIM_X);
		l->grid_stride = cg && sx_equal(cg, sx_symref(&k->sx, k->ids[6]));
	}
	if (bound && l->step && sx_is_const(s0, &s0v) && sx_is_const(aff(k, bound, 0), &bv)) {
		int64_t span = bv - s0v + (l->bound_le ? 1 : 0);
		l->trips = span <= 0 ? 0 : (span + l->step - 1) / l->step;
	}
	return li;
}

/* ---- accumulators ---- */

static int inside(const ka_km_loop *l, const ka_decl *d)
{
	return d->loc.begin >= l->begin && d->loc.begin < l->end;
}

/* A scalar local of the kernel declared outside loop li. */
static int outer_scalar(km *k, const ka_decl *d, int li)
{
	return d && d->kind == KD_VAR && !(d->flags & (KDF_SHARED | KDF_FILE_SCOPE | KDF_CONSTANT)) &&
	       !(d->tflags & (KT_POINTER | KT_ARRAY | KT_RECORD)) && !inside(&k->m->loops[li], d);
}

/* 1 when n reads d, directly or through locals declared inside loop li
 * whose initializer reads it. */
static int reads(km *k, const ka_node *n, const ka_decl *d, int li, int depth)
{
	if (!n || depth > 6)
		return 0;
	if (n->kind == KN_DECLREF) {
		if (n->ref == d)
			return 1;
		if (li >= 0 && n->ref && n->ref->kind == KD_VAR && n->ref->init &&
		    inside(&k->m->loops[li], n->ref))
			return reads(k, n->ref->init, d, li, depth + 1);
		return 0;
	}
	for (int i = 0; i < n->nkids; i++)
		if (reads(k, n->kids[i], d, li, depth))
			return 1;
	return 0;
}

/* The first outer scalar (other than self) that n reads through loop locals. */
static const ka_decl *reads_other(km *k, const ka_node *n, const ka_decl *self, int li, int depth)
{
	if (!n || depth > 6)
		return NULL;
	if (n->kind == KN_DECLREF && n->ref && n->ref != self) {
		if (outer_scalar(k, n->ref, li) && index_of_decl(k, n->ref) < 0)
			return n->ref;
		if (n->ref->kind == KD_VAR && n->ref->init && inside(&k->m->loops[li], n->ref))
			return reads_other(k, n->ref->init, self, li, depth + 1);
		return NULL;
	}
	for (int i = 0; i < n->nkids; i++) {
		const ka_decl *r = reads_other(k, n->kids[i], self, li, depth);
		if (r)
			return r;
	}
	return NULL;
}

/* A local declared in loop li: its initializer; else n. */
static ka_node *through_local(km *k, ka_node *n, int li)
{
	ka_node *s = strip(n);
	if (s && s->kind == KN_DECLREF && s->ref && s->ref->kind == KD_VAR && s->ref->init &&
	    inside(&k->m->loops[li], s->ref))
		return strip(s->ref->init);
	return s;
}

static ka_km_red minmax_call(const ka_node *c)
{
	if (!c || c->kind != KN_CALL || c->nkids != 2 || !c->name)
		return KM_RED_NONE;
	static const char *const mx[] = {"fmaxf", "fmax", "max", "__hmax", "maxf"};
	static const char *const mn[] = {"fminf", "fmin", "min", "__hmin", "minf"};
	for (size_t i = 0; i < sizeof mx / sizeof mx[0]; i++) {
		if (!strcmp(c->name, mx[i]))
			return KM_RED_MAX;
		if (!strcmp(c->name, mn[i]))
			return KM_RED_MIN;
	}
	return KM_RED_NONE;
}

/* `E op d` or `d op E`: MAX when E is the larger, MIN when the smaller;
 * the other side to *e; *strict for < and >. */
static ka_km_red compare_with(ka_node *c, const ka_decl *d, ka_node **e, int *strict)
{
	c = strip(c);
	if (!c || c->kind != KN_BINOP || c->nkids != 2)
		return KM_RED_NONE;
	int gt = c->op == OP_GT || c->op == OP_GE, lt = c->op == OP_LT || c->op == OP_LE;
	if (!gt && !lt)
		return KM_RED_NONE;
	*strict = c->op == OP_GT || c->op == OP_LT;
	if (is_decl(c->kids[1], d)) { /* E > d: E is larger */
		*e = c->kids[0];
		return gt ? KM_RED_MAX : KM_RED_MIN;
	}
	if (is_decl(c->kids[0], d)) { /* d < E: E is larger */
		*e = c->kids[1];
		return lt ? KM_RED_MAX : KM_RED_MIN;
	}
	return KM_RED_NONE;
}

static int same_text(km *k, ka_node *a, ka_node *b)
{
	const char *ta = text_of(k, strip(a)), *tb = text_of(k, strip(b));
	if (!*ta || !*tb)
		return 0;
	/* compare without blanks */
	while (*ta || *tb) {
		while (*ta == ' ' || *ta == '\t' || *ta == '\n')
			ta++;
		while (*tb == ' ' || *tb == '\t' || *tb == '\n')
			tb++;
		if (*ta != *tb)
			return 0;
		if (*ta) {
			ta++;
			tb++;
		}
	}
	return 1;
}

static ka_km_acc *acc_for(km *k, const ka_decl *d, ka_km_red red, int li, const ka_node *stmt)
{
	for (int i = 0; i < k->m->naccs; i++) {
		ka_km_acc *a = &k->m->accs[i];
		if (a->decl != d)
			continue;
		if (a->red != red && !(a->red == KM_RED_SUM && red == KM_RED_WELFORD)) {
			why(k, "%s is updated as %s and as %s", d->name, ka_kmodel_red_name(a->red),
			    ka_kmodel_red_name(red));
			return NULL;
		}
		a->red = red;
		return a;
	}
	if (k->m->naccs >= KA_KM_MAX) {
		why(k, "more than %d accumulators", KA_KM_MAX);
		return NULL;
	}
	ka_km_acc *a = &k->m->accs[k->m->naccs++];
	memset(a, 0, sizeof *a);
	a->name = d->name;
	a->decl = d;
	a->red = red;
	a->loop = li;
	a->reset_loop = -1;
	a->begin = stmt->loc.begin;
	a->end = stmt->loc.end;
	a->decl_begin = d->decl_begin;
	a->decl_end = d->loc.end;
	return a;
}

/* `d (op)= rhs` inside loop li. */
static void update(km *k, ka_node *stmt, const ka_decl *d, ka_op op, ka_node *rhs, int li)
{
	ka_node *r = strip(rhs);
	ka_km_red red = KM_RED_NONE;
	ka_node *term = NULL;
	const ka_decl *partner = NULL;
	if (op == OP_POSTINC || op == OP_PREINC) {
		red = KM_RED_COUNT;
	} else if (op == OP_ADDA || op == OP_SUBA) {
		int64_t one = 0;
		if (r && r->kind == KN_INT && (one = r->ival) == 1)
			red = KM_RED_COUNT;
		else if (reads(k, r, d, li, 0))
			red = KM_RED_WELFORD; /* mean += (x - mean) / n */
		else {
			const ka_decl *o = reads_other(k, r, d, li, 0);
			const ka_km_acc *oa = o ? ka_kmodel_acc(k->m, o->name) : NULL;
			red = oa && oa->red == KM_RED_WELFORD && oa->loop == li ? KM_RED_WELFORD : KM_RED_SUM;
			if (red == KM_RED_WELFORD)
				partner = o;
			term = r;
		}
	} else if (op == OP_MULA) {
		red = reads(k, r, d, li, 0) ? KM_RED_NONE : KM_RED_PROD;
	} else if (op == OP_ASSIGN && r) {
		ka_node *v = through_local(k, r, li);
		ka_node *e = NULL;
		int strict = 0;
		if (v && v->kind == KN_BINOP && v->nkids == 2 && (v->op == OP_ADD || v->op == OP_MUL)) {
			int side = is_decl(v->kids[0], d) ? 0 : is_decl(v->kids[1], d) ? 1 : -1;
			ka_node *other = side >= 0 ? v->kids[1 - side] : NULL;
			if (side >= 0 && !reads(k, other, d, li, 0)) {
				red = v->op == OP_ADD ? KM_RED_SUM : KM_RED_PROD;
				term = other;
			} else if (v->op == OP_ADD) {
				/* s = s * F + G with F rescaling by a running max */
				for (int t = 0; t < 2 && red == KM_RED_NONE; t++) {
					ka_node *p = strip(v->kids[t]);
					if (p && p->kind == KN_BINOP && p->op == OP_MUL && p->nkids == 2 &&
					    (is_decl(p->kids[0], d) || is_decl(p->kids[1], d)) &&
					    !reads(k, v->kids[1 - t], d, li, 0)) {
						partner = reads_other(k, p, d, li, 0);
						red = partner ? KM_RED_ONLINE_SOFTMAX : KM_RED_NONE;
					}
				}
			}
		} else if ((red = minmax_call(v)) != KM_RED_NONE) {
			if (!is_decl(v->kids[0], d) && !is_decl(v->kids[1], d))
				red = KM_RED_NONE;
		} else if (v && v->kind == KN_COND && v->nkids == 3) {
			ka_km_red cr = compare_with(v->kids[0], d, &e, &strict);
			if (cr != KM_RED_NONE && same_text(k, v->kids[1], e) && is_decl(v->kids[2], d))
				red = cr;
			else if (cr != KM_RED_NONE && is_decl(v->kids[1], d) && same_text(k, v->kids[2], e))
				red = cr == KM_RED_MAX ? KM_RED_MIN : KM_RED_MAX;
		}
	}
	if (red == KM_RED_NONE) {
		why(k, "cannot model the update '%.80s' of %s", text_of(k, stmt), d->name);
		return;
	}
	ka_km_acc *a = acc_for(k, d, red, li, stmt);
	if (!a)
		return;
	if (term && a - k->m->accs < KA_KM_MAX)
		k->terms[a - k->m->accs] = term;
	if (partner) {
		ka_km_acc *p = (ka_km_acc *)ka_kmodel_acc(k->m, partner->name);
		a->partner = partner->name;
		if (p && red == KM_RED_WELFORD)
			p->partner = d->name;
	}
}

/* `if (E > d) { d = E; [i = j;] }` and `if (C) n++;` inside loop li:
 * 1 when recognized. */
static int conditional_update(km *k, ka_node *ifs, int li)
{
	if (ifs->nkids < 2 || !ifs->kids[1] || (ifs->nkids > 2 && ifs->kids[2]))
		return 0;
	ka_node *then = ifs->kids[1];
	ka_node *st[4];
	int n = 0;
	if (then->kind == KN_COMPOUND) {
		if (then->nkids > 4)
			return 0;
		for (int i = 0; i < then->nkids; i++)
			st[n++] = strip(then->kids[i]);
	} else {
		st[n++] = strip(then);
	}
	/* a count */
	if (n == 1 && st[0] && st[0]->kind == KN_UNOP &&
	    (st[0]->op == OP_POSTINC || st[0]->op == OP_PREINC)) {
		const ka_decl *d = decl_of(st[0]->kids[0]);
		if (d && outer_scalar(k, d, li)) {
			acc_for(k, d, KM_RED_COUNT, li, ifs);
			return 1;
		}
	}
	/* the compare's variable is assigned its other side */
	const ka_decl *v = NULL, *ix = NULL;
	ka_node *e = NULL;
	int strict = 0;
	ka_km_red red = KM_RED_NONE;
	for (int i = 0; i < n; i++) {
		ka_node *s = st[i];
		if (!s || s->kind != KN_BINOP || s->op != OP_ASSIGN || s->nkids != 2)
			return 0;
		const ka_decl *d = decl_of(s->kids[0]);
		if (!d || !outer_scalar(k, d, li))
			return 0;
		ka_km_red r = compare_with(ifs->kids[0], d, &e, &strict);
		if (r != KM_RED_NONE && same_text(k, s->kids[1], e) && !v) {
			v = d;
			red = r;
		} else if (!ix) {
			ix = d;
		} else {
			return 0;
		}
	}
	if (!v)
		return 0;
	ka_km_acc *a = acc_for(k, v, ix ? (red == KM_RED_MAX ? KM_RED_ARGMAX : KM_RED_ARGMIN) : red, li, ifs);
	if (a && ix) {
		a->index = ix->name;
		a->tie_first = strict;
	}
	return 1;
}

static void walk(km *k, ka_node *s, int li, int depth, int top);

static void stmt_in_loop(km *k, ka_node *s, int li)
{
	ka_node *e = strip(s);
	if (!e)
		return;
	if (e->kind == KN_BINOP && e->nkids == 2 &&
	    (e->op == OP_ASSIGN || e->op == OP_ADDA || e->op == OP_SUBA || e->op == OP_MULA ||
	     e->op == OP_DIVA)) {
		const ka_decl *d = decl_of(e->kids[0]);
		if (!d || !outer_scalar(k, d, li))
			return; /* a store, or a local of the loop */
		for (int p = li; p >= 0; p = k->m->loops[p].parent)
			if (k->m->loops[p].decl == d)
				return;
		ka_node *r = strip(e->kids[1]);
		if (e->op == OP_ASSIGN && r && !reads(k, r, d, -1, 0) && r->kind != KN_DECLREF &&
		    !reads_other(k, r, d, li, 0) && index_of_decl(k, d) < 0) {
			int ok = 1; /* a constant: a reset */
			for (int i = 0; i < r->nkids; i++)
				ok &= strip(r->kids[i]) == NULL || strip(r->kids[i])->kind != KN_DECLREF ||
				      strip(r->kids[i])->const_known;
			if (ok && k->nresets < KA_KM_MAX) {
				k->resets[k->nresets].d = d;
				k->resets[k->nresets++].loop = li;
				return;
			}
		}
		update(k, s, d, e->op, e->kids[1], li);
		return;
	}
	if (e->kind == KN_UNOP && (e->op == OP_POSTINC || e->op == OP_PREINC) && e->nkids == 1) {
		const ka_decl *d = decl_of(e->kids[0]);
		if (d && outer_scalar(k, d, li))
			update(k, s, d, e->op, NULL, li);
	}
}

static void walk(km *k, ka_node *s, int li, int depth, int top)
{
	if (!s || depth > 200)
		return;
	switch (s->kind) {
	case KN_COMPOUND:
		for (int i = 0; i < s->nkids; i++)
			walk(k, s->kids[i], li, depth + 1, top);
		return;
	case KN_DECLSTMT:
		note_decl(k, s);
		for (int i = 0; i < s->nkids; i++)
			if (s->kids[i] && s->kids[i]->ref && (s->kids[i]->ref->flags & KDF_SHARED))
				k->m->uses_shared = 1;
		return;
	case KN_FOR: {
		int nl = add_loop(k, s, li, li < 0 ? 0 : k->m->loops[li].depth + 1);
		if (nl < 0)
			return;
		walk(k, s->nkids > 3 ? s->kids[3] : NULL, nl, depth + 1, 0);
		return;
	}
	case KN_WHILE:
	case KN_DO:
		why(k, "a %s loop at line %d (only for loops are modelled)",
		    s->kind == KN_WHILE ? "while" : "do", s->loc.line);
		for (int i = 0; i < s->nkids; i++)
			walk(k, s->kids[i], -1, depth + 1, 0);
		return;
	case KN_IF:
		if (li >= 0 && conditional_update(k, s, li))
			return;
		for (int i = 1; i < s->nkids; i++)
			walk(k, s->kids[i], li, depth + 1, 0);
		if (s->nkids && s->kids[0])
			walk(k, s->kids[0], li, depth + 1, 0);
		return;
	case KN_RETURN:
		k->m->returns++;
		return;
	case KN_SWITCH:
		why(k, "a switch at line %d", s->loc.line);
		return;
	default:
		break;
	}
	/* an expression statement */
	if (li >= 0)
		stmt_in_loop(k, s, li);
	(void)top;
}

/* Thread-grid and barrier uses anywhere in the body. */
static void uses(km *k, const ka_node *x, int depth)
{
	if (!x || depth > 400)
		return;
	if (builtin(x) >= 9)
		k->m->uses_griddim = 1;
	if (x->kind == KN_CALL && x->name &&
	    (!strcmp(x->name, "__syncthreads") || !strncmp(x->name, "__syncthreads_", 14)))
		k->m->uses_barrier = 1;
	for (int i = 0; i < x->nkids; i++)
		uses(k, x->kids[i], depth + 1);
}

/* A grid-stride loop over the whole body, `for (T i = <global thread index
 * along x>; i < n; i += <blockDim.x * gridDim.x>)` (spelled any way the
 * affine forms read: casts, helper variables, terms in any order), loop li
 * of statement f: the guard, of form STRIDE, with i as its index. */
static void stride_guard(km *k, ka_node *f, int li)
{
	ka_km_loop *l = &k->m->loops[li];
	const ka_decl *d = NULL;
	ka_node *start = NULL, *c = strip(f->nkids > 1 ? f->kids[1] : NULL), *bound = NULL;
	if (!l->decl || l->bound_le || !l->bound || !loop_var_of(f->kids[0], &d, &start) ||
	    k->m->nidx >= KA_KM_MAX || !c || c->kind != KN_BINOP || c->nkids != 2)
		return;
	bound = c->op == OP_LT && is_decl(c->kids[0], d)   ? c->kids[1]
		: c->op == OP_GT && is_decl(c->kids[1], d) ? c->kids[0]
							   : NULL;
	const sx *s0 = aff(k, start, 0), *st = loop_step(k, f->nkids > 2 ? f->kids[2] : NULL, d);
	int axis = -1;
	if (!bound || !st || classify(k, s0, &axis, NULL) != KM_IX_GLOBAL || axis != 0)
		return;
	/* exactly blockDim.x * gridDim.x: a polynomial in the two whose
	 * coefficient along each is the other, with no constant term */
	const sx *cg = sx_coef(&k->sx, st, SYM_GDIM_X), *cb = sx_coef(&k->sx, st, SYM_BDIM_X);
	int64_t c0 = 0;
	if (!cg || !cb || !sx_equal(cg, sx_symref(&k->sx, k->ids[6])) ||
	    !sx_equal(cb, sx_symref(&k->sx, k->ids[9])) ||
	    !only_syms(st, k->ids[6], k->ids[9], k->ids[9], 0) || !sx_const_term(st, &c0) || c0)
		return;
	ka_km_index *ix = &k->m->idx[k->m->nidx];
	ix->name = d->name;
	ix->decl = d;
	ix->kind = KM_IX_GLOBAL;
	ix->axis = 0;
	ix->affine = sx_render(&k->sx, k->tu->arena, s0);
	ix->type = d->type;
	ix->is_const = 0;
	ix->begin = l->init_begin;
	ix->end = l->init_end;
	ka_node *body = f->nkids > 3 ? f->kids[3] : NULL;
	int compound = body && body->kind == KN_COMPOUND;
	set_guard(k, f, KM_GUARD_STRIDE, k->m->nidx++, strip(bound),
		  body ? body->loc.begin + compound : l->end, body ? body->loc.end - compound : l->end);
	k->m->guard.loop = li;
}

/* The top level (and a guard's block): indices, the guard, then the walk. */
static void top(km *k, ka_node *body, int b_end)
{
	for (int i = 0; i < body->nkids; i++) {
		ka_node *s = body->kids[i];
		if (!s)
			continue;
		int ix;
		ka_node *bound;
		if (s->kind == KN_IF && k->m->guard.form == KM_GUARD_NONE && s->nkids >= 2 &&
		    (s->nkids < 3 || !s->kids[2])) {
			if (is_return(s->kids[1]) && guard_test(k, s->kids[0], 0, &ix, &bound)) {
				set_guard(k, s, KM_GUARD_RETURN, ix, bound, s->loc.end, b_end);
				k->m->returns++;
				continue;
			}
			if (i == body->nkids - 1 && guard_test(k, s->kids[0], 1, &ix, &bound)) {
				ka_node *t = s->kids[1];
				int b0 = t->kind == KN_COMPOUND ? t->loc.begin + 1 : t->loc.begin;
				int b1 = t->kind == KN_COMPOUND ? t->loc.end - 1 : t->loc.end;
				set_guard(k, s, KM_GUARD_BLOCK, ix, bound, b0, b1);
				if (t->kind == KN_COMPOUND)
					top(k, t, b1);
				else
					walk(k, t, -1, 0, 1);
				continue;
			}
		}
		if (s->kind == KN_FOR && k->m->guard.form == KM_GUARD_NONE && i == body->nkids - 1) {
			int li = k->m->nloops;
			walk(k, s, -1, 0, 1);
			if (li < k->m->nloops)
				stride_guard(k, s, li);
			continue;
		}
		walk(k, s, -1, 0, 1);
	}
}

static void finish(km *k)
{
	ka_kmodel *m = k->m;
	for (int r = 0; r < k->nresets; r++)
		for (int i = 0; i < m->naccs; i++) {
			ka_km_acc *a = &m->accs[i];
			if (a->decl != k->resets[r].d)
				continue;
			/* reset in a loop around the one that fills it */
			for (int p = m->loops[a->loop].parent; p >= 0; p = m->loops[p].parent)
				if (p == k->resets[r].loop) {
					a->partial = 1;
					a->reset_loop = p;
				}
		}
	/* the sum of squares beside a sum of the same terms */
	for (int i = 0; i < m->naccs; i++) {
		ka_node *t = k->terms[i] ? strip(k->terms[i]) : NULL;
		if (m->accs[i].red != KM_RED_SUM || !t || t->kind != KN_BINOP || t->op != OP_MUL ||
		    t->nkids != 2 || !same_text(k, t->kids[0], t->kids[1]))
			continue;
		for (int j = 0; j < m->naccs; j++)
			if (j != i && m->accs[j].red == KM_RED_SUM && k->terms[j] &&
			    m->accs[j].loop == m->accs[i].loop && same_text(k, k->terms[j], t->kids[0])) {
				m->accs[i].sumsq_of = m->accs[j].name;
				m->accs[j].partner = m->accs[i].name;
			}
	}
	/* pointers at the guarded index: one element per thread */
	const ka_km_index *gi = ka_kmodel_guarded_index(m);
	const sx *gv = gi ? env_get(k, gi->decl) : NULL;
	for (int i = 0; gv && i < m->nptrs; i++)
		m->ptrs[i].is_index = sx_equal(k->ptr_off[i], gv);
	/* Welford's mean needs its count, and its M2 */
	for (int i = 0; i < m->naccs; i++)
		if (m->accs[i].red == KM_RED_WELFORD && !m->accs[i].partner)
			why(k, "%s reads itself in its update but is no Welford mean with an M2",
			    m->accs[i].name);
}

int ka_kmodel_of_tu(ka_tu *tu, const char *name, ka_kmodel **out)
{
	*out = NULL;
	ka_decl *fn = NULL;
	for (ka_decl *f = tu->funcs; f && !fn; f = f->next)
		if ((f->flags & KDF_GLOBAL) && f->body && f->name && !strcmp(f->name, name))
			fn = f;
	if (!fn)
		return ka_error_set(KA_EINPUT, "no kernel '%s' with a body in %s", name, tu->main_file);
	ka_kmodel *m = ka_arena_alloc(tu->arena, sizeof *m);
	memset(m, 0, sizeof *m);
	km k = {.tu = tu, .m = m};
	sx_ctx_init(&k.sx, tu->arena);
	static const char *const names[12] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x",
					      "blockIdx.y",  "blockIdx.z",  "blockDim.x",  "blockDim.y",
					      "blockDim.z",  "gridDim.x",   "gridDim.y",   "gridDim.z"};
	static const unsigned deps[4] = {0, D_BLOCK, D_PARAM, D_PARAM};
	for (int i = 0; i < 12; i++)
		k.ids[i] = sx_new_sym(&k.sx, (sx_sym_kind)(SYM_TID_X + i), names[i],
				      i < 3 ? (unsigned)(D_TX << i) : deps[i / 3], 0);
	m->kernel = fn->name;
	m->fn = fn;
	m->body_begin = fn->body->loc.begin + 1;
	m->body_end = fn->body->loc.end - 1;
	m->guard.index = -1;
	m->guard.loop = -1;
	top(&k, fn->body, m->body_end);
	uses(&k, fn->body, 0);
	finish(&k);
	*out = m;
	return KA_OK;
}

const char *ka_kmodel_red_name(ka_km_red r)
{
	static const char *const n[] = {"none",  "sum",    "product", "min",     "max",
					"count", "argmax", "argmin",  "welford", "online-softmax"};
	return (unsigned)r < sizeof n / sizeof n[0] ? n[r] : "?";
}

const ka_km_acc *ka_kmodel_acc(const ka_kmodel *m, const char *name)
{
	for (int i = 0; i < m->naccs; i++)
		if (!strcmp(m->accs[i].name, name))
			return &m->accs[i];
	return NULL;
}

const ka_km_ptr *ka_kmodel_ptr(const ka_kmodel *m, const char *name)
{
	for (int i = 0; i < m->nptrs; i++)
		if (!strcmp(m->ptrs[i].name, name))
			return &m->ptrs[i];
	return NULL;
}

const ka_km_index *ka_kmodel_guarded_index(const ka_kmodel *m)
{
	return m->guard.form != KM_GUARD_NONE && m->guard.index >= 0 ? &m->idx[m->guard.index] : NULL;
}
