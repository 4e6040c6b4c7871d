/* analyzer/walk_stmt.c: statements of the kernel walk.  Keeps the
 * environment of local definitions flow-sensitive (branches merge, loop-
 * carried variables become loop symbols), and hands the loop, branch,
 * early-return, reduction-loop and warp-synchronous-code rows to
 * emit_code.c. */
#include "analyzer/walk.h"
#include <stdlib.h>
#include <string.h>

/* A __shared__ scalar is one location for the whole block: what one thread
 * stored there (`if (tid == 0) n = m;`) is not that thread's private value,
 * and after the barrier every thread reads the same word.  So it keeps no
 * per-thread value; a read is a load at a uniform address (ev_declref). */
void walk_assign(walk *w, ka_decl *d, val v)
{
	if (d && d->kind == KD_VAR && (d->flags & KDF_SHARED) && !(d->tflags & (KT_POINTER | KT_ARRAY)))
		return;
	if (d && d->id < w->file.nenv)
		w->sym.env[d->id] = v;
}

/* Variables whose value differs between two environments become opaque
 * symbols depending on both (and on the condition that chose).  `other` is
 * an walk_env_save() of the same scope.  When the condition and both values
 * are the same in every lane of a warp (`if (gradient > 1.1f) width =
 * max(width, ...)` on values a warp shares), so is the merged value. */
static void env_merge(walk *w, const val *other, const sx *cond)
{
	unsigned cond_dep = cond->dep & ~D_OPAQUE;
	uint64_t cond_loops = cond->loops;
	int cond_agrees = walk_lanes_agree(w, cond);
	for (int k = 0; k < w->sym.nscope; k++) {
		int i = w->sym.scope[k];
		const val *a = &w->sym.env[i], *b = &other[k];
		if (a->x == b->x && a->base == b->base)
			continue;
		unsigned dep = (a->x ? a->x->dep : 0) | (b->x ? b->x->dep : 0) | cond_dep;
		uint64_t loops = (a->x ? a->x->loops : 0) | (b->x ? b->x->loops : 0) | cond_loops;
		val m = a->base ? *a : *b;
		int s = sx_new_sym(&w->sym.sx, SYM_VAR, "merged", dep & ~D_OPAQUE, loops);
		w->sym.sx.syms[s].lane_varying = (dep & D_LANE) != 0;
		w->sym.sx.syms[s].warp_uniform = (dep & D_LANE) && cond_agrees && a->x && b->x &&
						 walk_lanes_agree(w, a->x) && walk_lanes_agree(w, b->x);
		w->sym.sx.syms[s].merged[0] = a->x;
		w->sym.sx.syms[s].merged[1] = b->x;
		m.x = sx_symref(&w->sym.sx, s);
		w->sym.env[i] = m;
	}
}

static int has_side_effect(const ka_node *n)
{
	if (!n)
		return 0;
	if ((n->kind == KN_BINOP && n->op >= OP_ASSIGN && n->op <= OP_ORA) ||
	    (n->kind == KN_UNOP && n->op >= OP_POSTINC && n->op <= OP_PREDEC) || n->kind == KN_CALL)
		return 1;
	for (int i = 0; i < n->nkids; i++)
		if (has_side_effect(n->kids[i]))
			return 1;
	return 0;
}

/* What a local array's initializer stores depends on: the union over its
 * elements (nested lists too), evaluated quietly (the walk of the
 * initializer itself has recorded its accesses). */
static unsigned init_dep(walk *w, ka_node *init)
{
	init = walk_strip(init);
	if (!init)
		return 0;
	if (init->kind == KN_INITLIST) {
		unsigned dep = 0;
		for (int i = 0; i < init->nkids; i++)
			dep |= init_dep(w, init->kids[i]);
		return dep;
	}
	if (has_side_effect(init)) /* not walked twice: `i++` would count twice */
		return D_LANE | D_DATA;
	w->ctl.quiet++;
	const sx *x = walk_ev_int(w, init);
	w->ctl.quiet--;
	return x ? x->dep : D_LANE | D_DATA;
}

static void decl_stmt(walk *w, ka_node *n)
{
	for (int i = 0; i < n->nkids; i++) {
		ka_node *v = n->kids[i];
		ka_decl *d = v->ref;
		if (!d)
			continue;
		if (d->flags & (KDF_SHARED | KDF_CONSTANT) || (d->tflags & KT_ARRAY)) {
			walk_note_array(w, d);
			if (d->init)
				walk_ev(w, d->init, 0);
			if (d->init && !(d->flags & (KDF_SHARED | KDF_CONSTANT)) && d->id >= 0 &&
			    d->id < w->file.nenv)
				w->sym.ds[d->id].stored_dep |= init_dep(w, d->init);
			continue;
		}
		if (!d->init) {
			int s = sx_new_sym(&w->sym.sx, SYM_VAR, d->name, 0, 0);
			walk_assign(w, d, (val){.x = sx_symref(&w->sym.sx, s)});
			continue;
		}
		ka_node *init = walk_strip(d->init);
		/* binding a reference to an element (`T &r = a[i];`) reads
		 * nothing: the element's fields are read where they are used */
		int bind = walk_lvalue_ref(d) && init &&
			   (init->kind == KN_SUBSCRIPT || init->kind == KN_MEMBER ||
			    (init->kind == KN_UNOP && init->op == OP_DEREF)) &&
			   !has_side_effect(init);
		w->ctl.quiet += bind;
		val val = walk_ev(w, d->init, 0);
		w->ctl.quiet -= bind;
		if (!w->is_device && init &&
		    ((init->kind == KN_CALL && init->name &&
		      (strcmp(init->name, "malloc") == 0 || strcmp(init->name, "calloc") == 0)) ||
		     (init->kind == KN_OTHER && (d->tflags & KT_POINTER))))
			w->sym.ds[d->id].host_kind = 1;
		/* a floating value keeps no integer form, but a warp butterfly's
		 * operand or result, or a value known alike across lanes, stays
		 * itself */
		const sx_sym *fs = val.x && val.x->k == SX_SYM ? &w->sym.sx.syms[val.x->sym] : NULL;
		if ((d->tflags & (KT_FLOAT | KT_DOUBLE)) &&
		    !(fs && (fs->xsrc || fs->bsrc || fs->xbits || fs->warp_uniform)))
			val.x = sx_opaque(&w->sym.sx, val.x ? val.x->dep : 0, val.x ? val.x->loops : 0);
		if (walk_private_record(d) && d->id >= 0 && d->id < w->file.nenv)
			w->sym.ds[d->id].stored_dep |= val.x ? val.x->dep : D_LANE | D_DATA;
		walk_assign(w, d, val);
		walk_host_dim3_decl(w, d);
	}
}

/* Declarations assigned anywhere inside n (to make them loop-carried):
 * mark is indexed by scope position. */
static void assigned_in(walk *w, ka_node *n, unsigned char *mark)
{
	if (!n)
		return;
	ka_node *t = NULL;
	if (n->kind == KN_BINOP && n->op >= OP_ASSIGN && n->op <= OP_ORA && n->nkids)
		t = walk_strip(n->kids[0]);
	else if (n->kind == KN_UNOP && n->op >= OP_POSTINC && n->op <= OP_PREDEC && n->nkids)
		t = walk_strip(n->kids[0]);
	int k = t && t->kind == KN_DECLREF ? walk_scope_index(w, t->ref) : -1;
	if (k >= 0)
		mark[k] = 1;
	for (int i = 0; i < n->nkids; i++)
		assigned_in(w, n->kids[i], mark);
}

