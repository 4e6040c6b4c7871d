/* analyzer/expr.c: symbolic values (see expr.h).  Trees are immutable and
 * arena-allocated; constructors fold constants and drop identities so that
 * the coefficients read back simply. */
#include "analyzer/expr.h"
#include "util/buf.h"
#include "util/checked.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sx_ctx_init(sx_ctx *c, ka_arena *a)
{
	memset(c, 0, sizeof *c);
	c->arena = a;
}

int sx_new_sym(sx_ctx *c, sx_sym_kind kind, const char *name, unsigned dep, uint64_t loops)
{
	if (c->nsyms == c->capsyms) {
		int ncap = c->capsyms ? c->capsyms * 2 : 64;
		sx_sym *n = ka_arena_alloc(c->arena, sizeof *n * (size_t)ncap);
		if (c->nsyms)
			memcpy(n, c->syms, sizeof *n * (size_t)c->nsyms);
		c->syms = n;
		c->capsyms = ncap;
	}
	sx_sym *s = &c->syms[c->nsyms];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->name = name;
	s->dep = dep;
	s->loops = loops;
	s->value = 1024;
	return c->nsyms++;
}

static sx *node(sx_ctx *c, sx_kind k)
{
	sx *x = ka_arena_alloc(c->arena, sizeof *x);
	x->k = k;
	x->depth = x->size = 1;
	return x;
}

const sx *sx_const(sx_ctx *c, int64_t v)
{
	sx *x = node(c, SX_CONST);
	x->c = v;
	return x;
}

const sx *sx_symref(sx_ctx *c, int sym)
{
	sx *x = node(c, SX_SYM);
	x->sym = sym;
	x->dep = c->syms[sym].dep;
	x->loops = c->syms[sym].loops;
	return x;
}

const sx *sx_opaque(sx_ctx *c, unsigned dep, uint64_t loops)
{
	sx *x = node(c, SX_OPAQUE);
	x->sym = ++c->nopaque; /* its name in sx_render_key */
	x->dep = dep | D_OPAQUE;
	x->loops = loops;
	return x;
}

const sx *sx_atomic_result(sx_ctx *c, unsigned dep, uint64_t loops, int64_t atomic_id)
{
	sx *x = node(c, SX_OPAQUE);
	x->sym = ++c->nopaque; /* its name in sx_render_key */
	x->dep = dep | D_OPAQUE;
	x->loops = loops;
	x->atomic_id = atomic_id;
	return x;
}

int sx_is_const(const sx *x, int64_t *v)
{
	if (x && x->k == SX_CONST) {
		if (v)
			*v = x->c;
		return 1;
	}
	return 0;
}

/* Constant folding with checked arithmetic: *ok = 0 when the result is
 * undefined or does not fit in 64 bits, so the value stays symbolic. */
static int64_t fold(sx_kind k, int64_t a, int64_t b, int *ok)
{
	int64_t r = 0;
	switch (k) {
	case SX_ADD:
		*ok = ka_add64(a, b, &r);
		break;
	case SX_MUL:
		*ok = ka_mul64(a, b, &r);
		break;
	case SX_DIV:
		*ok = ka_div64(a, b, &r);
		break;
	case SX_REM:
		*ok = ka_rem64(a, b, &r);
		break;
	case SX_SHL:
		*ok = ka_shl64(a, b, &r);
		break;
	case SX_SHR:
		*ok = b < 63 && ka_shr64(a, b, &r);
		break;
	case SX_AND:
		*ok = 1;
		r = a & b;
		break;
	case SX_OR:
		*ok = 1;
		r = a | b;
		break;
	case SX_XOR:
		*ok = 1;
		r = a ^ b;
		break;
	case SX_MIN:
		*ok = 1;
		r = a < b ? a : b;
		break;
	case SX_MAX:
		*ok = 1;
		r = a > b ? a : b;
		break;
	default:
		*ok = 0;
		break;
	}
	return *ok ? r : 0;
}

const sx *sx_bin(sx_ctx *c, sx_kind k, const sx *a, const sx *b)
{
	int64_t va = 0, vb = 0;
	int ca = sx_is_const(a, &va), cb = sx_is_const(b, &vb), ok;
	if (ca && cb) {
		int64_t v = fold(k, va, vb, &ok);
		if (ok)
			return sx_const(c, v);
	}
	if (k == SX_ADD) {
		if (ca && va == 0)
			return b;
		if (cb && vb == 0)
			return a;
	}
	if (k == SX_MUL) {
		if ((ca && va == 0) || (cb && vb == 0))
			return sx_const(c, 0);
		if (ca && va == 1)
			return b;
		if (cb && vb == 1)
			return a;
	}
	if ((k == SX_DIV || k == SX_SHR) && cb && (vb == (k == SX_DIV)))
		return a;
	if (k == SX_SHL && cb && vb >= 0 && vb < 31) /* x << c is x * 2^c: stays affine */
		return sx_mul(c, a, sx_const(c, (int64_t)1 << vb));
	int depth = (a->depth > b->depth ? a->depth : b->depth) + 1, size = a->size + b->size + 1;
	if (depth > SX_MAX_DEPTH || size > SX_MAX_SIZE)
		return sx_opaque(c, (a->dep | b->dep) & ~D_OPAQUE, a->loops | b->loops);
	sx *x = node(c, k);
	x->a = a;
	x->b = b;
	x->depth = depth;
	x->size = size;
	x->dep = a->dep | b->dep;
	x->loops = a->loops | b->loops;
	x->has_rem_small = a->has_rem_small || b->has_rem_small;
	x->has_rem_var = a->has_rem_var || b->has_rem_var;
	x->has_rem_key = a->has_rem_key || b->has_rem_key;
	x->divrem = a->divrem || b->divrem || k == SX_DIV || k == SX_REM || k == SX_SHR || k == SX_AND;
	if ((k == SX_REM || k == SX_AND) && (a->dep & D_LANE) && cb && vb > 0 && vb < 64)
		x->has_rem_small = 1;
	if (k == SX_REM && (a->dep & D_LANE) && !cb) {
		x->has_rem_var = 1;
		x->has_rem_key = (a->dep & D_DATA) != 0;
	}
	return x;
}

