/* rewriter/transforms/float_literal_suffix.c: `0.5` -> `0.5f` for unsuffixed
 * floating literals that widen float arithmetic to double in device code
 * (literal.promotes_to_double).  Unsafe: the constant is rounded to float.
 * Literals inside macro expansions are skipped (the macro is shared). */
#include "rewriter/transforms/xform.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int float_literal_suffix_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(c,
			      "SELECT file, begin_off, end_off, text, kind, promotes_to_double, in_macro "
			      "FROM literal WHERE id = ?1",
			      id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *text = xf_str(&r, "text"), *src;
	size_t b = r.b, e = r.e, len;
	rc = 0;
	if (strcmp(xf_str(&r, "kind"), "double") != 0 || xf_int(&r, "promotes_to_double") != 1)
		goto out; /* not a widening double literal: nothing to do */
	if (xf_int(&r, "in_macro") == 1) {
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
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(float_literal_suffix, KA_FIX_UNSAFE, "0.5 -> 0.5f where the literal widens float math")
{
	return xf_each(c, "literal", float_literal_suffix_row);
}