static int contains_launch(ka_node *n)
{
	if (!n)
		return 0;
	if (n->kind == KN_CALL && n->cfg)
		return 1;
	for (int i = 0; i < n->nkids; i++)
		if (contains_launch(n->kids[i]))
			return 1;
	return 0;
}

static int cond_has_rem(walk *w, ka_node *n)
{
	if (!n)
		return 0;
	if (n->kind == KN_IF && n->nkids && n->kids[0]) {
		const char *t = walk_text(w, n->kids[0]);
		if (t && strchr(t, '%'))
			return 1;
	}
	for (int i = 0; i < n->nkids; i++)
		if (cond_has_rem(w, n->kids[i]))
			return 1;
	return 0;
}

/* 1 when n's index expression subtracts the declaration iv (`i - d`). */
static int subtracts(ka_node *n, const ka_decl *iv)
{
	if (!n)
		return 0;
	if (n->kind == KN_BINOP && n->op == OP_SUB && n->nkids == 2) {
		ka_node *r = walk_strip(n->kids[1]);
		if (r && r->kind == KN_DECLREF && r->ref == iv)
			return 1;
	}
	for (int i = 0; i < n->nkids; i++)
		if (subtracts(n->kids[i], iv))
			return 1;
	return 0;
}

/* 1 when the loop body n reads array `name` behind the stride, a[... - iv]:
 * a Hillis-Steele (Kogge-Stone) scan adds the element d places back, where
 * a tree reduction adds the one d places ahead; every thread past d works
 * at every step, so nothing of the interleaved tree's idle lanes applies. */
static int reads_behind(ka_node *n, const ka_decl *iv, const char *name)
{
	if (!n)
		return 0;
	if (n->kind == KN_SUBSCRIPT && n->nkids == 2) {
		ka_node *b = walk_strip(n->kids[0]);
		if (b && b->kind == KN_DECLREF && b->name && name && !strcmp(b->name, name) &&
		    subtracts(n->kids[1], iv))
			return 1;
	}
	for (int i = 0; i < n->nkids; i++)
		if (reads_behind(n->kids[i], iv, name))
			return 1;
	return 0;
}

/* 1 when n holds a product with the declaration iv as a factor (`2 * s * tid`,
 * `tid * (2 * s)`). */
static int mul_by_iv(ka_node *n, const ka_decl *iv)
{
	if (!n)
		return 0;
	n = walk_strip(n);
	if (n && n->kind == KN_BINOP && n->op == OP_MUL && n->nkids == 2)
		for (int i = 0; i < 2; i++) {
			ka_node *f = walk_strip(n->kids[i]);
			if (f && ((f->kind == KN_DECLREF && f->ref == iv) || mul_by_iv(f, iv)))
				return 1;
		}
	for (int i = 0; n && i < n->nkids; i++)
		if (mul_by_iv(n->kids[i], iv))
			return 1;
	return 0;
}

/* 1 when the loop body n indexes an array by a multiple of the stride iv,
 * the `index = 2 * s * tid` shape of an interleaved tree reduction (active
 * threads every 2s-th element, the combine writing the lower one).  A loop
 * whose indices only add or subtract the stride (a scan across warps through
 * an alias of the shared array, `smem[(warp - i) * W + lane]`) is not a
 * reduction tree. */
static int index_scales_iv(ka_node *n, const ka_decl *iv)
{
	if (!n)
		return 0;
	if (n->kind == KN_SUBSCRIPT && n->nkids == 2 && mul_by_iv(n->kids[1], iv))
		return 1;
	if (n->kind == KN_DECLSTMT || (n->kind == KN_BINOP && n->op == OP_ASSIGN))
		for (int i = 0; i < n->nkids; i++)
			if (mul_by_iv(n->kids[i], iv))
				return 1;
	for (int i = 0; i < n->nkids; i++)
		if (index_scales_iv(n->kids[i], iv))
			return 1;
	return 0;
}

/* The step of iv->iv that the increment inc makes (`i += s`, `++i`, `i *=
 * 2`); iv->iv is cleared when inc is not an increment of it. */
static void iv_step(walk *w, ka_node *inc, iv_info *iv)
{
	ka_node *t = inc->nkids ? walk_strip(inc->kids[0]) : NULL;
	if (!t || t->kind != KN_DECLREF || t->ref != iv->iv) {
		iv->iv = NULL;
		return;
	}
	if (inc->kind == KN_UNOP) {
		iv->step = (inc->op == OP_POSTINC || inc->op == OP_PREINC) ? 1 : -1;
		iv->step_known = 1;
		return;
	}
	if (inc->kind != KN_BINOP || inc->nkids != 2) {
		iv->iv = NULL;
		return;
	}
	iv->step_node = inc->kids[1];
	iv->step_known = walk_fold_int(w, inc->kids[1], &iv->step);
	switch (inc->op) {
	case OP_ADDA:
		break;
	case OP_SUBA:
		iv->step = -iv->step;
		break;
	case OP_MULA:
		iv->geometric = 1;
		break;
	case OP_DIVA:
		iv->geometric = -1;
		break;
	case OP_SHLA:
	case OP_SHRA: /* shifts by k: factors of 2^k */
		iv->geometric = inc->op == OP_SHLA ? 1 : -1;
		if (iv->step_known && iv->step >= 0 && iv->step < 31)
			iv->step = (int64_t)1 << iv->step;
		else
			iv->step_known = 0;
		break;
	default:
		iv->iv = NULL;
		break;
	}
}

/* 1 when the condition runs a halving counter down to 1: `k > 0`, `k >= 1`,
 * `k != 0`, `0 < k`. */
static int halves_to_one(ka_node *cond, const ka_decl *iv)
{
	ka_node *c = walk_strip(cond);
	if (!c || c->kind != KN_BINOP || c->nkids != 2)
		return 0;
	ka_node *l = walk_strip(c->kids[0]), *r = walk_strip(c->kids[1]);
	int left = l && l->kind == KN_DECLREF && l->ref == iv;
	ka_node *o = left ? r : l;
	if (!left && !(r && r->kind == KN_DECLREF && r->ref == iv))
		return 0;
	if (!o || o->kind != KN_INT)
		return 0;
	ka_op op = c->op;
	if (!left) /* `0 < k` as `k > 0` */
		op = op == OP_LT   ? OP_GT
		     : op == OP_LE ? OP_GE
		     : op == OP_GT ? OP_LT
		     : op == OP_GE ? OP_LE
				   : op;
	return ((op == OP_GT || op == OP_NE) && o->ival == 0) || (op == OP_GE && o->ival == 1);
}

