/* bench/stats.c: implementation of bench/stats.h. */
#include "bench/stats.h"
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

static double sorted_quantile(const double *s, size_t n, double q)
{
	if (n == 0)
		return NAN;
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i + 1 >= n)
		return s[n - 1];
	return s[i] + (pos - (double)i) * (s[i + 1] - s[i]);
}

double ka_bench_quantile(const double *v, size_t n, double q)
{
	double *s;
	double r;
	if (n == 0 || !(s = malloc(n * sizeof *s)))
		return NAN;
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	r = sorted_quantile(s, n, q);
	free(s);
	return r;
}

ka_bench_summary ka_bench_summarize(const double *v, size_t n)
{
	ka_bench_summary m = {NAN, NAN, NAN, NAN, NAN, NAN};
	double *s;
	if (n == 0 || !(s = malloc(n * sizeof *s)))
		return m;
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	m.median = sorted_quantile(s, n, 0.5);
	m.q1 = sorted_quantile(s, n, 0.25);
	m.q3 = sorted_quantile(s, n, 0.75);
	m.iqr = m.q3 - m.q1;
	m.min = s[0];
	m.max = s[n - 1];
	free(s);
	return m;
}

static unsigned long long next(unsigned long long *x)
{
	unsigned long long z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void ka_bench_speedup_ci(const double *a, const double *b, size_t n, int resamples, unsigned long long seed,
			 double *median, double *lo, double *hi)
{
	double *ra = malloc(n * sizeof *ra), *rb = malloc(n * sizeof *rb);
	double *sp = malloc((size_t)(resamples > 0 ? resamples : 1) * sizeof *sp);
	*median = *lo = *hi = NAN;
	if (n == 0 || !ra || !rb || !sp)
		goto out;
	*median = ka_bench_quantile(a, n, 0.5) / ka_bench_quantile(b, n, 0.5);
	for (int r = 0; r < resamples; r++) {
		for (size_t i = 0; i < n; i++) {
			size_t k = (size_t)(next(&seed) % n); /* resample pairs, keep pairing */
			ra[i] = a[k];
			rb[i] = b[k];
		}
		sp[r] = ka_bench_quantile(ra, n, 0.5) / ka_bench_quantile(rb, n, 0.5);
	}
	*lo = ka_bench_quantile(sp, (size_t)resamples, 0.025);
	*hi = ka_bench_quantile(sp, (size_t)resamples, 0.975);
out:
	free(ra);
	free(rb);
	free(sp);
}

double ka_bench_geomean(const double *v, size_t n, double lo, double hi)
{
	double s = 0;
	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		double x = v[i];
		if (lo > 0 && x < lo)
			x = lo;
		if (lo > 0 && x > hi)
			x = hi;
		if (!(x > 0))
			return NAN;
		s += log(x);
	}
	return exp(s / (double)n);
}

void ka_bench_geomean_ci(const double *const *a, const double *const *b, const size_t *n, int k,
			 int resamples, unsigned long long seed, double *lo, double *hi)
{
	assert(k >= 0 && (k == 0 || (a && b && n)) && lo && hi);
	double *g = malloc((size_t)(resamples > 0 ? resamples : 1) * sizeof *g);
	size_t most = 1;
	for (int c = 0; c < k; c++)
		if (n[c] > most)
			most = n[c];
	double *ra = malloc(most * sizeof *ra), *rb = malloc(most * sizeof *rb);
	*lo = *hi = NAN;
	if (!g || !ra || !rb || k == 0)
		goto out;
	for (int r = 0; r < resamples; r++) {
		double s = 0;
		for (int c = 0; c < k; c++) {
			for (size_t i = 0; i < n[c]; i++) {
				size_t j = (size_t)(next(&seed) % n[c]);
				ra[i] = a[c][j];
				rb[i] = b[c][j];
			}
			s += log(ka_bench_quantile(ra, n[c], 0.5) / ka_bench_quantile(rb, n[c], 0.5));
		}
		g[r] = exp(s / k);
	}
	*lo = ka_bench_quantile(g, (size_t)resamples, 0.025);
	*hi = ka_bench_quantile(g, (size_t)resamples, 0.975);
out:
	free(g);
	free(ra);
	free(rb);
}
