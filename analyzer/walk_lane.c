/* analyzer/walk_lane.c: lane and warp ids in the index analysis.
 *
 * `tid & 31`, `tid % warpSize`, `tid >> 5` and `tid / 32` are not affine in
 * threadIdx.x, so the coefficient columns of an access would read
 * 'nonaffine'.  Within one warp they are: when blockDim.x is a multiple of
 * the warp size, a warp covers 32 consecutive values of threadIdx.x, the
 * lane id is threadIdx.x minus a per-warp constant and the warp id is
 * constant.  Such a sub-expression is replaced, for the coefficients only,
 * by `s*threadIdx.x + u` with u a warp-uniform symbol, after checking on the
 * modelled warps that it really steps by s from lane to lane, with a
 * divisor or mask whose value is known (not an assumed template argument or
 * run-time value).  The warp model itself still evaluates the exact
 * expression. */
#include "analyzer/walk.h"
#include <string.h>
#include <stdlib.h>

static void lane_tid(const walk *w, int l, sx_lane *ln)
{
	int bx = w->block[0] > 0 ? w->block[0] : 1, by = w->block[1] > 0 ? w->block[1] : 1;
	ln->tid[0] = l % bx;
	ln->tid[1] = (l / bx) % by;
	ln->tid[2] = l / (bx * by);
}

/* The step of x from lane to lane when it is the same in every modelled
 * warp (x(l) = x(first lane) + s*l); 0 when x is not such a value. */
static int warp_step(walk *w, const sx *x, int64_t *step)
{
	int ws = w->file.arch->warp_size;
	int threads = w->block[0] * (w->block[1] > 0 ? w->block[1] : 1) * (w->block[2] > 0 ? w->block[2] : 1);
	int nwarps = threads / ws;
	if (nwarps > 8)
		nwarps = 8;
	int have = 0;
	int64_t s = 0;
	for (int wp = 0; wp < nwarps; wp++) {
		int64_t first = 0, v;
		for (int l = 0; l < ws; l++) {
			sx_lane ln;
			lane_tid(w, wp * ws + l, &ln);
			if (sx_eval(&w->sym.sx, x, &ln, &v) != 0)
				return 0;
			if (l == 0) {
				first = v;
				continue;
			}
			if (l == 1 && !have) {
				s = v - first;
				have = 1;
			}
			if (v != first + s * l)
				return 0;
		}
	}
	*step = s;
	return have;
}

/* 1 when x takes one value in each modelled warp (up to 8 warps of the
 * block), run-time sizes at their assumed values (1024): `(i / hw) % 2`
 * with a run-time hw is the same for 32 consecutive lanes.  0 when some
 * warp's lanes differ or x cannot be evaluated per lane. */
int walk_same_in_modelled_warps(walk *w, const sx *x)
{
	int ws = w->file.arch->warp_size;
	int threads = w->block[0] * (w->block[1] > 0 ? w->block[1] : 1) * (w->block[2] > 0 ? w->block[2] : 1);
	if (!x || ws <= 0 || threads <= 0)
		return 0;
	int nwarps = (threads + ws - 1) / ws;
	if (nwarps > 8)
		nwarps = 8;
	for (int wp = 0; wp < nwarps; wp++) {
		int64_t first = 0, v;
		for (int l = 0; l < ws && wp * ws + l < threads; l++) {
			sx_lane ln;
			lane_tid(w, wp * ws + l, &ln);
			if (sx_eval(&w->sym.sx, x, &ln, &v) != 0)
				return 0;
			if (l == 0)
				first = v;
			else if (v != first)
				return 0;
		}
	}
	return 1;
}

