/* bench/harness/harness_tol.h: the tolerance of one output element, shared
 * by the harness's host check (against the fp64 reference), its device check
 * of every timed pair (candidate against baseline) and the unit test
 * tests/bench/test_tolerance.c.  Plain C, also compiled by nvcc.
 *
 * An element passes when |y - r| <= atol * scale + rtol * |r| + floor, where
 * scale is the largest finite |r| of the tensor and floor the smallest normal
 * number of the output's type.  The floor is there because a reference
 * computed in fp64 can be far below what the output type holds with any
 * relative precision: gelu(-20) is about -5e-88, which fp32 can only write as
 * 0 (or as a subnormal under -ftz=false).  Without it a one-element tensor
 * whose value underflows (scale = |r|) fails every bound, and the task's own
 * baseline flips to `error` on an unlucky draw (seen on an H200 with a drawn
 * n = 1 and the adversarial inputs of gelu).  Differences within the floor
 * also leave the relative L2 error alone, for the same reason. */
#ifndef KA_HARNESS_TOL_H
#define KA_HARNESS_TOL_H

#include <float.h>
#include <math.h>

#ifdef __CUDACC__
#define KA_TOL_FN __host__ __device__ static inline
#else
#define KA_TOL_FN static inline
#endif

/* The floor for an output of fp_bytes bytes of floating point (4 or 8; 0 for
 * integer outputs, which are compared exactly up to atol/rtol). */
KA_TOL_FN double ka_tol_floor(int fp_bytes)
{
	return fp_bytes == 4 ? (double)FLT_MIN : fp_bytes == 8 ? DBL_MIN : 0.0;
}

/* The bench's element types, in the order of bench/spec.h's
 * ka_bench_dtype and the harness's plan. */
enum { KA_TOL_F32, KA_TOL_F64, KA_TOL_I32, KA_TOL_U32, KA_TOL_F16, KA_TOL_BF16 };

/* The floor for an output of type dt: the smallest normal number of the
 * type (f16: 2^-14, bf16: 2^-126 as fp32), 0 for integers. */
KA_TOL_FN double ka_tol_floor_of(int dt)
{
	return dt == KA_TOL_F16 ? 6.103515625e-05
				: ka_tol_floor(dt == KA_TOL_F32 || dt == KA_TOL_BF16 ? 4
					       : dt == KA_TOL_F64                    ? 8
										     : 0);
}

/* The unit roundoff of a floating type (half its machine epsilon): the
 * largest relative error of one rounding to nearest.  0 for integers. */
KA_TOL_FN double ka_tol_unit(int dt)
{
	switch (dt) {
	case KA_TOL_F32:
		return ldexp(1.0, -24);
	case KA_TOL_F64:
		return ldexp(1.0, -53);
	case KA_TOL_F16:
		return ldexp(1.0, -11);
	case KA_TOL_BF16:
		return ldexp(1.0, -8);
	default:
		return 0.0;
	}
}

/* What the harness adds to the task's rtol and l2 (not atol: one rounding
 * is relative to the value) for an output of type dt, before any
 * reduction: a 2-byte output is rounded once by the candidate and never by
 * the fp64 reference, and what it was rounded from carries rounding of its
 * own (fp32 arithmetic, a conversion on the way); two units of roundoff of
 * the output type (one machine epsilon) cover both, and no more: an
 * implementation that computes in the 2-byte type itself fails unless its
 * task allows it.  fp32 and fp64 outputs add nothing: their task's
 * tolerance already states what it allows. */
KA_TOL_FN double ka_tol_type(int dt)
{
	return dt == KA_TOL_F16 || dt == KA_TOL_BF16 ? 2.0 * ka_tol_unit(dt) : 0.0;
}

/* The growth of the bound with a reduction of length k accumulated in type
 * acc (the task's `accumulate:`, f32 by default): rounding error of a
 * k-long sum grows like sqrt(k) units of acc's roundoff; 16 units leave a
 * wide margin.  0 for k <= 1. */
KA_TOL_FN double ka_tol_grow(double k, int acc)
{
	return k > 1 ? 16.0 * ka_tol_unit(acc) * sqrt(k) : 0.0;
}

/* One finite element y against its finite reference r.  Adds the squared
 * difference beyond the floor to *num and r*r to *den (the relative L2
 * error is sqrt(num / den)) and returns err / bound: above 1 is a miss. */
KA_TOL_FN double ka_tol_elem(double y, double r, double atol, double scale, double rtol, double floor,
			     double *num, double *den)
{
	double err = fabs(y - r), bound = atol * scale + rtol * fabs(r) + floor;
	double over = err > floor ? err - floor : 0.0;
	*num += over * over;
	*den += r * r;
	return bound > 0 ? err / bound : (err > 0 ? INFINITY : 0.0);
}

/* The relative L2 error from the sums of ka_tol_elem. */
KA_TOL_FN double ka_tol_l2(double num, double den)
{
	return den > 0 ? sqrt(num / den) : (num > 0 ? INFINITY : 0.0);
}

#endif
