/* rewriter/transforms/sequential_reduction.c: the interleaved shared-memory
 * tree reduction
 *     for (unsigned s = 1; s < blockDim.x; s *= 2) {
 *         if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
 *         __syncthreads();
 *     }
 * -> sequential addressing (no divergence inside warps, no bank conflicts):
 *     for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
 *         if (tid < s) sdata[tid] += sdata[tid + s];
 *         __syncthreads(); }
 * Safe for exactly this recognized shape (loop header `s = 1; s < B; s *= 2`
 * or `s <<= 1`, condition `tid % (2 * s) == 0`, a power-of-two B as the
 * interleaved form already requires); anything else is skipped with a note. */
#include "rewriter/transforms/xform.h"
#include "util/buf.h"
#include <stdlib.h>
#include <string.h>

/* Match a literal token sequence, blanks between tokens free. */
static size_t expect(const char *s, size_t len, size_t i, const char *tok)
{
	i = xf_skip_ws(s, len, i);
	size_t n = strlen(tok);
	if (i + n > len || memcmp(s + i, tok, n) != 0)
		return 0;
	if (xf_ident_char(tok[n - 1]) && i + n < len && xf_ident_char(s[i + n]))
		return 0;
	return i + n;
}

static size_t ident(const char *s, size_t len, size_t i, size_t *b)
{
	i = xf_skip_ws(s, len, i);
	*b = i;
	while (i < len && xf_ident_char(s[i]))
		i++;
	return i > *b ? i : 0;
}

typedef struct shape {
	size_t init_b, init_e; /* the `1` of `s = 1` */
	size_t cond_b, cond_e; /* `s < BOUND` */
	size_t bound_b, bound_e;
	size_t step_b, step_e; /* `s *= 2` */
	size_t if_b, if_e;     /* `tid % (2 * s) == 0` */
	size_t tid_b, tid_e;
	char iv[64];
} shape;

static int header(const char *s, size_t len, size_t i, shape *m)
{
	size_t b, e;
	if (!(i = expect(s, len, i, "for")) || !(i = expect(s, len, i, "(")))
		return 0;
	size_t j = i;
	while ((e = ident(s, len, j, &b)) && s[xf_skip_ws(s, len, e)] != '=')
		j = e; /* the type words */
	if (!e || e - b >= sizeof m->iv)
		return 0;
	memcpy(m->iv, s + b, e - b);
	m->iv[e - b] = '\0';
	if (!(i = expect(s, len, e, "=")))
		return 0;
	m->init_b = xf_skip_ws(s, len, i);
	if (!(i = expect(s, len, i, "1")) || s[i] == '.')
		return 0;
	m->init_e = i;
	if (!(i = expect(s, len, i, ";")))
		return 0;
	m->cond_b = xf_skip_ws(s, len, i);
	if (!(i = expect(s, len, i, m->iv)) || !(i = expect(s, len, i, "<")) || s[i] == '=')
		return 0;
	m->bound_b = xf_skip_ws(s, len, i);
	const char *semi = memchr(s + i, ';', len - i);
	if (!semi)
		return 0;
	m->bound_e = m->cond_e = xf_skip_ws_back(s, (size_t)(semi - s));
	i = (size_t)(semi - s) + 1;
	m->step_b = xf_skip_ws(s, len, i);
	if (!(i = expect(s, len, i, m->iv)))
		return 0;
	size_t k;
	if ((k = expect(s, len, i, "*=")) && (k = expect(s, len, k, "2")))
		i = k;
	else if ((k = expect(s, len, i, "<<=")) && (k = expect(s, len, k, "1")))
		i = k;
	else
		return 0;
	m->step_e = i;
	return expect(s, len, i, ")") != 0;
}

/* In the loop body: `if (TID % (2 * s) == 0)` */
static int condition(const char *s, size_t len, size_t b, size_t e, shape *m)
{
	for (size_t i = b; i < e; i++) {
		if (!xf_word_at(s, e, i, "if"))
			continue;
		size_t j = expect(s, e, i + 2, "(");
		if (!j)
			continue;
		m->if_b = xf_skip_ws(s, e, j);
		size_t tb, te = ident(s, e, j, &tb);
		if (!te || !(j = expect(s, e, te, "%")) || !(j = expect(s, e, j, "(")) ||
		    !(j = expect(s, e, j, "2")) || !(j = expect(s, e, j, "*")) ||
		    !(j = expect(s, e, j, m->iv)) || !(j = expect(s, e, j, ")")) ||
		    !(j = expect(s, e, j, "==")) || !(j = expect(s, e, j, "0")))
			return 0;
		m->if_e = j;
		m->tid_b = tb;
		m->tid_e = te;
		return expect(s, e, j, ")") != 0;
	}
	(void)len;
	return 0;
}

static int sequential_reduction_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(c, "SELECT file, style, begin_off, end_off FROM reduction_loop WHERE id = ?1",
			      id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *src;
	size_t b = r.b, e = r.e, len;
	rc = 0;
	shape m;
	ka_buf t;
	ka_buf_init(&t, 1 << 16);
	if (strcmp(xf_str(&r, "style"), "interleaved") != 0)
		goto out;
	if ((rc = xf_source(c, file, &src, &len)) < 0 || e > len)
		goto out;
	size_t at = b;
	while (at < e && !(xf_word_at(src, e, at, "for") && header(src, e, at, &m)))
		at++;
	if (at >= e || !condition(src, e, m.step_e, e, &m)) {
		xf_skip(c, file, b,
			"not the recognized `for (s = 1; s < B; s *= 2) if (tid %% (2 * s) == 0)` shape");
		goto out;
	}
	ka_fix *f = xf_fix(c, file, KA_FIX_SAFE, "interleaved reduction -> sequential addressing");
	if (!f || (rc = ka_buf_printf(&t, "(%.*s) / 2", (int)(m.bound_e - m.bound_b), src + m.bound_b)) < 0 ||
	    (rc = ka_fix_add_edit(f, m.init_b, m.init_e, t.data)) < 0)
		goto out;
	ka_buf_reset(&t);
	if ((rc = ka_buf_printf(&t, "%s > 0", m.iv)) < 0 ||
	    (rc = ka_fix_add_edit(f, m.cond_b, m.cond_e, t.data)) < 0)
		goto out;
	ka_buf_reset(&t);
	if ((rc = ka_buf_printf(&t, "%s >>= 1", m.iv)) < 0 ||
	    (rc = ka_fix_add_edit(f, m.step_b, m.step_e, t.data)) < 0)
		goto out;
	ka_buf_reset(&t);
	if ((rc = ka_buf_printf(&t, "%.*s < %s", (int)(m.tid_e - m.tid_b), src + m.tid_b, m.iv)) < 0 ||
	    (rc = ka_fix_add_edit(f, m.if_b, m.if_e, t.data)) < 0)
		goto out;
out:
	ka_buf_free(&t);
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(sequential_reduction, KA_FIX_SAFE,
	     "interleaved (tid % (2*s)) tree reduction -> sequential addressing")
{
	return xf_each(c, "reduction_loop", sequential_reduction_row);
}
