/* tests/bench/test_cmp.c: the harness's chunked host check
 * (bench/harness/harness_cmp.h) against the plain serial loop it replaced,
 * written out here element by element: the same failures, counts, worst
 * ratio and reason, an L2 error equal up to summation order, whatever the
 * number of threads and the order the chunks run in.  The self-check's
 * sources read in place: a constant, and an input shorter than the output
 * with zeros past its end. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>
#include "bench/harness/harness_cmp.h"

static ka_cmp_part parts[KA_CMP_PARTS];

/* Runs fn over [0, n) in one piece. */
static void serial_for(long long n, void (*fn)(long long, long long, void *), void *ctx)
{
	fn(0, n, ctx);
}

/* Runs fn over [0, n) in three pieces, the last first: what the order of
 * host threads may do. */
static void backwards_for(long long n, void (*fn)(long long, long long, void *), void *ctx)
{
	for (int t = 2; t >= 0; t--)
		fn(n * t / 3, n * (t + 1) / 3, ctx);
}

static ka_cmp_job job(ka_cmp_src y, const double *r, long long n, int out_dt)
{
	ka_cmp_job j;
	memset(&j, 0, sizeof j);
	j.y = y;
	j.r = r;
	j.n = n;
	j.atol = 1e-6;
	j.rtol = 1e-5 + ka_tol_type(out_dt);
	j.l2 = 1e-6 + ka_tol_type(out_dt);
	j.floor = ka_tol_floor_of(out_dt);
	j.part = parts;
	return j;
}

/* The serial check as the harness wrote it before the chunks. */
static ka_cmp_result serial(const ka_cmp_job *j)
{
	ka_cmp_result c = {0, 0.0, 0.0, NULL};
	double scale = 0, num = 0, den = 0;
	for (long long i = 0; i < j->n; i++)
		if (isfinite(j->r[i]) && fabs(j->r[i]) > scale)
			scale = fabs(j->r[i]);
	for (long long i = 0; i < j->n; i++) {
		double v = ka_cmp_value(&j->y, i), r = j->r[i];
		if (!isfinite(r)) {
			if (!(isnan(r) ? isnan(v) : v == r)) {
				c.bad++;
				c.why = "non-finite-mismatch";
			}
			continue;
		}
		if (!isfinite(v)) {
			c.bad++;
			c.why = "nan-or-inf-in-output";
			c.worst = INFINITY;
			continue;
		}
		double ratio = ka_tol_elem(v, r, j->atol, scale, j->rtol, j->floor, &num, &den);
		if (ratio > 1.0) {
			c.bad++;
			if (!c.why)
				c.why = "tolerance";
		}
		if (ratio > c.worst)
			c.worst = ratio;
	}
	c.l2 = ka_tol_l2(num, den);
	if (c.l2 > j->l2 && !c.why) {
		c.bad++;
		c.why = "relative-l2";
	}
	return c;
}

static void same(ka_cmp_result a, ka_cmp_result b)
{
	assert_int_equal(a.bad, b.bad);
	assert_true(a.worst == b.worst);
	if (a.why || b.why)
		assert_string_equal(a.why ? a.why : "(none)", b.why ? b.why : "(none)");
	if (isfinite(a.l2) && a.l2 > 0)
		assert_true(fabs(a.l2 - b.l2) <= 1e-12 * a.l2);
	else
		assert_true(a.l2 == b.l2 || (isnan(a.l2) && isnan(b.l2)));
}

/* n elements over more than one chunk, the reference a smooth function,
 * the outputs it rounded to dt (f32, f16 or bf16). */
enum { N = 3 * KA_CMP_MIN_CHUNK + 17 };

static double *reference(void)
{
	double *r = malloc(N * sizeof *r);
	assert_non_null(r);
	for (long long i = 0; i < N; i++)
		r[i] = sin(0.001 * (double)i) * 3.0 + 0.25;
	return r;
}

