/* analyzer/walk_stmt.c: statements of the kernel walk.  Keeps the
 * environment of local definitions flow-sensitive (branches merge, loop-
 * carried variables become loop symbols), and emits the loop, branch,
 * early-return, reduction-loop and warp-synchronous-code facts. */
#include "analyzer/walk.h"
#include <stdlib.h>
#include <string.h>

/* A __shared__ scalar is one location for the whole block: what one thread
 * stored there (`if (tid == 0) n = m;`) is not that thread's private value,
 * and after the barrier every thread reads the same word.  So it keeps no
 * per-thread value; a read is a load at a uniform address (ev_declref). */
void walk_assign(walk *w, ka_decl *d, val v)
{
	if (d && d->kind == KD_VAR && (d->flags & KDF_SHARED) &&
	    !(d->tflags & (KT_POINTER | KT_ARRAY)))
		return;
	if (d && d->id < w->nenv)
		w->env[d->id] = v;
}

/* Variables whose value differs between two environments become opaque
 * symbols depending on both (and on the condition that chose).  `other` is
 * an env_save() of the same scope. */
static void env_merge(walk *w, const val *other, unsigned cond_dep, uint64_t cond_loops)
{
	for (int k = 0; k < w->nscope; k++) {
		int i = w->scope[k];
		const val *a = &w->env[i], *b = &other[k];
		if (a->x == b->x && a->base == b->base)
			continue;
		unsigned dep = (a->x ? a->x->dep : 0) | (b->x ? b->x->dep : 0) | cond_dep;
		uint64_t loops = (a->x ? a->x->loops : 0) | (b->x ? b->x->loops : 0) | cond_loops;
		val m = a->base ? *a : *b;
		int s = sx_new_sym(&w->sx, SYM_VAR, "merged", dep & ~D_OPAQUE, loops);
		w->sx.syms[s].lane_varying = (dep & D_LANE) != 0;
		m.x = sx_symref(&w->sx, s);
		w->env[i] = m;
	}
}

static void decl_stmt(walk *w, ka_node *n)
{
	for (int i = 0; i < n->nkids; i++) {
		ka_node *v = n->kids[i];
		ka_decl *d = v->ref;
		if (!d)
			continue;
		if (d->flags & (KDF_SHARED | KDF_CONSTANT) || (d->tflags & KT_ARRAY)) {
			note_array(w, d);
			if (d->init)
				ev(w, d->init, 0);
			continue;
		}
		if (!d->init) {
			int s = sx_new_sym(&w->sx, SYM_VAR, d->name, 0, 0);
			walk_assign(w, d, (val){.x = sx_symref(&w->sx, s)});
			continue;
		}
		ka_node *init = strip(d->init);
		val val = ev(w, d->init, 0);
		if (!w->is_device && init && ((init->kind == KN_CALL && init->name &&
		    (strcmp(init->name, "malloc") == 0 || strcmp(init->name, "calloc") == 0)) ||
		    (init->kind == KN_OTHER && (d->tflags & KT_POINTER))))
			w->ds[d->id].host_kind = 1;
		if (d->tflags & (KT_FLOAT | KT_DOUBLE))
			val.x = sx_opaque(&w->sx, val.x ? val.x->dep : 0, val.x ? val.x->loops : 0);
		walk_assign(w, d, val);
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
		t = strip(n->kids[0]);
	else if (n->kind == KN_UNOP && n->op >= OP_POSTINC && n->op <= OP_PREDEC && n->nkids)
		t = strip(n->kids[0]);
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
		const char *t = node_text(w, n->kids[0]);
		if (t && strchr(t, '%'))
			return 1;
	}
	for (int i = 0; i < n->nkids; i++)
		if (cond_has_rem(w, n->kids[i]))
			return 1;
	return 0;
}

typedef struct iv_info {
	ka_decl *iv;
	ka_node *step_node;
	int geometric;          /* 1 growing (*=, <<=), -1 shrinking (/=, >>=), 0 affine */
	int64_t step;
	int step_known;
} iv_info;

