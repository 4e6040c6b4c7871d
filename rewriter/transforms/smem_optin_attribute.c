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
	xf_fact r;
	int rc = xf_fact_load(
		c,
		"SELECT l.file AS file, l.kernel AS kernel, l.begin_off AS begin_off, "
		"l.stmt_begin_off AS stmt_begin_off, l.smem_text AS smem_text, l.dyn_smem AS dyn_smem, "
		"l.smem_optin AS smem_optin, l.api AS api, f.lang AS lang FROM launch l "
		"LEFT JOIN file f ON f.path = l.file WHERE l.id = ?1",
		id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *kernel = xf_str(&r, "kernel"), *smem = xf_str(&r, "smem_text"), *src;
	size_t lb = r.b, sb = xf_off(&r, "stmt_begin_off"), len, ke;
	int hip = strcmp(xf_str(&r, "lang"), "hip") == 0;
	rc = 0;
	char *kname = NULL, *indent = NULL;
	ka_buf out;
	ka_buf_init(&out, 1 << 16);
	if (xf_int(&r, "smem_optin") == 1 ||
	    (!xf_is_null(&r, "dyn_smem") && xf_int(&r, "dyn_smem") <= 48 * 1024))
		goto out; /* opted in already, or not needed */
	if (xf_is_null(&r, "stmt_begin_off") || !*smem) {
		xf_skip(c, file, lb, "no statement offset or shared-memory size for this launch");
		goto out;
	}
	if ((rc = xf_source(c, file, &src, &len)) < 0 || sb > len || lb > len)
		goto out;
	if (strcmp(xf_str(&r, "api"), "chevron") == 0 && kernel_expr(src, lb, len, &ke))
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
		rc = ka_buf_printf(&out,
				   "hipFuncSetAttribute((const void *)%s, "
				   "hipFuncAttributeMaxDynamicSharedMemorySize, (int)(%s));\n%s",
				   kname, smem, indent);
	else
		rc = ka_buf_printf(&out,
				   "cudaFuncSetAttribute(%s, "
				   "cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(%s));\n%s",
				   kname, smem, indent);
	ka_fix *f = rc < 0 ? NULL
			   : xf_fix(c, file, KA_FIX_SAFE, "opt %s in to %s bytes of dynamic shared memory",
				    kernel, smem);
	rc = f ? ka_fix_add_edit(f, sb, sb, out.data) : -1;
out:
	free(kname);
	free(indent);
	ka_buf_free(&out);
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(smem_optin_attribute, KA_FIX_SAFE,
	     "cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) "
	     "before the launch")
{
	return xf_each(c, "launch", smem_optin_attribute_row);
}
