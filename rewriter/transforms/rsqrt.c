/* rewriter/transforms/rsqrt.c: `1.0f / sqrtf(x)` -> `rsqrtf(x)` (and
 * `1.0 / sqrt(x)` -> `rsqrt(x)`).  Unsafe: rsqrtf is not correctly rounded.
 * The call row is the sqrt; the `1 /` before it is read from the source and
 * must not itself be the right operand of `/` or `%`. */
#include "rewriter/transforms/xform.h"
#include "util/buf.h"
#include <string.h>

static const char *const ones[] = {"1.0f", "1.f", "1.0F", "1.0", "1.", "1", NULL};

/* Offset of the `1` literal of `1 / ` ending just before b, or (size_t)-1. */
static size_t one_over(const char *s, size_t b)
{
	size_t i = xf_skip_ws_back(s, b);
	if (i == 0 || s[i - 1] != '/')
		return (size_t)-1;
	i = xf_skip_ws_back(s, i - 1);
	for (int k = 0; ones[k]; k++) {
		size_t n = strlen(ones[k]);
		if (i >= n && memcmp(s + i - n, ones[k], n) == 0 &&
		    (i - n == 0 || (!xf_ident_char(s[i - n - 1]) && s[i - n - 1] != '.'))) {
			size_t p = xf_skip_ws_back(s, i - n);
			if (p > 0 && (s[p - 1] == '/' || s[p - 1] == '%'))
				return (size_t)-1; /* a / 1.0f / sqrtf(x) */
			return i - n;
		}
	}
	return (size_t)-1;
}

static int rsqrt_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(c,
			      "SELECT file, callee, begin_off, end_off, callee_begin_off, callee_end_off "
			      "FROM call WHERE id = ?1",
			      id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *callee = xf_str(&r, "callee"), *src;
	size_t b = r.b, e = r.e, len;
	size_t cb = xf_off(&r, "callee_begin_off"), ce = xf_off(&r, "callee_end_off");
	int isf = strcmp(callee, "sqrtf") == 0;
	rc = 0;
	ka_buf out;
	ka_buf_init(&out, 1 << 16);
	if (!isf && strcmp(callee, "sqrt") != 0)
		goto out;
	if ((rc = xf_source(c, file, &src, &len)) < 0 || !xf_expect(c, file, src, len, cb, ce, callee))
		goto out;
	size_t lit = one_over(src, b);
	if (lit == (size_t)-1) {
		xf_skip(c, file, b, "%s is not the divisor of a plain 1 / %s(x)", callee, callee);
		goto out;
	}
	if ((rc = ka_buf_printf(&out, "%s%.*s", isf ? "rsqrtf" : "rsqrt", (int)(e - ce), src + ce)) < 0)
		goto out;
	ka_fix *f = xf_fix(c, file, KA_FIX_UNSAFE, "1 / %s(x) -> %s", callee, isf ? "rsqrtf(x)" : "rsqrt(x)");
	rc = f ? ka_fix_add_edit(f, lit, e, out.data) : -1;
out:
	ka_buf_free(&out);
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(rsqrt, KA_FIX_UNSAFE, "1.0f / sqrtf(x) -> rsqrtf(x)")
{
	return xf_each(c, "call", rsqrt_row);
}