static void find_iv(walk *w, ka_node *init, ka_node *inc, iv_info *iv)
{
	memset(iv, 0, sizeof *iv);
	if (init && init->kind == KN_DECLSTMT && init->nkids == 1)
		iv->iv = init->kids[0]->ref;
	else if (init && init->kind == KN_BINOP && init->op == OP_ASSIGN &&
	         strip(init->kids[0])->kind == KN_DECLREF)
		iv->iv = strip(init->kids[0])->ref;
	if (!inc || !iv->iv)
		return;
	ka_node *t = inc->nkids ? strip(inc->kids[0]) : NULL;
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
	iv->step_known = fold_int(w, inc->kids[1], &iv->step);
	switch (inc->op) {
	case OP_ADDA: break;
	case OP_SUBA: iv->step = -iv->step; break;
	case OP_MULA: iv->geometric = 1; break;
	case OP_DIVA: iv->geometric = -1; break;
	case OP_SHLA: case OP_SHRA:      /* shifts by k: factors of 2^k */
		iv->geometric = inc->op == OP_SHLA ? 1 : -1;
		if (iv->step_known && iv->step >= 0 && iv->step < 31)
			iv->step = (int64_t)1 << iv->step;
		else
			iv->step_known = 0;
		break;
	default: iv->iv = NULL; break;
	}
}

