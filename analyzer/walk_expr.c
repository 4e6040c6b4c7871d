/* analyzer/walk_expr.c: expressions of the kernel walk.  Computes the
 * symbolic value of each expression and emits the facts found inside it:
 * memory accesses (with the warp model), floating literals. */
#include "analyzer/walk.h"
#include <string.h>

int64_t next_id(walk *w)
{
	return ++*w->next_id;
}

ka_node *strip(ka_node *n)
{
	while (n && (n->kind == KN_PAREN || n->kind == KN_CAST) && n->nkids == 1)
		n = n->kids[0];
	return n;
}

static val ival(const sx *x)
{
	val v = {.x = x};
	return v;
}

const sx *ev_int(walk *w, ka_node *n)
{
	val v = ev(w, n, 0);
	return v.x ? v.x : sx_opaque(&w->sx, 0, 0);
}

int fold_int(walk *w, ka_node *n, int64_t *v)
{
	w->quiet++;
	const sx *x = ev_int(w, n);
	w->quiet--;
	return sx_is_const(x, v);
}

const char *node_text(walk *w, ka_node *n)
{
	if (!n)
		return NULL;
	return ka_tu_text(w->tu, n->loc.file, n->loc.begin, n->loc.end);
}

/* Whether x is the same for every lane of each modelled warp.  Run-time
 * values are never guessed: a lane-dependent part combined with one must
 * itself be constant within each warp (`row < M` with row from threadIdx.y
 * and a 32-wide block is; `i < n` with i from threadIdx.x is not). */
static int lanes_agree(walk *w, const sx *x)
{
	if (!(x->dep & D_LANE))
		return 1;
	if (!sx_has_unknown(&w->sx, x))
		return warp_uniform_value(w, x) == 1;
	if (!x->a || x->k == SX_SYM || x->k == SX_OPAQUE)
		return 0;
	return lanes_agree(w, x->a) && (!x->b || lanes_agree(w, x->b));
}

/* A bounds guard: a lane-dependent value compared with a uniform one
 * (possibly inside && / ||). */
int is_guard_value(const sx *c)
{
	if (c && (c->k == SX_AND || c->k == SX_OR))
		return is_guard_value(c->a) || is_guard_value(c->b);
	if (!c || c->k != SX_CMP || c->c > 4)
		return 0;
	return ((c->a->dep & D_LANE) != 0) != ((c->b->dep & D_LANE) != 0);
}

/* thread | warp | block | grid, from dependence bits and the warp model. */
const char *uniformity_of(walk *w, const sx *x)
{
	if (x->dep & (D_LANE))
		return lanes_agree(w, x) ? "warp" : "thread";
	if (x->dep & (D_BLOCK | D_DATA | D_LOOP | D_OPAQUE))
		return "block";
	return (x->dep & D_PARAM) ? "block" : "grid";
}

/* Whether code here runs under a thread-dependent condition.  For block
 * barriers a warp-uniform condition diverges too (warps disagree); for warp
 * operations only a condition that varies within a warp does. */
int in_divergent(walk *w, const char **why, int *line, int warp_level)
{
	for (int i = w->nbrs - 1; i >= 0; i--) {
		const char *u = w->brs[i].uniformity;
		if (strcmp(u, "thread") == 0 || (!warp_level && strcmp(u, "warp") == 0)) {
			if (why)
				*why = u;
			if (line)
				*line = w->brs[i].line;
			return 1;
		}
	}
	return 0;
}

static int space_of_decl(const ka_decl *d)
{
	if (d->flags & KDF_SHARED)
		return SP_SHARED;
	if (d->flags & KDF_CONSTANT)
		return SP_CONSTANT;
	if (d->kind == KD_PARAM)
		return SP_GLOBAL;
	if (d->flags & KDF_FILE_SCOPE)
		return SP_GLOBAL;
	return (d->tflags & KT_ARRAY) ? SP_LOCAL : SP_UNKNOWN;
}

/* A local array index that stays a run-time value after unrolling: it
 * depends on lanes or data, or on a loop the compiler cannot fully unroll. */
static int local_index_dynamic(walk *w, const sx *x)
{
	if (x->dep & (D_LANE | D_DATA | D_OPAQUE))
		return 1;
	uint64_t rest = x->loops;
	for (int i = 0; i < w->nloops; i++)
		if (w->loops[i].unrollable)
			rest &= ~(1ull << w->loops[i].slot);
	return rest != 0;
}

