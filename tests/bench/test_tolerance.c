/* tests/bench/test_tolerance.c: the harness's per-element tolerance
 * (bench/harness/harness_tol.h), the same code the harness compiles with
 * nvcc, on the host.  The case that made the gelu baseline fail its own task
 * on an H200 (a drawn one-element configuration whose reference underflows
 * fp32) must pass; zeroed, wrong and off-by-one outputs must still fail. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include "bench/harness/harness_tol.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_underflow_one_element),
		cmocka_unit_test(test_floor_is_tight),
		cmocka_unit_test(test_rounding_and_misses),
		cmocka_unit_test(test_integer_exact),
		cmocka_unit_test(test_l2_floor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
