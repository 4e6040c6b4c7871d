/* tests/bench/test_tolerance.c: the harness's per-element tolerance
 * (bench/harness/harness_tol.h), the same code the harness compiles with
 * nvcc, on the host.  The case that made the gelu baseline fail its own task
 * on an H200 (a drawn one-element configuration whose reference underflows
 * fp32) must pass; zeroed, wrong and off-by-one outputs must still fail.
 * The 2-byte types: the rounding of bench/harness/ka_lowp.h against a brute
 * search for the nearest value, and the tolerance that scales with the
 * type's epsilon and the accumulating type. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include "bench/harness/harness_tol.h"
#include "bench/harness/ka_lowp.h"

/* gelu's task tolerance (bench/tasks/gelu/task.yaml). */
static const double atol = 1.0e-6, rtol = 1.0e-5, l2tol = 1.0e-6;

/* Checks n fp32 outputs y against fp64 references r as the harness's host
 * check does: 1 when every element and the relative L2 error pass. */
static int passes(const float *y, const double *r, int n, int fp_bytes)
{
	double scale = 0, num = 0, den = 0, fl = ka_tol_floor(fp_bytes);
	int ok = 1;
	for (int i = 0; i < n; i++)
		if (fabs(r[i]) > scale)
			scale = fabs(r[i]);
	for (int i = 0; i < n; i++)
		if (ka_tol_elem(y[i], r[i], atol, scale, rtol, fl, &num, &den) > 1.0)
			ok = 0;
	return ok && ka_tol_l2(num, den) <= l2tol;
}

static double gelu64(double x)
{
	return 0.5 * x * erfc(-x / sqrt(2.0));
}
static float gelu32(float x)
{
	return 0.5f * x * erfcf(-x * 0.70710678f);
}

/* The H200 case: one element drawn from gelu's adversarial inputs, where
 * x * Phi(x) underflows fp32 but not fp64. */
static void test_underflow_one_element(void **state)
{
	(void)state;
	static const float xs[] = {-20.0f, -27.5f, -13.6f, -37.0f};
	for (int k = 0; k < 4; k++) {
		double r = gelu64(xs[k]);
		float y = gelu32(xs[k]);
		assert_true(r != 0.0);
		assert_true(fabs(r) < FLT_MIN);
		assert_true(passes(&y, &r, 1, 4));
		float z = 0.0f; /* what -ftz writes */
		assert_true(passes(&z, &r, 1, 4));
	}
}

/* The floor is FLT_MIN, no more: a tensor whose values fp32 holds exactly
 * cannot be zeroed, however small, and nothing bigger slips through. */
static void test_floor_is_tight(void **state)
{
	(void)state;
	double r = 1.0e-30;
	float y = 0.0f;
	assert_false(passes(&y, &r, 1, 4));
	r = 4.0 * FLT_MIN;
	assert_false(passes(&y, &r, 1, 4));
	y = (float)r;
	assert_true(passes(&y, &r, 1, 4));
	double big[4] = {1.5, -2.25, 0.75, 3.0};
	float zeros[4] = {0, 0, 0, 0};
	assert_false(passes(zeros, big, 4, 4));
}

/* Ordinary fp32 rounding passes; one element a little off fails even when
 * the others are exact. */
static void test_rounding_and_misses(void **state)
{
	(void)state;
	double r[8];
	float y[8];
	for (int i = 0; i < 8; i++) {
		r[i] = gelu64(-3.0 + 0.75 * i);
		y[i] = gelu32((float)(-3.0 + 0.75 * i));
	}
	assert_true(passes(y, r, 8, 4));
	y[5] *= 1.001f;
	assert_false(passes(y, r, 8, 4));
}

/* Integer outputs have no floor: off by one is off. */
static void test_integer_exact(void **state)
{
	(void)state;
	double num = 0, den = 0;
	assert_true(ka_tol_floor(0) == 0.0);
	assert_true(ka_tol_elem(3.0, 3.0, 0, 3.0, 0, 0, &num, &den) == 0.0);
	assert_true(ka_tol_elem(4.0, 3.0, 0, 3.0, 0, 0, &num, &den) > 1.0);
	assert_true(ka_tol_l2(num, den) > 0.0);
}

/* Differences within the floor leave the relative L2 error at 0; those
 * beyond it count. */
static void test_l2_floor(void **state)
{
	(void)state;
	double num = 0, den = 0;
	ka_tol_elem(0.0, -1.0e-40, atol, 1.0e-40, rtol, ka_tol_floor(4), &num, &den);
	assert_true(ka_tol_l2(num, den) == 0.0);
	num = den = 0;
	ka_tol_elem(0.0, 1.0, atol, 1.0, rtol, ka_tol_floor(4), &num, &den);
	assert_true(ka_tol_l2(num, den) > 0.99);
	assert_true(ka_tol_floor(8) == DBL_MIN);
}

