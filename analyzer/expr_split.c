/* analyzer/expr_split.c: how an index split with / and % is put back
 * together (see sx_split_in_order in expr.h).  A one-dimensional kernel
 * that splits its thread's index into a row and a column either writes
 * them back in order (the column, which moves fastest between lanes, on
 * the fast axis: a row-major store, coalesced or a row of K elements per
 * thread) or swapped (a transposed store).  The access facts read it; the
 * rule that reports swapped stores needs it to tell the two apart when the
 * warp model alone sees only a wide lane stride. */
#include "analyzer/expr.h"

/* Trees larger than this are not searched (the walks below revisit shared
 * subtrees, so they are bounded by the tree size, not the DAG's). */
#define SPLIT_MAX_SIZE 512
#define SPLIT_MAX_PARTS 16

static int is_leaf(const sx *x)
{
	return x->k == SX_CONST || x->k == SX_SYM || x->k == SX_OPAQUE;
}

static int contains(const sx *x, const sx *t)
{
	if (sx_equal(x, t))
		return 1;
	return !is_leaf(x) && (contains(x->a, t) || contains(x->b, t));
}

/* The coefficient of the subtree t in x when x is linear in it (0 when t
 * does not occur); NULL when t occurs under /, %, a shift or a mask, or in
 * both factors of a product. */
static const sx *coef_of(sx_ctx *c, const sx *x, const sx *t)
{
	if (sx_equal(x, t))
		return sx_const(c, 1);
	if (!contains(x, t))
		return sx_const(c, 0);
	if (x->k == SX_ADD) {
		const sx *ca = coef_of(c, x->a, t), *cb = coef_of(c, x->b, t);
		return ca && cb ? sx_add(c, ca, cb) : NULL;
	}
	if (x->k == SX_MUL) {
		int ia = contains(x->a, t);
		if (ia && contains(x->b, t))
			return NULL;
		const sx *cf = coef_of(c, ia ? x->a : x->b, t);
		return cf ? sx_mul(c, cf, ia ? x->b : x->a) : NULL;
	}
	return NULL;
}

/* The quotient (want_rem 0) or remainder nodes of x over lane-dependent
 * values, at most SPLIT_MAX_PARTS. */
static void parts_of(sx_ctx *c, const sx *x, int want_rem, const sx **out, int *n)
{
	const sx *v, *d;
	if (is_leaf(x) || *n >= SPLIT_MAX_PARTS)
		return;
	if (sx_split_divrem(c, x, want_rem, &v, &d) && (v->dep & D_LANE))
		out[(*n)++] = x;
	parts_of(c, x->a, want_rem, out, n);
	parts_of(c, x->b, want_rem, out, n);
}

static int same_divisor(const sx *a, const sx *b)
{
	int64_t va, vb;
	return sx_is_const(a, &va) && sx_is_const(b, &vb) ? va == vb : sx_equal(a, b);
}

/* |weight| of a coefficient at the symbols' values; -1 when it cannot be
 * evaluated (it varies per lane). */
static int64_t weight(const sx_ctx *c, const sx *cf)
{
	sx_lane l0 = {{0, 0, 0}};
	int64_t v;
	if (sx_eval(c, cf, &l0, &v) != 0)
		return -1;
	return v < 0 ? -v : v;
}

int sx_split_in_order(sx_ctx *c, const sx *x)
{
	if (!x || !x->divrem || !(x->dep & D_LANE) || x->size > SPLIT_MAX_SIZE)
		return 0;
	const sx *rem[SPLIT_MAX_PARTS], *quo[SPLIT_MAX_PARTS];
	int nr = 0, nq = 0, in_order = 0, swapped = 0;
	parts_of(c, x, 1, rem, &nr);
	parts_of(c, x, 0, quo, &nq);
	for (int i = 0; i < nr; i++) {
		const sx *v, *d;
		sx_split_divrem(c, rem[i], 1, &v, &d);
		const sx *cr = coef_of(c, x, rem[i]);
		int64_t wr = cr ? weight(c, cr) : -1;
		if (wr <= 0)
			continue;
		for (int j = 0; j < nq; j++) {
			const sx *v2, *d2;
			sx_split_divrem(c, quo[j], 0, &v2, &d2);
			if (!sx_equal(v, v2) || !same_divisor(d, d2))
				continue;
			const sx *cq = coef_of(c, x, quo[j]);
			int64_t wq = cq ? weight(c, cq) : -1;
			if (wq <= 0 || wq == wr)
				continue;
			in_order += wr < wq;
			swapped += wr > wq;
		}
	}
	return in_order > 0 && swapped == 0;
}

/* 1 when x and y have a symbol in common. */
static int shares_sym(const sx *x, const sx *y)
{
	if (!x || !y)
		return 0;
	if (x->k == SX_SYM)
		return sx_uses_sym(y, x->sym);
	return !is_leaf(x) && (shares_sym(x->a, y) || shares_sym(x->b, y));
}

int sx_split_strides_runtime(sx_ctx *c, const sx *x)
{
	if (!x || !x->divrem || !(x->dep & D_LANE) || x->size > SPLIT_MAX_SIZE)
		return 0;
	const sx *parts[2 * SPLIT_MAX_PARTS];
	int n = 0, seen = 0;
	parts_of(c, x, 1, parts, &n);
	parts_of(c, x, 0, parts, &n);
	for (int i = 0; i < n; i++) {
		const sx *cf = coef_of(c, x, parts[i]);
		if (!cf)
			continue; /* nested in another split: its own parts speak */
		if (sx_is_static(c, cf) || !sx_has_unknown(c, cf))
			return 0; /* a compile-time or block-derived weight shows the layout */
		/* a weight built from the split's own sizes (`h * T * T` with `t =
		 * idx / NH % T`) shows the layout too */
		for (int j = 0; j < n; j++) {
			const sx *v, *d;
			if ((sx_split_divrem(c, parts[j], 1, &v, &d) ||
			     sx_split_divrem(c, parts[j], 0, &v, &d)) &&
			    shares_sym(cf, d))
				return 0;
		}
		seen = 1;
	}
	return seen;
}
