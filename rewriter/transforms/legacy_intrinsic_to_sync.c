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
				    "__any", "__all", "__ballot", NULL};

static int legacy_intrinsic_to_sync_row(xf_ctx *c, sqlite3_int64 id)
{
	sqlite3_stmt *st;
	int r = xf_row(c, "SELECT c.file, c.callee, c.callee_begin_off, c.callee_end_off, "
			  "c.arg0_begin_off, c.in_divergent_branch, f.lang FROM call c "
			  "LEFT JOIN file f ON f.path = c.file WHERE c.id = ?1", id, &st);
	if (r <= 0)
		return r;
	const char *file = xf_text(st, 0), *callee = xf_text(st, 1), *src;
	size_t cb = (size_t)sqlite3_column_int64(st, 2), ce = (size_t)sqlite3_column_int64(st, 3), len;
	size_t ab = (size_t)sqlite3_column_int64(st, 4);
	int rc = 0, known = 0;
	for (int i = 0; names[i]; i++)
		known |= strcmp(names[i], callee) == 0;
	if (!known || xf_null(st, 2))
		goto out;
	if (strcmp(xf_text(st, 6), "hip") == 0) {
		xf_skip(c, file, cb, "%s is a valid HIP intrinsic; the mask would be 64-bit", callee);
		goto out;
	}
	if (xf_null(st, 4)) {
		xf_skip(c, file, cb, "no argument offsets for %s", callee);
		goto out;
	}
	if ((rc = xf_source(c, file, &src, &len)) < 0 || !xf_expect(c, file, src, len, cb, ce, callee))
		goto out;
	int divergent = sqlite3_column_int(st, 5) == 1;
	const char *mask = divergent ? "__activemask(), " : "0xffffffff, ";
	char to[32];
	snprintf(to, sizeof to, "%s_sync", callee);
	ka_fix *f = xf_fix(c, file, divergent ? KA_FIX_UNSAFE : KA_FIX_SAFE, "%s -> %s(%s...)",
			   callee, to, divergent ? "__activemask(), " : "0xffffffff, ");
	rc = f ? ka_fix_add_edit(f, cb, ce, to) : -1;
	if (rc >= 0)
		rc = ka_fix_add_edit(f, ab, ab, mask);
out:
	sqlite3_finalize(st);
	return rc;
}

XF_TRANSFORM(legacy_intrinsic_to_sync, KA_FIX_SAFE,
	     "__shfl_down(v, o) -> __shfl_down_sync(0xffffffff, v, o); __any/__all/__ballot likewise")
{
	return xf_each(c, "call", legacy_intrinsic_to_sync_row);
}
