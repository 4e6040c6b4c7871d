/* rewriter/transforms/accumulate_in_register.c: `C[i] += ...` inside a loop
 * whose address does not change reads and writes global memory every
 * iteration.  The element is kept in a register for the loop:
 *     auto C_reg = C[i];
 *     for (...) C_reg += A[...] * B[...];
 *     C[i] = C_reg;
 * Unsafe: another pointer may alias C[i] inside the loop, and the element is
 * read and written even when the loop runs zero times. */
#include "rewriter/transforms/loop_access.h"
#include "util/buf.h"
#include <string.h>

static int accumulate_in_register_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_loop_access la;
	const char *src;
	size_t len;
	ka_buf t;
	ka_buf_init(&t, 1 << 16);
	int rc = xf_loop_access_load(c, id, &la);
	if (rc <= 0 || strcmp(la.rw, "read") == 0)
		goto out;
	if ((rc = xf_source(c, la.file, &src, &len)) < 0 ||
	    (rc = xf_loop_access_check(c, &la, src, len)) <= 0)
		goto out;
	ka_fix *f = xf_fix(c, la.file, KA_FIX_UNSAFE, "accumulate %s in a register across the loop", la.text);
	if (!f || (rc = ka_buf_printf(&t, "auto %s = %s;\n%s", la.name, la.text, la.indent)) < 0 ||
	    (rc = ka_fix_add_edit(f, la.at, la.at, t.data)) < 0)
		goto out;
	ka_buf_reset(&t);
	if ((rc = ka_buf_printf(&t, "\n%s%s = %s;", la.indent, la.text, la.name)) < 0 ||
	    (rc = ka_fix_add_edit(f, la.le, la.le, t.data)) < 0)
		goto out;
	rc = xf_loop_access_replace(f, &la, src, len);
out:
	ka_buf_free(&t);
	xf_loop_access_free(&la);
	return rc;
}

XF_TRANSFORM(accumulate_in_register, KA_FIX_UNSAFE,
	     "accumulate C[i] += ... of a loop in a register, store once after it")
{
	return xf_each(c, "access", accumulate_in_register_row);
}
