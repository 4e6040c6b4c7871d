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

static int pow_to_multiply_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(c,
			      "SELECT file, callee, begin_off, end_off, callee_begin_off, callee_end_off, "
			      "arg0_begin_off, arg0_end_off, arg1_const, nargs, arg_is_float FROM call "
			      "WHERE id = ?1",
			      id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *callee = xf_str(&r, "callee"), *src;
	size_t b = r.b, e = r.e, len;
	size_t cb = xf_off(&r, "callee_begin_off"), ce = xf_off(&r, "callee_end_off");
	size_t ab = xf_off(&r, "arg0_begin_off"), ae = xf_off(&r, "arg0_end_off");
	double k = xf_real(&r, "arg1_const");
	int is_powf = strcmp(callee, "powf") == 0;
	rc = 0;
	ka_buf out;
	ka_buf_init(&out, 1 << 16);
	if ((!is_powf && strcmp(callee, "pow") != 0) || xf_is_null(&r, "arg1_const") ||
	    xf_is_null(&r, "arg0_begin_off") || xf_int(&r, "nargs") != 2)
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
	ka_fix_safety safety = is_powf || xf_int(&r, "arg_is_float") != 1 ? KA_FIX_SAFE : KA_FIX_UNSAFE;
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
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(pow_to_multiply, KA_FIX_SAFE, "pow(x, 2) -> (x * x), pow(x, 3) -> (x * x * x)")
{
	return xf_each(c, "call", pow_to_multiply_row);
}