int sx_equal(const sx *a, const sx *b)
{
	if (a == b)
		return 1;
	if (!a || !b || a->k != b->k || a->size != b->size || a->k == SX_OPAQUE)
		return 0;
	if (a->k == SX_CONST)
		return a->c == b->c;
	if (a->k == SX_SYM)
		return a->sym == b->sym;
	if (a->k == SX_CMP && a->c != b->c)
		return 0;
	return sx_equal(a->a, b->a) && sx_equal(a->b, b->b);
}

int sx_same_value(sx_ctx *c, const sx *x, const sx *y)
{
	int64_t v;
	return x && y && (sx_equal(x, y) || (sx_is_const(sx_add(c, x, sx_neg(c, y)), &v) && v == 0));
}

#define RECOMB_MAX 16

/* The factors of a product, constants multiplied into *k; 0 when there are
 * too many or the constant overflows. */
static int factors_of(const sx *x, const sx **f, int *n, int64_t *k)
{
	if (x->k == SX_MUL)
		return factors_of(x->a, f, n, k) && factors_of(x->b, f, n, k);
	if (x->k == SX_CONST)
		return ka_mul64(*k, x->c, k);
	if (*n >= RECOMB_MAX)
		return 0;
	f[(*n)++] = x;
	return 1;
}

static int terms_of(const sx *x, const sx **t, int *n)
{
	if (x->k == SX_ADD)
		return terms_of(x->a, t, n) && terms_of(x->b, t, n);
	if (*n >= RECOMB_MAX)
		return 0;
	t[(*n)++] = x;
	return 1;
}

int sx_split_divrem(sx_ctx *c, const sx *f, int want_rem, const sx **x, const sx **d)
{
	int64_t v;
	if (!want_rem && f->k == SX_DIV) {
		*x = f->a, *d = f->b;
		return 1;
	}
	if (want_rem && f->k == SX_REM) {
		*x = f->a, *d = f->b;
		return 1;
	}
	if (!want_rem && f->k == SX_SHR && sx_is_const(f->b, &v) && v >= 0 && v < 31) {
		*x = f->a, *d = sx_const(c, (int64_t)1 << v);
		return 1;
	}
	if (want_rem && f->k == SX_AND && sx_is_const(f->b, &v) && v > 0 && v < INT32_MAX &&
	    ((v + 1) & v) == 0) {
		*x = f->a, *d = sx_const(c, v + 1);
		return 1;
	}
	return 0;
}

/* Multisets of factors equal (each of `a` matched once in `b`). */
static int same_factors(const sx **a, int na, const sx **b, int nb)
{
	if (na != nb)
		return 0;
	unsigned used = 0;
	for (int i = 0; i < na; i++) {
		int j = 0;
		while (j < nb && ((used >> j) & 1u || !sx_equal(a[i], b[j])))
			j++;
		if (j == nb)
			return 0;
		used |= 1u << j;
	}
	return 1;
}

/* term_q = (X/D) * D * K and term_r = (X%D) * K: X * K, else NULL. */
static const sx *recombine_pair(sx_ctx *c, const sx *tq, const sx *tr)
{
	const sx *fq[RECOMB_MAX], *fr[RECOMB_MAX + RECOMB_MAX];
	int nq = 0, nr = 0;
	int64_t kq = 1, kr = 1;
	if (!factors_of(tq, fq, &nq, &kq) || !factors_of(tr, fr, &nr, &kr))
		return NULL;
	for (int i = 0; i < nq; i++) {
		const sx *x, *d;
		if (!sx_split_divrem(c, fq[i], 0, &x, &d))
			continue;
		for (int j = 0; j < nr; j++) {
			const sx *x2, *d2;
			int64_t dv, dv2;
			if (!sx_split_divrem(c, fr[j], 1, &x2, &d2) || !sx_equal(x, x2))
				continue;
			if (!(sx_is_const(d, &dv) && sx_is_const(d2, &dv2) ? dv == dv2 : sx_equal(d, d2)))
				continue;
			/* K: the remainder term without its remainder factor */
			const sx *k[RECOMB_MAX];
			int nk = 0;
			for (int m = 0; m < nr; m++)
				if (m != j)
					k[nk++] = fr[m];
			/* quotient term without its quotient factor == D * K */
			const sx *rest[RECOMB_MAX];
			int nrest = 0;
			for (int m = 0; m < nq; m++)
				if (m != i)
					rest[nrest++] = fq[m];
			const sx *want[RECOMB_MAX + RECOMB_MAX];
			int nwant = 0;
			int64_t kwant = kr;
			for (int m = 0; m < nk; m++)
				want[nwant++] = k[m];
			if (!factors_of(d, want, &nwant, &kwant) || kwant != kq ||
			    !same_factors(rest, nrest, want, nwant))
				continue;
			const sx *r = sx_mul(c, x, sx_const(c, kr));
			for (int m = 0; m < nk; m++)
				r = sx_mul(c, r, k[m]);
			return r;
		}
	}
	return NULL;
}

