/* rewriter/transforms/hip_warpsize.c: a hard-coded warp size in lane/warp
 * arithmetic -> `warpSize` (`tid % 32` -> `tid % warpSize`, `tid & 31` ->
 * `tid & (warpSize - 1)`, `tid / 32` -> `tid / warpSize`).  Runs on literal
 * rows with the text 32, 31 or 0x1f.  Skipped where a constant expression is
 * required (array bounds, template arguments, case labels) because warpSize
 * is not a compile-time constant, and inside macro expansions. */
#include "rewriter/transforms/xform.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>

/* 1 when the literal at b sits in a place that needs a constant: `[32]` of a
 * declaration, `<32>`, `case 32:`, or a preprocessor line. */
static int needs_constant(const char *s, size_t len, size_t b, size_t e)
{
	size_t p = xf_skip_ws_back(s, b), q = xf_skip_ws(s, len, e);
	size_t bol = b;
	while (bol > 0 && s[bol - 1] != '\n')
		bol--;
	size_t k = bol;
	while (k < b && isspace((unsigned char)s[k]))
		k++;
	if (s[k] == '#')
		return 1;
	if (p > 0 && s[p - 1] == '[' && q < len && s[q] == ']') {
		/* a[32] as an expression would be fine, but a declaration is the
		 * usual place of a literal subscript: treat both as constants */
		return 1;
	}
	if ((p > 0 && s[p - 1] == '<' && (p < 2 || s[p - 2] != '<')) ||
	    (q < len && s[q] == '>' && (q + 1 >= len || s[q + 1] != '>')))
		return 1;
	if (p >= 4 && memcmp(s + p - 4, "case", 4) == 0)
		return 1;
	return 0;
}

static int hip_warpsize_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(c, "SELECT file, begin_off, end_off, text, in_macro FROM literal WHERE id = ?1",
			      id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *text = xf_str(&r, "text"), *src, *to = NULL;
	size_t b = r.b, e = r.e, len;
	rc = 0;
	if (strcmp(text, "32") == 0 || strcmp(text, "32u") == 0)
		to = "warpSize";
	else if (strcmp(text, "31") == 0 || strcasecmp(text, "0x1f") == 0)
		to = "(warpSize - 1)";
	if (!to)
		goto out;
	if (xf_int(&r, "in_macro") == 1) {
		xf_skip(c, file, b, "literal %s is inside a macro expansion", text);
		goto out;
	}
	if ((rc = xf_source(c, file, &src, &len)) < 0 || !xf_expect(c, file, src, len, b, e, text))
		goto out;
	if (needs_constant(src, len, b, e)) {
		xf_skip(c, file, b, "%s is used where a compile-time constant is required", text);
		goto out;
	}
	ka_fix *f = xf_fix(c, file, KA_FIX_SAFE, "%s -> %s", text, to);
	rc = f ? ka_fix_add_edit(f, b, e, to) : -1;
out:
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(hip_warpsize, KA_FIX_SAFE, "warp-size literals 32 / 31 -> warpSize / (warpSize - 1)")
{
	return xf_each(c, "literal", hip_warpsize_row);
}
