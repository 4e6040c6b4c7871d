/* rewriter/transforms/privatize_atomics.c: a histogram whose threads all
 * hit a few global bins (`atomicAdd(&hist[x & 255], 1)`) serializes on those
 * addresses.  The suggestion: a per-block copy of the bins in shared memory,
 * zeroed, updated with shared atomics, and added to the global bins once per
 * block:
 *     __shared__ unsigned int hist_priv[256];
 *     for (int b = threadIdx.x; b < 256; b += blockDim.x) hist_priv[b] = 0;
 *     __syncthreads();
 *     ... atomicAdd(&hist_priv[x & 255], 1) ...
 *     __syncthreads();
 *     for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&hist[b], hist_priv[b]);
 * Offered only when the bin count is a constant read from the index
 * (`& (2^k - 1)` or `% N`), the kernel has no early return (every thread must
 * reach the barriers), and the atomic is `atomicAdd(&BASE[INDEX], ...)`. */
#include "rewriter/transforms/xform.h"
#include "util/buf.h"
#include <stdlib.h>
#include <string.h>

/* Bins implied by an index `expr & MASK` or `expr % N` (last operator);
 * the text may be the whole address `&h[expr & MASK]`. */
static long bins_of(const char *text)
{
	char idx[256];
	const char *open = text[0] == '&' ? strchr(text, '[') : NULL;
	const char *close = open ? strrchr(text, ']') : NULL;
	size_t n = open && close > open ? (size_t)(close - open - 1) : strlen(text);
	if (n >= sizeof idx)
		return 0;
	memcpy(idx, open && close > open ? open + 1 : text, n);
	idx[n] = '\0';
	const char *amp = strrchr(idx, '&'), *mod = strrchr(idx, '%');
	const char *op = amp > mod ? amp : mod;
	if (!op || op[1] == '&')
		return 0;
	char *end;
	long v = strtol(op + 1, &end, 0);
	while (*end == ' ' || *end == ')')
		end++;
	if (*end || v <= 0 || v > 16384)
		return 0;
	if (op == amp)
		return (v & (v + 1)) == 0 ? v + 1 : 0;
	return v;
}

static int has_early_return(xf_ctx *c, sqlite3_int64 kid)
{
	sqlite3_stmt *st;
	int r = xf_row(c, "SELECT count(*) FROM early_return WHERE kernel_id = ?1", kid, &st);
	int n = r > 0 ? sqlite3_column_int(st, 0) : 1;
	sqlite3_finalize(st);
	return n > 0;
}

static int privatize_atomics_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(
		c,
		"SELECT a.file AS file, a.op AS op, a.space AS space, a.base AS base, "
		"a.elem_type AS elem_type, a.index_text AS index_text, a.begin_off AS begin_off, "
		"a.end_off AS end_off, a.kernel_id AS kernel_id, k.body_begin_off AS body_begin_off, "
		"k.end_off AS kernel_end_off FROM atomic a "
		"JOIN kernel k ON k.id = a.kernel_id WHERE a.id = ?1",
		id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *base = xf_str(&r, "base"), *type = xf_str(&r, "elem_type"), *src;
	size_t b = r.b, e = r.e, len;
	size_t kb = xf_off(&r, "body_begin_off"), ke = xf_off(&r, "kernel_end_off");
	long bins = bins_of(xf_str(&r, "index_text"));
	rc = 0;
	ka_buf t, nm;
	ka_buf_init(&t, 1 << 16);
	ka_buf_init(&nm, 256);
	if (strcmp(xf_str(&r, "op"), "atomicAdd") != 0 || strcmp(xf_str(&r, "space"), "global") != 0)
		goto out;
	if (bins == 0 || !*type || has_early_return(c, xf_int(&r, "kernel_id"))) {
		xf_skip(c, file, b,
			"no constant bin count, no element type, or an early return in the kernel");
		goto out;
	}
	if ((rc = xf_source(c, file, &src, &len)) < 0 || ke > len || src[kb] != '{' || src[ke - 1] != '}')
		goto out;
	size_t p = xf_skip_ws(src, e, b + strlen("atomicAdd"));
	if (!xf_word_at(src, len, b, "atomicAdd") || p >= e || src[p] != '(' ||
	    src[p = xf_skip_ws(src, e, p + 1)] != '&' ||
	    !xf_word_at(src, e, p = xf_skip_ws(src, e, p + 1), base)) {
		xf_skip(c, file, b, "the atomic is not spelled atomicAdd(&%s[...], ...)", base);
		goto out;
	}
	(void)ka_buf_printf(&nm, "%s_priv", base);
	char *indent = xf_indent_of(src, b);
	ka_fix *f = xf_fix(c, file, KA_FIX_SUGGEST, "privatize %s in shared memory (%ld bins)", base, bins);
	if (!f || !indent) {
		free(indent);
		rc = -1;
		goto out;
	}
	(void)ka_buf_printf(&t,
			    "\n    __shared__ %s %s[%ld];\n    for (int b = threadIdx.x; b < %ld; "
			    "b += blockDim.x) %s[b] = 0;\n    __syncthreads();",
			    type, nm.data, bins, bins, nm.data);
	rc = ka_fix_add_edit(f, kb + 1, kb + 1, t.data);
	if (rc >= 0)
		rc = ka_fix_add_edit(f, p, p + strlen(base), nm.data);
	ka_buf_reset(&t);
	(void)ka_buf_printf(&t,
			    "    __syncthreads();\n    for (int b = threadIdx.x; b < %ld; b += blockDim.x)\n"
			    "        atomicAdd(&%s[b], %s[b]);\n",
			    bins, base, nm.data);
	size_t at = ke - 1;
	while (at > kb && (src[at - 1] == ' ' || src[at - 1] == '\t'))
		at--;
	if (rc >= 0)
		rc = ka_fix_add_edit(f, at, at, t.data);
	free(indent);
out:
	ka_buf_free(&t);
	ka_buf_free(&nm);
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(privatize_atomics, KA_FIX_SUGGEST,
	     "histogram atomics into a shared-memory copy, merged once per block")
{
	return xf_each(c, "atomic", privatize_atomics_row);
}