static const sx *lin(walk *w, const sx *x, int depth)
{
	if (!x || !(x->dep & D_LANE) || depth > 64)
		return x;
	switch (x->k) {
	case SX_CONST:
	case SX_SYM:
	case SX_OPAQUE:
	case SX_CMP:
	case SX_MIN:
	case SX_MAX:
		return x;
	case SX_ADD:
	case SX_MUL: {
		const sx *a = lin(w, x->a, depth + 1), *b = lin(w, x->b, depth + 1);
		return (a == x->a && b == x->b) ? x : sx_bin(&w->sym.sx, x->k, a, b);
	}
	default:
		break;
	}
	int64_t s;
	/* `tid / (BN / TN)` with template or run-time divisors: the step seen on
	 * the modelled warps comes from an assumed value, so it proves nothing */
	if (x->b && !(x->b->dep & D_LANE) && sx_has_unknown(&w->sym.sx, x->b))
		return x;
	if (!(x->dep & (D_TY | D_TZ)) || w->block[0] % w->file.arch->warp_size == 0) {
		if (warp_step(w, x, &s)) {
			int u = sx_new_sym(&w->sym.sx, SYM_VAR, "warp_base",
					   (x->dep & ~(D_LANE | D_OPAQUE)) | D_PARAM, x->loops);
			const sx *tx = NULL;
			for (int i = 0; i < w->sym.sx.nsyms && !tx; i++)
				if (w->sym.sx.syms[i].kind == SYM_TID_X)
					tx = sx_symref(&w->sym.sx, i);
			if (!tx)
				return x;
			return sx_add(&w->sym.sx, sx_mul(&w->sym.sx, sx_const(&w->sym.sx, s), tx),
				      sx_symref(&w->sym.sx, u));
		}
	}
	const sx *a = lin(w, x->a, depth + 1), *b = lin(w, x->b, depth + 1);
	return (a == x->a && b == x->b) ? x : sx_bin(&w->sym.sx, x->k, a, b);
}

const sx *walk_lane_linear(walk *w, const sx *x)
{
	int ws = w->file.arch->warp_size;
	if (!x || !(x->dep & D_LANE) || w->block[0] <= 0 || w->block[0] % ws != 0)
		return x;
	return lin(w, x, 0);
}

/* Whether every lane-varying leaf of x is a thread id (no loaded value,
 * shuffle result or opaque call that differs between lanes). */
static int lanes_only_tids(const walk *w, const sx *x, int depth)
{
	if (!x || !(x->dep & D_LANE))
		return 1;
	if (depth > 64)
		return 0;
	switch (x->k) {
	case SX_SYM: {
		sx_sym_kind k = w->sym.sx.syms[x->sym].kind;
		return k == SYM_TID_X || k == SYM_TID_Y || k == SYM_TID_Z;
	}
	case SX_CONST:
		return 1;
	case SX_OPAQUE:
		return 0;
	default:
		return lanes_only_tids(w, x->a, depth + 1) && lanes_only_tids(w, x->b, depth + 1);
	}
}

int walk_lane_pinned(walk *w, const sx *d)
{
	const int ws = w->file.arch->warp_size;
	if (!d || !(d->dep & D_LANE) || ws <= 0 || ws > 64 || w->block[0] <= 0)
		return 0;
	const sx *x = walk_lane_linear(w, d);
	if (!lanes_only_tids(w, x, 0))
		return 0;
	int64_t c[3];
	sx_lane l0 = {{0, 0, 0}};
	for (int k = 0; k < 3; k++) {
		const sx *ck = sx_coef(&w->sym.sx, x, (sx_sym_kind)(SYM_TID_X + k));
		if (!ck || (ck->dep & D_LANE) || sx_has_unknown(&w->sym.sx, ck) ||
		    sx_eval(&w->sym.sx, ck, &l0, &c[k]) != 0)
			return 0;
	}
	int64_t threads = (int64_t)w->block[0] * (w->block[1] > 0 ? w->block[1] : 1) *
			  (w->block[2] > 0 ? w->block[2] : 1);
	int lanes = threads < ws ? (int)threads : ws;
	int64_t v[64];
	for (int l = 0; l < lanes; l++) {
		sx_lane ln;
		lane_tid(w, l, &ln);
		v[l] = c[0] * ln.tid[0] + c[1] * ln.tid[1] + c[2] * ln.tid[2];
	}
	for (int l = 0; l < lanes; l++) {
		int same = 0;
		for (int m = 0; m < lanes; m++)
			same += v[m] == v[l];
		if (same > 2)
			return 0;
	}
	return 1;
}

int walk_cond_pins_lane(walk *w, const sx *c, int when_true)
{
	if (!c)
		return 0;
	if (c->k == (when_true ? SX_AND : SX_OR))
		return walk_cond_pins_lane(w, c->a, when_true) || walk_cond_pins_lane(w, c->b, when_true);
	/* SX_CMP codes: 5 `==`, 6 `!=` (walk_expr.c) */
	if (c->k != SX_CMP || c->c != (when_true ? 5 : 6))
		return 0;
	return walk_lane_pinned(w, sx_add(&w->sym.sx, c->a, sx_neg(&w->sym.sx, c->b)));
}