static void find_iv(walk *w, ka_node *init, ka_node *inc, iv_info *iv)
{
	memset(iv, 0, sizeof *iv);
	if (init && init->kind == KN_DECLSTMT && init->nkids == 1)
		iv->iv = init->kids[0]->ref;
	else if (init && init->kind == KN_BINOP && init->op == OP_ASSIGN &&
		 walk_strip(init->kids[0])->kind == KN_DECLREF)
		iv->iv = walk_strip(init->kids[0])->ref;
	if (inc && iv->iv)
		iv_step(w, inc, iv);
}

static int64_t trip_count(const iv_info *iv, int64_t c0, ka_op op, int64_t bound, int *ok)
{
	*ok = 0;
	if (iv->geometric && iv->step_known && iv->step > 1) {
		/* s *= k / s <<= k / s /= k / s >>= k: count by stepping (bounded). */
		int64_t v = c0, n = 0;
		for (; n < 64; n++) {
			int in = op == OP_LT   ? v < bound
				 : op == OP_LE ? v <= bound
				 : op == OP_GT ? v > bound
				 : op == OP_GE ? v >= bound
				 : op == OP_NE ? v != bound
					       : 0;
			if (!in)
				break;
			v = iv->geometric > 0 ? v * iv->step : v / iv->step;
		}
		*ok = n < 64;
		return n;
	}
	if (iv->geometric || !iv->step_known || iv->step == 0)
		return 0;
	int64_t s = iv->step, span;
	if (s > 0 && (op == OP_LT || op == OP_LE || op == OP_NE))
		span = bound - c0 + (op == OP_LE);
	else if (s < 0 && (op == OP_GT || op == OP_GE))
		span = c0 - bound + (op == OP_GE), s = -s;
	else
		return 0;
	*ok = 1;
	return span <= 0 ? 0 : (span + s - 1) / s;
}

/* 1 when every symbol of x is the iteration counter of an enclosing loop
 * with a known trip count (w->ctl.loops). */
static int only_enclosing_iters(const walk *w, const sx *x, int depth)
{
	if (!x || depth > 32)
		return x != NULL;
	if (x->k == SX_OPAQUE)
		return 0;
	if (x->k == SX_SYM) {
		for (int k = 0; k < w->ctl.nloops; k++)
			if (w->ctl.loops[k].has_trip && w->ctl.loops[k].iter_sym == x->sym)
				return 1;
		return 0;
	}
	return (!x->a || only_enclosing_iters(w, x->a, depth + 1)) &&
	       (!x->b || only_enclosing_iters(w, x->b, depth + 1));
}

/* The executions of a loop's body over its whole nest when its start or
 * bound moves with the enclosing loops' counters (a triangle, `for (j = i;
 * j < 6; j++)` in `for (i = 0; i < 6; i++)`: 21): every enclosing loop has
 * a known trip count, and the start and bound are functions of their
 * counters alone; the nest is enumerated, at most 4096 combinations.  -1
 * when it cannot be counted. */
static int64_t nest_trips(walk *w, const iv_info *iv, const sx *start, ka_op op, const sx *bound)
{
	int n = w->ctl.nloops;
	if (n == 0 || n > 4 || !start || !bound || !only_enclosing_iters(w, start, 0) ||
	    !only_enclosing_iters(w, bound, 0))
		return -1;
	int64_t combos = 1;
	for (int k = 0; k < n; k++) {
		const loop_ctx *l = &w->ctl.loops[k];
		if (!l->has_trip || l->trip <= 0 || l->trip > 4096 || combos * l->trip > 4096)
			return -1;
		combos *= l->trip;
	}
	sx_sym *syms = w->sym.sx.syms;
	int64_t saved[4], idx[4] = {0, 0, 0, 0}, total = 0;
	for (int k = 0; k < n; k++)
		saved[k] = syms[w->ctl.loops[k].iter_sym].value;
	int ok = 1;
	for (int64_t c = 0; ok && c < combos; c++) {
		for (int k = 0; k < n; k++)
			syms[w->ctl.loops[k].iter_sym].value = idx[k];
		sx_lane ln = {{0, 0, 0}};
		int64_t c0, b;
		int tok = 0;
		ok = sx_eval(&w->sym.sx, start, &ln, &c0) == 0 && sx_eval(&w->sym.sx, bound, &ln, &b) == 0;
		int64_t t = ok ? trip_count(iv, c0, op, b, &tok) : 0;
		ok = ok && tok && t >= 0 && !__builtin_add_overflow(total, t, &total);
		for (int k = n - 1; k >= 0; k--) { /* the next combination */
			if (++idx[k] < w->ctl.loops[k].trip)
				break;
			idx[k] = 0;
		}
	}
	for (int k = 0; k < n; k++)
		syms[w->ctl.loops[k].iter_sym].value = saved[k];
	return ok ? total : -1;
}

static void loop_fact(walk *w, ka_node *n, loop_ctx *lc, const char *kind, iv_info *iv, const sx *cond,
		      int64_t trip, int trip_ok)
{
	if (w->ctl.quiet)
		return;
	walk_emit_loop(w, n, lc, kind, iv ? iv->iv : NULL, cond, trip, trip_ok);
	w->tally.n_loops++;
	if (n->kind == KN_FOR && iv && iv->iv && iv->geometric && lc->n_shared_writes > 0) {
		const char *style = iv->geometric < 0                                      ? "sequential"
				    : reads_behind(n->kids[3], iv->iv, lc->shared_written) ? "scan"
				    : cond_has_rem(w, n->kids[3])                          ? "interleaved"
				    : index_scales_iv(n->kids[3], iv->iv) ? "interleaved_index"
									  : NULL;
		if (style)
			walk_emit_reduction(w, n, style, iv->iv->name, lc->shared_written);
	}
}

/* One pass of a loop's body inside the loop, writing no facts: what the
 * body leaves in the environment (the caller saves and restores it). */
static void walk_body_quietly(walk *w, const loop_ctx *lc, ka_node *body)
{
	w->ctl.quiet++;
	w->ctl.loops[w->ctl.nloops++] = *lc;
	walk_stmt(w, body);
	w->ctl.nloops--;
	w->ctl.quiet--;
}

/* Give loop-carried variables a fresh symbol that varies in this loop.  A
 * quiet pass over the body first learns what they come to depend on. */
static void loop_carried(walk *w, ka_node *body, loop_ctx *lc, ka_decl *skip)
{
	size_t ns = (size_t)(w->sym.nscope ? w->sym.nscope : 1);
	unsigned char *mark = calloc(ns, 1);
	unsigned *extra = calloc(ns, sizeof *extra);
	if (!mark || !extra)
		abort();
	assigned_in(w, body, mark);
	int sk = walk_scope_index(w, skip);
	if (sk >= 0)
		mark[sk] = 0;
	int pre = w->ctl.nloops < 3; /* the quiet pass doubles the cost per nesting level */
	for (int pass = pre ? 0 : 1; pass < 2; pass++) {
		for (int k = 0; k < w->sym.nscope; k++) {
			if (!mark[k])
				continue;
			const val *v = &w->sym.env[w->sym.scope[k]];
			unsigned dep = (v->x ? v->x->dep : 0) | D_LOOP | (pass && pre ? extra[k] : 0);
			int s = sx_new_sym(&w->sym.sx, SYM_VAR, "carried", dep & ~D_OPAQUE,
					   (v->x ? v->x->loops : 0) | (1ull << lc->slot));
			w->sym.sx.syms[s].lane_varying = (dep & D_LANE) != 0;
			w->sym.sx.syms[s].carried = 1;
			w->sym.env[w->sym.scope[k]].x = sx_symref(&w->sym.sx, s);
		}
		if (pass == 0) {
			val *saved = walk_env_save(w);
			walk_body_quietly(w, lc, body);
			for (int k = 0; k < w->sym.nscope; k++) {
				const val *v = &w->sym.env[w->sym.scope[k]];
				extra[k] = mark[k] && v->x ? v->x->dep & D_LANE : 0;
			}
			walk_env_restore(w, saved);
			free(saved);
		}
	}
	free(mark);
	free(extra);
}

