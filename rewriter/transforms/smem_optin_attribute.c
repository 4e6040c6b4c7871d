/* rewriter/transforms/smem_optin_attribute.c: a launch asking for more than
 * 48 KB of dynamic shared memory fails unless the kernel opted in first.
 * Inserts `cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
 * (int)(SMEM));` (hipFuncSetAttribute for HIP) as a statement before the
 * launch statement.  Safe: the attribute only raises a limit.  Skipped when
 * the launch is not a statement of its own (e.g. the body of an `if` without
 * braces), where an inserted statement would change the control flow. */
#include "rewriter/transforms/xform.h"
#include "util/buf.h"
#include <stdlib.h>
#include <string.h>

/* The kernel expression before `<<<` (a name, maybe with template args). */
static int kernel_expr(const char *s, size_t b, size_t e, size_t *ke)
{
	for (size_t i = b; i + 2 < e; i++)
		if (s[i] == '<' && s[i + 1] == '<' && s[i + 2] == '<') {
			*ke = xf_skip_ws_back(s, i);
			return *ke > b;
		}
	return 0;
}

static int smem_optin_attribute_row(xf_ctx *c, sqlite3_int64 id)
{
	sqlite3_stmt *st;
	int r = xf_row(c, "SELECT l.file, l.kernel, l.begin_off, l.stmt_begin_off, l.smem_text, "
			  "l.dyn_smem, l.smem_optin, l.api, f.lang FROM launch l LEFT JOIN file f "
			  "ON f.path = l.file WHERE l.id = ?1", id, &st);
	if (r <= 0)
		return r;
	const char *file = xf_text(st, 0), *kernel = xf_text(st, 1), *smem = xf_text(st, 4), *src;
	size_t lb = (size_t)sqlite3_column_int64(st, 2), sb = (size_t)sqlite3_column_int64(st, 3), len, ke;
	int rc = 0, hip = strcmp(xf_text(st, 8), "hip") == 0;
	char *kname = NULL, *indent = NULL;
	ka_buf out;
	ka_buf_init(&out, 1 << 16);
	if (sqlite3_column_int(st, 6) == 1 || (!xf_null(st, 5) && sqlite3_column_int(st, 5) <= 48 * 1024))
		goto out;                       /* opted in already, or not needed */
	if (xf_null(st, 3) || !*smem) {
		xf_skip(c, file, lb, "no statement offset or shared-memory size for this launch");
		goto out;
	}
	if ((rc = xf_source(c, file, &src, &len)) < 0 || sb > len || lb > len)
		goto out;
	if (strcmp(xf_text(st, 7), "chevron") == 0 && kernel_expr(src, lb, len, &ke))
		kname = xf_dup(src, lb, ke);
	else
		kname = strdup(kernel);
	size_t p = xf_skip_ws_back(src, sb);
	if (p > 0 && !strchr(";{}", src[p - 1])) {
		xf_skip(c, file, sb, "the launch of %s is not a statement of its own", kernel);
		goto out;
	}
	indent = xf_indent_of(src, sb);
	if (!kname || !indent) {
		rc = -1;
		goto out;
	}
	if (hip)
		rc = ka_buf_printf(&out, "hipFuncSetAttribute((const void *)%s, "
				   "hipFuncAttributeMaxDynamicSharedMemorySize, (int)(%s));\n%s",
				   kname, smem, indent);
	else
		rc = ka_buf_printf(&out, "cudaFuncSetAttribute(%s, "
				   "cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(%s));\n%s",
				   kname, smem, indent);
	ka_fix *f = rc < 0 ? NULL : xf_fix(c, file, KA_FIX_SAFE,
					  "opt %s in to %s bytes of dynamic shared memory", kernel, smem);
	rc = f ? ka_fix_add_edit(f, sb, sb, out.data) : -1;
out:
	free(kname);
	free(indent);
	ka_buf_free(&out);
	sqlite3_finalize(st);
	return rc;
}

XF_TRANSFORM(smem_optin_attribute, KA_FIX_SAFE,
	     "cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) "
	     "before the launch")
{
	return xf_each(c, "launch", smem_optin_attribute_row);
}