/* c is a comparison of thread ids with known values: `threadIdx.x < 16`,
 * `tid >= 2 * WARP` (SX_CMP codes 1-6: < > <= >= == !=). */
static int thread_bound(walk *w, const sx *c)
{
	return c && c->k == SX_CMP && c->c >= 1 && c->c <= 6 && ((c->a->dep | c->b->dep) & D_LANE) &&
	       lanes_only_tids(w, c->a, 0) && lanes_only_tids(w, c->b, 0) &&
	       !sx_has_unknown(&w->sym.sx, c->a) && !sx_has_unknown(&w->sym.sx, c->b);
}

/* The bounds on thread ids among c's conjuncts (when_true), or c itself
 * when it is one (its negation is tested); at most max of them. */
static int collect_bounds(walk *w, const sx *c, int when_true, const sx **out, int n, int max)
{
	if (!c || n >= max)
		return n;
	if (when_true && c->k == SX_AND)
		return collect_bounds(w, c->b, 1, out, collect_bounds(w, c->a, 1, out, n, max), max);
	if (thread_bound(w, c))
		out[n++] = c;
	return n;
}

int walk_cond_threads(walk *w, const sx *c, int when_true)
{
	if (!w->block_source || strcmp(w->block_source, "launch") != 0)
		return -1;
	const sx *bd[8];
	int nb = collect_bounds(w, c, when_true, bd, 0, 8);
	if (nb == 0 || (!when_true && bd[0] != c))
		return -1;
	int64_t bx = w->block[0], by = w->block[1] > 0 ? w->block[1] : 1,
		bz = w->block[2] > 0 ? w->block[2] : 1;
	if (bx <= 0 || bx * by * bz > 1024)
		return -1;
	int n = 0;
	sx_lane ln;
	for (ln.tid[2] = 0; ln.tid[2] < bz; ln.tid[2]++)
		for (ln.tid[1] = 0; ln.tid[1] < by; ln.tid[1]++)
			for (ln.tid[0] = 0; ln.tid[0] < bx; ln.tid[0]++) {
				int all = 1;
				for (int k = 0; k < nb && all; k++) {
					int64_t l, r;
					if (sx_eval(&w->sym.sx, bd[k]->a, &ln, &l) != 0 ||
					    sx_eval(&w->sym.sx, bd[k]->b, &ln, &r) != 0)
						return -1;
					int64_t op = bd[k]->c; /* SX_CMP codes 1-6: < > <= >= == != */
					int h = op == 1   ? l < r
						: op == 2 ? l > r
						: op == 3 ? l <= r
						: op == 4 ? l >= r
						: op == 5 ? l == r
							  : l != r;
					all = when_true ? h : !h;
				}
				n += all; /* the other conjuncts' tests: an upper count */
			}
	return n;
}

/* The pair's distance d (bytes, read minus write) never joins two lanes
 * below B whose slots step by m bytes: see walk_branch_lanes_independent. */
static int pair_apart(walk *w, const sx *d, int64_t m, const sx *B)
{
	sx_ctx *c = &w->sym.sx;
	for (int k = -8; k <= 8; k++) {
		int64_t r;
		const sx *rem = sx_add(c, d, sx_mul(c, sx_const(c, -k * m), B));
		if (!sx_is_const(rem, &r))
			continue;
		if (r % m != 0)
			return 1; /* between the other lanes' slots */
		/* the lane itself; a lane at B or above; below lane 0 (any k that
		 * shows one of these proves it; a constant B tries them all) */
		if ((k == 0 && r == 0) || (k >= 1 && r >= 0) || (k <= -1 && r <= 0))
			return 1;
	}
	return 0;
}

/* Whether x reads nothing but threadIdx.x and .y, dimensions and the warp
 * size with known values, constants and the symbol bsym. */
