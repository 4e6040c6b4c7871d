/* rewriter/transforms/float_literal_suffix.c: `0.5` -> `0.5f` for unsuffixed
 * floating literals that widen float arithmetic to double in device code
 * (literal.promotes_to_double).  Unsafe: the constant is rounded to float.
 * Literals inside macro expansions are skipped (the macro is shared). */
#include "rewriter/transforms/xform.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int one(xf_ctx *c, sqlite3_int64 id)
{
	sqlite3_stmt *st;
	int r = xf_row(c, "SELECT file, begin_off, end_off, text, kind, promotes_to_double, in_macro "
			  "FROM literal WHERE id = ?1", id, &st);
	if (r <= 0)
		return r;
	const char *file = xf_text(st, 0), *text = xf_text(st, 3), *src;
	size_t b = (size_t)sqlite3_column_int64(st, 1), e = (size_t)sqlite3_column_int64(st, 2), len;
	int rc = 0;
	if (strcmp(xf_text(st, 4), "double") != 0 || sqlite3_column_int(st, 5) != 1)
		goto out;                       /* not a widening double literal: nothing to do */
	if (sqlite3_column_int(st, 6) == 1) {
		xf_skip(c, file, b, "literal %s is inside a macro expansion", text);
		goto out;
	}
	if ((rc = xf_source(c, file, &src, &len)) < 0 || !xf_expect(c, file, src, len, b, e, text))
		goto out;
	char last = (char)tolower((unsigned char)text[strlen(text) - 1]);
	if (last == 'f' || last == 'l' || strpbrk(text, "xX")) {
		xf_skip(c, file, b, "literal %s already has a suffix or is hexadecimal", text);
		goto out;
	}
	ka_fix *f = xf_fix(c, file, KA_FIX_UNSAFE, "%s -> %sf: keep the arithmetic in float", text, text);
	rc = f ? ka_fix_add_edit(f, e, e, "f") : -1;
out:
	sqlite3_finalize(st);
	return rc;
}

int xf_float_literal_suffix(xf_ctx *c)
{
	sqlite3_int64 *ids;
	size_t n;
	int rc = xf_rowids(c, "literal", &ids, &n);
	for (size_t i = 0; rc >= 0 && i < n; i++)
		rc = one(c, ids[i]);
	free(ids);
	return rc;
}