/* Every finite 16-bit pattern converts to fp32 and back to itself. */
static void test_lowp_round_trip(void **state)
{
	(void)state;
	for (int bf = 0; bf < 2; bf++)
		for (unsigned h = 0; h < 0x10000u; h++) {
			float f = ka_lowp_to_float((uint16_t)h, bf);
			if (isnan(f))
				continue;
			assert_int_equal(ka_lowp_round(f, bf), h);
		}
	assert_true(ka_f16_to_float(0x3c00) == 1.0f && ka_f16_to_float(0x7bff) == 65504.0f);
	assert_true(ka_f16_to_float(0x0001) == ldexpf(1.0f, -24));
	assert_true(ka_bf16_to_float(0x3f80) == 1.0f && ka_bf16_to_float(0xc000) == -2.0f);
	assert_true(isnan(ka_f16_to_float(ka_f16_from_float(NAN))));
	assert_true(isnan(ka_bf16_to_float(ka_bf16_from_float(NAN))));
}

/* The nearest representable value by search: among the patterns next to
 * the one the conversion chose, none is closer, and a tie went to the even
 * pattern. */
static void check_nearest(float f, int bf)
{
	uint16_t h = ka_lowp_round(f, bf);
	double v = ka_lowp_to_float(h, bf), d = fabs(v - (double)f);
	if (isinf(v)) { /* overflow: f is at least half an ulp past the largest finite value */
		double top = bf ? ka_bf16_to_float(0x7f7f) : 65504.0;
		double ulp = bf ? ldexp(1.0, 120) : 32.0;
		assert_true(fabs((double)f) >= top + ulp / 2);
		return;
	}
	for (int k = -1; k <= 1; k += 2) {
		uint16_t o = (uint16_t)(h + k);
		float w = ka_lowp_to_float(o, bf);
		if (isnan(w) || isinf(w) || ((o ^ h) & 0x8000u))
			continue;
		double dw = fabs((double)w - (double)f);
		assert_true(d <= dw);
		if (d == dw)
			assert_int_equal(h & 1u, 0);
	}
}

static void test_lowp_nearest_even(void **state)
{
	unsigned long long st = 42;
	(void)state;
	for (int i = 0; i < 400000; i++) {
		st = st * 6364136223846793005ULL + 1442695040888963407ULL;
		uint32_t u = (uint32_t)(st >> 32);
		float f;
		memcpy(&f, &u, 4);
		if (isnan(f) || isinf(f))
			continue;
		/* bias half the draws into f16's range, where most of its cases are */
		if (i & 1)
			f = ldexpf(frexpf(f, &(int){0}), (int)(st % 44) - 27);
		check_nearest(f, 0);
		check_nearest(f, 1);
	}
	/* ties: 1 + half an ulp goes down to the even 1, 1 + 3 half-ulps up */
	assert_int_equal(ka_f16_from_float(1.0f + ldexpf(1.0f, -11)), 0x3c00);
	assert_int_equal(ka_f16_from_float(1.0f + 3 * ldexpf(1.0f, -11)), 0x3c02);
	assert_int_equal(ka_bf16_from_float(1.0f + ldexpf(1.0f, -8)), 0x3f80);
	assert_int_equal(ka_bf16_from_float(1.0f + 3 * ldexpf(1.0f, -8)), 0x3f82);
	/* f16's edges: 65520 is the tie between 65504 and 2^16 (inf); the
	 * smallest subnormal's half ties to 0 */
	assert_int_equal(ka_f16_from_float(65519.0f), 0x7bff);
	assert_int_equal(ka_f16_from_float(65520.0f), 0x7c00);
	assert_int_equal(ka_f16_from_float(-1e6f), 0xfc00);
	assert_int_equal(ka_f16_from_float(ldexpf(1.0f, -25)), 0x0000);
	assert_int_equal(ka_f16_from_float(ldexpf(1.5f, -25)), 0x0001);
	assert_int_equal(ka_f16_from_float(ldexpf(1.5f, -24)), 0x0002);
	assert_int_equal(ka_f16_from_float(ldexpf(1023.5f, -24)), 0x0400); /* up into the normals */
	assert_int_equal(ka_bf16_from_float(3.4e38f), 0x7f80);
}

/* Checks n outputs of a 2-byte type against fp64 references as the harness
 * does, with the task tolerance (a, rt, l) plus the type's own term and the
 * growth of a k-long reduction accumulated in acc. */