static int syms_known(const sx_ctx *c, const sx *x, int bsym)
{
	if (!x)
		return 1;
	if (x->k == SX_OPAQUE)
		return 0;
	if (x->k == SX_SYM) {
		const sx_sym *s = &c->syms[x->sym];
		return x->sym == bsym || s->kind == SYM_TID_X || s->kind == SYM_TID_Y ||
		       ((s->kind == SYM_WARPSIZE || (s->kind >= SYM_BDIM_X && s->kind <= SYM_BDIM_Z)) &&
			s->has_value);
	}
	return syms_known(c, x->a, bsym) && syms_known(c, x->b, bsym);
}

static int cmp_slot(const void *pa, const void *pb)
{
	const int64_t *a = pa, *b = pb;
	return (a[0] > b[0]) - (a[0] < b[0]);
}

/* Whether the lane runs code under cond: 0 only when cond evaluates to
 * false for it (an unknown condition counts as taken). */
/* Whether lane ln runs an access under cond; known: whether every symbol of
 * cond has a value (syms_known, the same for every lane, so asked once by
 * the caller): a condition that cannot be evaluated is taken to run. */
static int runs(const sx_ctx *c, const sx *cond, int known, const sx_lane *ln)
{
	int64_t v;
	return !cond || !known || sx_eval(c, cond, ln, &v) != 0 || v != 0;
}

/* 1 when an earlier shared access of b has the same base as access i: its
 * base's writes and reads were checked with it. */
static int base_seen(const br_ctx *b, int i)
{
	for (int k = 0; k < i; k++)
		if (b->sh[k].base == b->sh[i].base)
			return 1;
	return 0;
}

/* No read of a thread (x, y), x < nx, y < ny, that runs the accesses lands
 * on a slot that another such thread writes (every symbol of the addresses
 * has a value now). */
static int lanes_apart(walk *w, const br_ctx *b, int nx, int ny, int64_t (*slots)[2])
{
	sx_ctx *c = &w->sym.sx;
	int ok = 1, lanes = nx * ny;
	for (int base = 0; ok && base < b->nsh; base++) {
		if (base_seen(b, base))
			continue;
		size_t nw = 0; /* the writes to this base by every such thread, sorted */
		for (int i = 0; ok && i < b->nsh; i++) {
			if (b->sh[i].rw == 0 || b->sh[i].base != b->sh[base].base)
				continue;
			int known = b->sh[i].cond && syms_known(c, b->sh[i].cond, -1);
			for (int t = 0; ok && t < lanes; t++) {
				sx_lane ln = {{t % nx, t / nx, 0}};
				if (!runs(c, b->sh[i].cond, known, &ln))
					continue;
				ok = sx_eval(c, b->sh[i].x, &ln, &slots[nw][0]) == 0;
				slots[nw++][1] = t;
			}
		}
		qsort(slots, nw, sizeof *slots, cmp_slot);
		for (int j = 0; ok && j < b->nsh; j++) {
			if (b->sh[j].rw == 1 || b->sh[j].base != b->sh[base].base)
				continue;
			int known = b->sh[j].cond && syms_known(c, b->sh[j].cond, -1);
			for (int t = 0; ok && t < lanes; t++) {
				sx_lane ln = {{t % nx, t / nx, 0}};
				if (!runs(c, b->sh[j].cond, known, &ln))
					continue;
				int64_t key[2] = {0, 0};
				ok = sx_eval(c, b->sh[j].x, &ln, &key[0]) == 0;
				int64_t(*hit)[2] = ok && nw ? bsearch(key, slots, nw, sizeof *slots, cmp_slot)
							    : NULL;
				while (hit && hit > slots &&
				       hit[-1][0] == key[0]) /* the first write of that slot */
					hit--;
				for (; ok && hit && hit < slots + nw && hit[0][0] == key[0]; hit++)
					ok = hit[0][1] == t; /* every write of it must be the thread's own */
			}
		}
	}
	return ok;
}

/* The threads below B along axis (0 x, 1 y) evaluated one by one: no read
 * of one lands on a slot that another of them writes.  For subscripts the
 * affine test cannot take apart (`x1 = tid << 1` over two arrays of one
 * shared buffer, a helper's two updates of the thread's own slots in a 2-D
 * block).  Only threadIdx.x and .y may vary, in a block of known width
 * (and height, unless the condition bounds y); B is a known value, or one
 * symbol tried at the values a tree's bound takes (1 to 33, then the powers
 * of two up to the block's extent along the axis). */