/* Look for a quotient term and its remainder term in the sum a + b. */
static const sx *recombine(sx_ctx *c, const sx *a, const sx *b)
{
	const sx *t[RECOMB_MAX];
	int n = 0;
	if (!terms_of(a, t, &n) || !terms_of(b, t, &n))
		return NULL;
	for (int i = 0; i < n; i++) {
		if (!t[i]->divrem)
			continue;
		for (int j = 0; j < n; j++) {
			if (j == i || !t[j]->divrem)
				continue;
			const sx *r = recombine_pair(c, t[i], t[j]);
			if (!r)
				continue;
			for (int m = 0; m < n; m++)
				if (m != i && m != j)
					r = sx_add(c, r, t[m]);
			return r;
		}
	}
	return NULL;
}

#define CANCEL_MAX 32

/* One term of a sum: k times the product of f[0..nf), no constant among
 * them (nf 0: the constant term). */
typedef struct lin_term {
	const sx *f[RECOMB_MAX];
	int nf;
	int64_t k;
} lin_term;

/* The terms of x scaled by k and multiplied by the factors ex[0..nex), a
 * constant factor pushed through sums (`-(p + q)` gives -p and -q); with
 * `spread` also a product over a sum, two levels deep (`(b + 1) * T * C`
 * gives b*T*C and T*C).  0 when there are too many terms or factors, or a
 * product overflows. */
static int lin_terms_x(const sx *x, int64_t k, const sx *const *ex, int nex, int spread, lin_term *t, int *n)
{
	if (x->k == SX_ADD)
		return lin_terms_x(x->a, k, ex, nex, spread, t, n) &&
		       lin_terms_x(x->b, k, ex, nex, spread, t, n);
	int64_t v;
	if (x->k == SX_MUL && (x->a->k == SX_CONST || x->b->k == SX_CONST)) {
		const sx *kc = x->a->k == SX_CONST ? x->a : x->b;
		return ka_mul64(k, kc->c, &v) &&
		       lin_terms_x(kc == x->a ? x->b : x->a, v, ex, nex, spread, t, n);
	}
	if (*n >= CANCEL_MAX)
		return 0;
	lin_term *u = &t[*n];
	u->nf = 0;
	u->k = 1;
	for (int i = 0; i < nex; i++) {
		if (u->nf >= RECOMB_MAX)
			return 0;
		u->f[u->nf++] = ex[i];
	}
	if (!factors_of(x, u->f, &u->nf, &u->k) || !ka_mul64(u->k, k, &u->k))
		return 0;
	for (int i = 0; spread > 0 && i < u->nf; i++) {
		if (u->f[i]->k != SX_ADD)
			continue;
		/* the other factors multiply each term of this sum */
		const sx *rest[RECOMB_MAX];
		int nrest = 0;
		for (int j = 0; j < u->nf; j++)
			if (j != i)
				rest[nrest++] = u->f[j];
		return lin_terms_x(u->f[i], u->k, rest, nrest, spread - 1, t, n);
	}
	for (int i = 0; i < u->nf; i++)
		if (u->f[i]->k == SX_OPAQUE) /* an opaque value equals nothing */
			return 0;
	(*n)++;
	return 1;
}

static int lin_terms(const sx *x, int64_t k, lin_term *t, int *n)
{
	return lin_terms_x(x, k, NULL, 0, 0, t, n);
}

/* a + b with the terms that cancel dropped: `(f + 8*m - 1) - f` is
 * `8*m - 1`, whatever f is (exact in wrapping arithmetic too), so a value
 * rebuilt from a thread-dependent one and then subtracted from it keeps no
 * thread dependence.  NULL when no term cancels. */