static int passes_lowp(const uint16_t *y, int bf, const double *r, int n, double a, double rt, double l,
		       double k, int acc)
{
	int dt = bf ? KA_TOL_BF16 : KA_TOL_F16;
	double ty = ka_tol_type(dt), g = ka_tol_grow(k, acc);
	double scale = 0, num = 0, den = 0, fl = ka_tol_floor_of(dt);
	int ok = 1;
	for (int i = 0; i < n; i++)
		if (fabs(r[i]) > scale)
			scale = fabs(r[i]);
	for (int i = 0; i < n; i++)
		if (ka_tol_elem(ka_lowp_to_float(y[i], bf), r[i], a + g, scale, rt + ty + g, fl, &num, &den) >
		    1.0)
			ok = 0;
	return ok && ka_tol_l2(num, den) <= l + ty + g;
}

/* With a zero task tolerance, the correctly rounded 2-byte output passes
 * (the type's own term), an output three units in the last place off fails,
 * and so does an f16 output whose inputs were rounded to bf16 on the way. */
static void test_lowp_type_term(void **state)
{
	enum { N = 64 };
	double r[N];
	uint16_t y[N], off[N];
	(void)state;
	assert_true(ka_tol_type(KA_TOL_BF16) == ldexp(1.0, -7) && ka_tol_type(KA_TOL_F16) == ldexp(1.0, -10));
	assert_true(ka_tol_type(KA_TOL_F32) == 0.0 && ka_tol_type(KA_TOL_I32) == 0.0);
	assert_true(ka_tol_floor_of(KA_TOL_F16) == ldexp(1.0, -14) &&
		    ka_tol_floor_of(KA_TOL_BF16) == FLT_MIN);
	for (int bf = 0; bf < 2; bf++) {
		for (int i = 0; i < N; i++) {
			r[i] = gelu64(-4.0 + 0.13 * i);
			y[i] = ka_lowp_round((float)r[i], bf);
			off[i] = y[i];
		}
		assert_true(passes_lowp(y, bf, r, N, 0, 0, 0, 1, KA_TOL_F32));
		off[40] = (uint16_t)(off[40] + 3); /* positive value: +3 ulps */
		assert_false(passes_lowp(off, bf, r, N, 0, 0, 0, 1, KA_TOL_F32));
	}
	for (int i = 0; i < N; i++) /* f16 output computed from bf16-rounded inputs */
		y[i] = ka_f16_from_float(
			(float)gelu64(ka_bf16_to_float(ka_bf16_from_float((float)(-4.0 + 0.13 * i)))));
	assert_false(passes_lowp(y, 0, r, N, 0, 0, 0, 1, KA_TOL_F32));
}

/* A dot product of 4096 bf16 pairs: accumulated in fp32 and rounded once
 * to bf16 it passes the bound of an fp32 accumulator; accumulated in bf16
 * (every partial sum rounded) it fails it, and passes only where the task
 * says it accumulates in bf16. */
static void test_lowp_accumulation(void **state)
{
	enum { K = 4096, M = 16 };
	double r[M];
	uint16_t y32[M], y16[M];
	unsigned long long st = 7;
	(void)state;
	for (int m = 0; m < M; m++) {
		double exact = 0;
		float acc32 = 0;
		uint16_t acc16 = 0;
		for (int k = 0; k < K; k++) {
			float a, b;
			st = st * 6364136223846793005ULL + 1442695040888963407ULL;
			a = ka_bf16_to_float(ka_bf16_from_float((float)((st >> 11) * 0x1.0p-53 * 2.0 - 0.5)));
			st = st * 6364136223846793005ULL + 1442695040888963407ULL;
			b = ka_bf16_to_float(ka_bf16_from_float((float)((st >> 11) * 0x1.0p-53 * 2.0 - 0.5)));
			exact += (double)a * b;
			acc32 += a * b;
			acc16 = ka_bf16_from_float(ka_bf16_to_float(acc16) + a * b);
		}
		r[m] = exact;
		y32[m] = ka_bf16_from_float(acc32);
		y16[m] = acc16;
	}
	assert_true(ka_tol_grow(K, KA_TOL_BF16) > 1000.0 * ka_tol_grow(K, KA_TOL_F32));
	assert_true(ka_tol_grow(1, KA_TOL_F32) == 0.0);
	assert_true(passes_lowp(y32, 1, r, M, 1e-5, 2e-4, 1e-4, K, KA_TOL_F32));
	assert_false(passes_lowp(y16, 1, r, M, 1e-5, 2e-4, 1e-4, K, KA_TOL_F32));
	assert_true(passes_lowp(y16, 1, r, M, 1e-5, 2e-4, 1e-4, K, KA_TOL_BF16));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_underflow_one_element),
		cmocka_unit_test(test_floor_is_tight),
		cmocka_unit_test(test_rounding_and_misses),
		cmocka_unit_test(test_integer_exact),
		cmocka_unit_test(test_l2_floor),
		cmocka_unit_test(test_lowp_round_trip),
		cmocka_unit_test(test_lowp_nearest_even),
		cmocka_unit_test(test_lowp_type_term),
		cmocka_unit_test(test_lowp_accumulation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
