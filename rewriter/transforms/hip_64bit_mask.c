/* rewriter/transforms/hip_64bit_mask.c: a 32-bit full lane mask literal
 * passed to a `_sync` warp function -> the 64-bit mask HIP requires
 * (`0xffffffff` -> `0xffffffffffffffffull`).  Safe: on wave32 the upper half
 * is ignored; on wave64 the 32-bit mask leaves half the wavefront out. */
#include "rewriter/transforms/xform.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int full32(const char *t)
{
	char low[32];
	size_t n = strlen(t);
	if (n >= sizeof low)
		return 0;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)t[i]);
	return strcmp(low, "0xffffffff") == 0 || strcmp(low, "0xffffffffu") == 0 ||
	       strcmp(low, "0xfffffffful") == 0;
}

static int hip_64bit_mask_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(c,
			      "SELECT file, callee, arg0_begin_off, arg0_end_off FROM call "
			      "WHERE id = ?1 AND callee LIKE '%\\_sync' ESCAPE '\\'",
			      id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *callee = xf_str(&r, "callee"), *src;
	size_t ab = xf_off(&r, "arg0_begin_off"), ae = xf_off(&r, "arg0_end_off"), len;
	rc = 0;
	if (xf_is_null(&r, "arg0_begin_off") || strcmp(callee, "__syncwarp_sync") == 0)
		goto out;
	if ((rc = xf_source(c, file, &src, &len)) < 0 || ae > len || ab > ae)
		goto out;
	char *arg = xf_dup(src, ab, ae);
	if (!arg || !full32(arg)) {
		if (arg)
			xf_skip(c, file, ab, "mask '%s' of %s is not a 32-bit full-mask literal", arg,
				callee);
		free(arg);
		goto out;
	}
	free(arg);
	ka_fix *f = xf_fix(c, file, KA_FIX_SAFE, "%s: 64-bit lane mask", callee);
	rc = f ? ka_fix_add_edit(f, ab, ae, "0xffffffffffffffffull") : -1;
out:
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(hip_64bit_mask, KA_FIX_SAFE, "0xffffffff lane masks -> 0xffffffffffffffffull")
{
	return xf_each(c, "call", hip_64bit_mask_row);
}
