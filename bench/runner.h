/* bench/runner.h: a bench job is a description (task, candidate, baseline,
 * which configurations to time, seed, build settings) that a runner carries
 * out and turns into a ka_bench_result.  The local runner uses this machine's
 * nvcc and GPU; other runners (a remote GPU host, a queue) implement the same
 * two functions.  Gates run in order and fail closed: static, compile,
 * correctness (own process), performance with post-timing validation (own
 * process), roofline. */
#ifndef KA_BENCH_RUNNER_H
#define KA_BENCH_RUNNER_H
#include "bench/spec.h"
#include "bench/stats.h"
#include "bench/scan.h"

enum { KA_BENCH_CONFIGS_ALL, KA_BENCH_CONFIGS_VISIBLE, KA_BENCH_CONFIGS_UNSEEN };

typedef struct ka_bench_job {
	const ka_bench_spec *spec;
	char candidate[1024];    /* .cu or .hip implementing the task ABI */
	char baseline[1024];     /* default: the task's baseline.cu */
	char reference[1024];    /* the task's reference.cu */
	int configs;             /* KA_BENCH_CONFIGS_*: which configs are timed */
	int compile_only;        /* static + compile gates only */
	int correct_only;        /* stop after the correctness gate (verdict "checked") */
	int skip_static;         /* tests of the dynamic defences only */
	int sanitize;            /* compute-sanitizer on the smallest config */
	int samples;             /* timed pairs per config (>= 30) */
	unsigned long long seed; /* run-time seed for every draw */
	char build_dir[1000];
	char nvcc[512];
	char arch[16];
	int compile_timeout_s, run_timeout_s;
} ka_bench_job;

/* The outcome of a job.  verdict: "faster", "same", "slower" (all gates
 * passed), "rejected" (a gate failed: gate + reason), "compiled"
 * (--compile-only passed), "error" (the task or the tools are broken). */
typedef struct ka_bench_cfg_result {
	int correct; /* 1 pass, 0 fail, -1 not checked */
	int timed, graph, validated, checked;
	int large; /* timed and among the large configs (roof_large below) */
	char why[256];
	double worst, rel_l2;    /* worst error/bound ratio, relative L2 over the draws */
	int n;                   /* timed pairs */
	double *a, *b, *wa, *wb; /* event times and wall times in us, per pair */
	double *ta, *tb;         /* tails: legacy-stream event minus stop event, us */
	ka_bench_summary sa, sb;
	double speedup, lo, hi;   /* paired median speedup a/b and its 95% CI */
	double gbs, gflops, roof; /* candidate's achieved rates, fraction of ceiling */
	double wall_excess_us;    /* candidate's wall-minus-event over the baseline's */
	double tail_excess_us;    /* candidate's median tail over the baseline's */
} ka_bench_cfg_result;

typedef struct ka_bench_result {
	char verdict[16], gate[16], reason[512];
	char sanitizer[16]; /* "", "passed", "failed", "unavailable" */
	int nfindings;
	ka_bench_finding findings[16];
	char device[160];
	double copy_gbs, fma_gflops, compile_s;
	double mma_gflops; /* bf16 tensor-core mma rate (0: none measured) */
	int ncfg;
	ka_bench_cfg_result cfg[KA_BENCH_MAX_CONFIGS];
	double geomean, lo, hi; /* over timed configs */
	double geo_visible, geo_unseen, roof_mean;
	/* the mean roofline fraction over the large timed configs: those whose
	 * time at the ceiling (bytes over the copy rate, or flops over the
	 * FLOP ceiling, whichever is longer) is at least half the longest's.
	 * A small config's time is mostly launch latency, so roof_mean, over
	 * every timed config, understates how close the kernel comes to the
	 * ceiling where the ceiling binds. */
	double roof_large;
	int correct_visible, total_visible, correct_unseen, total_unseen;
	int suspicious; /* >= 5x over the baseline somewhere: flagged */
} ka_bench_result;

typedef struct ka_bench_runner {
	const char *name;
	/* 1 when the runner can reach a CUDA device, 0 when not. */
	int (*has_device)(const struct ka_bench_runner *r);
	/* Carries out the job; 0 when a result was produced (whatever the
	 * verdict), negative on a broken job (message via ka_error_last). */
	int (*run)(const struct ka_bench_runner *r, const ka_bench_job *job, ka_bench_result *res);
	/* Optional (NULL: the runner takes one job at a time): carries out n
	 * independent jobs side by side, each on a GPU of its own, into res[i]
	 * (an "error" verdict for a job that ended without a result: the
	 * others' results are kept); gpu[i] gets the GPU job i ran on, -1 when
	 * the runner cannot say.  0, or negative when the runner could not go
	 * on (message via ka_error_last). */
	int (*run_many)(const struct ka_bench_runner *r, const ka_bench_job *jobs, int n,
			ka_bench_result *res, int *gpu);
	int width; /* how many jobs run_many runs at once (its GPUs); 0 or 1: one */
} ka_bench_runner;

const ka_bench_runner *ka_bench_runner_local(void);
void ka_bench_job_init(ka_bench_job *job, const ka_bench_spec *spec);
/* DIR/NAME (or DIR alone when name is NULL) into one of the job's fixed path
 * fields: 0, or KA_EINPUT and an empty dst when it does not fit (a path is
 * never cut short into the name of another file). */
int ka_bench_job_path(char *dst, size_t cap, const char *dir, const char *name);
void ka_bench_result_free(ka_bench_result *res);
/* Reads the harness's result lines into res (bench/result.c). */
int ka_bench_result_parse_correct(const char *text, const ka_bench_spec *spec, ka_bench_result *res);
/* samples[i]: the exact number of timed pairs timed configuration i must
 * have (the plan's, from ka_bench_config_samples). */
int ka_bench_result_parse_perf(const char *text, const ka_bench_spec *spec, const int *timed,
			       const int *samples, ka_bench_result *res);
/* The timed pairs of a configuration when the job asks for `samples` (at
 * least 30): a configuration that moves less than 32 MiB gets four times
 * as many, less than 128 MiB twice as many.  Kernels of a few microseconds
 * have a launch jitter of a microsecond or two, a tenth of their time, so
 * their paired median needs more pairs to be as tight as a long kernel's
 * (self against self stays within 2%); a pair of them costs well under a
 * millisecond.  bytes 0 (not declared): samples. */
int ka_bench_config_samples(const ka_bench_config *c, int samples);
/* 64 bits from /dev/urandom (the clock and pid when it cannot be read). */
unsigned long long ka_bench_fresh_seed(void);
/* Statistics, wall-time cross-check, roofline and the verdict. */
void ka_bench_result_finish(const ka_bench_spec *spec, ka_bench_result *res, unsigned long long seed);

#endif
