/* bench/score.c: bench/score.h.  The clip keeps one outlier (a huge win or
 * a broken task) from dominating the suite's geometric mean. */
#include "bench/score.h"
#include <assert.h>
#include <math.h>
#include <string.h>
#include "bench/stats.h"

const double ka_bench_fast_p[4] = {1.0, 1.1, 1.5, 2.0};

void ka_bench_score(const ka_bench_task_score *t, int n, ka_bench_suite_score *o)
{
	double logsum = 0, lv = 0, lu = 0, roof = 0, rl = 0;
	int nv = 0, nl = 0;
	assert(o && (t || n <= 0));
	memset(o, 0, sizeof *o);
	o->tasks = n;
	if (n <= 0) {
		o->geomean = o->gap_speedup = o->roof_large_mean = NAN;
		return;
	}
	for (int i = 0; i < n; i++) {
		double s = t[i].passed && t[i].speedup > 0 ? t[i].speedup : 1.0 / 8;
		s = s < 1.0 / 8 ? 1.0 / 8 : s > 8 ? 8 : s;
		logsum += log(s);
		o->correct_visible += t[i].visible_ok;
		o->correct_unseen += t[i].unseen_ok;
		if (!t[i].passed)
			continue;
		o->passed++;
		roof += t[i].roof;
		if (t[i].roof_large > 0) {
			rl += t[i].roof_large;
			nl++;
		}
		for (int k = 0; k < 4; k++)
			o->fast_p[k] += t[i].lo > ka_bench_fast_p[k];
		if (t[i].speedup_visible > 0 && t[i].speedup_unseen > 0) {
			lv += log(t[i].speedup_visible);
			lu += log(t[i].speedup_unseen);
			nv++;
		}
	}
	o->correct_visible /= n;
	o->correct_unseen /= n;
	for (int k = 0; k < 4; k++)
		o->fast_p[k] /= n;
	o->geomean = exp(logsum / n);
	o->gap_correct = o->correct_visible - o->correct_unseen;
	o->gap_speedup = nv ? exp((lv - lu) / nv) : NAN;
	o->roof_mean = o->passed ? roof / o->passed : NAN;
	o->roof_large_mean = nl ? rl / nl : NAN;
}