static void *rounded(const double *r, int dt)
{
	void *y = malloc(N * 4);
	assert_non_null(y);
	for (long long i = 0; i < N; i++) {
		if (dt == KA_TOL_F32)
			((float *)y)[i] = (float)r[i];
		else
			((uint16_t *)y)[i] = ka_lowp_round((float)r[i], dt == KA_TOL_BF16);
	}
	return y;
}

/* Sets element i of a 2-byte or f32 output to v. */
static void put(void *y, int dt, long long i, float v)
{
	if (dt == KA_TOL_F32)
		((float *)y)[i] = v;
	else
		((uint16_t *)y)[i] = ka_lowp_round(v, dt == KA_TOL_BF16);
}

static void correct_outputs_pass(void **state)
{
	(void)state;
	static const int dts[3] = {KA_TOL_F32, KA_TOL_F16, KA_TOL_BF16};
	double *r = reference();
	for (int k = 0; k < 3; k++) {
		void *y = rounded(r, dts[k]);
		ka_cmp_src src = {y, dts[k], N, 0.0};
		ka_cmp_job j = job(src, r, N, dts[k]);
		ka_cmp_result want = serial(&j), got = ka_cmp_run(&j, serial_for);
		assert_int_equal(got.bad, 0);
		assert_null(got.why);
		assert_true(got.worst > 0 && got.worst <= 1.0);
		assert_int_equal(j.nparts, 4); /* three full chunks and 17 elements */
		same(want, got);
		free(y);
	}
	free(r);
}

/* Failures in different chunks: counted once each, the reason of the
 * serial loop (the last non-finite one, whatever chunk it is in). */
static void failures_match_the_serial_loop(void **state)
{
	(void)state;
	static const int dts[3] = {KA_TOL_F32, KA_TOL_F16, KA_TOL_BF16};
	double *r = reference();
	for (int k = 0; k < 3; k++) {
		void *y = rounded(r, dts[k]);
		ka_cmp_src src = {y, dts[k], N, 0.0};
		put(y, dts[k], 5, (float)r[5] + 1.0f); /* chunk 0: tolerance */
		ka_cmp_job j = job(src, r, N, dts[k]);
		ka_cmp_result got = ka_cmp_run(&j, backwards_for);
		same(serial(&j), got);
		assert_int_equal(got.bad, 1);
		assert_string_equal(got.why, "tolerance");

		put(y, dts[k], 2 * KA_CMP_MIN_CHUNK + 3, NAN); /* chunk 2: a NaN output */
		r[KA_CMP_MIN_CHUNK + 9] = INFINITY;            /* chunk 1: a non-finite reference */
		got = ka_cmp_run(&j, backwards_for);
		same(serial(&j), got);
		assert_int_equal(got.bad, 3);
		assert_string_equal(got.why, "nan-or-inf-in-output");
		assert_true(isinf(got.worst));

		/* the non-finite reference last: its reason wins */
		put(y, dts[k], 2 * KA_CMP_MIN_CHUNK + 3, (float)r[2 * KA_CMP_MIN_CHUNK + 3]);
		put(y, dts[k], 1, NAN);
		got = ka_cmp_run(&j, backwards_for);
		same(serial(&j), got);
		assert_string_equal(got.why, "non-finite-mismatch");
		r[KA_CMP_MIN_CHUNK + 9] = sin(0.001 * (KA_CMP_MIN_CHUNK + 9)) * 3.0 + 0.25;
		free(y);
	}
	free(r);
}

/* Every element within its bound but all of them biased: only the L2
 * bound catches it. */
static void relative_l2_alone(void **state)
{
	(void)state;
	double *r = reference();
	float *y = malloc(N * sizeof *y);
	assert_non_null(y);
	for (long long i = 0; i < N; i++)
		y[i] = (float)(r[i] * (1.0 + 8e-6));
	ka_cmp_src src = {y, KA_TOL_F32, N, 0.0};
	ka_cmp_job j = job(src, r, N, KA_TOL_F32);
	ka_cmp_result got = ka_cmp_run(&j, backwards_for);
	same(serial(&j), got);
	assert_int_equal(got.bad, 1);
	assert_string_equal(got.why, "relative-l2");
	assert_true(got.worst <= 1.0);
	free(y);
	free(r);
}

