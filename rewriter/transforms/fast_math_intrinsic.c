/* rewriter/transforms/fast_math_intrinsic.c: single-precision math calls ->
 * the hardware intrinsics (`expf` -> `__expf`, ...).  Unsafe: the intrinsics
 * trade accuracy (a few ulp, reduced range) for speed; device code only. */
#include "rewriter/transforms/xform.h"

static const char *const map[][2] = {{"expf", "__expf"},   {"exp10f", "__exp10f"}, {"logf", "__logf"},
				     {"log2f", "__log2f"}, {"log10f", "__log10f"}, {"sinf", "__sinf"},
				     {"cosf", "__cosf"},   {"tanf", "__tanf"},     {"powf", "__powf"},
				     {NULL, NULL}};

static int fast_math_intrinsic_row(xf_ctx *c, sqlite3_int64 id)
{
	return xf_call_rename(c, id, map, KA_FIX_UNSAFE, 0);
}

XF_TRANSFORM(fast_math_intrinsic, KA_FIX_UNSAFE, "expf -> __expf, sinf -> __sinf, ...")
{
	return xf_each(c, "call", fast_math_intrinsic_row);
}