static int64_t trip_count(const iv_info *iv, int64_t c0, ka_op op, int64_t bound, int *ok)
{
	*ok = 0;
	if (iv->geometric && iv->step_known && iv->step > 1) {
		/* s *= k / s <<= k / s /= k / s >>= k: count by stepping (bounded). */
		int64_t v = c0, n = 0;
		for (; n < 64; n++) {
			int in = op == OP_LT ? v < bound : op == OP_LE ? v <= bound : op == OP_GT ? v > bound :
			         op == OP_GE ? v >= bound : op == OP_NE ? v != bound : 0;
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

static void loop_fact(walk *w, ka_node *n, loop_ctx *lc, const char *kind, iv_info *iv,
                      const sx *cond, int64_t trip, int trip_ok)
{
	if (w->quiet)
		return;
	ka_row r;
	ka_row_begin(&r, "loop");
	ka_row_int(&r, "id", lc->id);
	ka_row_opt(&r, "kernel_id", w->kernel != NULL, w->kernel_id);
	ka_row_text(&r, "kernel", w->kernel ? w->kernel->name : NULL);
	ka_row_text(&r, "func", w->func);
	ka_row_loc(&r, &n->loc);
	ka_row_text(&r, "kind", kind);
	ka_row_text(&r, "iv", iv && iv->iv ? iv->iv->name : NULL);
	ka_row_int(&r, "iv_unsigned", iv && iv->iv && (iv->iv->tflags & KT_UNSIGNED));
	if (n->kind == KN_FOR) {
		/* the start value and the bound, not the whole statements */
		ka_node *c = strip(n->kids[1]);
		ka_node *bound = c && c->kind == KN_BINOP && c->nkids == 2 ? c->kids[1] : c;
		ka_node *init = iv && iv->iv && iv->iv->init ? iv->iv->init : n->kids[0];
		if (n->kids[0] && n->kids[0]->kind == KN_BINOP && n->kids[0]->nkids == 2)
			init = n->kids[0]->kids[1];
		ka_row_text(&r, "init_text", node_text(w, init));
		ka_row_text(&r, "bound_text", node_text(w, bound));
		ka_row_text(&r, "step_text", node_text(w, n->kids[2]));
	}
	ka_row_opt(&r, "trip_count", trip_ok, trip);
	ka_row_int(&r, "trip_uniform", !(cond->dep & D_LANE));
	ka_row_int(&r, "trip_thread_dependent", (cond->dep & D_LANE) != 0);
	ka_row_int(&r, "trip_data_dependent", (cond->dep & D_DATA) != 0);
	ka_row_int(&r, "has_unroll_pragma", n->unroll_pragma);
	ka_row_opt(&r, "unroll_count", n->unroll_pragma && n->unroll_count > 0, n->unroll_count);
	ka_row_int(&r, "depth", w->nloops);
	ka_row_opt(&r, "parent_id", w->nloops > 0, w->nloops ? w->loops[w->nloops - 1].id : 0);
	ka_row_int(&r, "has_barrier", lc->n_barriers > 0);
	ka_row_int(&r, "n_accesses", lc->n_accesses);
	const char *st = n->kind == KN_FOR ? node_text(w, n->kids[2]) : NULL;
	ka_row_int(&r, "is_grid_stride", st && strstr(st, "gridDim") != NULL);
	ka_row_int(&r, "trip_static", lc->trip_static);
	ka_row_insert(w->db, &r);
	w->n_loops++;
	if (iv && iv->iv && iv->geometric && lc->n_shared_writes > 0) {
		ka_row_begin(&r, "reduction_loop");
		ka_row_int(&r, "id", next_id(w));
		ka_row_opt(&r, "kernel_id", w->kernel != NULL, w->kernel_id);
		ka_row_text(&r, "kernel", w->kernel ? w->kernel->name : NULL);
		ka_row_text(&r, "func", w->func);
		ka_row_loc(&r, &n->loc);
		ka_row_text(&r, "style", iv->geometric < 0 ? "sequential" :
		            cond_has_rem(w, n->kids[3]) ? "interleaved" : "interleaved_index");
		ka_row_text(&r, "iv", iv->iv->name);
		ka_row_text(&r, "array", lc->shared_written);
		ka_row_insert(w->db, &r);
	}
}

/* Give loop-carried variables a fresh symbol that varies in this loop.  A
 * quiet pass over the body first learns what they come to depend on. */
static void loop_carried(walk *w, ka_node *body, loop_ctx *lc, ka_decl *skip)
{
	size_t ns = (size_t)(w->nscope ? w->nscope : 1);
	unsigned char *mark = calloc(ns, 1);
	unsigned *extra = calloc(ns, sizeof *extra);
	if (!mark || !extra)
		abort();
	assigned_in(w, body, mark);
	int sk = walk_scope_index(w, skip);
	if (sk >= 0)
		mark[sk] = 0;
	int pre = w->nloops < 3;    /* the quiet pass doubles the cost per nesting level */
	for (int pass = pre ? 0 : 1; pass < 2; pass++) {
		for (int k = 0; k < w->nscope; k++) {
			if (!mark[k])
				continue;
			const val *v = &w->env[w->scope[k]];
			unsigned dep = (v->x ? v->x->dep : 0) | D_LOOP | (pass && pre ? extra[k] : 0);
			int s = sx_new_sym(&w->sx, SYM_VAR, "carried", dep & ~D_OPAQUE,
			                   (v->x ? v->x->loops : 0) | (1ull << lc->slot));
			w->sx.syms[s].lane_varying = (dep & D_LANE) != 0;
			w->env[w->scope[k]].x = sx_symref(&w->sx, s);
		}
		if (pass == 0) {
			val *saved = env_save(w);
			w->quiet++;
			w->loops[w->nloops++] = *lc;
			st(w, body);
			w->nloops--;
			w->quiet--;
			for (int k = 0; k < w->nscope; k++) {
				const val *v = &w->env[w->scope[k]];
				extra[k] = mark[k] && v->x ? v->x->dep & D_LANE : 0;
			}
			env_restore(w, saved);
			free(saved);
		}
	}
	free(mark);
	free(extra);
}

static void for_stmt(walk *w, ka_node *n)
{
	ka_node *init = n->kids[0], *cond = n->kids[1], *inc = n->kids[2], *body = n->kids[3];
	if (init)
		st(w, init);
	iv_info iv;
	find_iv(w, init, inc, &iv);
	if (w->nloops >= 16) {
		st(w, body);
		return;
	}
	loop_ctx lc = {.id = (int)next_id(w), .slot = w->next_loop_slot++ % 64};
	lc.has_launch = !w->is_device && contains_launch(body);
	int64_t c0 = 0, bound = 0;
	int c0_ok = 0, trip_ok = 0;
	int64_t trip = 0;
	const sx *start_x = NULL;
	if (iv.iv) {
		val start = w->env[iv.iv->id];
		start_x = start.x;
		c0_ok = start.x && sx_is_const(start.x, &c0);
		const sx *stepx = iv.step_node ? ev_int(w, iv.step_node) : sx_const(&w->sx, iv.step);
		if (!iv.geometric && !(stepx->loops & (1ull << lc.slot)) && start.x) {
			int it = sx_new_sym(&w->sx, SYM_ITER, iv.iv->name, D_LOOP | (stepx->dep & ~D_OPAQUE),
			                    1ull << lc.slot);
			w->sx.syms[it].value = 0;
			w->sx.syms[it].has_value = 0;
			val v = start;
			v.x = sx_add(&w->sx, start.x, sx_mul(&w->sx, stepx, sx_symref(&w->sx, it)));
			w->env[iv.iv->id] = v;
		} else {
			unsigned dep = (start.x ? start.x->dep : 0) | stepx->dep | D_LOOP;
			int s = sx_new_sym(&w->sx, SYM_VAR, iv.iv->name, dep & ~D_OPAQUE, 1ull << lc.slot);
			w->sx.syms[s].value = c0_ok ? c0 : 1024;
			w->sx.syms[s].lane_varying = (dep & D_LANE) != 0;
			w->env[iv.iv->id].x = sx_symref(&w->sx, s);
		}
		ka_node *c = strip(cond);
		if (c && c->kind == KN_BINOP && c->nkids == 2 && strip(c->kids[0])->kind == KN_DECLREF &&
		    strip(c->kids[0])->ref == iv.iv && fold_int(w, c->kids[1], &bound) && c0_ok)
			trip = trip_count(&iv, c0, c->op, bound, &trip_ok);
	}
	lc.trip_static = trip_ok || (iv.iv && !iv.geometric && iv.step_known &&
	                             loop_is_static(w, cond, iv.iv, start_x, NULL));
	lc.unrollable = (trip_ok && trip <= 64) || (!trip_ok && lc.trip_static);
	loop_carried(w, body, &lc, iv.iv);
	const sx *cx = cond ? ev_int(w, cond) : sx_const(&w->sx, 1);
	lc.nonuniform = (cx->dep & D_LANE) != 0;
	w->loops[w->nloops++] = lc;
	st(w, body);
	if (inc)
		ev(w, inc, 0);
	lc = w->loops[--w->nloops];
	loop_fact(w, n, &lc, "for", &iv, cx, trip, trip_ok);
	if (iv.iv) {
		int s = sx_new_sym(&w->sx, SYM_VAR, iv.iv->name, cx->dep & ~D_OPAQUE, 0);
		w->env[iv.iv->id].x = sx_symref(&w->sx, s);
	}
}

static void while_stmt(walk *w, ka_node *n)
{
	int is_do = n->kind == KN_DO;
	ka_node *cond = n->kids[is_do ? 1 : 0], *body = n->kids[is_do ? 0 : 1];
	if (w->nloops >= 16) {
		st(w, body);
		return;
	}
	loop_ctx lc = {.id = (int)next_id(w), .slot = w->next_loop_slot++ % 64};
	lc.has_launch = !w->is_device && contains_launch(body);
	loop_carried(w, body, &lc, NULL);
	const sx *cx = cond ? ev_int(w, cond) : sx_const(&w->sx, 1);
	lc.nonuniform = (cx->dep & D_LANE) != 0;
	w->loops[w->nloops++] = lc;
	st(w, body);
	lc = w->loops[--w->nloops];
	loop_fact(w, n, &lc, is_do ? "do" : "while", NULL, cx, 0, 0);
}

static int is_return_only(ka_node *n)
{
	if (!n)
		return 0;
	if (n->kind == KN_RETURN)
		return 1;
	return n->kind == KN_COMPOUND && n->nkids == 1 && n->kids[0]->kind == KN_RETURN;
}

static void early_return_fact(walk *w, ka_node *n, const char *u, int thread_dep)
{
	if (w->quiet || !w->kernel || w->inline_depth)
		return;
	ka_row r;
	ka_row_begin(&r, "early_return");
	ka_row_int(&r, "id", next_id(w));
	ka_row_int(&r, "kernel_id", w->kernel_id);
	ka_row_text(&r, "kernel", w->kernel->name);
	ka_row_text(&r, "func", w->func);
	ka_row_loc(&r, &n->kids[1]->loc);
	ka_row_text(&r, "cond_text", node_text(w, n->kids[0]));
	ka_row_int(&r, "thread_dependent", thread_dep);
	ka_row_text(&r, "uniformity", u);
	ka_row_int(&r, "before_barrier", 0);
	ka_row_opt(&r, "if_begin_off", !n->loc.in_macro, n->loc.begin);
	ka_row_opt(&r, "if_end_off", !n->loc.in_macro, n->loc.end);
	ka_row_opt(&r, "cond_begin_off", !n->kids[0]->loc.in_macro, n->kids[0]->loc.begin);
	ka_row_opt(&r, "cond_end_off", !n->kids[0]->loc.in_macro, n->kids[0]->loc.end);
	ka_row_insert(w->db, &r);
}

void branch_fact(walk *w, ka_node *n, const sx *c, br_ctx *b, int then_bar, int else_bar)
{
	if (w->quiet)
		return;
	ka_row r;
	ka_row_begin(&r, "branch");
	ka_row_int(&r, "id", next_id(w));
	ka_row_opt(&r, "kernel_id", w->kernel != NULL, w->kernel_id);
	ka_row_text(&r, "kernel", w->kernel ? w->kernel->name : NULL);
	ka_row_text(&r, "func", w->func);
	ka_row_loc(&r, &n->loc);
	ka_row_text(&r, "cond_text", node_text(w, n->kids[0]));
	ka_row_text(&r, "kind", n->kind == KN_SWITCH ? "switch" : n->kind == KN_COND ? "ternary" : "if");
	ka_row_text(&r, "uniformity", b->uniformity);
	int td = strcmp(b->uniformity, "thread") == 0 || strcmp(b->uniformity, "warp") == 0;
	ka_row_int(&r, "thread_dependent", td);
	ka_row_int(&r, "warp_uniform", strcmp(b->uniformity, "thread") != 0);
	ka_row_int(&r, "block_uniform", !td);
	ka_row_int(&r, "lane_parity", c->has_rem_small && strcmp(b->uniformity, "thread") == 0);
	ka_row_int(&r, "data_dependent", (c->dep & D_DATA) != 0);
	int has_else = n->kind == KN_IF && n->nkids > 2 && n->kids[2];
	ka_row_int(&r, "has_else", has_else);
	ka_node *th = n->nkids > 1 ? n->kids[1] : NULL;
	ka_row_int(&r, "then_stmts", th ? (th->kind == KN_COMPOUND ? th->nkids : 1) : 0);
	ka_node *el = has_else ? n->kids[2] : NULL;
	ka_row_int(&r, "else_stmts", el ? (el->kind == KN_COMPOUND ? el->nkids : 1) : 0);
	ka_row_int(&r, "then_has_barrier", then_bar);
	ka_row_int(&r, "else_has_barrier", else_bar);
	ka_row_int(&r, "depth", w->nbrs);
	ka_row_int(&r, "in_loop", w->nloops > 0);
	ka_row_int(&r, "is_guard", b->is_guard);
	ka_row_int(&r, "is_early_return", is_return_only(th));
	ka_row_insert(w->db, &r);
	if (td && strcmp(b->uniformity, "warp") == 0 && b->n_shared_writes >= 2 && !then_bar &&
	    w->kernel) {
		ka_row_begin(&r, "divergent_warp_code");
		ka_row_int(&r, "id", next_id(w));
		ka_row_int(&r, "kernel_id", w->kernel_id);
		ka_row_text(&r, "kernel", w->kernel->name);
		ka_row_text(&r, "func", w->func);
		ka_row_loc(&r, &n->loc);
		ka_row_text(&r, "cond_text", node_text(w, n->kids[0]));
		ka_row_int(&r, "n_shared_steps", b->n_shared_writes);
		ka_row_int(&r, "uses_volatile", b->uses_volatile);
		ka_row_int(&r, "has_syncwarp", b->n_syncwarp > 0);
		ka_row_insert(w->db, &r);
	}
}

/* 1 when the condition holds for no thread of the block the kernel is
 * launched with: `if (threadIdx.y >= ROWS) return;` under a launch of
 * dim3(32, ROWS).  Only for a launch-given shape and a condition of thread
 * ids, dims and constants (nothing assumed, nothing loaded). */
static int never_true_in_block(walk *w, const sx *c)
{
	if (strcmp(w->block_source, "launch") != 0 || (c->dep & ~(D_LANE | D_PARAM)) ||
	    sx_has_unknown(&w->sx, c))
		return 0;
	int64_t nthreads = (int64_t)w->block[0] * w->block[1] * w->block[2];
	if (nthreads <= 0 || nthreads > 1024)
		return 0;
	sx_lane l;
	for (l.tid[2] = 0; l.tid[2] < w->block[2]; l.tid[2]++)
		for (l.tid[1] = 0; l.tid[1] < w->block[1]; l.tid[1]++)
			for (l.tid[0] = 0; l.tid[0] < w->block[0]; l.tid[0]++) {
				int64_t v;
				if (sx_eval(&w->sx, c, &l, &v) || v)
					return 0;
			}
	return 1;
}

static void if_stmt(walk *w, ka_node *n)
{
	if (!n->kids[0]) {
		for (int i = 1; i < n->nkids; i++)
			st(w, n->kids[i]);
		return;
	}
	const sx *c = ev_int(w, n->kids[0]);
	br_ctx b = {.uniformity = uniformity_of(w, c), .line = n->loc.line,
	            .is_guard = is_guard_value(c)};
	int td = strcmp(b.uniformity, "thread") == 0 || strcmp(b.uniformity, "warp") == 0;
	if (b.is_guard && w->inline_depth == 0)
		w->has_guard = 1;
	if (w->nbrs >= 32) {
		st(w, n->kids[1]);
		st(w, n->kids[2]);
		return;
	}
	if (n->kind == KN_IF && is_return_only(n->kids[1]) && w->inline_depth == 0) {
		if (td && never_true_in_block(w, c)) {
			td = 0;   /* no thread of the launched block ever returns here */
			b.uniformity = "block";
		}
		early_return_fact(w, n, b.uniformity, td);
		if (td && !w->div_return_line)
			w->div_return_line = n->loc.line;
		if (b.is_guard)
			w->guard_return = 1;
	}
	val *before = env_save(w);
	w->brs[w->nbrs++] = b;
	int bar0 = w->brs[w->nbrs - 1].n_barriers;
	st(w, n->kids[1]);
	int then_bar = w->brs[w->nbrs - 1].n_barriers > bar0;
	val *after_then = env_save(w);
	env_restore(w, before);
	int bar1 = w->brs[w->nbrs - 1].n_barriers;
	if (n->nkids > 2)
		st(w, n->kids[2]);
	int else_bar = w->brs[w->nbrs - 1].n_barriers > bar1;
	b = w->brs[--w->nbrs];
	env_merge(w, after_then, c->dep & ~D_OPAQUE, c->loops);
	free(before);
	free(after_then);
	branch_fact(w, n, c, &b, then_bar, else_bar);
}

static void compound(walk *w, ka_node *n)
{
	int prev_barrier = 0;
	for (int i = 0; i < n->nkids; i++) {
		ka_node *k = n->kids[i];
		w->next_stmt = i + 1 < n->nkids ? n->kids[i + 1] : NULL;
		w->last_was_barrier = prev_barrier;
		w->at_last_stmt = w->inline_depth == 0 && w->fn && n == w->fn->body && i == n->nkids - 1;
		ka_node *s = strip(k);
		prev_barrier = is_block_barrier_call(s);
		st(w, k);
	}
}

void st(walk *w, ka_node *n)
{
	if (!n || walk_budget_spent(w))
		return;
	switch (n->kind) {
	case KN_COMPOUND: compound(w, n); break;
	case KN_DECLSTMT: decl_stmt(w, n); break;
	case KN_IF: if_stmt(w, n); break;
	case KN_SWITCH:
		if (n->nkids) {
			const sx *c = ev_int(w, n->kids[0]);
			br_ctx b = {.uniformity = uniformity_of(w, c), .line = n->loc.line};
			if (w->nbrs < 32)
				w->brs[w->nbrs++] = b;
			for (int i = 1; i < n->nkids; i++)
				st(w, n->kids[i]);
			if (w->nbrs && w->brs[w->nbrs - 1].line == n->loc.line)
				w->nbrs--;
		}
		break;
	case KN_FOR: for_stmt(w, n); break;
	case KN_WHILE: case KN_DO: while_stmt(w, n); break;
	case KN_RETURN:
		if (n->nkids) {
			const sx *r = ev_int(w, n->kids[0]);
			if (w->inline_depth)
				w->ret_val = w->ret_val ? sx_opaque(&w->sx, w->ret_val->dep | r->dep,
				                                    w->ret_val->loops | r->loops) : r;
		}
		if (!w->inline_depth && in_divergent(w, NULL, NULL, 0) && !w->div_return_line)
			w->div_return_line = n->loc.line;
		break;
	case KN_BREAK: case KN_CONTINUE: case KN_NULLSTMT:
		break;
	case KN_CALL:
		w->stmt_level_call = 1;
		ev(w, n, 0);
		w->stmt_level_call = 0;
		break;
	default:
		if (n->kind < KN_COMPOUND) {
			ev(w, n, 0);
		} else {
			for (int i = 0; i < n->nkids; i++)
				st(w, n->kids[i]);
		}
		break;
	}
}