/* 1 when a loop's step depends on gridDim: a grid-stride (or block-stride)
 * loop, whether the step is written out or read from a variable. */
static int steps_by_grid(walk *w, const sx *step)
{
	static const sx_sym_kind dims[] = {SYM_GDIM_X, SYM_GDIM_Y, SYM_GDIM_Z};
	for (int i = 0; step && i < 3; i++) {
		const sx *cf = sx_coef(&w->sym.sx, step, dims[i]);
		int64_t v;
		if (!cf || !sx_is_const(cf, &v) || v != 0)
			return 1;
	}
	return 0;
}

/* A loop whose trips differ between threads, written in the walked
 * function's own body: its range, the thread axes of its condition and the
 * facts id counter where it opens (barrier.div_begin_off, div_cond_axes). */
static void place_nonuniform(walk *w, ka_node *n, loop_ctx *lc, const sx *cx)
{
	if (!lc->nonuniform || !lc->cond)
		return;
	lc->axes = walk_thread_axes(w, cx);
	lc->has_off = w->ctl.inline_depth == 0 && !n->loc.in_macro;
	lc->begin_off = n->loc.begin;
	lc->end_off = n->loc.end;
	lc->id0 = *w->file.next_id;
}

static void for_stmt(walk *w, ka_node *n)
{
	ka_node *init = n->kids[0], *cond = n->kids[1], *inc = n->kids[2], *body = n->kids[3];
	if (init)
		walk_stmt(w, init);
	iv_info iv;
	find_iv(w, init, inc, &iv);
	if (w->ctl.nloops >= WALK_MAX_LOOPS) {
		walk_limit_reached(w, WALK_LIMIT_LOOPS, &n->loc);
		walk_stmt(w, body);
		return;
	}
	loop_ctx lc = {.id = (int)walk_next_id(w), .slot = w->ctl.next_loop_slot++ % 64};
	lc.has_launch = !w->is_device && contains_launch(body);
	int64_t c0 = 0, bound = 0;
	int c0_ok = 0, trip_ok = 0;
	int64_t trip = 0;
	const sx *start_x = NULL, *stepx = NULL;
	int counted = 0;      /* the counter is start + step * a SYM_ITER */
	int halving_sym = -1; /* a counter that halves from c0 to 1: its symbol */
	if (iv.iv) {
		val start = w->sym.env[iv.iv->id];
		start_x = start.x;
		c0_ok = start.x && sx_is_const(start.x, &c0);
		stepx = iv.step_node ? walk_ev_int(w, iv.step_node) : sx_const(&w->sym.sx, iv.step);
		lc.grid_stride = !iv.geometric && steps_by_grid(w, stepx);
		if (!iv.geometric && !(stepx->loops & (1ull << lc.slot)) && start.x) {
			int it = sx_new_sym(&w->sym.sx, SYM_ITER, iv.iv->name,
					    D_LOOP | (stepx->dep & ~D_OPAQUE), 1ull << lc.slot);
			w->sym.sx.syms[it].value = 0;
			w->sym.sx.syms[it].has_value = 0;
			lc.iter_sym = it;
			counted = 1;
			val v = start;
			v.x = sx_add(&w->sym.sx, start.x,
				     sx_mul(&w->sym.sx, stepx, sx_symref(&w->sym.sx, it)));
			w->sym.env[iv.iv->id] = v;
		} else {
			unsigned dep = (start.x ? start.x->dep : 0) | stepx->dep | D_LOOP;
			int s = sx_new_sym(&w->sym.sx, SYM_VAR, iv.iv->name, dep & ~D_OPAQUE,
					   1ull << lc.slot);
			w->sym.sx.syms[s].value = c0_ok ? c0 : 1024;
			w->sym.sx.syms[s].lane_varying = (dep & D_LANE) != 0;
			w->sym.env[iv.iv->id].x = sx_symref(&w->sym.sx, s);
			if (iv.geometric < 0 && iv.step_known && iv.step == 2 && c0_ok &&
			    halves_to_one(cond, iv.iv))
				halving_sym = s;
		}
		ka_node *c = walk_strip(cond);
		int iv_cmp = c && c->kind == KN_BINOP && c->nkids == 2 &&
			     walk_strip(c->kids[0])->kind == KN_DECLREF &&
			     walk_strip(c->kids[0])->ref == iv.iv;
		if (iv_cmp && walk_fold_int(w, c->kids[1], &bound) && c0_ok)
			trip = trip_count(&iv, c0, c->op, bound, &trip_ok);
		else if (iv_cmp && !iv.geometric && iv.step_known && iv.step != 0) {
			w->ctl.quiet++;
			const sx *bx = walk_ev_int(w, c->kids[1]);
			w->ctl.quiet--;
			int64_t nt = nest_trips(w, &iv, start_x, c->op, bx);
			lc.has_nest = nt >= 0;
			lc.nest_trips = nt;
		}
		/* the record pass (walk_record_cols) expands the counter's terms */
		lc.has_trip = trip_ok && counted && sx_is_const(stepx, NULL);
		lc.trip = trip;
	}
	lc.trip_static = trip_ok || (iv.iv && !iv.geometric && iv.step_known &&
				     walk_loop_is_static(w, cond, iv.iv, start_x, NULL));
	lc.unrollable = (trip_ok && trip <= 64) || (!trip_ok && lc.trip_static);
	lc.small = (trip_ok && trip <= 8) || (!trip_ok && lc.trip_static);
	loop_carried(w, body, &lc, iv.iv);
	const sx *cx = cond ? walk_ev_int(w, cond) : sx_const(&w->sym.sx, 1);
	lc.nonuniform = (cx->dep & D_LANE) != 0;
	lc.cond = cond ? cx : NULL;
	if (lc.nonuniform && cond && walk_trips_uniform(w, cond, inc, body, &iv, start_x, stepx))
		lc.nonuniform = 0;
	lc.block_stride = lc.nonuniform && cond && inc &&
			  walk_stride_shape(w, cond, body, &iv, start_x, stepx);
	place_nonuniform(w, n, &lc, cx);
	w->ctl.loops[w->ctl.nloops++] = lc;
	walk_stmt(w, body);
	if (halving_sym >= 0) /* `for (k = 16; k > 0; k >>= 1) v += __shfl_xor_sync(m, v, k);` */
		for (int i = 0; i < w->sym.nscope; i++) {
			val *e = &w->sym.env[w->sym.scope[i]];
			const sx *u = walk_butterfly_loop(w, e->x, halving_sym, c0);
			if (u)
				e->x = u;
		}
	if (inc)
		walk_ev(w, inc, 0);
	lc = w->ctl.loops[--w->ctl.nloops];
	walk_close_nonuniform_loop(w, &lc);
	loop_fact(w, n, &lc, "for", &iv, cx, trip, trip_ok);
	if (iv.iv) {
		int s = sx_new_sym(&w->sym.sx, SYM_VAR, iv.iv->name, cx->dep & ~D_OPAQUE, 0);
		w->sym.env[iv.iv->id].x = sx_symref(&w->sym.sx, s);
	}
}

