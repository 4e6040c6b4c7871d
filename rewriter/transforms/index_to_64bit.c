/* rewriter/transforms/index_to_64bit.c: `int i = blockIdx.x * blockDim.x +
 * threadIdx.x;` computes in 32 bits and wraps past 2^31 elements.  Rewrites
 * the declaration to `long long i = (long long)blockIdx.x * blockDim.x +
 * threadIdx.x;` (unsigned stays unsigned; `threadIdx.x + blockIdx.x *
 * blockDim.x` likewise).  Safe: every value the old index
 * held is unchanged; only the overflow goes.  Finds the declarations in the
 * kernel the finding belongs to by their shape in the source. */
#include "rewriter/transforms/xform.h"
#include "util/buf.h"
#include <string.h>

/* `blockIdx.X * blockDim.X` or `blockDim.X * blockIdx.X` at i: its end, or 0. */
static size_t product_at(const char *s, size_t len, size_t i, size_t *first_end)
{
	const char *a[] = {"blockIdx.", "blockDim."};
	for (int o = 0; o < 2; o++) {
		size_t n = strlen(a[o]), j = i;
		if (j + n + 1 > len || memcmp(s + j, a[o], n) != 0 || !strchr("xyz", s[j + n]))
			continue;
		j += n + 1;
		*first_end = j;
		j = xf_skip_ws(s, len, j);
		if (j >= len || s[j] != '*')
			continue;
		j = xf_skip_ws(s, len, j + 1);
		const char *other = a[1 - o];
		size_t m = strlen(other);
		if (j + m + 1 > len || memcmp(s + j, other, m) != 0 || !strchr("xyz", s[j + m]))
			continue;
		return j + m + 1;
	}
	return 0;
}

/* At a declaration `[unsigned] int NAME = <product>`: fill the edit points. */
static int decl_at(const char *s, size_t len, size_t i, size_t *int_b, size_t *int_e, size_t *prod_b)
{
	size_t j = i;
	if (!xf_word_at(s, len, j, "int"))
		return 0;
	*int_b = j;
	*int_e = j + 3;
	j = xf_skip_ws(s, len, j + 3);
	size_t nb = j;
	while (j < len && xf_ident_char(s[j]))
		j++;
	if (j == nb)
		return 0;
	j = xf_skip_ws(s, len, j);
	if (j >= len || s[j] != '=' || (j + 1 < len && s[j + 1] == '='))
		return 0;
	j = xf_skip_ws(s, len, j + 1);
	size_t fe, k = j;
	if (k + 11 < len && memcmp(s + k, "threadIdx.", 10) == 0 && strchr("xyz", s[k + 10])) {
		k = xf_skip_ws(s, len, k + 11); /* threadIdx.x + blockIdx.x * ... */
		if (k >= len || s[k] != '+')
			return 0;
		k = xf_skip_ws(s, len, k + 1);
	}
	if (!product_at(s, len, k, &fe))
		return 0;
	*prod_b = k;
	return 1;
}

static int index_to_64bit_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(c, "SELECT file, name, body_begin_off, end_off FROM kernel WHERE id = ?1", id,
			      &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *src;
	size_t b = xf_off(&r, "body_begin_off"), e = r.e, len;
	int found = 0;
	if ((rc = xf_source(c, file, &src, &len)) < 0 || e > len || xf_is_null(&r, "body_begin_off"))
		goto out;
	for (size_t i = b; i < e && rc >= 0; i++) {
		size_t ib, ie, pb;
		if (!decl_at(src, e, i, &ib, &ie, &pb))
			continue;
		size_t k = xf_skip_ws_back(src, ib);
		int is_unsigned = k >= 8 && xf_word_at(src, e, k - 8, "unsigned");
		found = 1;
		ka_fix *f = xf_fix(c, file, KA_FIX_SAFE, "64-bit global index");
		if (!f) {
			rc = -1;
			break;
		}
		rc = ka_fix_add_edit(f, ib, ie, "long long");
		if (rc >= 0)
			rc = ka_fix_add_edit(f, pb, pb, is_unsigned ? "(unsigned long long)" : "(long long)");
		i = pb;
	}
	if (!found && rc >= 0)
		xf_skip(c, file, b, "no `int i = blockIdx.x * blockDim.x + ...` declaration in %s",
			xf_str(&r, "name"));
out:
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(index_to_64bit, KA_FIX_SAFE,
	     "int i = blockIdx.x * blockDim.x + threadIdx.x -> 64-bit arithmetic")
{
	sqlite3_int64 k;
	int r = xf_kernel_of(c, &k);
	return r <= 0 ? r : index_to_64bit_row(c, k);
}
