/* rewriter/transforms/hoist_invariant_load.c: a global load whose address
 * does not change in its loop is read once into a register before the loop:
 *     for (...) acc += w[j] * x[k];   ->   const auto w_reg = w[j];
 *                                          for (...) acc += w_reg * x[k];
 * Unsafe: a store through another pointer may alias the element, and the
 * load now happens even when the loop runs zero times.  Skipped when the
 * loop itself writes the element or changes a name of its index. */
#include "rewriter/transforms/loop_access.h"
#include "util/buf.h"
#include <string.h>

static int hoist_invariant_load_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_loop_access la;
	const char *src;
	size_t len;
	ka_buf t;
	ka_buf_init(&t, 1 << 16);
	int rc = xf_loop_access_load(c, id, &la);
	if (rc <= 0 || strcmp(la.rw, "read") != 0)
		goto out;
	if ((rc = xf_source(c, la.file, &src, &len)) < 0 ||
	    (rc = xf_loop_access_check(c, &la, src, len)) <= 0)
		goto out;
	if (xf_assigned(src, la.lb, la.le, la.base) == 2) {
		size_t n = strlen(la.text);
		for (size_t i = la.lb; i + n <= la.le; i++)
			if (memcmp(src + i, la.text, n) == 0 &&
			    xf_assigned(src, i, i + n + 8, la.base) == 2) {
				rc = xf_skip(c, la.file, la.b, "the loop stores to %s", la.text);
				goto out;
			}
	}
	ka_fix *f = xf_fix(c, la.file, KA_FIX_UNSAFE, "load %s once before the loop", la.text);
	if (!f || (rc = ka_buf_printf(&t, "const auto %s = %s;\n%s", la.name, la.text, la.indent)) < 0 ||
	    (rc = ka_fix_add_edit(f, la.at, la.at, t.data)) < 0)
		goto out;
	rc = xf_loop_access_replace(f, &la, src, len);
out:
	ka_buf_free(&t);
	xf_loop_access_free(&la);
	return rc;
}

XF_TRANSFORM(hoist_invariant_load, KA_FIX_UNSAFE,
	     "load a loop-invariant global element once, before the loop")
{
	return xf_each(c, "access", hoist_invariant_load_row);
}
