/* bench/stats.h: the statistics of the performance gate and the suite
 * score: order statistics, a paired bootstrap confidence interval of the
 * speedup, and clipped geometric means.  Pure functions, tested on known data. */
#ifndef KA_BENCH_STATS_H
#define KA_BENCH_STATS_H
#include <stddef.h>

typedef struct ka_bench_summary {
	double median, q1, q3, iqr, min, max;
} ka_bench_summary;

/* Quantile q in [0,1] of v[0..n) by linear interpolation (v need not be sorted). */
double ka_bench_quantile(const double *v, size_t n, double q);
ka_bench_summary ka_bench_summarize(const double *v, size_t n);
/* Paired speedup = median(a)/median(b); bootstrap over pairs (B resamples,
 * deterministic for a given seed) for the 2.5% and 97.5% bounds. */
void ka_bench_speedup_ci(const double *a, const double *b, size_t n, int resamples, unsigned long long seed,
			 double *median, double *lo, double *hi);
/* Joint bootstrap of the geometric mean over k configurations of the paired
 * median speedup (config c has n[c] pairs a[c][i], b[c][i]). */
void ka_bench_geomean_ci(const double *const *a, const double *const *b, const size_t *n, int k,
			 int resamples, unsigned long long seed, double *lo, double *hi);
/* Geometric mean of v, each clipped to [lo, hi] first (lo <= 0: no clip). */
double ka_bench_geomean(const double *v, size_t n, double lo, double hi);

#endif
