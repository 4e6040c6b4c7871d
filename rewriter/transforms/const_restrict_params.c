/* rewriter/transforms/const_restrict_params.c: kernel pointer parameters
 * get `__restrict__`, and `const` on the pointee when the kernel only reads
 * through them: `float *a` -> `const float *__restrict__ a`.  Unsafe: the
 * caller must never pass overlapping buffers.  Runs on param rows (or every
 * pointer parameter of a kernel finding). */
#include "rewriter/transforms/xform.h"
#include <string.h>

static int const_restrict_params_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(c,
			      "SELECT file, name, begin_off, end_off, is_pointer, is_const_pointee, "
			      "is_restrict, is_read, is_written FROM param WHERE id = ?1",
			      id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *name = xf_str(&r, "name"), *src;
	size_t b = r.b, e = r.e, len;
	int add_const = xf_int(&r, "is_const_pointee") == 0 && xf_int(&r, "is_read") == 1 &&
			xf_int(&r, "is_written") == 0 && !xf_is_null(&r, "is_written");
	int add_restrict = xf_int(&r, "is_restrict") == 0;
	rc = 0;
	if (xf_int(&r, "is_pointer") != 1 || (!add_const && !add_restrict) || !*name)
		goto out;
	if ((rc = xf_source(c, file, &src, &len)) < 0 || e > len || b >= e)
		goto out;
	/* the name ends the parameter's text; a '*' precedes it */
	size_t ne = xf_skip_ws_back(src, e), nb = ne;
	while (nb > b && xf_ident_char(src[nb - 1]))
		nb--;
	size_t star = xf_skip_ws_back(src, nb);
	if (!xf_expect(c, file, src, len, nb, ne, name))
		goto out;
	if (star <= b || src[star - 1] != '*') {
		xf_skip(c, file, b, "parameter %s is not spelled `T *%s`", name, name);
		goto out;
	}
	ka_fix *f = xf_fix(c, file, KA_FIX_UNSAFE, "parameter %s: %s%s%s", name,
			   add_const ? "const pointee" : "", add_const && add_restrict ? ", " : "",
			   add_restrict ? "__restrict__" : "");
	if (!f)
		rc = -1;
	if (rc >= 0 && add_const)
		rc = ka_fix_add_edit(f, b, b, "const ");
	if (rc >= 0 && add_restrict) /* `float* a` keeps its spacing: `float* __restrict__ a` */
		rc = ka_fix_add_edit(f, star, nb,
				     star >= 2 && src[star - 2] != ' ' ? " __restrict__ " : "__restrict__ ");
out:
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(const_restrict_params, KA_FIX_UNSAFE,
	     "const on read-only pointees and __restrict__ on pointer parameters")
{
	if (strcmp(c->req->scope, "kernel") == 0) {
		sqlite3_stmt *st = NULL;
		int rc = 0;
		if (sqlite3_prepare_v2(c->db, "SELECT id FROM param WHERE kernel_id = ?1 ORDER BY idx", -1,
				       &st, NULL) != SQLITE_OK)
			return -1;
		sqlite3_bind_int64(st, 1, c->req->rowid);
		while (rc >= 0 && sqlite3_step(st) == SQLITE_ROW)
			rc = const_restrict_params_row(c, sqlite3_column_int64(st, 0));
		sqlite3_finalize(st);
		return rc;
	}
	return xf_each(c, "param", const_restrict_params_row);
}