/* The thread count and order change nothing, not even the L2 bits. */
static void pieces_do_not_matter(void **state)
{
	(void)state;
	double *r = reference();
	void *y = rounded(r, KA_TOL_BF16);
	ka_cmp_src src = {y, KA_TOL_BF16, N, 0.0};
	ka_cmp_job j = job(src, r, N, KA_TOL_BF16);
	ka_cmp_result a = ka_cmp_run(&j, serial_for), b = ka_cmp_run(&j, backwards_for);
	assert_int_equal(a.bad, b.bad);
	assert_true(a.worst == b.worst && a.l2 == b.l2);
	free(y);
	free(r);
}

/* The self-check's fakes: a constant fails a varying reference and passes
 * a constant one; an input shorter than the output reads as zeros after
 * its end. */
static void fakes_read_in_place(void **state)
{
	(void)state;
	double *r = reference();
	ka_cmp_src zeros = {NULL, -1, 0, 0.0};
	ka_cmp_job j = job(zeros, r, N, KA_TOL_F32);
	ka_cmp_result got = ka_cmp_run(&j, serial_for);
	same(serial(&j), got);
	assert_true(got.bad > N / 2);

	for (long long i = 0; i < N; i++)
		r[i] = 0.5;
	ka_cmp_src half = {NULL, -1, 0, 0.5};
	j = job(half, r, N, KA_TOL_F16);
	got = ka_cmp_run(&j, serial_for);
	assert_int_equal(got.bad, 0);

	/* input x of 100 f16 elements equal to the reference there, zeros after */
	uint16_t x[100];
	for (int i = 0; i < 100; i++) {
		x[i] = ka_f16_from_float(0.5f);
		r[i] = 0.5;
	}
	for (long long i = 100; i < N; i++)
		r[i] = 0.0;
	ka_cmp_src copy = {x, KA_TOL_F16, 100, 0.0};
	j = job(copy, r, N, KA_TOL_F16);
	got = ka_cmp_run(&j, backwards_for);
	same(serial(&j), got);
	assert_int_equal(got.bad, 0);
	r[N - 1] = 1.0; /* past the copy's end the fake holds 0 */
	got = ka_cmp_run(&j, backwards_for);
	same(serial(&j), got);
	assert_int_equal(got.bad, 1);
	assert_string_equal(got.why, "tolerance");
	free(r);
}

/* The chunk plan: nothing for an empty tensor, one chunk for a small one,
 * never more than KA_CMP_PARTS however large. */
static void plan_bounds(void **state)
{
	(void)state;
	ka_cmp_job j;
	memset(&j, 0, sizeof j);
	j.n = 0;
	assert_int_equal(ka_cmp_plan(&j), 0);
	j.n = 1;
	assert_int_equal(ka_cmp_plan(&j), 1);
	j.n = (long long)KA_CMP_PARTS * KA_CMP_MIN_CHUNK;
	assert_int_equal(ka_cmp_plan(&j), KA_CMP_PARTS);
	j.n = (long long)KA_CMP_PARTS * KA_CMP_MIN_CHUNK * 3 + 1;
	assert_true(ka_cmp_plan(&j) <= KA_CMP_PARTS);
	assert_true(j.nparts * j.chunk >= j.n && (j.nparts - 1) * j.chunk < j.n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(correct_outputs_pass), cmocka_unit_test(failures_match_the_serial_loop),
		cmocka_unit_test(relative_l2_alone),    cmocka_unit_test(pieces_do_not_matter),
		cmocka_unit_test(fakes_read_in_place),  cmocka_unit_test(plan_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