static const sx *cancel_terms(sx_ctx *c, const sx *a, const sx *b)
{
	lin_term t[CANCEL_MAX];
	int n = 0;
	if (!lin_terms_x(a, 1, NULL, 0, 2, t, &n) || !lin_terms_x(b, 1, NULL, 0, 2, t, &n))
		return NULL;
	unsigned char gone[CANCEL_MAX] = {0};
	int any = 0;
	for (int i = 0; i < n; i++) {
		if (gone[i] || !t[i].nf)
			continue;
		/* the group of terms with i's product: dropped when its
		 * coefficients sum to zero */
		int64_t sum = t[i].k;
		int members = 1, ok = 1;
		for (int j = i + 1; j < n && ok; j++)
			if (!gone[j] && same_factors(t[i].f, t[i].nf, t[j].f, t[j].nf)) {
				ok = ka_add64(sum, t[j].k, &sum);
				members++;
			}
		if (!ok || members < 2 || sum != 0)
			continue;
		gone[i] = 1;
		for (int j = i + 1; j < n; j++)
			if (!gone[j] && same_factors(t[i].f, t[i].nf, t[j].f, t[j].nf))
				gone[j] = 1;
		any = 1;
	}
	if (!any)
		return NULL;
	int64_t k0 = 0;
	const sx *r = NULL;
	for (int i = 0; i < n; i++) {
		if (gone[i])
			continue;
		if (!t[i].nf) {
			if (!ka_add64(k0, t[i].k, &k0))
				return NULL;
			continue;
		}
		const sx *term = t[i].f[0];
		for (int m = 1; m < t[i].nf; m++)
			term = sx_bin(c, SX_MUL, term, t[i].f[m]);
		term = sx_bin(c, SX_MUL, term, sx_const(c, t[i].k));
		r = r ? sx_bin(c, SX_ADD, r, term) : term;
	}
	if (!r)
		return sx_const(c, k0);
	return k0 ? sx_bin(c, SX_ADD, r, sx_const(c, k0)) : r;
}

int sx_split_iters(sx_ctx *c, const sx *x, const int *iters, int nit, const sx **rest, int64_t *k,
		   int64_t *c0)
{
	lin_term t[CANCEL_MAX];
	int n = 0;
	*rest = NULL;
	*c0 = 0;
	for (int j = 0; j < nit; j++)
		k[j] = 0;
	if (!x || !lin_terms(x, 1, t, &n))
		return 0;
	for (int i = 0; i < n; i++) {
		if (!t[i].nf) {
			if (!ka_add64(*c0, t[i].k, c0))
				return 0;
			continue;
		}
		int j = nit;
		if (t[i].nf == 1 && t[i].f[0]->k == SX_SYM)
			for (j = 0; j < nit && iters[j] != t[i].f[0]->sym; j++)
				;
		if (j < nit) {
			if (!ka_add64(k[j], t[i].k, &k[j]))
				return 0;
			continue;
		}
		const sx *term = t[i].f[0];
		for (int m = 1; m < t[i].nf; m++)
			term = sx_bin(c, SX_MUL, term, t[i].f[m]);
		term = sx_bin(c, SX_MUL, term, sx_const(c, t[i].k));
		*rest = *rest ? sx_bin(c, SX_ADD, *rest, term) : term;
	}
	if (!*rest)
		*rest = sx_const(c, 0);
	return 1;
}

/* A term with a negative constant factor (`-f`, `(-f) * g`), the only way
 * two terms cancel. */
static int has_negative_term(const sx *x)
{
	if (x->k == SX_ADD)
		return has_negative_term(x->a) || has_negative_term(x->b);
	if (x->k != SX_MUL)
		return 0;
	if ((x->a->k == SX_CONST && x->a->c < 0 && x->b->k != SX_CONST) ||
	    (x->b->k == SX_CONST && x->b->c < 0 && x->a->k != SX_CONST))
		return 1;
	return (x->a->k == SX_MUL && has_negative_term(x->a)) ||
	       (x->b->k == SX_MUL && has_negative_term(x->b));
}

const sx *sx_add(sx_ctx *c, const sx *a, const sx *b)
{
	if (a->divrem && b->divrem && a->size + b->size < 256) {
		const sx *r = recombine(c, a, b);
		if (r)
			return r;
	}
	if (a->k != SX_CONST && b->k != SX_CONST && a->size + b->size < 256 &&
	    (has_negative_term(a) || has_negative_term(b))) {
		const sx *r = cancel_terms(c, a, b);
		if (r)
			return r;
	}
	return sx_bin(c, SX_ADD, a, b);
}
const sx *sx_mul(sx_ctx *c, const sx *a, const sx *b)
{
	return sx_bin(c, SX_MUL, a, b);
}
const sx *sx_neg(sx_ctx *c, const sx *a)
{
	return sx_mul(c, sx_const(c, -1), a);
}

static int depends_on(const sx_ctx *c, const sx *x, sx_sym_kind kind)
{
	if (!x)
		return 0;
	if (x->k == SX_SYM)
		return c->syms[x->sym].kind == kind;
	if (x->k == SX_OPAQUE)
		return 0;
	return depends_on(c, x->a, kind) || depends_on(c, x->b, kind);
}

