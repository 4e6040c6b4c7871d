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
