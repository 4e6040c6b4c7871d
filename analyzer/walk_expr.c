/* analyzer/walk_expr.c: expressions of the kernel walk.  Computes the
 * symbolic value of each expression; the memory accesses inside it go to
 * walk_access.c, floating literals and conditions to emit_code.c. */
#include "analyzer/walk.h"
#include <string.h>

int64_t walk_next_id(walk *w)
{
	return ++*w->file.next_id;
}

ka_node *walk_strip(ka_node *n)
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

const sx *walk_ev_int(walk *w, ka_node *n)
{
	val v = walk_ev(w, n, 0);
	return v.x ? v.x : sx_opaque(&w->sym.sx, 0, 0);
}

const sx *walk_ev_bool(walk *w, ka_node *n)
{
	val v = walk_ev(w, n, 0);
	/* a pointer tested for null (`if (p)`, `tid == 0 && count`): its
	 * offset from the base does not say whether it is null */
	if (v.base && v.x && n && (walk_strip(n)->tflags & KT_POINTER))
		return sx_opaque(&w->sym.sx, v.x->dep & ~D_OPAQUE, v.x->loops);
	return v.x ? v.x : sx_opaque(&w->sym.sx, 0, 0);
}

int walk_fold_int(walk *w, ka_node *n, int64_t *v)
{
	w->ctl.quiet++;
	const sx *x = walk_ev_int(w, n);
	w->ctl.quiet--;
	return sx_is_const(x, v);
}

void walk_kids_dep(walk *w, ka_node *n, unsigned *dep, uint64_t *loops)
{
	w->ctl.quiet++;
	for (int i = 0; i < n->nkids; i++) {
		const sx *x = walk_ev_int(w, n->kids[i]);
		*dep |= x->dep;
		*loops |= x->loops;
	}
	w->ctl.quiet--;
}

const char *walk_text(walk *w, ka_node *n)
{
	if (!n)
		return NULL;
	return ka_tu_text(w->file.tu, n->loc.file, n->loc.begin, n->loc.end);
}

/* Whether x is the same for every lane of each modelled warp.  Run-time
 * values are never guessed: a lane-dependent part combined with one must
 * itself be constant within each warp (`row < M` with row from threadIdx.y
 * and a 32-wide block is; `i < n` with i from threadIdx.x is not). */
int walk_lanes_agree(walk *w, const sx *x)
{
	if (!(x->dep & D_LANE))
		return 1;
	if (!sx_has_unknown(&w->sym.sx, x))
		return walk_warp_uniform(w, x) == 1;
	if (x->k == SX_SYM)
		return w->sym.sx.syms[x->sym].warp_uniform;
	if (!x->a || x->k == SX_OPAQUE)
		return 0;
	/* the thread index shifted by a run-time amount (`threadIdx.x >>
	 * cData.warpbits`): a group id, one value per warp when the amount is 5
	 * or more; the amount is not known here, so no divergence is claimed */
	int64_t v;
	if (x->k == SX_SHR && x->b && !(x->b->dep & D_LANE) && !sx_is_const(x->b, &v))
		return 1;
	return walk_lanes_agree(w, x->a) && (!x->b || walk_lanes_agree(w, x->b));
}

/* A bounds guard: a thread index compared with a uniform value (possibly
 * inside && / ||).  A value loaded by the thread (`prev < k && cur >= k`
 * on a histogram's prefix sums) is a test of the data, not a bound. */
int walk_is_guard(const sx *c)
{
	if (c && (c->k == SX_AND || c->k == SX_OR))
		return walk_is_guard(c->a) || walk_is_guard(c->b);
	if (!c || c->k != SX_CMP || c->c > 4)
		return 0;
	const sx *lane = (c->a->dep & D_LANE) ? c->a : c->b, *other = lane == c->a ? c->b : c->a;
	return (lane->dep & D_LANE) && !(other->dep & D_LANE) && !(lane->dep & D_DATA);
}