const sx *sx_coef(sx_ctx *c, const sx *x, sx_sym_kind kind)
{
	if (!depends_on(c, x, kind))
		return sx_const(c, 0);
	switch (x->k) {
	case SX_SYM:
		return sx_const(c, 1);
	case SX_ADD: {
		const sx *ca = sx_coef(c, x->a, kind), *cb = sx_coef(c, x->b, kind);
		return (ca && cb) ? sx_add(c, ca, cb) : NULL;
	}
	case SX_MUL: {
		int da = depends_on(c, x->a, kind), db = depends_on(c, x->b, kind);
		if (da && db)
			return NULL;
		if (da) {
			const sx *ca = sx_coef(c, x->a, kind);
			return ca ? sx_mul(c, ca, x->b) : NULL;
		}
		const sx *cb = sx_coef(c, x->b, kind);
		return cb ? sx_mul(c, x->a, cb) : NULL;
	}
	default:
		return NULL;
	}
}

const sx *sx_div_exact(sx_ctx *c, const sx *x, int64_t d)
{
	if (d == 1)
		return x;
	if (d == 0 || !x)
		return NULL;
	switch (x->k) {
	case SX_CONST: {
		int64_t r, q;
		return ka_rem64(x->c, d, &r) && r == 0 && ka_div64(x->c, d, &q) ? sx_const(c, q) : NULL;
	}
	case SX_ADD: {
		const sx *a = sx_div_exact(c, x->a, d), *b = sx_div_exact(c, x->b, d);
		return (a && b) ? sx_add(c, a, b) : NULL;
	}
	case SX_MUL: {
		const sx *a = sx_div_exact(c, x->a, d);
		if (a)
			return sx_mul(c, a, x->b);
		const sx *b = sx_div_exact(c, x->b, d);
		if (b)
			return sx_mul(c, x->a, b);
		/* (e*8)*2 / 16: split d between a constant factor and the rest */
		const sx *k = x->b->k == SX_CONST ? x->b : x->a->k == SX_CONST ? x->a : NULL;
		const sx *e = k == x->b ? x->a : x->b;
		if (!k || k->c == 0)
			return NULL;
		int64_t g = k->c < 0 ? -k->c : k->c, h = d < 0 ? -d : d;
		while (h) {
			int64_t t = g % h;
			g = h;
			h = t;
		}
		if (g <= 1 || g == (d < 0 ? -d : d))
			return NULL;
		const sx *r = sx_div_exact(c, e, d / g);
		return r ? sx_mul(c, r, sx_const(c, k->c / g)) : NULL;
	}
	default:
		return NULL;
	}
}

int sx_const_term(const sx *x, int64_t *out)
{
	int64_t a, b;
	switch (x->k) {
	case SX_CONST:
		*out = x->c;
		return 1;
	case SX_SYM:
		*out = 0;
		return 1;
	case SX_ADD:
		return sx_const_term(x->a, &a) && sx_const_term(x->b, &b) && ka_add64(a, b, out);
	case SX_MUL:
		if (x->a->k == SX_CONST && sx_const_term(x->b, &b))
			return ka_mul64(x->a->c, b, out);
		if (x->b->k == SX_CONST && sx_const_term(x->a, &a))
			return ka_mul64(x->b->c, a, out);
		return sx_const_term(x->a, &a) && sx_const_term(x->b, &b) && ka_mul64(a, b, out);
	default:
		return 0;
	}
}

int sx_mixes_unknown_with_lanes(const sx_ctx *c, const sx *x)
{
	if (!x || !(x->dep & D_LANE) || x->k == SX_SYM || x->k == SX_CONST)
		return 0;
	if (x->k == SX_ADD)
		return sx_mixes_unknown_with_lanes(c, x->a) || sx_mixes_unknown_with_lanes(c, x->b);
	if (x->k == SX_MUL && (x->a->k == SX_CONST || x->b->k == SX_CONST))
		return sx_mixes_unknown_with_lanes(c, x->a->k == SX_CONST ? x->b : x->a);
	return sx_has_unknown(c, x);
}

int sx_is_static(const sx_ctx *c, const sx *x)
{
	if (!x || x->k == SX_OPAQUE)
		return 0;
	if (x->k == SX_CONST)
		return 1;
	if (x->k == SX_SYM)
		return c->syms[x->sym].is_static;
	return sx_is_static(c, x->a) && (!x->b || sx_is_static(c, x->b));
}

int sx_has_opaque(const sx *x)
{
	return x && (x->k == SX_OPAQUE || sx_has_opaque(x->a) || sx_has_opaque(x->b));
}

int sx_has_unknown(const sx_ctx *c, const sx *x)
{
	if (!x)
		return 0;
	if (x->k == SX_OPAQUE)
		return 1;
	if (x->k == SX_SYM)
		return !c->syms[x->sym].has_value && c->syms[x->sym].kind >= SYM_PARAM;
	return sx_has_unknown(c, x->a) || sx_has_unknown(c, x->b);
}

int sx_carried_sym(const sx_ctx *c, const sx *x)
{
	if (!x || !x->loops)
		return -1;
	if (x->k == SX_SYM)
		return c->syms[x->sym].carried ? x->sym : -1;
	int s = sx_carried_sym(c, x->a);
	return s >= 0 ? s : sx_carried_sym(c, x->b);
}

