/* rewriter/transforms/double_math_to_float.c: double math functions called
 * on float operands -> their float forms (`sqrt(x)` -> `sqrtf(x)` when x is
 * float).  Unsafe: results are float-precise.  Runs on call rows; the
 * analyzer's arg_is_float says the first argument is a float expression. */
#include "rewriter/transforms/xform.h"

static const char *const map[][2] = {
	{"sqrt", "sqrtf"},   {"cbrt", "cbrtf"},   {"exp", "expf"},     {"exp2", "exp2f"},
	{"exp10", "exp10f"}, {"expm1", "expm1f"}, {"log", "logf"},     {"log2", "log2f"},
	{"log10", "log10f"}, {"log1p", "log1pf"}, {"sin", "sinf"},     {"cos", "cosf"},
	{"tan", "tanf"},     {"asin", "asinf"},   {"acos", "acosf"},   {"atan", "atanf"},
	{"atan2", "atan2f"}, {"sinh", "sinhf"},   {"cosh", "coshf"},   {"tanh", "tanhf"},
	{"pow", "powf"},     {"fabs", "fabsf"},   {"floor", "floorf"}, {"ceil", "ceilf"},
	{"round", "roundf"}, {"trunc", "truncf"}, {"fmin", "fminf"},   {"fmax", "fmaxf"},
	{"fma", "fmaf"},     {"fmod", "fmodf"},   {"erf", "erff"},     {"erfc", "erfcf"},
	{"rsqrt", "rsqrtf"}, {"hypot", "hypotf"}, {NULL, NULL}};

static int double_math_to_float_row(xf_ctx *c, sqlite3_int64 id)
{
	return xf_call_rename(c, id, map, KA_FIX_UNSAFE, 1);
}

XF_TRANSFORM(double_math_to_float, KA_FIX_UNSAFE, "sqrt(float) -> sqrtf, exp -> expf, ...")
{
	return xf_each(c, "call", double_math_to_float_row);
}