/* From dependence bits and the warp model. */
walk_uni walk_uniformity(walk *w, const sx *x)
{
	if (x->dep & (D_LANE))
		return walk_lanes_agree(w, x) ? WALK_UNI_WARP : WALK_UNI_THREAD;
	if (x->dep & (D_BLOCK | D_DATA | D_LOOP | D_OPAQUE))
		return WALK_UNI_BLOCK;
	return (x->dep & D_PARAM) ? WALK_UNI_BLOCK : WALK_UNI_GRID;
}

const char *walk_uni_name(walk_uni u)
{
	static const char *const names[] = {"thread", "warp", "block", "grid"};
	return names[u];
}

/* Whether code here runs under a thread-dependent condition.  For block
 * barriers a warp-uniform condition diverges too (warps disagree); for warp
 * operations only a condition that varies within a warp does. */
int walk_in_divergent(walk *w, walk_uni *why, int *line, const char **file, int warp_level)
{
	for (int i = w->ctl.nbrs - 1; i >= 0; i--) {
		walk_uni u = w->ctl.brs[i].uniformity;
		if (u == WALK_UNI_THREAD || (!warp_level && u == WALK_UNI_WARP)) {
			if (why)
				*why = u;
			if (line)
				*line = w->ctl.brs[i].line;
			if (file)
				*file = w->ctl.brs[i].file;
			return 1;
		}
	}
	return 0;
}

/* `v.x` of a builtin index variable, however the variable is reached: by
 * name (`threadIdx.x`), through a cooperative-groups call that returns it
 * (`block.thread_index().x`) or through a lambda that returns it (`t().x`
 * with `auto t = [&]() -> dim3 { return threadIdx; }`). */