int sx_uses_sym(const sx *x, int sym)
{
	if (!x)
		return 0;
	if (x->k == SX_SYM)
		return x->sym == sym;
	return sx_uses_sym(x->a, sym) || sx_uses_sym(x->b, sym);
}

/* launch: only thread ids, dims, the warp size and parameters with a
 * launch value have a value (no assumed 1024). */
static int eval(const sx_ctx *c, const sx *x, const sx_lane *lane, int launch, int64_t *out)
{
	switch (x->k) {
	case SX_CONST:
		*out = x->c;
		return 0;
	case SX_SYM: {
		const sx_sym *s = &c->syms[x->sym];
		if (s->kind <= SYM_TID_Z) {
			*out = lane->tid[s->kind - SYM_TID_X];
			return 0;
		}
		if (launch) {
			if (s->kind == SYM_PARAM && s->has_launch_value) {
				*out = s->launch_value;
				return 0;
			}
			if (!((s->kind >= SYM_BDIM_X && s->kind <= SYM_BDIM_Z) || s->kind == SYM_WARPSIZE) ||
			    !s->has_value)
				return -1;
		}
		if (s->lane_varying)
			return -1;
		*out = s->value;
		return 0;
	}
	case SX_OPAQUE:
		if ((x->dep & D_LANE) || launch)
			return -1;
		*out = 1024;
		return 0;
	case SX_CMP: {
		int64_t a, b;
		if (eval(c, x->a, lane, launch, &a) || eval(c, x->b, lane, launch, &b))
			return -1;
		switch ((int)x->c) {
		case 1:
			*out = a < b;
			break;
		case 2:
			*out = a > b;
			break;
		case 3:
			*out = a <= b;
			break;
		case 4:
			*out = a >= b;
			break;
		case 5:
			*out = a == b;
			break;
		default:
			*out = a != b;
			break;
		}
		return 0;
	}
	default: {
		int64_t a, b;
		int ok;
		if (eval(c, x->a, lane, launch, &a) || eval(c, x->b, lane, launch, &b))
			return -1;
		*out = fold(x->k, a, b, &ok);
		return ok ? 0 : -1;
	}
	}
}

/* Bounds of x over the box (sx_range); depth caps the recursion. */
typedef struct range_iv {
	int64_t lo, hi;
} range_iv;

static int range_sym(const sx_ctx *c, const sx_sym *s, const sx_box *b, range_iv *r)
{
	int64_t v;
	if (s->kind <= SYM_TID_Z || (s->kind >= SYM_BID_X && s->kind <= SYM_BID_Z)) {
		int tid = s->kind <= SYM_TID_Z;
		int axis = tid ? s->kind - SYM_TID_X : s->kind - SYM_BID_X;
		v = tid ? b->block[axis] : b->grid[axis];
		if (v <= 0)
			return -1;
		*r = (range_iv){0, v - 1};
		return 0;
	}
	if (s->kind >= SYM_BDIM_X && s->kind <= SYM_BDIM_Z)
		v = b->block[s->kind - SYM_BDIM_X];
	else if (s->kind >= SYM_GDIM_X && s->kind <= SYM_GDIM_Z)
		v = b->grid[s->kind - SYM_GDIM_X];
	else if (s->kind == SYM_WARPSIZE && s->has_value)
		v = s->value;
	else if (s->kind == SYM_PARAM && s->has_launch_value)
		v = s->launch_value;
	else
		return -1;
	(void)c;
	if (v <= 0 && s->kind != SYM_PARAM)
		return -1;
	*r = (range_iv){v, v};
	return 0;
}

static int range_const(range_iv r, int64_t *v)
{
	*v = r.lo;
	return r.lo == r.hi;
}

