/* rewriter/transforms/const_restrict_params.c: kernel pointer parameters
 * get `__restrict__`, and `const` on the pointee when the kernel only reads
 * through them: `float *a` -> `const float *__restrict__ a`.  Unsafe: the
 * caller must never pass overlapping buffers.  Runs on param rows (or every
 * pointer parameter of a kernel finding). */
#include "rewriter/transforms/xform.h"
#include <string.h>

static int one(xf_ctx *c, sqlite3_int64 id)
{
	sqlite3_stmt *st;
	int r = xf_row(c, "SELECT file, name, begin_off, end_off, is_pointer, is_const_pointee, "
			  "is_restrict, is_read, is_written FROM param WHERE id = ?1", id, &st);
	if (r <= 0)
		return r;
	const char *file = xf_text(st, 0), *name = xf_text(st, 1), *src;
	size_t b = (size_t)sqlite3_column_int64(st, 2), e = (size_t)sqlite3_column_int64(st, 3), len;
	int rc = 0, add_const = sqlite3_column_int(st, 5) == 0 && sqlite3_column_int(st, 7) == 1 &&
				sqlite3_column_int(st, 8) == 0 && !xf_null(st, 8);
	int add_restrict = sqlite3_column_int(st, 6) == 0;
	if (sqlite3_column_int(st, 4) != 1 || (!add_const && !add_restrict) || !*name)
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
	if (rc >= 0 && add_restrict)      /* `float* a` keeps its spacing: `float* __restrict__ a` */
		rc = ka_fix_add_edit(f, star, nb, star >= 2 && src[star - 2] != ' ' ? " __restrict__ " : "__restrict__ ");
out:
	sqlite3_finalize(st);
	return rc;
}

int xf_const_restrict_params(xf_ctx *c)
{
	if (strcmp(c->req->scope, "kernel") == 0) {
		sqlite3_stmt *st = NULL;
		int rc = 0;
		if (sqlite3_prepare_v2(c->db, "SELECT id FROM param WHERE kernel_id = ?1 ORDER BY idx",
				       -1, &st, NULL) != SQLITE_OK)
			return -1;
		sqlite3_bind_int64(st, 1, c->req->rowid);
		while (rc >= 0 && sqlite3_step(st) == SQLITE_ROW)
			rc = one(c, sqlite3_column_int64(st, 0));
		sqlite3_finalize(st);
		return rc;
	}
	return xf_each(c, "param", one);
}
