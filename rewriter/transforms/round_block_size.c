/* rewriter/transforms/round_block_size.c: a launch with a constant 1-D block
 * of B threads, B not a multiple of 32 or below 128, gets B' = max(128,
 * round_up(B, 32)) and its ceil-div grid `(n + B - 1) / B` is recomputed
 * with B'.  Unsafe: the kernel must not assume the old block size (shared
 * arrays sized by it, `threadIdx.x == B - 1`); it must have a bounds guard,
 * since the rounded grid covers more threads than elements. */
#include "rewriter/transforms/xform.h"
#include <stdlib.h>
#include <string.h>

/* Replace whole-number occurrences of `from` in s[b..e) with `to`. */
static int renumber(ka_fix *f, const char *s, size_t b, size_t e, long from, long to, int *hits)
{
	char a[32], t[32];
	snprintf(a, sizeof a, "%ld", from);
	snprintf(t, sizeof t, "%ld", to);
	size_t n = strlen(a);
	int rc = 0;
	for (size_t i = b; rc >= 0 && i + n <= e; i++)
		if (memcmp(s + i, a, n) == 0 && (i == b || (!xf_ident_char(s[i - 1]) && s[i - 1] != '.')) &&
		    (i + n == e || (!xf_ident_char(s[i + n]) && s[i + n] != '.'))) {
			rc = ka_fix_add_edit(f, i, i + n, t);
			(*hits)++;
			i += n - 1;
		}
	return rc;
}

static int round_block_size_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(
		c,
		"SELECT l.file AS file, l.kernel AS kernel, l.block_threads AS block_threads, "
		"l.block_y AS block_y, l.block_z AS block_z, l.block_begin_off AS block_begin_off, "
		"l.block_end_off AS block_end_off, l.grid_begin_off AS grid_begin_off, "
		"l.grid_end_off AS grid_end_off, l.grid_is_ceil_div AS grid_is_ceil_div, "
		"k.has_bounds_guard AS has_bounds_guard, k.launch_bounds_max AS launch_bounds_max "
		"FROM launch l LEFT JOIN kernel k ON k.id = l.kernel_id WHERE l.id = ?1",
		id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *kernel = xf_str(&r, "kernel"), *src;
	long bs = (long)xf_int(&r, "block_threads");
	size_t bb = xf_off(&r, "block_begin_off"), be = xf_off(&r, "block_end_off");
	size_t gb = xf_off(&r, "grid_begin_off"), ge = xf_off(&r, "grid_end_off"), len;
	long nb = bs < 128 ? 128 : (bs + 31) / 32 * 32;
	int hits = 0;
	char text[32];
	rc = 0;
	if (xf_is_null(&r, "block_threads") || bs <= 0 || (bs % 32 == 0 && bs >= 128))
		goto out;
	if (xf_int(&r, "block_y") > 1 || xf_int(&r, "block_z") > 1 || xf_is_null(&r, "block_begin_off") ||
	    xf_is_null(&r, "grid_begin_off")) {
		xf_skip(c, file, bb, "the block of %s is not a constant 1-D size in the source", kernel);
		goto out;
	}
	if (xf_int(&r, "has_bounds_guard") != 1 || xf_int(&r, "grid_is_ceil_div") != 1) {
		xf_skip(c, file, bb, "%s needs a bounds guard and a ceil-div grid to take a larger block",
			kernel);
		goto out;
	}
	if (!xf_is_null(&r, "launch_bounds_max") && xf_int(&r, "launch_bounds_max") < nb) {
		xf_skip(c, file, bb, "__launch_bounds__ of %s is below %ld", kernel, nb);
		goto out;
	}
	snprintf(text, sizeof text, "%ld", bs);
	if ((rc = xf_source(c, file, &src, &len)) < 0 || !xf_expect(c, file, src, len, bb, be, text))
		goto out;
	ka_fix *f = xf_fix(c, file, KA_FIX_UNSAFE, "block of %s: %ld -> %ld threads", kernel, bs, nb);
	if (!f || ge > len) {
		rc = f ? 0 : -1;
		goto out;
	}
	if ((rc = renumber(f, src, gb, ge, bs, nb, &hits)) < 0 ||
	    (rc = renumber(f, src, gb, ge, bs - 1, nb - 1, &hits)) < 0)
		goto out;
	if (hits == 0) {
		ka_fix_clear_edits(f);
		xf_skip(c, file, gb, "the grid of %s does not spell out the block size %ld", kernel, bs);
		goto out;
	}
	snprintf(text, sizeof text, "%ld", nb);
	rc = ka_fix_add_edit(f, bb, be, text);
out:
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(round_block_size, KA_FIX_UNSAFE,
	     "block size to a multiple of 32 and at least 128, ceil-div grid recomputed")
{
	return xf_each(c, "launch", round_block_size_row);
}