/* A variable named by one side of a while/do condition (through casts). */
static ka_decl *cond_side_var(ka_node *c, int i)
{
	ka_node *s = walk_strip(c->kids[i]);
	return s && s->kind == KN_DECLREF && s->ref && (s->ref->kind == KD_VAR || s->ref->kind == KD_PARAM) &&
			       s->ref->id >= 0
		       ? s->ref
		       : NULL;
}

/* 1 when n holds a `continue` of the loop whose body it is (not one of a
 * loop nested in it). */
static int continues_loop(const ka_node *n)
{
	if (!n || n->kind == KN_FOR || n->kind == KN_WHILE || n->kind == KN_DO)
		return 0;
	if (n->kind == KN_CONTINUE)
		return 1;
	for (int i = 0; i < n->nkids; i++)
		if (continues_loop(n->kids[i]))
			return 1;
	return 0;
}

/* A while/do condition `l < r` (or >, <=, >=, !=) on two variables that are
 * a thread-independent distance apart where the loop starts, each moved by
 * the body by a thread-independent step or not at all: the distance stays
 * the same in every thread, so every thread runs the same trips though
 * both sides differ per thread (`do { ...; B += 16; } while (B < Blast)`
 * with `Blast = B + jb`).  d0 is the entry distance (l - r before the
 * loop's carried values replaced them); the body is walked once, quietly,
 * for the steps. */
static int distance_uniform(walk *w, ka_node *c, ka_node *body, loop_ctx *lc, const sx *d0)
{
	if (!d0 || (d0->dep & (D_LANE | D_OPAQUE)))
		return 0;
	ka_decl *l = cond_side_var(c, 0), *r = cond_side_var(c, 1);
	if (!l || !r || l->id >= w->file.nenv || r->id >= w->file.nenv)
		return 0;
	const sx *lb = w->sym.env[l->id].x, *rb = w->sym.env[r->id].x;
	if (!lb || !rb)
		return 0;
	val *saved = walk_env_save(w);
	walk_body_quietly(w, lc, body);
	const sx *la = w->sym.env[l->id].x, *ra = w->sym.env[r->id].x;
	int ok = la && ra;
	for (int i = 0; ok && i < 2; i++) {
		const sx *step = sx_add(&w->sym.sx, i ? ra : la, sx_neg(&w->sym.sx, i ? rb : lb));
		ok = step && !(step->dep & (D_LANE | D_OPAQUE | D_DATA));
	}
	walk_env_restore(w, saved);
	free(saved);
	return ok;
}

static void while_stmt(walk *w, ka_node *n)
{
	int is_do = n->kind == KN_DO;
	ka_node *cond = n->kids[is_do ? 1 : 0], *body = n->kids[is_do ? 0 : 1];
	if (w->ctl.nloops >= WALK_MAX_LOOPS) {
		walk_limit_reached(w, WALK_LIMIT_LOOPS, &n->loc);
		walk_stmt(w, body);
		return;
	}
	loop_ctx lc = {.id = (int)walk_next_id(w), .slot = w->ctl.next_loop_slot++ % 64};
	lc.has_launch = !w->is_device && contains_launch(body);
	ka_node *c = walk_strip(cond);
	int rel = c && c->kind == KN_BINOP && c->nkids == 2 &&
		  (c->op == OP_LT || c->op == OP_GT || c->op == OP_LE || c->op == OP_GE || c->op == OP_NE) &&
		  cond_side_var(c, 0) && cond_side_var(c, 1);
	const sx *d0 = NULL;
	if (rel) {
		w->ctl.quiet++;
		d0 = sx_add(&w->sym.sx, walk_ev_int(w, c->kids[0]),
			    sx_neg(&w->sym.sx, walk_ev_int(w, c->kids[1])));
		w->ctl.quiet--;
	}
	/* `while (i < end) { ...; i += step; }`: a for loop written out */
	ka_node *inc = NULL, head = {0};
	iv_info iv = {0};
	const sx *start_x = NULL, *stepx = NULL;
	if (!is_do && c && c->kind == KN_BINOP && c->nkids == 2 && body && body->kind == KN_COMPOUND &&
	    body->nkids > 1) {
		iv.iv = cond_side_var(c, 0);
		inc = body->kids[body->nkids - 1];
		if (iv.iv && iv.iv->kind == KD_VAR && iv.iv->id < w->file.nenv && !continues_loop(body))
			iv_step(w, inc, &iv);
		else
			iv.iv = NULL;
		if (iv.iv) {
			/* the body before the increment, which must not set it */
			head = *body;
			head.nkids--;
			start_x = w->sym.env[iv.iv->id].x;
			w->ctl.quiet++;
			stepx = iv.step_node ? walk_ev_int(w, iv.step_node) : sx_const(&w->sym.sx, iv.step);
			w->ctl.quiet--;
		}
	}
	loop_carried(w, body, &lc, NULL);
	const sx *cx = cond ? walk_ev_int(w, cond) : sx_const(&w->sym.sx, 1);
	lc.nonuniform = (cx->dep & D_LANE) != 0;
	lc.cond = cond ? cx : NULL;
	if (lc.nonuniform && rel && distance_uniform(w, c, body, &lc, d0))
		lc.nonuniform = 0;
	if (lc.nonuniform && start_x && walk_trips_uniform(w, cond, inc, &head, &iv, start_x, stepx))
		lc.nonuniform = 0;
	lc.block_stride = lc.nonuniform && start_x && walk_stride_shape(w, cond, &head, &iv, start_x, stepx);
	place_nonuniform(w, n, &lc, cx);
	w->ctl.loops[w->ctl.nloops++] = lc;
	walk_stmt(w, body);
	lc = w->ctl.loops[--w->ctl.nloops];
	walk_close_nonuniform_loop(w, &lc);
	loop_fact(w, n, &lc, is_do ? "do" : "while", iv.iv ? &iv : NULL, cx, 0, 0);
}

int walk_is_return_only(const ka_node *n)
{
	if (!n)
		return 0;
	if (n->kind == KN_RETURN)
		return 1;
	return n->kind == KN_COMPOUND && n->nkids == 1 && n->kids[0]->kind == KN_RETURN;
}

/* 1 when the condition holds for no thread of the block the kernel is
 * launched with: `if (threadIdx.y >= ROWS) return;` under a launch of
 * dim3(32, ROWS).  Only for a launch-given shape and a condition of thread
 * ids, dims and constants (nothing assumed, nothing loaded). */
