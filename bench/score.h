/* bench/score.h: the suite score of BENCH-PROTOCOL.md.  Per task the
 * inputs are what the runner measured; a task counts as passed only when
 * every gate passed on every configuration. */
#ifndef KA_BENCH_SCORE_H
#define KA_BENCH_SCORE_H

typedef struct ka_bench_task_score {
	int passed;                /* every gate, every configuration */
	int visible_ok, unseen_ok; /* correct on all visible / all unseen configs */
	double speedup, lo;        /* geomean of paired median speedups, CI lower bound */
	double speedup_visible, speedup_unseen;
	double roof;       /* mean fraction of the roofline */
	double roof_large; /* the same over the large configs (runner.h); NaN: none */
} ka_bench_task_score;

typedef struct ka_bench_suite_score {
	int tasks, passed;
	double correct_visible, correct_unseen; /* fractions of tasks */
	double fast_p[4];                       /* p = 1.0, 1.1, 1.5, 2.0 on the CI lower bound */
	double geomean;                         /* clipped [1/8, 8]; a failed task counts 1/8 */
	double gap_correct;                     /* correct_visible - correct_unseen */
	double gap_speedup;                     /* geomean visible / geomean unseen, passed tasks */
	double roof_mean;                       /* over passed tasks */
	double roof_large_mean;                 /* roof_large over passed tasks that have one */
} ka_bench_suite_score;

extern const double ka_bench_fast_p[4];

void ka_bench_score(const ka_bench_task_score *t, int n, ka_bench_suite_score *out);

#endif
