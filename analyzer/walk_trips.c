/* analyzer/walk_trips.c: whether a `for` loop whose condition depends on
 * the thread still runs the same number of trips in every thread of the
 * block, so that a barrier in its body is reached by all of them.  Three
 * shapes are recognised: trips counted per thread under the launch's block
 * (trips_agree_in_block), a block-aligned stride loop over a bound that is
 * a multiple of the block (aligned_stride_loop, with the exits it allows),
 * and a start and bound that carry the same thread offset
 * (same_offset_bound). */
#include "analyzer/walk.h"
#include <string.h>

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

/* 1 when a and b name the same variable. */
static int same_var(ka_node *a, ka_node *b)
{
	a = walk_strip(a);
	b = walk_strip(b);
	return a && b && a->kind == KN_DECLREF && b->kind == KN_DECLREF && a->ref && a->ref == b->ref;
}

/* 1 when n clears the low bits below a constant power-of-two block width
 * W: `(n + 511) & ~511` under a block of 512, or takes off the remainder
 * (`n - (n & (W - 1))`, `n - n % W`, CUSP's full blocks). */
static int masked_to_width(walk *w, ka_node *n, const sx *wdt)
{
	int64_t wv, m;
	n = walk_strip(n);
	if (n && n->kind == KN_BINOP && n->op == OP_SUB && n->nkids == 2) {
		ka_node *t = walk_strip(n->kids[1]);
		if (!t || t->kind != KN_BINOP || t->nkids != 2 || !same_var(n->kids[0], t->kids[0]) ||
		    (t->op != OP_REM && t->op != OP_AND))
			return 0;
		/* the divisor W, or the mask W - 1 (W a template parameter
		 * when no launch binds it: the code takes it for a power of
		 * two) */
		w->ctl.quiet++;
		const sx *d = walk_ev_int(w, t->kids[1]);
		w->ctl.quiet--;
		if (t->op == OP_AND)
			d = sx_add(&w->sym.sx, d, sx_const(&w->sym.sx, 1));
		if (!sx_same_value(&w->sym.sx, d, wdt))
			return 0;
		return t->op == OP_REM || !sx_is_const(wdt, &wv) || (wv > 0 && (wv & (wv - 1)) == 0);
	}
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

/* 1 when the local `r` is visibly a multiple of the block width W: a
 * constant whose initializer is a product with a factor of W's value
 * (`const int padded = blockDim.x * ((n + blockDim.x - 1) / blockDim.x)`)
 * or masks off the bits below W, or a plain local that the loop body does
 * not assign, by its value where the loop starts. */
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
/* The shape alone: the start, step and exits of a block-aligned stride
 * loop with a bound free of thread ids; *wdt gets W and *r the bound. */
static int stride_shape(walk *w, ka_node *cond, ka_node *body, const iv_info *iv, const sx *start,
			const sx *step, const sx **wdt_out, ka_node **r_out)
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
		/* `nTPB * blockIdx.x` with nTPB every launch's x size, beside a
		 * step of blockDim.x: the same width */
		if (!bw || !(sx_same_value(cx, bw, wdt) || (is_block_width(w, bw) && is_block_width(w, wdt))))
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
	w->ctl.quiet++;
	const sx *bv = walk_ev_int(w, r);
	w->ctl.quiet--;
	if (bv->dep & D_LANE)
		return 0;
	*wdt_out = wdt;
	*r_out = r;
	return 1;
}

static int aligned_stride_loop(walk *w, ka_node *cond, ka_node *body, const iv_info *iv, const sx *start,
			       const sx *step)
{
	const sx *wdt;
	ka_node *r;
	if (!stride_shape(w, cond, body, iv, start, step, &wdt, &r))
		return 0;
	const ka_decl *end = r->kind == KN_DECLREF ? r->ref : NULL;
	/* the bound: a multiple of W, written out (`rounds * 256`), or W times
	 * a run-time count, halved (`blockDim.x * heap_size / 2`, a bitonic
	 * sort's swap count over a power-of-two number of elements per
	 * thread): the code sizes the bound from the block */
	if (!end) {
		w->ctl.quiet++;
		const sx *bv = walk_ev_int(w, r);
		w->ctl.quiet--;
		int64_t c;
		const sx *m = bv && bv->k == SX_DIV && sx_is_const(bv->b, &c) && c > 1 && (c & (c - 1)) == 0
				      ? bv->a
				      : NULL;
		return walk_has_factor(w, bv, wdt) ||
		       (m && m->k == SX_MUL &&
			((sx_same_value(&w->sym.sx, m->a, wdt) && !sx_is_const(m->b, &c)) ||
			 (sx_same_value(&w->sym.sx, m->b, wdt) && !sx_is_const(m->a, &c))));
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

/* A launch shows that the bound is not a multiple of the block's width:
 * the bound is a kernel parameter that a launch passes as a constant that
 * its constant x size does not divide, or in the else branch of a host
 * test that it is a multiple (launch_info.argnotmul). */
static int bound_shown_partial(const walk *w, const ka_node *r)
{
	if (!r || r->kind != KN_DECLREF || !r->ref || !w->kernel)
		return 0;
	int p = -1;
	for (int i = 0; i < w->kernel->nparams && i < 16; i++)
		if (w->kernel->params[i] == r->ref)
			p = i;
	for (int i = 0; p >= 0 && i < w->host.nlaunches; i++) {
		const launch_info *li = &w->host.launches[i];
		if (li->kernel == w->kernel &&
		    ((li->argnotmul >> p & 1u) ||
		     ((li->argv_known >> p & 1u) && li->bx > 0 && li->argv[p] % li->bx != 0)))
			return 1;
	}
	return 0;
}

int walk_stride_shape(walk *w, ka_node *cond, ka_node *body, const iv_info *iv, const sx *start,
		      const sx *step)
{
	const sx *wdt;
	ka_node *r;
	return stride_shape(w, cond, body, iv, start, step, &wdt, &r) && !bound_shown_partial(w, r);
}

int walk_trips_uniform(walk *w, ka_node *cond, ka_node *inc, ka_node *body, const iv_info *iv,
		       const sx *start, const sx *step)
{
	return trips_agree_in_block(w, cond, inc, body, iv, start, step) ||
	       (inc && aligned_stride_loop(w, cond, body, iv, start, step)) ||
	       same_offset_bound(w, cond, body, iv, start, step);
}