void record_access(walk *w, ka_node *n, val addr, int abytes, int elem, const char *field,
                   int rw)
{
	const char *assumed_type = w->elem_assumed;
	w->elem_assumed = NULL;
	if (w->quiet || !w->kernel || !addr.base)
		return;
	dstat *ds = &w->ds[addr.base->id];
	if (rw != 1)
		ds->read = 1;
	if (rw != 0)
		ds->written = 1;
	if (rw != 1 && w->nloops)
		ds->loop_reads++;
	if (elem <= 0)
		elem = abytes;
	warp_result wr;
	walk_emit_access(w, n, addr, abytes, elem, field, rw, assumed_type, &wr);
	if (w->nloops)
		w->loops[w->nloops - 1].n_accesses++;
	w->n_accesses++;
	if (addr.space == SP_SHARED) {
		if (wr.ok && wr.bank_ways > ds->max_bank)
			ds->max_bank = wr.bank_ways;
		if (rw != 0) {
			for (int i = 0; i < w->nbrs; i++)
				w->brs[i].n_shared_writes++;
			for (int i = 0; i < w->nloops; i++) {
				w->loops[i].n_shared_writes++;
				w->loops[i].shared_written = addr.base->name;
			}
		}
		if ((addr.base->tflags & KT_VOLATILE) || (n->tflags & KT_VOLATILE))
			for (int i = 0; i < w->nbrs; i++)
				w->brs[i].uses_volatile = 1;
	}
	if (addr.space == SP_LOCAL && local_index_dynamic(w, addr.x))
		ds->n_dyn++;
	if (n->tflags & KT_VECTOR)
		ds->reinterp = 1;
}

/* The address of an lvalue expression (no access is recorded). */
static int lvalue(walk *w, ka_node *n, val *out, int *elem, const char **field)
{
	n = strip(n);
	*field = NULL;
	if (n->kind == KN_SUBSCRIPT && n->nkids == 2) {
		val b = ev(w, n->kids[0], 0);
		if (!b.base)
			return 0;
		const sx *i = ev_int(w, n->kids[1]);
		int eb = elem_size(w, n, strip(n->kids[0]));
		if (eb <= 0)
			eb = 4;
		out->base = b.base;
		out->space = b.space;
		out->x = sx_add(&w->sx, b.x ? b.x : sx_const(&w->sx, 0), sx_mul(&w->sx, i, sx_const(&w->sx, eb)));
		*elem = eb;
		return 1;
	}
	if (n->kind == KN_UNOP && n->op == OP_DEREF && n->nkids == 1) {
		val p = ev(w, n->kids[0], 0);
		if (!p.base)
			return 0;
		*out = p;
		if (!out->x)
			out->x = sx_const(&w->sx, 0);
		*elem = elem_size(w, n, strip(n->kids[0]));
		return 1;
	}
	if (n->kind == KN_MEMBER && n->nkids == 1) {
		int e2;
		const char *f2;
		val b;
		if (n->is_arrow) {
			b = ev(w, n->kids[0], 0);
			if (!b.base)
				return 0;
			e2 = pointee_size(w, strip(n->kids[0]));
		} else if (!lvalue(w, n->kids[0], &b, &e2, &f2)) {
			return 0;
		}
		int off = n->field_offset > 0 ? n->field_offset : 0;
		out->base = b.base;
		out->space = b.space;
		out->x = sx_add(&w->sx, b.x ? b.x : sx_const(&w->sx, 0), sx_const(&w->sx, off));
		*elem = e2;
		*field = n->name;
		return 1;
	}
	return 0;
}

static val access_expr(walk *w, ka_node *n, int rw)
{
	val addr;
	int elem = 0;
	const char *field = NULL;
	if (!lvalue(w, n, &addr, &elem, &field))
		return ival(sx_opaque(&w->sx, 0, 0));
	int abytes = field ? value_size(w, n) : elem;
	record_access(w, n, addr, abytes, elem, field, rw);
	unsigned dep = (addr.x->dep & ~D_OPAQUE) | D_DATA;
	int sym = sx_new_sym(&w->sx, SYM_LOAD, addr.base->name, dep, addr.x->loops);
	w->sx.syms[sym].lane_varying = (addr.x->dep & D_LANE) != 0;
	val v = {.x = sx_symref(&w->sx, sym)};
	if (n->tflags & KT_POINTER) {     /* a pointer loaded from memory */
		v.base = addr.base;
		v.space = SP_GLOBAL;
		v.x = sx_const(&w->sx, 0);
	}
	return v;
}