static int range_of(const sx_ctx *c, const sx *x, const sx_box *b, range_iv *r, int depth)
{
	range_iv a, d;
	int64_t k, p[4];
	if (!x || depth > 64)
		return -1;
	if (x->k == SX_CONST) {
		*r = (range_iv){x->c, x->c};
		return 0;
	}
	if (x->k == SX_SYM)
		return range_sym(c, &c->syms[x->sym], b, r);
	if (x->k == SX_OPAQUE || !x->a || !x->b || range_of(c, x->a, b, &a, depth + 1) ||
	    range_of(c, x->b, b, &d, depth + 1))
		return -1;
	switch (x->k) {
	case SX_ADD:
		if (__builtin_add_overflow(a.lo, d.lo, &r->lo) || __builtin_add_overflow(a.hi, d.hi, &r->hi))
			return -1;
		return 0;
	case SX_MUL:
		if (__builtin_mul_overflow(a.lo, d.lo, &p[0]) || __builtin_mul_overflow(a.lo, d.hi, &p[1]) ||
		    __builtin_mul_overflow(a.hi, d.lo, &p[2]) || __builtin_mul_overflow(a.hi, d.hi, &p[3]))
			return -1;
		r->lo = r->hi = p[0];
		for (int i = 1; i < 4; i++) {
			r->lo = p[i] < r->lo ? p[i] : r->lo;
			r->hi = p[i] > r->hi ? p[i] : r->hi;
		}
		return 0;
	case SX_DIV: /* by a positive constant: truncation is monotone */
		if (!range_const(d, &k) || k <= 0)
			return -1;
		*r = (range_iv){a.lo / k, a.hi / k};
		return 0;
	case SX_SHR:
		if (!range_const(d, &k) || k < 0 || k > 62 || a.lo < 0)
			return -1;
		*r = (range_iv){a.lo >> k, a.hi >> k};
		return 0;
	case SX_SHL:
		if (!range_const(d, &k) || k < 0 || k > 30 || a.lo < 0 || a.hi > (INT64_MAX >> 31))
			return -1;
		*r = (range_iv){a.lo << k, a.hi << k};
		return 0;
	case SX_REM:
		if (!range_const(d, &k) || k <= 0 || a.lo < 0)
			return -1;
		if (a.hi - a.lo < k && a.lo % k <= a.hi % k)
			*r = (range_iv){a.lo % k, a.hi % k};
		else
			*r = (range_iv){0, k - 1};
		return 0;
	case SX_AND:
	case SX_OR:
		if (a.lo >= 0 && a.hi <= 1 && d.lo >= 0 && d.hi <= 1) { /* && and || of 0/1 values */
			*r = x->k == SX_AND ? (range_iv){a.lo & d.lo, a.hi & d.hi}
					    : (range_iv){a.lo | d.lo, a.hi | d.hi};
			return 0;
		}
		if (x->k == SX_AND && a.lo >= 0 && range_const(d, &k) && k >= 0) { /* a mask */
			*r = (range_iv){0, a.hi < k ? a.hi : k};
			return 0;
		}
		return -1;
	case SX_MIN:
		*r = (range_iv){a.lo < d.lo ? a.lo : d.lo, a.hi < d.hi ? a.hi : d.hi};
		return 0;
	case SX_MAX:
		*r = (range_iv){a.lo > d.lo ? a.lo : d.lo, a.hi > d.hi ? a.hi : d.hi};
		return 0;
	case SX_CMP: {
		int t, f; /* always true, always false */
		switch ((int)x->c) {
		case 1: /* < */
			t = a.hi < d.lo, f = a.lo >= d.hi;
			break;
		case 2: /* > */
			t = a.lo > d.hi, f = a.hi <= d.lo;
			break;
		case 3: /* <= */
			t = a.hi <= d.lo, f = a.lo > d.hi;
			break;
		case 4: /* >= */
			t = a.lo >= d.hi, f = a.hi < d.lo;
			break;
		case 5: /* == */
			t = a.lo == a.hi && d.lo == d.hi && a.lo == d.lo, f = a.hi < d.lo || a.lo > d.hi;
			break;
		default: /* != */
			t = a.hi < d.lo || a.lo > d.hi, f = a.lo == a.hi && d.lo == d.hi && a.lo == d.lo;
			break;
		}
		*r = t ? (range_iv){1, 1} : f ? (range_iv){0, 0} : (range_iv){0, 1};
		return 0;
	}
	default:
		return -1;
	}
}

int sx_range(const sx_ctx *c, const sx *x, const sx_box *box, int64_t *lo, int64_t *hi)
{
	range_iv r;
	if (range_of(c, x, box, &r, 0))
		return -1;
	*lo = r.lo;
	*hi = r.hi;
	return 0;
}

int sx_eval(const sx_ctx *c, const sx *x, const sx_lane *lane, int64_t *out)
{
	return eval(c, x, lane, 0, out);
}

int sx_eval_launch(const sx_ctx *c, const sx *x, const sx_lane *lane, int64_t *out)
{
	return eval(c, x, lane, 1, out);
}

static void render_as(const sx_ctx *c, ka_buf *b, const sx *x, int prec, int ids)
{
	static const char *const ops[] = {
		[SX_ADD] = " + ", [SX_MUL] = "*", [SX_DIV] = "/", [SX_REM] = "%", [SX_SHL] = "<<",
		[SX_SHR] = ">>",  [SX_AND] = "&", [SX_OR] = "|",  [SX_XOR] = "^"};
	static const int pr[] = {[SX_ADD] = 1, [SX_MUL] = 2, [SX_DIV] = 2, [SX_REM] = 2, [SX_SHL] = 0,
				 [SX_SHR] = 0, [SX_AND] = 0, [SX_OR] = 0,  [SX_XOR] = 0};
	switch (x->k) {
	case SX_CONST:
		ka_buf_printf(b, "%lld", (long long)x->c);
		return;
	case SX_SYM:
		ka_buf_adds(b, c->syms[x->sym].name);
		return;
	case SX_OPAQUE:
		if (ids)
			ka_buf_printf(b, "?%d", x->sym);
		else
			ka_buf_adds(b, "?");
		return;
	case SX_MIN:
	case SX_MAX:
	case SX_CMP:
		ka_buf_adds(b, x->k == SX_MIN ? "min(" : x->k == SX_MAX ? "max(" : "cmp(");
		render_as(c, b, x->a, 0, ids);
		ka_buf_adds(b, ", ");
		render_as(c, b, x->b, 0, ids);
		ka_buf_adds(b, ")");
		return;
	default:
		break;
	}
	int p = pr[x->k];
	if (p < prec)
		ka_buf_addc(b, '(');
	if (x->k == SX_MUL && x->a->k == SX_CONST && x->a->c == -1) {
		ka_buf_addc(b, '-');
		render_as(c, b, x->b, 3, ids);
	} else {
		render_as(c, b, x->a, p, ids);
		ka_buf_adds(b, ops[x->k]);
		render_as(c, b, x->b, p + 1, ids);
	}
	if (p < prec)
		ka_buf_addc(b, ')');
}

