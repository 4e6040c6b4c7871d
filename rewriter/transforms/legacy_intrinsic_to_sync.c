/* rewriter/transforms/legacy_intrinsic_to_sync.c: the warp intrinsics
 * removed for sm_70+ -> their `_sync` forms with an explicit mask:
 * `__shfl_down(v, o)` -> `__shfl_down_sync(0xffffffff, v, o)`, likewise
 * __shfl, __shfl_up, __shfl_xor, __any, __all, __ballot.  Safe with the full
 * mask where the call is not under thread-divergent control flow; there the
 * old meaning (the lanes that happen to be active) is `__activemask()`,
 * offered as unsafe because the code most likely needs restructuring. */
#include "rewriter/transforms/xform.h"
#include <string.h>

static const char *const names[] = {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
				    "__any",  "__all",     "__ballot",    NULL};

static int legacy_intrinsic_to_sync_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(
		c,
		"SELECT c.file AS file, c.callee AS callee, c.callee_begin_off AS callee_begin_off, "
		"c.callee_end_off AS callee_end_off, c.arg0_begin_off AS arg0_begin_off, "
		"c.in_divergent_branch AS in_divergent_branch, f.lang AS lang FROM call c "
		"LEFT JOIN file f ON f.path = c.file WHERE c.id = ?1",
		id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *callee = xf_str(&r, "callee"), *src;
	size_t cb = xf_off(&r, "callee_begin_off"), ce = xf_off(&r, "callee_end_off"), len;
	size_t ab = xf_off(&r, "arg0_begin_off");
	int known = 0;
	rc = 0;
	for (int i = 0; names[i]; i++)
		known |= strcmp(names[i], callee) == 0;
	if (!known || xf_is_null(&r, "callee_begin_off"))
		goto out;
	if (strcmp(xf_str(&r, "lang"), "hip") == 0) {
		xf_skip(c, file, cb, "%s is a valid HIP intrinsic; the mask would be 64-bit", callee);
		goto out;
	}
	if (xf_is_null(&r, "arg0_begin_off")) {
		xf_skip(c, file, cb, "no argument offsets for %s", callee);
		goto out;
	}
	if ((rc = xf_source(c, file, &src, &len)) < 0 || !xf_expect(c, file, src, len, cb, ce, callee))
		goto out;
	int divergent = xf_int(&r, "in_divergent_branch") == 1;
	const char *mask = divergent ? "__activemask(), " : "0xffffffff, ";
	char to[32];
	snprintf(to, sizeof to, "%s_sync", callee);
	ka_fix *f = xf_fix(c, file, divergent ? KA_FIX_UNSAFE : KA_FIX_SAFE, "%s -> %s(%s...)", callee, to,
			   divergent ? "__activemask(), " : "0xffffffff, ");
	rc = f ? ka_fix_add_edit(f, cb, ce, to) : -1;
	if (rc >= 0)
		rc = ka_fix_add_edit(f, ab, ab, mask);
out:
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(legacy_intrinsic_to_sync, KA_FIX_SAFE,
	     "__shfl_down(v, o) -> __shfl_down_sync(0xffffffff, v, o); __any/__all/__ballot likewise")
{
	return xf_each(c, "call", legacy_intrinsic_to_sync_row);
}