val walk_access(walk *w, ka_node *n, int rw)
{
	return access_expr(w, n, rw);
}

static val builtin_member(walk *w, ka_node *n)
{
	ka_node *b = strip(n->kids[0]);
	static const char *const vars[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
	if (!b || b->kind != KN_DECLREF || !n->name || strlen(n->name) != 1 ||
	    n->name[0] < 'x' || n->name[0] > 'z')
		return (val){0};
	for (int v = 0; v < 4; v++) {
		if (strcmp(b->name, vars[v]) != 0)
			continue;
		int axis = n->name[0] - 'x';
		sx_sym_kind kind = (sx_sym_kind)(v * 3 + axis);
		for (int s = 0; s < w->sx.nsyms; s++)
			if (w->sx.syms[s].kind == kind)
				return ival(sx_symref(&w->sx, s));
	}
	return (val){0};
}

/* A float operand widened to double by an unsuffixed literal beside it. */
static int is_widened_float(ka_node *n)
{
	if (!n || !(n->tflags & KT_DOUBLE))
		return 0;
	while (n && (n->kind == KN_PAREN || n->kind == KN_CAST) && n->nkids == 1) {
		ka_node *k = n->kids[0];
		if (k->tflags & (KT_FLOAT | KT_HALF))
			return 1;
		n = k;
	}
	return 0;
}

static int is_double_literal(ka_node *n)
{
	n = n && n->kind == KN_PAREN ? strip(n) : n;
	return n && n->kind == KN_FLOAT && !n->has_f_suffix;
}

static val ev_binop_float(walk *w, ka_node *n)
{
	ka_node *l = n->nkids > 0 ? n->kids[0] : NULL, *r = n->nkids > 1 ? n->kids[1] : NULL;
	int lit_l = is_double_literal(l), lit_r = is_double_literal(r);
	int prom = (lit_l && (is_widened_float(r))) || (lit_r && is_widened_float(l)) ||
	           (lit_r && n->op >= OP_MULA && n->op <= OP_ORA && l && (l->tflags & KT_FLOAT));
	unsigned dep = 0;
	uint64_t loops = 0;
	for (int i = 0; i < n->nkids; i++) {
		ka_node *k = n->kids[i];
		if ((i == 0 && lit_l) || (i == 1 && lit_r)) {
			walk_emit_literal(w, strip(k), prom);
			continue;
		}
		val v = ev(w, k, 0);
		if (v.x) {
			dep |= v.x->dep;
			loops |= v.x->loops;
		}
	}
	return ival(sx_opaque(&w->sx, dep, loops));
}

static val ev_assign(walk *w, ka_node *n)
{
	ka_node *lhs = strip(n->kids[0]);
	val rv = ev(w, n->kids[1], 0);
	if (lhs->kind == KN_DECLREF && lhs->ref) {
		val cur = w->env[lhs->ref->id];
		val nv = rv;
		if (n->op != OP_ASSIGN) {
			static const sx_kind map[] = {[OP_MULA] = SX_MUL, [OP_DIVA] = SX_DIV,
				[OP_REMA] = SX_REM, [OP_ADDA] = SX_ADD, [OP_SUBA] = SX_ADD,
				[OP_SHLA] = SX_SHL, [OP_SHRA] = SX_SHR, [OP_ANDA] = SX_AND,
				[OP_XORA] = SX_XOR, [OP_ORA] = SX_OR};
			const sx *c = cur.x ? cur.x : sx_opaque(&w->sx, 0, 0);
			const sx *r = rv.x ? rv.x : sx_opaque(&w->sx, 0, 0);
			if (n->op == OP_SUBA)
				r = sx_neg(&w->sx, r);
			if (cur.base && (n->op == OP_ADDA || n->op == OP_SUBA)) {
				int pb = pointee_size(w, lhs);
				w->elem_assumed = NULL;
				r = sx_mul(&w->sx, r, sx_const(&w->sx, pb > 0 ? pb : 1));
			}
			nv = cur;
			nv.x = (lhs->tflags & (KT_FLOAT | KT_DOUBLE)) ?
			       sx_opaque(&w->sx, c->dep | r->dep, c->loops | r->loops) :
			       sx_bin(&w->sx, map[n->op], c, r);
		}
		walk_assign(w, lhs->ref, nv);
		return nv;
	}
	if (!w->is_device && host_dim3_assign(w, lhs, n->kids[1], n->op))
		return rv;
	access_expr(w, lhs, n->op == OP_ASSIGN ? 1 : 2);
	return rv;
}

static val ev_binop(walk *w, ka_node *n)
{
	if (n->nkids != 2)
		return ival(sx_opaque(&w->sx, 0, 0));
	if (n->op >= OP_ASSIGN && n->op <= OP_ORA) {
		ka_node *l = strip(n->kids[0]);
		if (n->op != OP_ASSIGN && is_double_literal(n->kids[1]) && l && (l->tflags & KT_FLOAT))
			walk_emit_literal(w, strip(n->kids[1]), 1);
		return ev_assign(w, n);
	}
	if (n->op == OP_LAND) {
		/* The right operand runs only where the left one holds: a bounds
		 * check on the left guards the accesses on the right. */
		const sx *x = ev_int(w, n->kids[0]);
		int guard = x->k == SX_CMP && ((x->a->dep & D_LANE) != 0) != ((x->b->dep & D_LANE) != 0);
		if (guard && w->nbrs < 32) {
			w->brs[w->nbrs++] = (br_ctx){.uniformity = "block", .line = n->loc.line, .is_guard = 1};
			const sx *y = ev_int(w, n->kids[1]);
			w->nbrs--;
			return ival(sx_bin(&w->sx, SX_AND, x, y));
		}
		return ival(sx_bin(&w->sx, SX_AND, x, ev_int(w, n->kids[1])));
	}
	if (n->op == OP_COMMA) {
		ev(w, n->kids[0], 0);
		return ev(w, n->kids[1], 0);
	}
	if ((n->tflags & (KT_FLOAT | KT_DOUBLE | KT_HALF)) ||
	    (n->kids[0]->tflags & (KT_FLOAT | KT_DOUBLE)) || (n->kids[1]->tflags & (KT_FLOAT | KT_DOUBLE)))
		return ev_binop_float(w, n);
	val a = ev(w, n->kids[0], 0), b = ev(w, n->kids[1], 0);
	const sx *x = a.x ? a.x : sx_opaque(&w->sx, 0, 0), *y = b.x ? b.x : sx_opaque(&w->sx, 0, 0);
	if (a.base && (n->op == OP_ADD || n->op == OP_SUB)) {   /* pointer arithmetic */
		int eb = pointee_size(w, n);          /* the result's type: (float4 *)p + i */
		eb = eb > 0 ? eb : pointee_size(w, strip(n->kids[0]));
		eb = eb > 0 ? eb : 1;
		const sx *d = sx_mul(&w->sx, y, sx_const(&w->sx, eb));
		a.x = sx_add(&w->sx, x, n->op == OP_SUB ? sx_neg(&w->sx, d) : d);
		return a;
	}
	if (b.base && n->op == OP_ADD) {
		int eb = pointee_size(w, n);
		eb = eb > 0 ? eb : pointee_size(w, strip(n->kids[1]));
		eb = eb > 0 ? eb : 1;
		b.x = sx_add(&w->sx, y, sx_mul(&w->sx, x, sx_const(&w->sx, eb)));
		return b;
	}
	switch (n->op) {
	case OP_ADD: return ival(sx_add(&w->sx, x, y));
	case OP_SUB: return ival(sx_add(&w->sx, x, sx_neg(&w->sx, y)));
	case OP_MUL: return ival(sx_mul(&w->sx, x, y));
	case OP_DIV: return ival(sx_bin(&w->sx, SX_DIV, x, y));
	case OP_REM: return ival(sx_bin(&w->sx, SX_REM, x, y));
	case OP_SHL: return ival(sx_bin(&w->sx, SX_SHL, x, y));
	case OP_SHR: return ival(sx_bin(&w->sx, SX_SHR, x, y));
	case OP_AND: case OP_LAND: return ival(sx_bin(&w->sx, SX_AND, x, y));
	case OP_OR: case OP_LOR: return ival(sx_bin(&w->sx, SX_OR, x, y));
	case OP_XOR: return ival(sx_bin(&w->sx, SX_XOR, x, y));
	case OP_LT: case OP_GT: case OP_LE: case OP_GE: case OP_EQ: case OP_NE: {
		const sx *c = sx_bin(&w->sx, SX_CMP, x, y);
		if (c->k == SX_CMP)
			((sx *)c)->c = n->op - OP_LT + 1;
		else
			c = sx_opaque(&w->sx, x->dep | y->dep, x->loops | y->loops);
		return ival(c);
	}
	default:
		return ival(sx_opaque(&w->sx, x->dep | y->dep, x->loops | y->loops));
	}
}

static val ev_unop(walk *w, ka_node *n, int rw)
{
	if (n->nkids != 1)
		return ival(sx_opaque(&w->sx, 0, 0));
	ka_node *k = strip(n->kids[0]);
	switch (n->op) {
	case OP_DEREF:
		return access_expr(w, n, rw);
	case OP_ADDROF: {
		val a;
		int e;
		const char *f;
		if (k->kind == KN_DECLREF && k->ref) {
			val v = {.base = k->ref, .space = space_of_decl(k->ref), .x = sx_const(&w->sx, 0)};
			if (w->env[k->ref->id].base || w->env[k->ref->id].x)
				w->ds[k->ref->id].reinterp = 1;
			return v;
		}
		if (lvalue(w, k, &a, &e, &f))
			return a;
		return ival(sx_opaque(&w->sx, 0, 0));
	}
	case OP_MINUS: return ival(sx_neg(&w->sx, ev_int(w, k)));
	case OP_PLUS: return ev(w, k, 0);
	case OP_PREINC: case OP_PREDEC: case OP_POSTINC: case OP_POSTDEC: {
		if (k->kind == KN_DECLREF && k->ref) {
			val cur = w->env[k->ref->id];
			int step = (n->op == OP_PREINC || n->op == OP_POSTINC) ? 1 : -1;
			if (cur.base) {
				int pb = pointee_size(w, k);
				step *= pb > 0 ? pb : 1;
			}
			val nv = cur;
			nv.x = sx_add(&w->sx, cur.x ? cur.x : sx_opaque(&w->sx, 0, 0), sx_const(&w->sx, step));
			walk_assign(w, k->ref, nv);
			return (n->op == OP_PREINC || n->op == OP_PREDEC) ? nv : cur;
		}
		return access_expr(w, k, 2);
	}
	default: {
		const sx *x = ev_int(w, k);
		return ival(sx_opaque(&w->sx, x->dep, x->loops));
	}
	}
}

static val ev_declref(walk *w, ka_node *n, int rw)
{
	ka_decl *d = n->ref;
	if (n->name && strcmp(n->name, "warpSize") == 0) {
		for (int s = 0; s < w->sx.nsyms; s++)
			if (w->sx.syms[s].kind == SYM_WARPSIZE)
				return ival(sx_symref(&w->sx, s));
	}
	if (n->const_known && (!d || d->kind == KD_VAR))
		return ival(sx_const(&w->sx, n->ival));   /* enumerators, constexpr members */
	if (!d)       /* functions, system declarations */
		return ival(sx_opaque(&w->sx, 0, 0));
	if (d->id < w->nenv && (w->env[d->id].x || w->env[d->id].base))
		return w->env[d->id];
	if (d->kind == KD_VAR && (d->tflags & KT_ARRAY)) {
		note_array(w, d);
		val v = {.base = d, .space = space_of_decl(d), .x = sx_const(&w->sx, 0)};
		return v;
	}
	if (d->kind == KD_VAR && (d->flags & (KDF_SHARED | KDF_CONSTANT))) {
		note_array(w, d);
		val addr = {.base = d, .space = space_of_decl(d), .x = sx_const(&w->sx, 0)};
		if (!w->quiet && w->kernel)
			record_access(w, n, addr, n->type_bytes, n->type_bytes, NULL, rw);
		return ival(sx_opaque(&w->sx, D_DATA, 0));
	}
	if (d->kind == KD_VAR && (d->flags & KDF_CONSTQ) && d->init) {
		int64_t v;
		if (fold_int(w, d->init, &v))
			return ival(sx_const(&w->sx, v));
	}
	int s = sx_new_sym(&w->sx, SYM_OTHER, d->name, 0, 0);
	return ival(sx_symref(&w->sx, s));
}

val ev(walk *w, ka_node *n, int rw)
{
	if (!n || walk_budget_spent(w))
		return ival(sx_opaque(&w->sx, 0, 0));
	switch (n->kind) {
	case KN_INT:
		if (w->kernel && !(n->type && strcmp(n->type, "bool") == 0))
			walk_emit_literal(w, n, 0);
		return ival(sx_const(&w->sx, n->ival));
	case KN_FLOAT:
		walk_emit_literal(w, n, 0);
		return ival(sx_opaque(&w->sx, 0, 0));
	case KN_SIZEOF:
		return ival(n->ival >= 0 ? sx_const(&w->sx, n->ival) : sx_opaque(&w->sx, 0, 0));
	case KN_INITLIST:       /* size_t row{expr}: a scalar's brace initializer */
		if (n->nkids == 1 && !(n->tflags & (KT_RECORD | KT_ARRAY)))
			return ev(w, n->kids[0], rw);
		break;
	case KN_DECLREF:
		return ev_declref(w, n, rw);
	case KN_MEMBER: {
		val b = n->nkids == 1 ? builtin_member(w, n) : (val){0};
		if (b.x)
			return b;
		ka_node *k = n->nkids ? strip(n->kids[0]) : NULL;
		if (n->is_arrow || (k && (k->kind == KN_SUBSCRIPT || (k->kind == KN_UNOP && k->op == OP_DEREF))))
			return access_expr(w, n, rw);
		const sx *x = k ? ev_int(w, k) : sx_opaque(&w->sx, 0, 0);
		return ival(sx_opaque(&w->sx, x->dep, x->loops));
	}
	case KN_SUBSCRIPT:
		if (n->tflags & KT_ARRAY) {
			val a;
			int e;
			const char *f;
			if (lvalue(w, n, &a, &e, &f))
				return a;
			return ival(sx_opaque(&w->sx, 0, 0));
		}
		return access_expr(w, n, rw);
	case KN_BINOP:
		return ev_binop(w, n);
	case KN_UNOP:
		return ev_unop(w, n, rw);
	case KN_CALL:
		return ev_call(w, n);
	case KN_CAST: case KN_PAREN:
		if (n->nkids == 1) {
			val v = ev(w, n->kids[0], rw);
			if (v.base && (n->tflags & KT_POINTER) && n->pointee_bytes > 0) {
				ka_node *k = strip(n->kids[0]);
				if (k && k->pointee_bytes > 0 && k->pointee_bytes != n->pointee_bytes)
					w->ds[v.base->id].reinterp = 1;
			}
			if (!v.base && (n->tflags & (KT_FLOAT | KT_DOUBLE)) && v.x)
				v.x = sx_opaque(&w->sx, v.x->dep, v.x->loops);
			return v;
		}
		break;
	case KN_COND: {
		unsigned dep = 0;
		uint64_t loops = 0;
		if (n->nkids == 3 && w->is_device) {
			const sx *c = ev_int(w, n->kids[0]);
			br_ctx b = {.uniformity = uniformity_of(w, c), .line = n->loc.line,
			            .is_guard = is_guard_value(c)};
			if (b.is_guard && w->inline_depth == 0)
				w->has_guard = 1;
			walk_emit_branch(w, n, c, &b, 0, 0);
			dep |= c->dep;
			loops |= c->loops;
		}
		for (int i = n->nkids == 3 && w->is_device ? 1 : 0; i < n->nkids; i++) {
			const sx *x = ev_int(w, n->kids[i]);
			dep |= x->dep;
			loops |= x->loops;
		}
		return ival(sx_opaque(&w->sx, dep, loops));
	}
	default:
		break;
	}
	unsigned dep = 0;
	uint64_t loops = 0;
	for (int i = 0; i < n->nkids; i++) {
		if (n->kids[i] && n->kids[i]->kind >= KN_COMPOUND) {
			st(w, n->kids[i]);
			continue;
		}
		const sx *x = ev_int(w, n->kids[i]);
		dep |= x->dep;
		loops |= x->loops;
	}
	return ival(sx_opaque(&w->sx, dep, loops));
}