static const char *render_text(const sx_ctx *c, ka_arena *a, const sx *x, int ids)
{
	ka_buf b;
	ka_buf_init(&b, 1 << 16);
	if (x)
		render_as(c, &b, x, 0, ids);
	const char *r = ka_arena_strdup(a, b.data ? b.data : "");
	ka_buf_free(&b);
	return r;
}

const char *sx_render(const sx_ctx *c, ka_arena *a, const sx *x)
{
	return render_text(c, a, x, 0);
}

/* As sx_render, each value the model could not spell out named by its
 * node: equal texts within one walk are the same value (a key, not for
 * people). */
const char *sx_render_key(const sx_ctx *c, ka_arena *a, const sx *x)
{
	return render_text(c, a, x, 1);
}

/* Canonical text (sx_render_var below): a sum's terms and a product's
 * factors flattened, constants folded, each list sorted by its text. */
typedef struct canon_list {
	const char **v;
	int n, cap;
} canon_list;

static void canon_push(ka_arena *a, canon_list *l, const char *t)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 8;
		const char **v = ka_arena_alloc(a, sizeof *v * (size_t)cap);
		if (l->n)
			memcpy(v, l->v, sizeof *v * (size_t)l->n);
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = t;
}

static int canon_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static const char *canon_join(ka_arena *a, canon_list *l, const char *sep)
{
	qsort(l->v, (size_t)l->n, sizeof *l->v, canon_cmp);
	size_t len = 1;
	for (int i = 0; i < l->n; i++)
		len += strlen(l->v[i]) + strlen(sep);
	char *r = ka_arena_alloc(a, len), *p = r;
	*p = '\0';
	for (int i = 0; i < l->n; i++)
		p += sprintf(p, "%s%s", i ? sep : "", l->v[i]);
	return r;
}

static const char *canon_sum(const sx_ctx *c, ka_arena *a, const sx *x, int keep_const);

static void canon_factors(const sx_ctx *c, ka_arena *a, const sx *x, int64_t *k, int *ok, canon_list *f)
{
	if (x->k == SX_MUL) {
		canon_factors(c, a, x->a, k, ok, f);
		canon_factors(c, a, x->b, k, ok, f);
	} else if (x->k == SX_CONST) {
		*ok &= ka_mul64(*k, x->c, k);
	} else if (x->k == SX_ADD) {
		canon_push(a, f, ka_arena_printf(a, "(%s)", canon_sum(c, a, x, 1)));
	} else {
		canon_push(a, f, sx_render(c, a, x));
	}
}

static void canon_terms(const sx_ctx *c, ka_arena *a, const sx *x, int64_t m, int64_t *k0, int *ok,
			canon_list *t)
{
	int64_t v;
	if (x->k == SX_ADD) {
		canon_terms(c, a, x->a, m, k0, ok, t);
		canon_terms(c, a, x->b, m, k0, ok, t);
		return;
	}
	if (x->k == SX_CONST) {
		*ok &= ka_mul64(m, x->c, &v) && ka_add64(*k0, v, k0);
		return;
	}
	if (x->k == SX_MUL && (x->a->k == SX_CONST || x->b->k == SX_CONST)) { /* k * (a + b): distributed */
		const sx *k = x->a->k == SX_CONST ? x->a : x->b, *o = k == x->a ? x->b : x->a;
		if (ka_mul64(m, k->c, &v))
			canon_terms(c, a, o, v, k0, ok, t);
		else
			*ok = 0;
		return;
	}
	int64_t k = m;
	canon_list f = {0};
	canon_factors(c, a, x, &k, ok, &f);
	if (!f.n) {
		*ok &= ka_add64(*k0, k, k0);
		return;
	}
	if (k == 1)
		canon_push(a, t, canon_join(a, &f, "*"));
	else if (k != 0)
		canon_push(a, t, ka_arena_printf(a, "%lld*%s", (long long)k, canon_join(a, &f, "*")));
}

static const char *canon_sum(const sx_ctx *c, ka_arena *a, const sx *x, int keep_const)
{
	int64_t k0 = 0;
	int ok = 1;
	canon_list t = {0};
	canon_terms(c, a, x, 1, &k0, &ok, &t);
	if (!ok)
		return NULL;
	if (keep_const && k0 != 0)
		canon_push(a, &t, ka_arena_printf(a, "%lld", (long long)k0));
	return t.n ? canon_join(a, &t, " + ") : "0";
}

const char *sx_render_var(const sx_ctx *c, ka_arena *a, const sx *x)
{
	return x ? canon_sum(c, a, x, 0) : NULL;
}