static int evaluated_apart(walk *w, const br_ctx *b, const sx *B, int axis)
{
	sx_ctx *c = &w->sym.sx;
	int bx = w->block[0], by = w->block[1] > 0 ? w->block[1] : (axis == 1 ? 0 : 1);
	if (bx <= 0 || bx > 1024 || by > 1024 || w->block[2] > 1 || (axis == 0 && by * bx > 1024))
		return 0;
	int bsym = B->k == SX_SYM ? B->sym : -1;
	if (!syms_known(c, B, bsym))
		return 0;
	for (int i = 0; i < b->nsh; i++)
		if (!syms_known(c, b->sh[i].x, bsym))
			return 0;
	int ext = axis == 0 ? bx : (by > 0 ? by : 1024);
	int64_t(*slots)[2] = malloc(sizeof *slots * 1024 * (size_t)(b->nsh ? b->nsh : 1));
	if (!slots)
		return 0;
	int ok = 1;
	if (bsym < 0 || c->syms[bsym].kind == SYM_BDIM_X || c->syms[bsym].kind == SYM_BDIM_Y) {
		int64_t v;
		sx_lane l0 = {{0, 0, 0}};
		ok = sx_eval(c, B, &l0, &v) == 0 && v > 0;
		int n = ok ? (v < ext ? (int)v : ext) : 0;
		ok = ok && (axis == 0 ? lanes_apart(w, b, n, by, slots)
				      : (int64_t)n * bx <= 1024 && lanes_apart(w, b, bx, n, slots));
	} else {
		sx_sym *s = &c->syms[bsym];
		int64_t saved_v = s->value;
		int saved_has = s->has_value, saved_lv = s->lane_varying;
		s->has_value = 1;
		s->lane_varying = 0;
		int top = axis == 0 ? bx : (by > 0 ? by : 0);
		ok = top > 0;
		for (int v = 1; ok && v <= top; v = v < 33 ? v + 1 : v < 64 ? 64 : v * 2) {
			s->value = v;
			int n = v < top ? v : top;
			ok = axis == 0 ? lanes_apart(w, b, n, by, slots)
				       : (int64_t)n * bx <= 1024 && lanes_apart(w, b, bx, n, slots);
		}
		s->value = saved_v;
		s->has_value = saved_has;
		s->lane_varying = saved_lv;
	}
	free(slots);
	return ok;
}

/* b's accesses under condition c (b's own or an enclosing branch's: the
 * lanes that run b run every branch around it). */
static int independent_under(walk *w, const br_ctx *b, const sx *c)
{
	if (!c || c->k != SX_CMP || (c->c != 1 && c->c != 2))
		return 0;
	/* `tid < B` or `B > tid` */
	const sx *x = c->c == 1 ? c->a : c->b, *B = c->c == 1 ? c->b : c->a;
	if (x->k != SX_SYM || w->sym.sx.syms[x->sym].kind != SYM_TID_X || (B->dep & (D_LANE | D_OPAQUE)))
		return 0;
	for (int i = 0; i < b->nsh; i++) {
		if (b->sh[i].rw == 0)
			continue;
		/* a write: its lane step m, a constant */
		const sx *mx = sx_coef(&w->sym.sx, b->sh[i].x, SYM_TID_X), *my, *mz;
		int64_t m;
		if (!mx || !sx_is_const(mx, &m) || m <= 0)
			return 0;
		my = sx_coef(&w->sym.sx, b->sh[i].x, SYM_TID_Y);
		mz = sx_coef(&w->sym.sx, b->sh[i].x, SYM_TID_Z);
		int64_t vy, vz;
		if (!my || !mz || !sx_is_const(my, &vy) || !sx_is_const(mz, &vz) || vy || vz)
			return 0;
		for (int j = 0; j < b->nsh; j++) {
			if (j == i || b->sh[j].rw == 1 || b->sh[j].base != b->sh[i].base)
				continue;
			const sx *d = sx_add(&w->sym.sx, b->sh[j].x, sx_neg(&w->sym.sx, b->sh[i].x));
			if ((d->dep & (D_LANE | D_OPAQUE)) || !pair_apart(w, d, m, B))
				return 0;
		}
	}
	return 1;
}

