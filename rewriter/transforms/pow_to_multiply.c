/* rewriter/transforms/pow_to_multiply.c: `pow(x, 2)` -> `(x * x)`,
 * `powf(x, 3.0f)` -> `(x * x * x)`.  Safe for exponents 2 and 3 when x can
 * be evaluated more than once (no call, assignment or increment) and the
 * result type does not change (powf, or pow on a double operand). */
#include "rewriter/transforms/xform.h"
#include "util/buf.h"
#include <stdlib.h>
#include <string.h>

/* `x` alone needs no parentheses when it is a name, member or subscript. */
static int simple_operand(const char *s, size_t b, size_t e)
{
	for (size_t i = b; i < e; i++)
		if (!xf_ident_char(s[i]) && !strchr(".[]", s[i]))
			return 0;
	return 1;
}

static int one(xf_ctx *c, sqlite3_int64 id)
{
	sqlite3_stmt *st;
	int r = xf_row(c, "SELECT file, callee, begin_off, end_off, callee_begin_off, callee_end_off, "
			  "arg0_begin_off, arg0_end_off, arg1_const, nargs, arg_is_float FROM call "
			  "WHERE id = ?1", id, &st);
	if (r <= 0)
		return r;
	const char *file = xf_text(st, 0), *callee = xf_text(st, 1), *src;
	size_t b = (size_t)sqlite3_column_int64(st, 2), e = (size_t)sqlite3_column_int64(st, 3), len;
	size_t cb = (size_t)sqlite3_column_int64(st, 4), ce = (size_t)sqlite3_column_int64(st, 5);
	size_t ab = (size_t)sqlite3_column_int64(st, 6), ae = (size_t)sqlite3_column_int64(st, 7);
	double k = sqlite3_column_double(st, 8);
	int rc = 0, is_powf = strcmp(callee, "powf") == 0;
	ka_buf out;
	ka_buf_init(&out, 1 << 16);
	if ((!is_powf && strcmp(callee, "pow") != 0) || xf_null(st, 8) || xf_null(st, 6) ||
	    sqlite3_column_int(st, 9) != 2)
		goto out;
	if (k != 2.0 && k != 3.0) {
		xf_skip(c, file, b, "exponent %g is not 2 or 3", k);
		goto out;
	}
	if ((rc = xf_source(c, file, &src, &len)) < 0 || !xf_expect(c, file, src, len, cb, ce, callee))
		goto out;
	if (ae > e || ab < ce || !xf_pure_expr(src, ab, ae)) {
		xf_skip(c, file, b, "the base of %s has side effects or calls; not duplicated", callee);
		goto out;
	}
	/* pow(float, 2.0) is double in C++; x * x would be float */
	ka_fix_safety safety = is_powf || sqlite3_column_int(st, 10) != 1 ? KA_FIX_SAFE : KA_FIX_UNSAFE;
	int paren = !simple_operand(src, ab, ae);
	(void)ka_buf_addc(&out, '(');
	for (int i = 0; i < (int)k; i++) {
		if (i)
			(void)ka_buf_adds(&out, " * ");
		(void)ka_buf_printf(&out, "%s%.*s%s", paren ? "(" : "", (int)(ae - ab), src + ab,
				    paren ? ")" : "");
	}
	rc = ka_buf_addc(&out, ')');
	ka_fix *f = rc < 0 ? NULL : xf_fix(c, file, safety, "%s(x, %g) -> %s", callee, k, out.data);
	rc = f ? ka_fix_add_edit(f, b, e, out.data) : -1;
out:
	ka_buf_free(&out);
	sqlite3_finalize(st);
	return rc;
}

int xf_pow_to_multiply(xf_ctx *c) { return xf_each(c, "call", one); }