static int never_true_in_block(walk *w, const sx *c)
{
	/* host code (a __host__ __device__ function walked as host) has no
	 * kernel and no block: nothing to decide */
	if (!w->kernel || !w->block_source || strcmp(w->block_source, "launch") != 0 ||
	    (c->dep & ~(D_LANE | D_PARAM)) || sx_has_unknown(&w->sym.sx, c))
		return 0;
	int64_t nthreads = (int64_t)w->block[0] * w->block[1] * w->block[2];
	if (nthreads <= 0 || nthreads > 1024)
		return 0;
	sx_lane l;
	for (l.tid[2] = 0; l.tid[2] < w->block[2]; l.tid[2]++)
		for (l.tid[1] = 0; l.tid[1] < w->block[1]; l.tid[1]++)
			for (l.tid[0] = 0; l.tid[0] < w->block[0]; l.tid[0]++) {
				int64_t v;
				if (sx_eval(&w->sym.sx, c, &l, &v) || v)
					return 0;
			}
	return 1;
}

/* Whether c has one value in every thread that the file's launches start:
 * every launch of the kernel agrees on its block and grid, and c's range
 * over them (sx_range, with the parameters every launch passes the same
 * constant) is a single value.  `if (col < n && row < n)` with n = 1024
 * and a 64x64 grid of 16x16 blocks holds everywhere: no thread diverges. */
static int uniform_over_launch(walk *w, const sx *c)
{
	if (!w->block_source || strcmp(w->block_source, "launch") != 0)
		return 0;
	sx_box b;
	int floor_axis[3] = {-1, -1, -1};
	for (int i = 0; i < 3; i++) {
		b.block[i] = w->block[i];
		b.grid[i] = w->grid[i];
		if (b.block[i] <= 0)
			return 0;
		if (b.grid[i] > 0)
			continue;
		if (w->grid_part[i] > 0) { /* a constant axis beside run-time ones */
			b.grid[i] = w->grid_part[i];
			continue;
		}
		/* a grid rounded down from a parameter (`dim3 grid(N / 32, M /
		 * 32)` passing N and M): the axis ends at the last whole block
		 * below it */
		for (int p = 0; p < 16 && floor_axis[i] < 0; p++)
			if ((w->grid_floor[i] >> p) & 1)
				floor_axis[i] = p;
		if (floor_axis[i] < 0)
			return 0;
	}
	int64_t lo, hi;
	if (floor_axis[0] < 0 && floor_axis[1] < 0 && floor_axis[2] < 0)
		return sx_range(&w->sym.sx, c, &b, &lo, &hi) == 0 && lo == hi;
	/* the parameters the grid is rounded down from: c must hold one value
	 * at each of several sizes, multiples of the block or not, with the
	 * grid each of them gives (the parameter's symbol takes the size for
	 * the range only, then its own state back) */
	static const int64_t sizes[] = {1000, 1024, 1057, 4099, 65537, 33};
	const size_t nsizes = sizeof sizes / sizeof *sizes;
	sx_sym *ps[3] = {NULL, NULL, NULL};
	for (int i = 0; i < 3; i++) {
		if (floor_axis[i] < 0)
			continue;
		const ka_decl *pd = floor_axis[i] < w->kernel->nparams ? w->kernel->params[floor_axis[i]]
								       : NULL;
		const sx *x = pd && pd->id < w->file.nenv ? w->sym.env[pd->id].x : NULL;
		if (!x || x->k != SX_SYM || w->sym.sx.syms[x->sym].kind != SYM_PARAM ||
		    w->sym.sx.syms[x->sym].has_launch_value)
			return 0;
		ps[i] = &w->sym.sx.syms[x->sym];
	}
	int ok = 1, tried = 0;
	for (size_t k = 0; ok && k < nsizes; k++) {
		for (int i = 0; i < 3; i++)
			if (ps[i]) {
				/* parameters apart (M and N need not agree: each
				 * round pairs sizes far apart too), one parameter
				 * behind two axes one value */
				int64_t v = sizes[(k + (size_t)floor_axis[i]) % nsizes];
				ps[i]->has_launch_value = 1;
				ps[i]->launch_value = v;
				b.grid[i] = v / b.block[i];
			}
		if (b.grid[0] <= 0 || b.grid[1] <= 0 || b.grid[2] <= 0)
			continue; /* a size below one block launches nothing */
		ok = sx_range(&w->sym.sx, c, &b, &lo, &hi) == 0 && lo == hi;
		tried++;
	}
	for (int i = 0; i < 3; i++)
		if (ps[i])
			ps[i]->has_launch_value = 0;
	return ok && tried >= 3;
}

/* Whether a condition tests a CUDA or HIP status against success (`e !=
 * cudaSuccess`, `cudaSuccess != (e = f())`, inside `&&` or `||`): 1 when the
 * then branch is the failure's, -1 when the else branch is, 0 otherwise. */
static int status_test(const ka_node *c)
{
	c = c ? walk_strip((ka_node *)c) : NULL;
	if (!c || c->kind != KN_BINOP || c->nkids != 2)
		return 0;
	if (c->op == OP_LOR || c->op == OP_LAND) {
		int a = status_test(c->kids[0]), b = status_test(c->kids[1]);
		/* `a || b` fails when either fails; `a && b` runs its then branch
		 * only when both hold */
		return c->op == OP_LOR ? (a == 1 || b == 1) : (a == -1 && b == -1) ? -1 : 0;
	}
	if (c->op != OP_NE && c->op != OP_EQ)
		return 0;
	for (int i = 0; i < 2; i++) {
		const ka_node *k = walk_strip(c->kids[i]);
		if (k && k->kind == KN_DECLREF && k->name &&
		    (!strcmp(k->name, "cudaSuccess") || !strcmp(k->name, "hipSuccess") ||
		     !strcmp(k->name, "CUDA_SUCCESS")))
			return c->op == OP_NE ? 1 : -1;
	}
	return 0;
}

/* The name a first-pass test reads: a variable, a member (`this->step`),
 * or one through a pointer (`*current_step`). */
static const char *tested_name(const ka_node *n)
{
	n = n ? walk_strip((ka_node *)n) : NULL;
	if (n && n->kind == KN_UNOP && n->op == OP_DEREF && n->nkids == 1)
		n = walk_strip(n->kids[0]);
	return n && (n->kind == KN_DECLREF || n->kind == KN_MEMBER) ? n->name : NULL;
}