static val builtin_member(walk *w, ka_node *n)
{
	ka_node *b = walk_strip(n->kids[0]);
	static const char *const vars[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
	static const unsigned deps[] = {D_LANE, D_BLOCK, D_PARAM, D_PARAM};
	int v = -1, call = b && b->kind == KN_CALL;
	if (call && (v = walk_cg_dim3(b)) < 0)
		v = walk_lambda_builtin(b);
	for (int i = 0; !call && b && b->kind == KN_DECLREF && b->name && v < 0 && i < 4; i++)
		if (strcmp(b->name, vars[i]) == 0)
			v = i;
	if (v < 0 || !n->name)
		return (val){0};
	int axis = strlen(n->name) == 1 && n->name[0] >= 'x' && n->name[0] <= 'z' ? n->name[0] - 'x' : -1;
	/* in a macro body the front end may not name the member: dim3's field
	 * offset is the axis; without it (pulsar's `X = ... + threadIdx.x; Y =
	 * ... + threadIdx.y`) what the value varies with is known, not the axis */
	if (axis < 0 && !*n->name && (n->field_offset == 0 || n->field_offset == 4 || n->field_offset == 8))
		axis = n->field_offset / 4;
	if (axis < 0)
		return *n->name ? (val){0} : ival(sx_opaque(&w->sym.sx, deps[v], 0));
	sx_sym_kind kind = (sx_sym_kind)(v * 3 + axis);
	for (int s = 0; s < w->sym.sx.nsyms; s++)
		if (w->sym.sx.syms[s].kind == kind)
			return ival(sx_symref(&w->sym.sx, s));
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
	n = n && n->kind == KN_PAREN ? walk_strip(n) : n;
	return n && n->kind == KN_FLOAT && !n->has_f_suffix;
}

/* Whether the threads of a block store different values: a value that is
 * one per warp (a broadcast shuffle) differs only when the block has more
 * than one warp. */
static int store_value_varies(walk *w, const sx *x)
{
	if (!(x->dep & D_LANE))
		return 0;
	if (walk_uniformity(w, x) != WALK_UNI_WARP || w->assumption)
		return 1;
	int64_t threads = 1;
	for (int i = 0; i < 3; i++)
		threads *= w->block[i] > 0 ? w->block[i] : 1;
	return threads > w->file.arch->warp_size;
}

static val ev_binop_float(walk *w, ka_node *n)
{
	ka_node *l = n->nkids > 0 ? n->kids[0] : NULL, *r = n->nkids > 1 ? n->kids[1] : NULL;
	int lit_l = is_double_literal(l), lit_r = is_double_literal(r);
	int prom = (lit_l && (is_widened_float(r))) || (lit_r && is_widened_float(l)) ||
		   (lit_r && n->op >= OP_MULA && n->op <= OP_ORA && l && (l->tflags & KT_FLOAT));
	/* `f > 0.0`: comparing a widened float with a constant that a float
	 * holds exactly gives the same answer in float, and compilers compare
	 * in float (no FP64 left at run time) */
	if (prom && n->op >= OP_LT && n->op <= OP_NE) {
		ka_node *lit = walk_strip(lit_l ? l : r);
		if (lit && (double)(float)lit->fval == lit->fval)
			prom = 0;
	}
	unsigned dep = 0;
	uint64_t loops = 0;
	const sx *ops[2] = {NULL, NULL};
	for (int i = 0; i < n->nkids; i++) {
		ka_node *k = n->kids[i];
		if ((i == 0 && lit_l) || (i == 1 && lit_r)) {
			walk_emit_literal(w, walk_strip(k), prom,
					  prom && walk_static_value(w, n->kids[1 - i]));
			continue;
		}
		val v = walk_ev(w, k, 0);
		if (v.x) {
			dep |= v.x->dep;
			loops |= v.x->loops;
			if (i < 2)
				ops[i] = v.x;
		}
	}
	/* a butterfly step (`v + __shfl_xor_sync(m, v, k)`), or a value that
	 * keeps the lanes its operands agree across (`sum > 0.f` after a
	 * warp reduction) */
	const sx *bf = (n->op == OP_ADD || n->op == OP_MUL) && ops[0] && ops[1]
			       ? walk_butterfly(w, ops[0], ops[1])
			       : NULL;
	if (bf)
		return ival(bf);
	if ((dep & D_LANE) && (ops[0] || ops[1]) && n->op != OP_ASSIGN &&
	    !(n->op >= OP_MULA && n->op <= OP_ORA))
		return ival(walk_opaque_pair(w, ops[0] ? ops[0] : ops[1], ops[1] ? ops[1] : ops[0]));
	return ival(sx_opaque(&w->sym.sx, dep, loops));
}

/* `v.f = e`, `v.a.f += e` on a thread's own struct variable (a float3
 * accumulator): v is one value to the walk (a field read takes v's
 * dependence), so after the store it also varies with whatever e varies
 * with.  The other fields keep theirs: the dependences only add up. */
static void field_assign(walk *w, ka_node *lhs, val rv)
{
	ka_node *k = lhs;
	while (k && k->kind == KN_MEMBER && !k->is_arrow && k->nkids == 1)
		k = walk_strip(k->kids[0]);
	if (k == lhs || !k || k->kind != KN_DECLREF || !k->ref || k->ref->id >= w->file.nenv)
		return;
	ka_decl *d = k->ref;
	if (d->kind != KD_VAR || (d->flags & (KDF_SHARED | KDF_FILE_SCOPE | KDF_CONSTANT)) ||
	    (d->tflags & (KT_POINTER | KT_ARRAY)) || !rv.x)
		return;
	val cur = w->sym.env[d->id];
	if (cur.base)
		return;
	unsigned dep = (cur.x ? cur.x->dep : 0) | rv.x->dep;
	uint64_t loops = (cur.x ? cur.x->loops : 0) | rv.x->loops;
	if (cur.x && dep == cur.x->dep && loops == cur.x->loops)
		return;
	walk_assign(w, d, (val){.x = sx_opaque(&w->sym.sx, dep & ~D_OPAQUE, loops)});
}

static val ev_assign(walk *w, ka_node *n)
{
	ka_node *lhs = walk_strip(n->kids[0]);
	val rv = walk_ev(w, n->kids[1], 0);
	if (lhs->kind == KN_DECLREF && lhs->ref) {
		val cur = w->sym.env[lhs->ref->id];
		val nv = rv;
		if (n->op != OP_ASSIGN) {
			static const sx_kind map[] = {
				[OP_MULA] = SX_MUL, [OP_DIVA] = SX_DIV, [OP_REMA] = SX_REM,
				[OP_ADDA] = SX_ADD, [OP_SUBA] = SX_ADD, [OP_SHLA] = SX_SHL,
				[OP_SHRA] = SX_SHR, [OP_ANDA] = SX_AND, [OP_XORA] = SX_XOR,
				[OP_ORA] = SX_OR};
			const sx *c = cur.x ? cur.x : sx_opaque(&w->sym.sx, 0, 0);
			const sx *r = rv.x ? rv.x : sx_opaque(&w->sym.sx, 0, 0);
			if (n->op == OP_SUBA)
				r = sx_neg(&w->sym.sx, r);
			if (cur.base && (n->op == OP_ADDA || n->op == OP_SUBA)) {
				int pb = walk_pointee_size(w, lhs);
				w->sym.elem_assumed = NULL;
				r = sx_mul(&w->sym.sx, r, sx_const(&w->sym.sx, pb > 0 ? pb : 1));
			}
			nv = cur;
			const sx *bf = n->op == OP_ADDA || n->op == OP_MULA || n->op == OP_ANDA ||
						       n->op == OP_ORA || n->op == OP_XORA
					       ? walk_butterfly(w, c, r) /* `v += __shfl_xor_sync(m, v, k)` */
					       : NULL;
			nv.x = bf ? bf
			       : (lhs->tflags & (KT_FLOAT | KT_DOUBLE))
				       ? walk_opaque_pair(w, c, r)
				       : sx_bin(&w->sym.sx, map[n->op], c, r);
		}
		walk_assign(w, lhs->ref, nv);
		return nv;
	}
	if (!w->is_device && walk_host_dim3_assign(w, lhs, n->kids[1], n->op))
		return rv;
	field_assign(w, lhs, rv);
	int saved = w->ctl.store_value_dep;
	unsigned saved_dep = w->ctl.store_dep;
	w->ctl.store_value_dep = rv.x ? store_value_varies(w, rv.x) : -1;
	w->ctl.store_dep = rv.x ? rv.x->dep : D_LANE | D_DATA;
	walk_access_expr(w, lhs, n->op == OP_ASSIGN ? 1 : 2);
	w->ctl.store_value_dep = saved;
	w->ctl.store_dep = saved_dep;
	return rv;
}

static val ev_binop(walk *w, ka_node *n)
{
	if (n->nkids != 2)
		return ival(sx_opaque(&w->sym.sx, 0, 0));
	if (n->op >= OP_ASSIGN && n->op <= OP_ORA) {
		ka_node *l = walk_strip(n->kids[0]);
		if (n->op != OP_ASSIGN && is_double_literal(n->kids[1]) && l && (l->tflags & KT_FLOAT))
			walk_emit_literal(w, walk_strip(n->kids[1]), 1, 0);
		return ev_assign(w, n);
	}
	if (n->op == OP_LAND) {
		/* The right operand runs only where the left one holds: a bounds
		 * check on the left guards the accesses on the right. */
		const sx *x = walk_ev_bool(w, n->kids[0]);
		int guard = x->k == SX_CMP && ((x->a->dep & D_LANE) != 0) != ((x->b->dep & D_LANE) != 0);
		if (guard && w->ctl.nbrs >= WALK_MAX_BRANCHES)
			walk_limit_reached(w, WALK_LIMIT_BRANCHES, &n->loc);
		if (guard && w->ctl.nbrs < WALK_MAX_BRANCHES) {
			w->ctl.brs[w->ctl.nbrs++] = (br_ctx){.uniformity = WALK_UNI_BLOCK,
							     .line = n->loc.line,
							     .file = n->loc.file,
							     .is_guard = 1,
							     .cond = x,
							     .nloops = w->ctl.nloops};
			const sx *y = walk_ev_bool(w, n->kids[1]);
			w->ctl.nbrs--;
			return ival(sx_bin(&w->sym.sx, SX_AND, x, y));
		}
		return ival(sx_bin(&w->sym.sx, SX_AND, x, walk_ev_bool(w, n->kids[1])));
	}
	if (n->op == OP_COMMA) {
		walk_ev(w, n->kids[0], 0);
		return walk_ev(w, n->kids[1], 0);
	}
	if (n->op == OP_LOR) {
		const sx *x = walk_ev_bool(w, n->kids[0]);
		return ival(sx_bin(&w->sym.sx, SX_OR, x, walk_ev_bool(w, n->kids[1])));
	}
	if ((n->tflags & (KT_FLOAT | KT_DOUBLE | KT_HALF)) || (n->kids[0]->tflags & (KT_FLOAT | KT_DOUBLE)) ||
	    (n->kids[1]->tflags & (KT_FLOAT | KT_DOUBLE)))
		return ev_binop_float(w, n);
	val a = walk_ev(w, n->kids[0], 0), b = walk_ev(w, n->kids[1], 0);
	const sx *x = a.x ? a.x : sx_opaque(&w->sym.sx, 0, 0), *y = b.x ? b.x : sx_opaque(&w->sym.sx, 0, 0);
	if (a.base && (n->op == OP_ADD || n->op == OP_SUB)) { /* pointer arithmetic */
		int eb = walk_pointee_size(w, n);             /* the result's type: (float4 *)p + i */
		eb = eb > 0 ? eb : walk_pointee_size(w, walk_strip(n->kids[0]));
		eb = eb > 0 ? eb : 1;
		const sx *d = sx_mul(&w->sym.sx, y, sx_const(&w->sym.sx, eb));
		a.x = sx_add(&w->sym.sx, x, n->op == OP_SUB ? sx_neg(&w->sym.sx, d) : d);
		return a;
	}
	if (b.base && n->op == OP_ADD) {
		int eb = walk_pointee_size(w, n);
		eb = eb > 0 ? eb : walk_pointee_size(w, walk_strip(n->kids[1]));
		eb = eb > 0 ? eb : 1;
		b.x = sx_add(&w->sym.sx, y, sx_mul(&w->sym.sx, x, sx_const(&w->sym.sx, eb)));
		return b;
	}
	if (n->op == OP_ADD || n->op == OP_MUL || n->op == OP_AND || n->op == OP_OR || n->op == OP_XOR) {
		const sx *bf = walk_butterfly(w, x, y); /* `v + __shfl_xor_sync(m, v, k)` */
		if (bf)
			return ival(bf);
	}
	switch (n->op) {
	case OP_ADD:
		return ival(sx_add(&w->sym.sx, x, y));
	case OP_SUB:
		return ival(sx_add(&w->sym.sx, x, sx_neg(&w->sym.sx, y)));
	case OP_MUL:
		return ival(sx_mul(&w->sym.sx, x, y));
	case OP_DIV:
		return ival(sx_bin(&w->sym.sx, SX_DIV, x, y));
	case OP_REM:
		return ival(sx_bin(&w->sym.sx, SX_REM, x, y));
	case OP_SHL:
		return ival(sx_bin(&w->sym.sx, SX_SHL, x, y));
	case OP_SHR:
		return ival(sx_bin(&w->sym.sx, SX_SHR, x, y));
	case OP_AND:
	case OP_LAND:
		return ival(sx_bin(&w->sym.sx, SX_AND, x, y));
	case OP_OR:
	case OP_LOR:
		return ival(sx_bin(&w->sym.sx, SX_OR, x, y));
	case OP_XOR:
		return ival(sx_bin(&w->sym.sx, SX_XOR, x, y));
	case OP_LT:
	case OP_GT:
	case OP_LE:
	case OP_GE:
	case OP_EQ:
	case OP_NE: {
		const sx *c = sx_bin(&w->sym.sx, SX_CMP, x, y);
		if (c->k == SX_CMP)
			((sx *)c)->c = n->op - OP_LT + 1;
		else
			c = walk_opaque_pair(w, x, y);
		return ival(c);
	}
	default:
		return ival(walk_opaque_pair(w, x, y));
	}
}

static val ev_unop(walk *w, ka_node *n, int rw)
{
	if (n->nkids != 1)
		return ival(sx_opaque(&w->sym.sx, 0, 0));
	ka_node *k = walk_strip(n->kids[0]);
	switch (n->op) {
	case OP_DEREF:
		return walk_access_expr(w, n, rw);
	case OP_ADDROF: {
		val a;
		int e;
		const char *f;
		if (k->kind == KN_DECLREF && k->ref) {
			/* `(float *)&c0` of a parameter `int2 &c0` or `int2 c0`:
			 * the thread's own variable (or what a reference names, not
			 * known here), not global memory a pointer parameter
			 * points to */
			int own = k->ref->kind == KD_PARAM && !(k->ref->tflags & (KT_POINTER | KT_ARRAY));
			val v = {.base = k->ref,
				 .space = own ? SP_UNKNOWN : walk_space_of_decl(k->ref),
				 .x = sx_const(&w->sym.sx, 0)};
			if (w->sym.env[k->ref->id].base || w->sym.env[k->ref->id].x)
				w->sym.ds[k->ref->id].reinterp = 1;
			return v;
		}
		if (walk_lvalue(w, k, &a, &e, &f))
			return a;
		return ival(sx_opaque(&w->sym.sx, 0, 0));
	}
	case OP_MINUS:
		return ival(sx_neg(&w->sym.sx, walk_ev_int(w, k)));
	case OP_PLUS:
		return walk_ev(w, k, 0);
	case OP_PREINC:
	case OP_PREDEC:
	case OP_POSTINC:
	case OP_POSTDEC: {
		if (k->kind == KN_DECLREF && k->ref) {
			val cur = w->sym.env[k->ref->id];
			int step = (n->op == OP_PREINC || n->op == OP_POSTINC) ? 1 : -1;
			if (cur.base) {
				int pb = walk_pointee_size(w, k);
				step *= pb > 0 ? pb : 1;
			}
			val nv = cur;
			nv.x = sx_add(&w->sym.sx, cur.x ? cur.x : sx_opaque(&w->sym.sx, 0, 0),
				      sx_const(&w->sym.sx, step));
			walk_assign(w, k->ref, nv);
			return (n->op == OP_PREINC || n->op == OP_PREDEC) ? nv : cur;
		}
		return walk_access_expr(w, k, 2);
	}
	case OP_LNOT: { /* `!tid` is `tid == 0` */
		const sx *x = walk_ev_bool(w, k);
		int64_t v;
		if (sx_is_const(x, &v))
			return ival(sx_const(&w->sym.sx, v == 0));
		const sx *c = (k->tflags & (KT_FLOAT | KT_DOUBLE | KT_HALF))
				      ? NULL
				      : sx_bin(&w->sym.sx, SX_CMP, x, sx_const(&w->sym.sx, 0));
		if (!c || c->k != SX_CMP)
			return ival(sx_opaque(&w->sym.sx, x->dep, x->loops));
		((sx *)c)->c = OP_EQ - OP_LT + 1;
		return ival(c);
	}
	default: { /* `-v`, `~v`: the lanes that agree on v agree on the result */
		const sx *x = walk_ev_int(w, k);
		return ival(walk_opaque_pair(w, x, x));
	}
	}
}

/* An array-typed lvalue (a row of a 2-D array, an array field) used as a
 * value: its address, not a load. */
static val array_address(walk *w, ka_node *n)
{
	val a;
	int e;
	const char *f;
	if (walk_lvalue(w, n, &a, &e, &f))
		return a;
	return ival(sx_opaque(&w->sym.sx, 0, 0));
}

static val ev_declref(walk *w, ka_node *n, int rw)
{
	ka_decl *d = n->ref;
	if (n->name && strcmp(n->name, "warpSize") == 0) {
		for (int s = 0; s < w->sym.sx.nsyms; s++)
			if (w->sym.sx.syms[s].kind == SYM_WARPSIZE)
				return ival(sx_symref(&w->sym.sx, s));
	}
	if (n->const_known && (!d || d->kind == KD_VAR))
		return ival(sx_const(&w->sym.sx, n->ival)); /* enumerators, constexpr members */
	if (!d)                                             /* functions, system declarations */
		return ival(sx_opaque(&w->sym.sx, 0, 0));
	if (walk_private_record(d) && d->id >= 0 && d->id < w->file.nenv && w->sym.ds[d->id].stored_dep) {
		/* a struct of the thread's whose fields were stored (`return p;`
		 * after `p.start[0] = ...`): its value varies with what went in */
		const val *e = &w->sym.env[d->id];
		unsigned dep = (e->x ? e->x->dep : 0) | (w->sym.ds[d->id].stored_dep & ~D_OPAQUE);
		return ival(sx_opaque(&w->sym.sx, dep, e->x ? e->x->loops : 0));
	}
	if (d->id < w->file.nenv && (w->sym.env[d->id].x || w->sym.env[d->id].base))
		return w->sym.env[d->id];
	if (d->kind == KD_VAR && (d->tflags & KT_ARRAY)) {
		walk_note_array(w, d);
		val v = {.base = d, .space = walk_space_of_decl(d), .x = sx_const(&w->sym.sx, 0)};
		return v;
	}
	if (d->kind == KD_VAR && (d->flags & (KDF_SHARED | KDF_CONSTANT))) {
		walk_note_array(w, d);
		val addr = {.base = d, .space = walk_space_of_decl(d), .x = sx_const(&w->sym.sx, 0)};
		w->sym.group_axes = 0;
		if (!w->ctl.quiet && w->kernel)
			walk_record_access(w, n, addr, n->type_bytes, n->type_bytes, NULL, rw);
		return ival(sx_opaque(&w->sym.sx, D_DATA, 0));
	}
	if (d->kind == KD_VAR && (d->flags & KDF_CONSTQ) && d->init) {
		int64_t v;
		if (walk_fold_int(w, d->init, &v))
			return ival(sx_const(&w->sym.sx, v));
	}
	int s = sx_new_sym(&w->sym.sx, SYM_OTHER, d->name, 0, 0);
	return ival(sx_symref(&w->sym.sx, s));
}

val walk_ev(walk *w, ka_node *n, int rw)
{
	if (!n || walk_budget_spent(w))
		return ival(sx_opaque(&w->sym.sx, 0, 0));
	switch (n->kind) {
	case KN_INT:
		if (w->kernel && !(n->type && strcmp(n->type, "bool") == 0))
			walk_emit_literal(w, n, 0, 0);
		return ival(sx_const(&w->sym.sx, n->ival));
	case KN_FLOAT:
		walk_emit_literal(w, n, 0, 0);
		return ival(sx_opaque(&w->sym.sx, 0, 0));
	case KN_SIZEOF:
		return ival(n->ival >= 0 ? sx_const(&w->sym.sx, n->ival) : sx_opaque(&w->sym.sx, 0, 0));
	case KN_INITLIST: /* size_t row{expr}: a scalar's brace initializer */
		if (n->nkids == 1 && !(n->tflags & (KT_RECORD | KT_ARRAY)))
			return walk_ev(w, n->kids[0], rw);
		break;
	case KN_DECLREF:
		/* a lambda in host code is walked where it is written (its launches
		 * are found there, whoever calls it); in device code where it is
		 * called (walk_call.c) */
		if (n->ref && (n->ref->flags & KDF_LAMBDA)) {
			if (!w->is_device && n->ref->body)
				walk_stmt(w, n->ref->body);
			return ival(sx_opaque(&w->sym.sx, 0, 0));
		}
		return ev_declref(w, n, rw);
	case KN_MEMBER: {
		if (n->const_known)
			return ival(sx_const(&w->sym.sx, n->ival));
		val b = n->nkids == 1 ? builtin_member(w, n) : (val){0};
		if (b.x)
			return b;
		ka_node *k = n->nkids ? walk_strip(n->kids[0]) : NULL;
		int via_ref = k && k->kind == KN_DECLREF && k->ref && k->ref->kind == KD_VAR &&
			      k->ref->init &&
			      walk_lvalue_ref(k->ref); /* a field of a local reference's element */
		if (via_ref && (n->tflags & KT_ARRAY)) /* an array field */
			return array_address(w, n);
		if (n->is_arrow || via_ref ||
		    (k && (k->kind == KN_SUBSCRIPT || (k->kind == KN_UNOP && k->op == OP_DEREF))))
			return walk_access_expr(w, n, rw);
		const sx *x = k ? walk_ev_int(w, k) : sx_opaque(&w->sym.sx, 0, 0);
		return ival(sx_opaque(&w->sym.sx, x->dep, x->loops));
	}
	case KN_SUBSCRIPT:
		if ((n->tflags & KT_ARRAY) || walk_dependent_subarray(n))
			return array_address(w, n);
		return walk_access_expr(w, n, rw);
	case KN_BINOP:
		return ev_binop(w, n);
	case KN_UNOP:
		return ev_unop(w, n, rw);
	case KN_CALL:
		return walk_ev_call(w, n);
	case KN_CAST:
	case KN_PAREN:
		if (n->nkids == 1) {
			val v = walk_ev(w, n->kids[0], rw);
			if (v.base && (n->tflags & KT_POINTER) && n->pointee_bytes > 0) {
				ka_node *k = walk_strip(n->kids[0]);
				if (k && k->pointee_bytes > 0 && k->pointee_bytes != n->pointee_bytes)
					w->sym.ds[v.base->id].reinterp = 1;
			}
			/* a conversion to floating point hides the integer value; a
			 * floating value read (or kept in its type) stays itself */
			if (!v.base && (n->tflags & (KT_FLOAT | KT_DOUBLE)) && v.x &&
			    (n->kids[0]->tflags & (KT_FLOAT | KT_DOUBLE)) !=
				    (n->tflags & (KT_FLOAT | KT_DOUBLE)))
				v.x = walk_opaque_pair(w, v.x, v.x); /* as the lanes agreed */
			return v;
		}
		break;
	case KN_COND: {
		unsigned dep = 0;
		uint64_t loops = 0;
		if (n->nkids == 3 && w->is_device) {
			const sx *c = walk_ev_int(w, n->kids[0]);
			walk_note_compared_atomics(w, c);
			br_ctx b = {.uniformity = walk_uniformity(w, c),
				    .line = n->loc.line,
				    .file = n->loc.file,
				    .is_guard = walk_is_guard(c)};
			if (b.is_guard)
				w->tally.has_guard = 1;
			walk_emit_branch(w, n, c, &b, 0, 0);
			dep |= c->dep;
			loops |= c->loops;
		}
		for (int i = n->nkids == 3 && w->is_device ? 1 : 0; i < n->nkids; i++) {
			const sx *x = walk_ev_int(w, n->kids[i]);
			dep |= x->dep;
			loops |= x->loops;
		}
		return ival(sx_opaque(&w->sym.sx, dep, loops));
	}
	default:
		break;
	}
	unsigned dep = 0;
	uint64_t loops = 0;
	for (int i = 0; i < n->nkids; i++) {
		if (n->kids[i] && n->kids[i]->kind >= KN_COMPOUND) {
			walk_stmt(w, n->kids[i]);
			continue;
		}
		const sx *x = walk_ev_int(w, n->kids[i]);
		dep |= x->dep;
		loops |= x->loops;
	}
	return ival(sx_opaque(&w->sym.sx, dep, loops));
}

int walk_has_factor(walk *w, const sx *x, const sx *f)
{
	int64_t fv;
	for (int depth = 0; x && f && depth < 16; depth++) {
		if (sx_same_value(&w->sym.sx, x, f))
			return 1;
		if (sx_is_const(f, &fv) && fv > 0 && sx_div_exact(&w->sym.sx, x, fv))
			return 1;
		if (x->k != SX_MUL)
			return 0;
		if (walk_has_factor(w, x->a, f))
			return 1;
		x = x->b;
	}
	return 0;
}