/* independent_under, then the evaluated test for the same `tid < B`. */
static int apart_under(walk *w, const br_ctx *b, const sx *c)
{
	if (independent_under(w, b, c))
		return 1;
	if (!c || c->k != SX_CMP || (c->c != 1 && c->c != 2))
		return 0;
	const sx *x = c->c == 1 ? c->a : c->b, *B = c->c == 1 ? c->b : c->a;
	if (x->k != SX_SYM || (B->dep & (D_LANE | D_OPAQUE)))
		return 0;
	sx_sym_kind k = w->sym.sx.syms[x->sym].kind;
	if (k != SYM_TID_X && k != SYM_TID_Y)
		return 0;
	return evaluated_apart(w, b, B, k == SYM_TID_Y);
}

/* Collects into u[] the symbols of x that have no value (at most cap);
 * -1 when one of them varies between threads or x has an opaque part. */
static int unknown_syms(const sx_ctx *c, const sx *x, int *u, int n, int cap)
{
	if (!x || n < 0)
		return n;
	if (x->k == SX_OPAQUE)
		return -1;
	if (x->k == SX_SYM) {
		const sx_sym *s = &c->syms[x->sym];
		if (s->kind == SYM_TID_X || s->kind == SYM_TID_Y || s->has_value)
			return n;
		if (s->kind == SYM_TID_Z || s->lane_varying || s->warp_uniform || (s->dep & D_LANE))
			return -1;
		for (int i = 0; i < n; i++)
			if (u[i] == x->sym)
				return n;
		if (n >= cap)
			return -1;
		u[n] = x->sym;
		return n + 1;
	}
	return unknown_syms(c, x->b, u, unknown_syms(c, x->a, u, n, cap), cap);
}

/* Every thread of the block (its known or assumed shape, at most 1024
 * threads in x and y) evaluated one by one, each access under its own
 * condition: no read lands on a slot another thread writes.  For branches
 * on another test than `tid < B` (`ty == 0` filling a row of per-column
 * values, each lane reading back what it wrote itself).  Values that are
 * the same in every thread but unknown (a loop's counter, a parameter:
 * `s[tid % 32 * 2 + c * 64 + o]` read and written back by warp 0) are
 * tried at a spread of values, the same in all threads at each try. */
static int block_apart(walk *w, const br_ctx *b)
{
	sx_ctx *c = &w->sym.sx;
	int bx = w->block[0], by = w->block[1] > 0 ? w->block[1] : 1;
	if (bx <= 0 || w->block[2] > 1 || (int64_t)bx * by > 1024)
		return 0;
	int u[8], nu = 0;
	for (int i = 0; i < b->nsh && nu >= 0; i++)
		nu = unknown_syms(c, b->sh[i].x, u, nu, 8);
	if (nu < 0 || b->nsh <= 0 || b->nsh > WALK_MAX_BR_SHARED)
		return 0;
	int64_t(*slots)[2] = malloc(sizeof *slots * 1024 * (size_t)b->nsh);
	if (!slots)
		return 0;
	static const int64_t tries[] = {0, 1, 2, 3, 5, 8, 16, 31, 32, 33, 64, 100, 1000};
	int64_t saved_v[8];
	int saved_has[8];
	for (int j = 0; j < nu; j++) {
		saved_v[j] = c->syms[u[j]].value;
		saved_has[j] = c->syms[u[j]].has_value;
		c->syms[u[j]].has_value = 1;
	}
	int ok = 1;
	for (size_t t = 0; ok && t < (nu ? sizeof tries / sizeof *tries : 1); t++) {
		for (int j = 0; j < nu; j++) /* distinct symbols, distinct values */
			c->syms[u[j]].value = tries[t] + 7 * j;
		ok = lanes_apart(w, b, bx, by, slots);
	}
	for (int j = 0; j < nu; j++) {
		c->syms[u[j]].value = saved_v[j];
		c->syms[u[j]].has_value = saved_has[j];
	}
	free(slots);
	return ok;
}

int walk_branch_lanes_independent(walk *w, const br_ctx *b)
{
	if (b->nsh_over)
		return 0;
	if (apart_under(w, b, b->cond))
		return 1;
	for (int i = w->ctl.nbrs - 1; i >= 0; i--)
		if (&w->ctl.brs[i] != b && apart_under(w, b, w->ctl.brs[i].cond))
			return 1;
	return block_apart(w, b);
}