static int name_has(const char *name, const char *const *parts)
{
	if (!name)
		return 0;
	char low[64];
	size_t i = 0;
	for (; name[i] && i < sizeof low - 1; i++)
		low[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
	low[i] = '\0';
	for (; *parts; parts++) /* `^x`: at the start */
		if ((*parts)[0] == '^' ? strncmp(low, *parts + 1, strlen(*parts + 1)) == 0
				       : strstr(low, *parts) != NULL)
			return 1;
	return 0;
}

/* A host condition that holds only on a program's first pass: a step or
 * iteration counter compared with 0 (`if (*current_step == 0)`, `if (iter
 * < 1)`), a flag that says set-up is not done (`if (!initialized)`), or one
 * that says this is the first pass (`if (first_call)`): 1 for the then
 * branch, -1 when the else branch is the first pass's (`if (step != 0)`,
 * `if (initialized)`), 0 otherwise. */
static int first_pass_test(const ka_node *c)
{
	static const char *const counter[] = {"step", "iter", "epoch", NULL};
	/* set-up flags: a name that starts with `init` or holds `_init`, `setup`
	 * or `ready` (`initialized`, `initDone`, `is_init`, `setup_done`; not
	 * `finite`) */
	static const char *const done[] = {"^init", "_init", "setup", "ready", NULL};
	static const char *const first[] = {"first", NULL};
	c = c ? walk_strip((ka_node *)c) : NULL;
	if (!c)
		return 0;
	if (c->kind == KN_UNOP && c->op == OP_LNOT && c->nkids == 1) {
		const char *nm = tested_name(c->kids[0]);
		return name_has(nm, done) ? 1 : name_has(nm, first) ? -1 : 0;
	}
	if (c->kind == KN_DECLREF || c->kind == KN_MEMBER || (c->kind == KN_UNOP && c->op == OP_DEREF)) {
		const char *nm = tested_name(c);
		return name_has(nm, first) ? 1 : name_has(nm, done) ? -1 : 0;
	}
	if (c->kind != KN_BINOP || c->nkids != 2)
		return 0;
	for (int side = 0; side < 2; side++) {
		const ka_node *k = walk_strip(c->kids[side]);
		const char *nm = tested_name(c->kids[1 - side]);
		if (!k || k->kind != KN_INT || !name_has(nm, counter))
			continue;
		if (k->ival == 0 && c->op == OP_EQ)
			return 1;
		if (k->ival == 0 && c->op == OP_NE)
			return -1;
		if (k->ival == 1 && side == 1 && c->op == OP_LT) /* step < 1 */
			return 1;
		if (k->ival == 0 && side == 1 && c->op == OP_GT) /* step > 0 */
			return -1;
	}
	return 0;
}

/* `x % m` where x counts passes and m spaces them out: x a counter (step,
 * iteration, epoch, frame, cycle; `step + 1` too) and m a run-time value or
 * a constant of at least 8 (`iter % 2` alternates two buffers, every pass
 * runs one arm), or m an interval by its name (`t % output_interval`,
 * `n % print_every`) over any x */
static int pass_modulo(const ka_node *n)
{
	static const char *const counter[] = {"step", "iter", "epoch", "frame", "cycle", NULL};
	static const char *const interval[] = {"interval", "every", "freq",   "period", "_int",
					       "dump",     "print", "output", "report", NULL};
	n = n ? walk_strip((ka_node *)n) : NULL;
	if (!n || n->kind != KN_BINOP || n->op != OP_REM || n->nkids != 2)
		return 0;
	const ka_node *x = walk_strip(n->kids[0]), *m = walk_strip(n->kids[1]);
	if (x && x->kind == KN_BINOP && (x->op == OP_ADD || x->op == OP_SUB) && x->nkids == 2 &&
	    walk_strip(x->kids[1]) && walk_strip(x->kids[1])->kind == KN_INT)
		x = walk_strip(x->kids[0]);
	if (!m)
		return 0;
	if (m->kind == KN_INT)
		return m->ival >= 8 && name_has(tested_name(x), counter);
	return name_has(tested_name(m), interval) || name_has(tested_name(x), counter);
}

/* A host condition that holds on every Nth pass only (`if (step % N ==
 * 0)`, `if (!(iter % interval))`): 2 for the then branch, -2 when the else
 * branch is the Nth pass's (`if (step % N != 0)`, `if (step % N)`), 0
 * otherwise. */
static int periodic_test(const ka_node *c)
{
	c = c ? walk_strip((ka_node *)c) : NULL;
	if (!c)
		return 0;
	if (pass_modulo(c))
		return -2;
	if (c->kind == KN_UNOP && c->op == OP_LNOT && c->nkids == 1)
		return pass_modulo(c->kids[0]) ? 2 : 0;
	if (c->kind != KN_BINOP || c->nkids != 2 || (c->op != OP_EQ && c->op != OP_NE))
		return 0;
	for (int side = 0; side < 2; side++) {
		const ka_node *k = walk_strip(c->kids[side]);
		if (k && k->kind == KN_INT && k->ival == 0 && pass_modulo(c->kids[1 - side]))
			return c->op == OP_EQ ? 2 : -2;
	}
	return 0;
}

/* first_pass_test, else periodic_test; through `&&` when a conjunct's
 * then branch is the rare pass's (`if (dump_ && step % N == 0)`), and
 * through `||` when a disjunct's else branch is (`if (!dump_ || step %
 * N != 0) return;`) */
static int rare_pass_test(const ka_node *c)
{
	c = c ? walk_strip((ka_node *)c) : NULL;
	if (c && c->kind == KN_BINOP && c->nkids == 2 && (c->op == OP_LAND || c->op == OP_LOR)) {
		for (int side = 0; side < 2; side++) {
			int t = rare_pass_test(c->kids[side]);
			if (c->op == OP_LAND ? t > 0 : t < 0)
				return t;
		}
		return 0;
	}
	int t = first_pass_test(c);
	return t ? t : periodic_test(c);
}

/* 1: the code being walked runs on the first pass only; 2: on every Nth
 * pass only (the innermost test whose rare arm is being walked says which);
 * 0: neither */
int walk_first_run(const walk *w)
{
	for (int i = w->ctl.nbrs - 1; i >= 0; i--) {
		int t = w->ctl.brs[i].first_run;
		if (t && (w->ctl.brs[i].in_else ? -t : t) > 0)
			return t > 0 ? t : -t;
	}
	return w->ctl.rest_run;
}

static void if_stmt(walk *w, ka_node *n)
{
	if (!n->kids[0]) {
		for (int i = 1; i < n->nkids; i++)
			walk_stmt(w, n->kids[i]);
		return;
	}
	const sx *c = walk_ev_bool(w, n->kids[0]);
	int64_t cv;
	if (w->ctl.inline_depth > 0 && sx_is_const(c, &cv)) {
		/* a helper's test of what this call passes as a constant
		 * (`if (sync) __syncthreads();` called with `false`): only the
		 * arm that runs */
		if (cv)
			walk_stmt(w, n->kids[1]);
		else if (n->nkids > 2)
			walk_stmt(w, n->kids[2]);
		return;
	}
	walk_note_compared_atomics(w, c);
	br_ctx b = {.uniformity = walk_uniformity(w, c),
		    .line = n->loc.line,
		    .file = n->loc.file,
		    .is_guard = walk_is_guard(c),
		    .cond = c,
		    .nloops = w->ctl.nloops,
		    .fails = w->kernel ? 0 : status_test(n->kids[0]),
		    .first_run = w->kernel ? 0 : rare_pass_test(n->kids[0])};
	if (walk_uni_thread_dep(b.uniformity) && uniform_over_launch(w, c))
		b.uniformity = WALK_UNI_GRID; /* the launches never split it */
	if (b.uniformity == WALK_UNI_THREAD)
		b.seg = walk_segment_width(w, c);
	int td = walk_uni_thread_dep(b.uniformity);
	if (td) {
		b.pin = walk_cond_pins_lane(w, c, 1);
		b.axes = walk_thread_axes(w, c);
		for (int k = 0; k < 2; k++) {
			int t = walk_cond_threads(w, c, k == 0);
			b.threads[k] = t > 0 ? t : 0;
		}
		b.has_off = w->ctl.inline_depth == 0 && !n->loc.in_macro;
		b.begin_off = n->loc.begin;
		b.end_off = n->loc.end;
		b.id0 = *w->file.next_id;
	}
	if (b.is_guard)
		w->tally.has_guard = 1;
	if (w->ctl.nbrs >= WALK_MAX_BRANCHES) {
		walk_limit_reached(w, WALK_LIMIT_BRANCHES, &n->loc);
		walk_stmt(w, n->kids[1]);
		walk_stmt(w, n->kids[2]);
		return;
	}
	if (n->kind == KN_IF && walk_is_return_only(n->kids[1]) && w->ctl.inline_depth == 0) {
		if (td && never_true_in_block(w, c)) {
			td = 0; /* no thread of the launched block ever returns here */
			b.uniformity = WALK_UNI_BLOCK;
		}
		walk_emit_early_return(w, n, c, b.uniformity, td);
		if (td && !w->ctl.div_return_line)
			w->ctl.div_return_line = n->loc.line;
		if (b.is_guard)
			w->ctl.guard_return = 1;
		/* `if (threadIdx.x != 0) return;` outside every loop and branch:
		 * all that follows runs on that lane alone */
		if (td && !w->ctl.nloops && !w->ctl.nbrs && walk_cond_pins_lane(w, c, 0))
			w->ctl.pin_rest = 1;
		/* host: `if (step % N != 0) return;` or `if (initialized) return;`
		 * at the top of a function: the rest runs on the rare pass only */
		if (!w->kernel && !w->ctl.nloops && !w->ctl.nbrs && b.first_run < 0 && !w->ctl.rest_run)
			w->ctl.rest_run = -b.first_run;
	}
	val *before = walk_env_save(w);
	w->ctl.brs[w->ctl.nbrs++] = b;
	int bar0 = w->ctl.brs[w->ctl.nbrs - 1].n_barriers;
	walk_stmt(w, n->kids[1]);
	int then_bar = w->ctl.brs[w->ctl.nbrs - 1].n_barriers > bar0;
	val *after_then = walk_env_save(w);
	walk_env_restore(w, before);
	int bar1 = w->ctl.brs[w->ctl.nbrs - 1].n_barriers;
	w->ctl.brs[w->ctl.nbrs - 1].pin = td && walk_cond_pins_lane(w, c, 0); /* the else branch */
	w->ctl.brs[w->ctl.nbrs - 1].in_else = 1;
	if (n->nkids > 2)
		walk_stmt(w, n->kids[2]);
	int else_bar = w->ctl.brs[w->ctl.nbrs - 1].n_barriers > bar1;
	b = w->ctl.brs[--w->ctl.nbrs];
	if (td && !(then_bar && else_bar)) /* with barriers in both arms, the skipping threads meet one */
		walk_close_divergent_branch(w, &b);
	env_merge(w, after_then, c);
	free(before);
	free(after_then);
	walk_emit_branch(w, n, c, &b, then_bar, else_bar);
}

static void compound(walk *w, ka_node *n)
{
	int prev_barrier = 0;
	for (int i = 0; i < n->nkids; i++) {
		ka_node *k = n->kids[i];
		w->ctl.next_stmt = i + 1 < n->nkids ? n->kids[i + 1] : NULL;
		w->ctl.last_was_barrier = prev_barrier;
		w->ctl.at_last_stmt = w->ctl.inline_depth == 0 && w->fn && n == w->fn->body &&
				      i == n->nkids - 1;
		ka_node *s = walk_strip(k);
		prev_barrier = walk_is_block_barrier(s);
		walk_stmt(w, k);
	}
}

/* The value an inlined call returns, joined over its return statements.
 * Lanes that leave by different returns get different values when a
 * return sits under a condition of the callee that differs between lanes
 * (`if (lane == 0) return a; return b;`): the join is thread-dependent.
 * Otherwise, returns of values each lane of a warp agrees on (a broadcast
 * `__shfl_sync(m, v, 0)`, a parameter bound to one, a constant) join into a
 * value the warp still agrees on (walk_opaque_pair keeps the lanes both
 * agree across); before, two such returns joined into an opaque
 * lane-dependent value, and every condition on the call's result (`if
 * (len == RETRY)`) read as divergent. */
static const sx *join_return(walk *w, const sx *prev, const sx *r)
{
	for (int i = w->sym.ret_brs_base; i < w->ctl.nbrs; i++)
		if (w->ctl.brs[i].uniformity == WALK_UNI_THREAD)
			w->sym.ret_div = 1;
	if (!prev)
		return r;
	if (w->sym.ret_div)
		return sx_opaque(&w->sym.sx, prev->dep | r->dep | D_LANE, prev->loops | r->loops);
	return walk_opaque_pair(w, prev, r);
}

void walk_stmt(walk *w, ka_node *n)
{
	if (!n || walk_budget_spent(w))
		return;
	switch (n->kind) {
	case KN_COMPOUND:
		compound(w, n);
		break;
	case KN_DECLSTMT:
		decl_stmt(w, n);
		break;
	case KN_IF:
		if_stmt(w, n);
		break;
	case KN_SWITCH:
		if (n->nkids) {
			const sx *c = walk_ev_int(w, n->kids[0]);
			br_ctx b = {.uniformity = walk_uniformity(w, c),
				    .line = n->loc.line,
				    .file = n->loc.file,
				    .nloops = w->ctl.nloops};
			if (w->ctl.nbrs < WALK_MAX_BRANCHES)
				w->ctl.brs[w->ctl.nbrs++] = b;
			else
				walk_limit_reached(w, WALK_LIMIT_BRANCHES, &n->loc);
			for (int i = 1; i < n->nkids; i++)
				walk_stmt(w, n->kids[i]);
			if (w->ctl.nbrs && w->ctl.brs[w->ctl.nbrs - 1].line == n->loc.line)
				w->ctl.nbrs--;
		}
		break;
	case KN_FOR:
		for_stmt(w, n);
		break;
	case KN_WHILE:
	case KN_DO:
		while_stmt(w, n);
		break;
	case KN_RETURN:
		if (n->nkids) {
			const sx *r = walk_ev_int(w, n->kids[0]);
			if (w->ctl.inline_depth)
				w->sym.ret_val = join_return(w, w->sym.ret_val, r);
		}
		if (!w->ctl.inline_depth && walk_in_divergent(w, NULL, NULL, NULL, 0) &&
		    !w->ctl.div_return_line)
			w->ctl.div_return_line = n->loc.line;
		break;
	case KN_CONTINUE:
		if (w->ctl.nloops && walk_in_divergent(w, NULL, NULL, NULL, 0))
			w->ctl.loops[w->ctl.nloops - 1].div_continue = 1;
		break;
	case KN_BREAK:
	case KN_NULLSTMT:
		break;
	case KN_CALL:
		w->ctl.stmt_level_call = 1;
		walk_ev(w, n, 0);
		w->ctl.stmt_level_call = 0;
		break;
	default:
		if (n->kind < KN_COMPOUND) {
			walk_ev(w, n, 0);
		} else {
			for (int i = 0; i < n->nkids; i++)
				walk_stmt(w, n->kids[i]);
		}
		break;
	}
}
