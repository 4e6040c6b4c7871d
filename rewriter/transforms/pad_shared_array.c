/* rewriter/transforms/pad_shared_array.c: `__shared__ float t[32][32]` ->
 * `t[32][32 + 1]` (a literal becomes its successor: `[33]`), so a column walk
 * hits 32 different banks.  Safe when the array is multi-dimensional and
 * never reinterpreted (cast, address taken as another type) or accessed with
 * vector types: only its row pitch changes, and every subscript keeps
 * meaning the same element.  The finding may be on the array or on an
 * access to it (access.base_array names the array). */
#include "rewriter/transforms/xform.h"
#include "util/buf.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int vector_accessed(xf_ctx *c, sqlite3_int64 id)
{
	sqlite3_stmt *st;
	int r = xf_row(c,
		       "SELECT count(*) FROM access a, shared_array s WHERE s.id = ?1 AND "
		       "a.kernel_id IS s.kernel_id AND a.base_array = s.name AND a.vector_width > 1",
		       id, &st);
	int n = r > 0 ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return r < 0 ? r : n > 0;
}

/* The replacement for the text inside the innermost brackets. */
static char *padded(const char *s, size_t b, size_t e)
{
	ka_buf out;
	ka_buf_init(&out, 4096);
	int all_digits = e > b;
	for (size_t i = b; i < e; i++)
		all_digits &= isdigit((unsigned char)s[i]) != 0;
	if (all_digits && e - b < 9)
		(void)ka_buf_printf(&out, "%ld", strtol(s + b, NULL, 10) + 1);
	else
		(void)ka_buf_printf(&out, "%.*s + 1", (int)(e - b), s + b);
	return ka_buf_steal(&out);
}

static int pad_shared_array_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(c,
			      "SELECT file, name, ndims, inner_dim_begin_off, inner_dim_end_off, "
			      "is_reinterpreted, is_dynamic, begin_off FROM shared_array WHERE id = ?1",
			      id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *name = xf_str(&r, "name"), *src;
	size_t b = xf_off(&r, "inner_dim_begin_off"), e = xf_off(&r, "inner_dim_end_off"), len;
	size_t at = r.b;
	char *rep = NULL;
	rc = 0;
	if (xf_int(&r, "ndims") < 2 || xf_int(&r, "is_dynamic") == 1) {
		xf_skip(c, file, at, "%s is not a multi-dimensional static array", name);
		goto out;
	}
	if (xf_int(&r, "is_reinterpreted") != 0 || xf_is_null(&r, "is_reinterpreted") ||
	    xf_is_null(&r, "inner_dim_begin_off")) {
		xf_skip(c, file, at, "%s is reinterpreted (or unknown whether it is)", name);
		goto out;
	}
	if ((rc = vector_accessed(c, id)) != 0) {
		if (rc > 0)
			rc = xf_skip(c, file, at, "%s is accessed with vector types", name);
		goto out;
	}
	if ((rc = xf_source(c, file, &src, &len)) < 0)
		goto out;
	if (e > len || b >= e) {
		xf_skip(c, file, at, "no source range for the innermost dimension of %s", name);
		goto out;
	}
	if (src[b] == '[' && src[e - 1] == ']') { /* the range holds the brackets */
		b = xf_skip_ws(src, e, b + 1);
		e = xf_skip_ws_back(src, e - 1);
	}
	size_t lb = xf_skip_ws_back(src, b);
	if (lb == 0 || src[lb - 1] != '[' || b >= e) {
		xf_skip(c, file, at, "the innermost dimension of %s is not a plain [N] in the source", name);
		goto out;
	}
	rep = padded(src, b, e);
	ka_fix *f = rep ? xf_fix(c, file, KA_FIX_SAFE, "pad %s's innermost dimension to %s", name, rep)
			: NULL;
	rc = f ? ka_fix_add_edit(f, b, e, rep) : -1;
out:
	free(rep);
	xf_fact_done(&r);
	return rc;
}

/* From an access: the shared array it names, in its kernel. */
static int from_access(xf_ctx *c)
{
	sqlite3_stmt *st;
	int r = xf_row(c,
		       "SELECT s.id FROM access a JOIN shared_array s ON s.name = a.base_array AND "
		       "(s.kernel_id IS a.kernel_id OR s.is_file_scope = 1) WHERE a.id = ?1 "
		       "ORDER BY s.is_file_scope LIMIT 1",
		       c->req->rowid, &st);
	if (r <= 0)
		return r;
	sqlite3_int64 id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return pad_shared_array_row(c, id);
}

XF_TRANSFORM(pad_shared_array, KA_FIX_SAFE,
	     "pad a shared array's innermost dimension by one element (not when reinterpreted)")
{
	if (strcmp(c->req->scope, "access") == 0)
		return from_access(c);
	return xf_each(c, "shared_array", pad_shared_array_row);
}
