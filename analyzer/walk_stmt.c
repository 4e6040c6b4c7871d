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
 * an walk_env_save() of the same scope. */
static void env_merge(walk *w, const val *other, unsigned cond_dep, uint64_t cond_loops)
{
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
		val val = walk_ev(w, d->init, 0);
		if (!w->is_device && init &&
		    ((init->kind == KN_CALL && init->name &&
		      (strcmp(init->name, "malloc") == 0 || strcmp(init->name, "calloc") == 0)) ||
		     (init->kind == KN_OTHER && (d->tflags & KT_POINTER))))
			w->sym.ds[d->id].host_kind = 1;
		if (d->tflags & (KT_FLOAT | KT_DOUBLE))
			val.x = sx_opaque(&w->sym.sx, val.x ? val.x->dep : 0, val.x ? val.x->loops : 0);
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

typedef struct iv_info {
	ka_decl *iv;
	ka_node *step_node;
	int geometric; /* 1 growing (*=, <<=), -1 shrinking (/=, >>=), 0 affine */
	int64_t step;
	int step_known;
} iv_info;

static void find_iv(walk *w, ka_node *init, ka_node *inc, iv_info *iv)
{
	memset(iv, 0, sizeof *iv);
	if (init && init->kind == KN_DECLSTMT && init->nkids == 1)
		iv->iv = init->kids[0]->ref;
	else if (init && init->kind == KN_BINOP && init->op == OP_ASSIGN &&
		 walk_strip(init->kids[0])->kind == KN_DECLREF)
		iv->iv = walk_strip(init->kids[0])->ref;
	if (!inc || !iv->iv)
		return;
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

static void loop_fact(walk *w, ka_node *n, loop_ctx *lc, const char *kind, iv_info *iv, const sx *cond,
		      int64_t trip, int trip_ok)
{
	if (w->ctl.quiet)
		return;
	walk_emit_loop(w, n, lc, kind, iv ? iv->iv : NULL, cond, trip, trip_ok);
	w->tally.n_loops++;
	if (iv && iv->iv && iv->geometric && lc->n_shared_writes > 0) {
		const char *style = iv->geometric < 0                                      ? "sequential"
				    : reads_behind(n->kids[3], iv->iv, lc->shared_written) ? "scan"
				    : cond_has_rem(w, n->kids[3])                          ? "interleaved"
				    : index_scales_iv(n->kids[3], iv->iv) ? "interleaved_index"
									  : NULL;
		if (style)
			walk_emit_reduction(w, n, style, iv->iv->name, lc->shared_written);
	}
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
			w->ctl.quiet++;
			w->ctl.loops[w->ctl.nloops++] = *lc;
			walk_stmt(w, body);
			w->ctl.nloops--;
			w->ctl.quiet--;
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

/* 1 when n itself assigns d (`d = ...`, `d += ...`, `++d`). */
static int sets_decl(const ka_node *n, const ka_decl *d)
{
	ka_node *t = NULL;
	if (n->kind == KN_BINOP && n->op >= OP_ASSIGN && n->op <= OP_ORA && n->nkids)
		t = walk_strip(n->kids[0]);
	else if (n->kind == KN_UNOP && n->op >= OP_POSTINC && n->op <= OP_PREDEC && n->nkids)
		t = walk_strip(n->kids[0]);
	return t && t->kind == KN_DECLREF && t->ref == d;
}

/* 1 when some node of n assigns d. */
static int assigns_decl(const ka_node *n, const ka_decl *d)
{
	if (!n)
		return 0;
	if (sets_decl(n, d))
		return 1;
	for (int i = 0; i < n->nkids; i++)
		if (assigns_decl(n->kids[i], d))
			return 1;
	return 0;
}

/* 1 when the loop body n can leave the loop early (a break of this loop, a
 * return) or assigns the induction variable iv itself. */
static int body_leaves_or_sets(ka_node *n, const ka_decl *iv, int nested)
{
	if (!n)
		return 0;
	if (n->kind == KN_RETURN || (n->kind == KN_BREAK && !nested))
		return 1;
	if (sets_decl(n, iv))
		return 1;
	int inner = nested || n->kind == KN_FOR || n->kind == KN_WHILE || n->kind == KN_DO ||
		    n->kind == KN_SWITCH;
	for (int i = 0; i < n->nkids; i++)
		if (body_leaves_or_sets(n->kids[i], iv, inner))
			return 1;
	return 0;
}

/* A loop `for (i = start; i < bound; i += step)` whose start differs between
 * threads but whose trip count does not, in the block the kernel is launched
 * with: `for (i = tid; i < blockSize; i += 128)` under a launch of 128
 * threads and blockSize 1024 runs 8 trips in every thread.  Decided by
 * counting each thread's trips from bound - start, with the launch's block
 * shape and the constants every launch passes (sx_eval_launch); anything
 * left there that is not known (blockIdx that does not cancel, a loaded
 * value, a parameter the launches disagree on) keeps the loop
 * thread-dependent. */
static int trips_agree_in_block(walk *w, ka_node *cond, ka_node *inc, ka_node *body, const iv_info *iv,
				const sx *start, const sx *step)
{
	if (!w->kernel || !w->block_source || strcmp(w->block_source, "launch") != 0 || !iv->iv ||
	    iv->geometric || !start || !step || !inc)
		return 0;
	if (!(inc->kind == KN_BINOP && inc->op == OP_ADDA) &&
	    !(inc->kind == KN_UNOP && (inc->op == OP_POSTINC || inc->op == OP_PREINC)))
		return 0;
	ka_node *c = walk_strip(cond);
	if (!c || c->kind != KN_BINOP || c->nkids != 2 || (c->op != OP_LT && c->op != OP_LE))
		return 0;
	ka_node *l = walk_strip(c->kids[0]);
	if (!l || l->kind != KN_DECLREF || l->ref != iv->iv || body_leaves_or_sets(body, iv->iv, 0))
		return 0;
	w->ctl.quiet++;
	const sx *bound = walk_ev_int(w, c->kids[1]);
	w->ctl.quiet--;
	if ((bound->dep & D_LANE) || (step->dep & D_LANE))
		return 0;
	int64_t nthreads = (int64_t)w->block[0] * w->block[1] * w->block[2];
	if (nthreads <= 0 || nthreads > 1024)
		return 0;
	/* bound - start: a uniform offset both carry (blockIdx.x * T, a base
	 * read from memory) cancels, so only what differs between threads and
	 * the launch's constants are left to evaluate */
	const sx *span = sx_add(&w->sym.sx, bound, sx_neg(&w->sym.sx, start));
	int64_t first = -1;
	sx_lane ln;
	for (ln.tid[2] = 0; ln.tid[2] < w->block[2]; ln.tid[2]++)
		for (ln.tid[1] = 0; ln.tid[1] < w->block[1]; ln.tid[1]++)
			for (ln.tid[0] = 0; ln.tid[0] < w->block[0]; ln.tid[0]++) {
				int64_t d, st, trip;
				if (sx_eval_launch(&w->sym.sx, span, &ln, &d) ||
				    sx_eval_launch(&w->sym.sx, step, &ln, &st) || st <= 0 ||
				    d < -(1ll << 40) || d > (1ll << 40))
					return 0;
				if (c->op == OP_LT)
					trip = d > 0 ? (d + st - 1) / st : 0;
				else
					trip = d >= 0 ? d / st + 1 : 0;
				if (first >= 0 && trip != first)
					return 0;
				first = trip;
			}
	return first >= 0;
}

/* 1 when the value x is the block's x size at every launch of the kernel:
 * blockDim.x, or a template parameter that each launch binds to the x size
 * of its block (`k<T, NTX><<<g, dim3(NTX, NTY)>>>` in a launch whose NTX
 * is 32), or a constant (such a parameter folded to its value) that is the
 * x size of every launch. */
static int is_block_width(walk *w, const sx *x)
{
	int64_t c;
	if (x && sx_is_const(x, &c)) {
		/* a template argument folded to its value: every launch's x size */
		int seen = 0;
		for (int i = 0; w->kernel && i < w->host.nlaunches; i++) {
			const launch_info *li = &w->host.launches[i];
			if (li->kernel != w->kernel)
				continue;
			if (li->bx <= 0 || li->bx != c)
				return 0;
			seen = 1;
		}
		return seen;
	}
	if (!x || x->k != SX_SYM)
		return 0;
	const sx_sym *y = &w->sym.sx.syms[x->sym];
	if (y->kind == SYM_BDIM_X)
		return 1;
	const ka_decl *k = w->kernel;
	int jj = -1, nint = 0, jall = -1;
	for (int j = 0; k && y->name && j < k->ntparams; j++) {
		if (!(k->tparams[j]->tflags & KT_INT))
			continue;
		if (k->tparams[j]->name && strcmp(k->tparams[j]->name, y->name) == 0) {
			jj = nint;
			jall = j;
		}
		nint++;
	}
	if (jj < 0)
		return 0;
	int seen = 0;
	for (int i = 0; i < w->host.nlaunches; i++) {
		const launch_info *li = &w->host.launches[i];
		if (li->kernel != k)
			continue;
		int as_bx = jall < 8 && (li->targ_is_bx & (1u << jall));
		if (!as_bx && (li->bx <= 0 || li->ntargs <= jj || li->targs[jj] != li->bx))
			return 0;
		seen = 1;
	}
	return seen;
}

/* 1 when the kernel argument p of a launch is the launching function's
 * parameter q and its block's x size is the function's template parameter
 * t, and every call of that function in the file tests `arg_q % M == 0` in
 * a branch around it with M its template argument t (`if (n % 16 == 0)
 * run<T, 16>(x, n);` and `run` launches `k<<<g, dim3(NTX)>>>(x, n)`). */
static int guarded_by_callers(walk *w, const launch_info *li, int p)
{
	int q = p < 16 ? li->arg_param[p] : -1, t = li->bx_tparam, calls = 0;
	if (q < 0 || q >= 16 || t < 0 || t >= 8 || !li->func)
		return 0;
	for (int i = 0; i < w->host.nguards; i++) {
		const host_call_guard *g = &w->host.guards[i];
		if (strcmp(g->callee, li->func) != 0)
			continue;
		if (!g->argmod[q] || !(g->targ_known & (1u << t)) || g->targv[t] != g->argmod[q])
			return 0;
		calls++;
	}
	return calls > 0;
}

/* 1 when the local `r` is visibly a multiple of the block width W: a
 * constant whose initializer is a product with a factor of W's value
 * (`const int padded = blockDim.x * ((n + blockDim.x - 1) / blockDim.x)`)
 * or masks off the bits below W, or a plain local that the loop body does
 * not assign, by its value where the loop starts. */
/* 1 when n clears the low bits below a constant power-of-two block width
 * W: `(n + 511) & ~511` under a block of 512. */
static int masked_to_width(walk *w, ka_node *n, const sx *wdt)
{
	int64_t wv, m;
	n = walk_strip(n);
	if (!n || n->kind != KN_BINOP || n->op != OP_AND || n->nkids != 2 || !sx_is_const(wdt, &wv) ||
	    wv <= 0 || (wv & (wv - 1)) != 0)
		return 0;
	for (int side = 0; side < 2; side++) {
		ka_node *k = walk_strip(n->kids[side]);
		int neg = k && k->kind == KN_UNOP && k->op == OP_NOT && k->nkids == 1;
		int ok = k && walk_fold_int(w, neg ? k->kids[0] : k, &m);
		if (neg)
			m = ~m;
		/* ~(W - 1), as a signed or a 32-bit unsigned value */
		if (ok && (m == -wv || (m == (int64_t)(uint32_t)-wv && m > 0)))
			return 1;
	}
	return 0;
}

static int local_multiple_of(walk *w, const ka_decl *r, const sx *wdt, const ka_node *body)
{
	if (!r || r->kind == KD_PARAM || (r->flags & KDF_GLOBAL))
		return 0;
	if (r->init && masked_to_width(w, r->init, wdt) &&
	    ((r->flags & KDF_CONSTQ) || (w->kernel && !assigns_decl(w->kernel->body, r))))
		return 1;
	if (r->flags & KDF_CONSTQ) {
		if (!r->init)
			return 0;
		w->ctl.quiet++;
		const sx *v = walk_ev_int(w, r->init);
		w->ctl.quiet--;
		return walk_has_factor(w, v, wdt);
	}
	/* a plain local the loop does not assign: its value at the loop's
	 * entry (`int end = (n + B - 1) / B * B;`) */
	const sx *v = r->id < w->file.nenv ? w->sym.env[r->id].x : NULL;
	return v && !assigns_decl(body, r) && walk_has_factor(w, v, wdt);
}

/* 1 when x is one value for the whole block whatever the thread: a
 * block-wide vote (`__syncthreads_count/_or/_and`), a local that holds one
 * and that the loop body does not assign, or an integer constant. */
static int block_vote_value(walk *w, ka_node *x, const ka_node *body)
{
	x = walk_strip(x);
	if (!x)
		return 0;
	if (x->kind == KN_DECLREF && x->ref && x->ref->kind == KD_VAR && !(x->ref->flags & KDF_GLOBAL) &&
	    x->ref->init && !assigns_decl(body, x->ref))
		x = walk_strip(x->ref->init);
	if (x && x->kind == KN_CALL && x->name &&
	    (!strcmp(x->name, "__syncthreads_count") || !strcmp(x->name, "__syncthreads_or") ||
	     !strcmp(x->name, "__syncthreads_and")))
		return 1;
	int64_t v;
	w->ctl.quiet++;
	int ok = x && x->kind != KN_CALL && walk_fold_int(w, x, &v);
	w->ctl.quiet--;
	return ok;
}

/* 1 when x is the loop counter iv plus a multiple of the block width W
 * (`i`, `i + BLOCK_SIZE`). */
static int counter_plus_width(walk *w, ka_node *x, const ka_decl *iv, const sx *wdt)
{
	x = walk_strip(x);
	if (x && x->kind == KN_DECLREF)
		return x->ref == iv;
	if (!x || x->kind != KN_BINOP || x->op != OP_ADD || x->nkids != 2)
		return 0;
	for (int side = 0; side < 2; side++) {
		ka_node *a = walk_strip(x->kids[side]);
		if (!a || a->kind != KN_DECLREF || a->ref != iv)
			continue;
		w->ctl.quiet++;
		const sx *k = walk_ev_int(w, x->kids[1 - side]);
		w->ctl.quiet--;
		if (!(k->dep & D_LANE) && walk_has_factor(w, k, wdt))
			return 1;
	}
	return 0;
}

/* 1 when the exit test c of an aligned stride loop over iv, bounded by
 * `end` (a multiple of the block width W), has one value across the block
 * at each trip: a comparison of block-wide votes and constants (`count !=
 * 0`), the counter plus a multiple of W against the bound (`i + W >= end`:
 * at a given trip every thread's counter lies in the same W-aligned window
 * below `end`, so all or none pass; `>` or `<=` would split the window),
 * and `!`, `&&`, `||` of such tests. */
static int uniform_exit_test(walk *w, ka_node *c, const ka_decl *iv, const ka_decl *end, const sx *wdt,
			     const ka_node *body)
{
	c = walk_strip(c);
	if (!c)
		return 0;
	if (c->kind == KN_UNOP && c->op == OP_LNOT && c->nkids == 1)
		return uniform_exit_test(w, c->kids[0], iv, end, wdt, body);
	if (c->kind != KN_BINOP || c->nkids != 2)
		return block_vote_value(w, c, body);
	if (c->op == OP_LAND || c->op == OP_LOR)
		return uniform_exit_test(w, c->kids[0], iv, end, wdt, body) &&
		       uniform_exit_test(w, c->kids[1], iv, end, wdt, body);
	if (c->op < OP_LT || c->op > OP_NE)
		return 0;
	if (block_vote_value(w, c->kids[0], body) && block_vote_value(w, c->kids[1], body))
		return 1;
	ka_node *l = walk_strip(c->kids[0]), *r = walk_strip(c->kids[1]);
	if (end && r && r->kind == KN_DECLREF && r->ref == end && (c->op == OP_GE || c->op == OP_LT))
		return counter_plus_width(w, l, iv, wdt);
	if (end && l && l->kind == KN_DECLREF && l->ref == end && (c->op == OP_LE || c->op == OP_GT))
		return counter_plus_width(w, r, iv, wdt);
	return 0;
}

/* 1 when n is `break;` or a block that ends in one. */
static int ends_in_break(const ka_node *n)
{
	while (n && n->kind == KN_COMPOUND && n->nkids)
		n = n->kids[n->nkids - 1];
	return n && n->kind == KN_BREAK;
}

/* 1 when every way out of an aligned stride loop's body n (a break of the
 * loop, a return) and every assignment of its counter iv lies in the
 * then-branch of an `if` without an else that ends in `break;` and whose
 * test has one value across the block at each trip (uniform_exit_test):
 * lmdeploy's sampling loops leave on `count != 0 || i + BLOCK_SIZE >= end`
 * with `count` from `__syncthreads_count`.  Every thread then leaves at the
 * same trip. */
static int exits_uniform(walk *w, ka_node *n, const ka_decl *iv, const ka_decl *end, const sx *wdt,
			 const ka_node *body, int nested)
{
	if (!n || !body_leaves_or_sets(n, iv, nested))
		return 1;
	if (n->kind == KN_RETURN || (n->kind == KN_BREAK && !nested) || sets_decl(n, iv))
		return 0;
	if (!nested && n->kind == KN_IF && n->nkids >= 2 && n->kids[0] && (n->nkids < 3 || !n->kids[2]) &&
	    ends_in_break(n->kids[1]) && uniform_exit_test(w, n->kids[0], iv, end, wdt, body))
		return 1;
	int inner = nested || n->kind == KN_FOR || n->kind == KN_WHILE || n->kind == KN_DO ||
		    n->kind == KN_SWITCH;
	for (int i = 0; i < n->nkids; i++)
		if (!exits_uniform(w, n->kids[i], iv, end, wdt, body, inner))
			return 0;
	return 1;
}

/* 1 when no launch of the kernel is in sight (a device function analysed
 * on its own, a kernel started from another file).  A block-stride loop
 * `for (j = tid; j < L * N; j += N)` then names the block width itself: it
 * visits each element once only when the block has N threads (with fewer,
 * elements are skipped; with more, visited twice), so N is the width the
 * code is written for. */
static int no_launch_seen(const walk *w)
{
	for (int i = 0; w->kernel && i < w->host.nlaunches; i++)
		if (w->host.launches[i].kernel == w->kernel)
			return 0;
	return w->kernel != NULL;
}

/* A block-aligned stride loop: `for (i = threadIdx.x + blockIdx.x * W; i <
 * n; i += gridDim.x * W)` with W the block's x size, whose bound n is a
 * multiple of the block's x size: a kernel parameter that every launch
 * shows to be one (launch_info.argmul: a host branch `if (n % W == 0)`
 * around it), or a local constant computed as one (`padded = blockDim.x *
 * ceil(n / blockDim.x)`, the threads past n masked in the body).
 * The threads of a block then differ only in the low part of i, below W,
 * and n - i crosses a multiple of the step at the same trip in every one:
 * the trip count is the same across the block (a barrier in the body is
 * reached by all of its threads). */
static int aligned_stride_loop(walk *w, ka_node *cond, ka_node *body, const iv_info *iv, const sx *start,
			       const sx *step)
{
	if (!w->kernel || !iv->iv || iv->geometric || !start || !step)
		return 0;
	ka_node *c = walk_strip(cond);
	if (!c || c->kind != KN_BINOP || c->nkids != 2 || c->op != OP_LT)
		return 0;
	ka_node *l = walk_strip(c->kids[0]), *r = walk_strip(c->kids[1]);
	if (!l || l->kind != KN_DECLREF || l->ref != iv->iv || !r || (r->kind == KN_DECLREF && !r->ref))
		return 0;
	/* start = threadIdx.x + blockIdx.x * W (or + 0), step = gridDim.x * W or W */
	sx_ctx *cx = &w->sym.sx;
	const sx *one = sx_coef(cx, start, SYM_TID_X), *ty = sx_coef(cx, start, SYM_TID_Y),
		 *tz = sx_coef(cx, start, SYM_TID_Z);
	int64_t v;
	if (!one || !sx_is_const(one, &v) || v != 1 || !ty || !sx_is_const(ty, &v) || v != 0 || !tz ||
	    !sx_is_const(tz, &v) || v != 0)
		return 0;
	const sx *wdt = sx_coef(cx, step, SYM_GDIM_X);
	if (!wdt || (sx_is_const(wdt, &v) && v == 0))
		wdt = step; /* a block stride: step = W */
	if (!is_block_width(w, wdt) && !(no_launch_seen(w) && !(wdt->dep & D_LANE)))
		return 0;
	/* what is left of start without threadIdx.x: 0 or blockIdx.x * W */
	const sx *rest = start;
	for (int i = 0; i < cx->nsyms; i++)
		if (cx->syms[i].kind == SYM_TID_X && sx_uses_sym(rest, i))
			rest = sx_add(cx, rest, sx_neg(cx, sx_symref(cx, i)));
	if (rest->dep & D_LANE)
		return 0;
	if (!sx_is_const(rest, &v)) {
		const sx *bw = sx_coef(cx, rest, SYM_BID_X);
		if (!bw || !sx_same_value(cx, bw, wdt))
			return 0;
		for (int i = 0; i < cx->nsyms; i++)
			if (cx->syms[i].kind == SYM_BID_X && sx_uses_sym(rest, i))
				rest = sx_add(cx, rest, sx_neg(cx, sx_mul(cx, sx_symref(cx, i), bw)));
	}
	if (!sx_is_const(rest, &v) || v != 0)
		return 0;
	const ka_decl *end = r->kind == KN_DECLREF ? r->ref : NULL;
	if (!exits_uniform(w, body, iv->iv, end, wdt, body, 0))
		return 0;
	/* the bound: a multiple of W, written out (`rounds * 256`) */
	if (!end) {
		w->ctl.quiet++;
		const sx *bv = walk_ev_int(w, r);
		w->ctl.quiet--;
		return !(bv->dep & D_LANE) && walk_has_factor(w, bv, wdt);
	}
	/* or held by a local or a parameter */
	if (local_multiple_of(w, r->ref, wdt, body))
		return 1;
	int p = -1;
	for (int i = 0; i < w->kernel->nparams && i < 16; i++)
		if (w->kernel->params[i] == r->ref)
			p = i;
	if (p < 0)
		return 0;
	int seen = 0;
	for (int i = 0; i < w->host.nlaunches; i++) {
		const launch_info *li = &w->host.launches[i];
		if (li->kernel != w->kernel)
			continue;
		if (!(li->argmul & (1u << p)) && !guarded_by_callers(w, li, p))
			return 0;
		seen = 1;
	}
	return seen;
}

/* A loop whose start and bound carry the same thread-dependent offset:
 * `for (t = b*T*C + h*N + i; t < (b + 1)*T*C + h*N + i; t += C)` (RWKV's
 * per-channel scans, i the thread).  The counter runs from start to bound
 * by a step that is the same in every thread, and bound - start has no
 * thread dependence left once the common terms cancel: the trip count is
 * the same in every thread. */
static int same_offset_bound(walk *w, ka_node *cond, ka_node *body, const iv_info *iv, const sx *start,
			     const sx *step)
{
	if (!iv->iv || iv->geometric || !start || !step || (step->dep & D_LANE) ||
	    body_leaves_or_sets(body, iv->iv, 0))
		return 0;
	ka_node *c = walk_strip(cond);
	if (!c || c->kind != KN_BINOP || c->nkids != 2 || c->op < OP_LT || c->op > OP_NE || c->op == OP_EQ)
		return 0;
	ka_node *l = walk_strip(c->kids[0]);
	if (!l || l->kind != KN_DECLREF || l->ref != iv->iv)
		return 0;
	w->ctl.quiet++;
	const sx *bound = walk_ev_int(w, c->kids[1]);
	w->ctl.quiet--;
	if (!(bound->dep & D_LANE) || !(start->dep & D_LANE))
		return 0;
	const sx *span = sx_add(&w->sym.sx, bound, sx_neg(&w->sym.sx, start));
	return !(span->dep & D_LANE);
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
	int counted = 0; /* the counter is start + step * a SYM_ITER */
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
		}
		ka_node *c = walk_strip(cond);
		if (c && c->kind == KN_BINOP && c->nkids == 2 && walk_strip(c->kids[0])->kind == KN_DECLREF &&
		    walk_strip(c->kids[0])->ref == iv.iv && walk_fold_int(w, c->kids[1], &bound) && c0_ok)
			trip = trip_count(&iv, c0, c->op, bound, &trip_ok);
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
	if (lc.nonuniform && cond && trips_agree_in_block(w, cond, inc, body, &iv, start_x, stepx))
		lc.nonuniform = 0;
	if (lc.nonuniform && cond && inc && aligned_stride_loop(w, cond, body, &iv, start_x, stepx))
		lc.nonuniform = 0;
	if (lc.nonuniform && cond && same_offset_bound(w, cond, body, &iv, start_x, stepx))
		lc.nonuniform = 0;
	w->ctl.loops[w->ctl.nloops++] = lc;
	walk_stmt(w, body);
	if (inc)
		walk_ev(w, inc, 0);
	lc = w->ctl.loops[--w->ctl.nloops];
	loop_fact(w, n, &lc, "for", &iv, cx, trip, trip_ok);
	if (iv.iv) {
		int s = sx_new_sym(&w->sym.sx, SYM_VAR, iv.iv->name, cx->dep & ~D_OPAQUE, 0);
		w->sym.env[iv.iv->id].x = sx_symref(&w->sym.sx, s);
	}
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
	loop_carried(w, body, &lc, NULL);
	const sx *cx = cond ? walk_ev_int(w, cond) : sx_const(&w->sym.sx, 1);
	lc.nonuniform = (cx->dep & D_LANE) != 0;
	lc.cond = cond ? cx : NULL;
	w->ctl.loops[w->ctl.nloops++] = lc;
	walk_stmt(w, body);
	lc = w->ctl.loops[--w->ctl.nloops];
	loop_fact(w, n, &lc, is_do ? "do" : "while", NULL, cx, 0, 0);
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
static int uniform_over_launch(const walk *w, const sx *c)
{
	if (!w->block_source || strcmp(w->block_source, "launch") != 0)
		return 0;
	sx_box b;
	for (int i = 0; i < 3; i++) {
		b.block[i] = w->block[i];
		b.grid[i] = w->grid[i];
		if (b.block[i] <= 0 || b.grid[i] <= 0)
			return 0;
	}
	int64_t lo, hi;
	return sx_range(&w->sym.sx, c, &b, &lo, &hi) == 0 && lo == hi;
}

static void if_stmt(walk *w, ka_node *n)
{
	if (!n->kids[0]) {
		for (int i = 1; i < n->nkids; i++)
			walk_stmt(w, n->kids[i]);
		return;
	}
	const sx *c = walk_ev_int(w, n->kids[0]);
	br_ctx b = {.uniformity = walk_uniformity(w, c),
		    .line = n->loc.line,
		    .is_guard = walk_is_guard(c),
		    .cond = c,
		    .nloops = w->ctl.nloops};
	if (walk_uni_thread_dep(b.uniformity) && uniform_over_launch(w, c))
		b.uniformity = WALK_UNI_GRID; /* the launches never split it */
	if (b.uniformity == WALK_UNI_THREAD)
		b.seg = walk_segment_width(w, c);
	int td = walk_uni_thread_dep(b.uniformity);
	if (td)
		b.pin = walk_cond_pins_lane(w, c, 1);
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
	env_merge(w, after_then, c->dep & ~D_OPAQUE, c->loops);
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
				w->sym.ret_val = w->sym.ret_val
							 ? sx_opaque(&w->sym.sx, w->sym.ret_val->dep | r->dep,
								     w->sym.ret_val->loops | r->loops)
							 : r;
		}
		if (!w->ctl.inline_depth && walk_in_divergent(w, NULL, NULL, 0) && !w->ctl.div_return_line)
			w->ctl.div_return_line = n->loc.line;
		break;
	case KN_BREAK:
	case KN_CONTINUE:
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
