/* bench/scale.h: bench jobs run side by side, one process per job, on the
 * GPUs of this host (the local pool) or through Slurm (bench/runner_slurm.c).
 * A job is one `kcheck bench TASK --json ...` with `--output FILE`: the
 * verdict document (schema kernelarc.bench/1) it writes is the job's
 * result, in exactly the form a local run prints, and the caller reads it
 * back with ka_bench_result_from_json.  Timing stays inside each job: the
 * baseline/candidate pairs of one job are interleaved on its one GPU. */
#ifndef KA_BENCH_SCALE_H
#define KA_BENCH_SCALE_H
#include <stdio.h>
#include "bench/runner.h"
#include "util/cmdopt.h"

#define KA_SCALE_MAX_GPUS 64
#define KA_SCALE_MAX_EXTRA 16

typedef struct ka_scale_item {
	char name[96];     /* unique among the items, [A-Za-z0-9._-] only: names its files */
	char **args;       /* the bench arguments after "bench" (NULL-terminated; the caller's) */
	char *json;        /* out: the verdict document (malloc'd), NULL when none came */
	char outcome[480]; /* out: with no document, why (one line); else "" */
	int attempts;      /* out: how many times it was started */
	int gpu;           /* out: the local pool's GPU it ran on; -1 through Slurm */
} ka_scale_item;

typedef struct ka_scale_opts {
	int slurm;           /* 0: the local pool, 1: Slurm */
	const char *program; /* the kcheck each job runs (NULL: this program) */
	FILE *progress;      /* one line per event; NULL: none */
	/* the local pool: one job per GPU at a time, CUDA_VISIBLE_DEVICES=gpu */
	int gpus[KA_SCALE_MAX_GPUS], ngpus;
	int timeout_s; /* per job (0: 3600) */
	/* Slurm */
	const char *dir; /* job scripts, outputs and the run's state (NULL: ./kcheck-slurm) */
	const char *partition, *account, *time_limit;
	int gpus_per_job; /* --gres=gpu:N; 0 asks for none */
	const char *extra[KA_SCALE_MAX_EXTRA];
	int nextra;
	int retries;   /* extra attempts for a job that ends without a result */
	double poll_s; /* between polls (0: 5) */
	unsigned set;  /* KA_SCALE_SET_*: given on the command line */
} ka_scale_opts;

enum { KA_SCALE_SET_PARTITION = 1, KA_SCALE_SET_TIME = 2, KA_SCALE_SET_GPUS = 4 };

/* Defaults: the local pool with no GPU, 1 GPU per Slurm job, 1 retry. */
void ka_scale_opts_init(ka_scale_opts *o);
/* The runner options, one option table (util/cmdopt.h) whose rows apply
 * their value through ka_scale_parse_opt to the group's ka_scale_opts:
 *   --runner local|slurm  --gpus LIST  --slurm-dir DIR  --partition P
 *   --account A  --time-limit T  --gpus-per-job N  --sbatch-option OPT
 *   --retries N  --poll-interval SEC  --kcheck PATH
 * The commands that read it, for a row one of them only (cmds; today every
 * row is both's): kcheck bench and kcheck optimize. */
enum { KA_SCALE_CMD_BENCH = 1, KA_SCALE_CMD_OPTIMIZE = 2 };
const ka_opt *ka_scale_opt_table(void);
/* 1 when a is one of them (each takes a value). */
int ka_scale_is_opt(const char *a);
/* Applies option a with value v (the caller's storage, kept by pointer):
 * 0, or KA_EINPUT with a one-line message for a bad value. */
int ka_scale_parse_opt(ka_scale_opts *o, const char *a, const char *v);
/* The Slurm settings a repository's .kcheck.yaml may give (docs/security.md):
 * slurm-partition, slurm-time-limit, slurm-gpus-per-job, from the nearest
 * .kcheck.yaml in the current folder or a parent; the command line wins.
 * Every other key is the lint's (it checks them).  0, or KA_EINPUT with
 * "FILE:LINE: message".  Strings live until the process ends. */
int ka_scale_config(ka_scale_opts *o);
/* 1 when s may be a Slurm partition name (letters, digits, . _ - and
 * commas for a list) or a time limit (digits, ':' and '-'), 0 if not. */
int ka_scale_safe_partition(const char *s);
int ka_scale_safe_time(const char *s);

/* Runs every item; 0 when each one ended (with a document or an outcome),
 * negative when the runner itself could not go on (message set; what did
 * arrive is kept in the items and, for Slurm, in the folder). */
int ka_scale_run(const ka_scale_opts *o, ka_scale_item *items, int n);
void ka_scale_item_free(ka_scale_item *it);

/* "0,1,3" into gpus (at most KA_SCALE_MAX_GPUS, no repeats); the count, or
 * KA_EINPUT with a message. */
int ka_scale_parse_gpus(const char *list, int *gpus);
/* The GPUs this host shows: CUDA_VISIBLE_DEVICES when set (its entries
 * numbered 0..n-1, as CUDA numbers them), else /dev/nvidiaN. */
int ka_scale_visible_gpus(int *gpus);

/* This program's path (/proc/self/exe), into dst. */
int ka_scale_self(char *dst, size_t cap);

/* A verdict document into res (configurations matched to spec by name). */
int ka_bench_result_from_json(const char *text, const ka_bench_spec *spec, ka_bench_result *res);

/* Internal, shared by the two runners (bench/scale.c). */
int ka_scale_slurm(const ka_scale_opts *o, ka_scale_item *items, int n);
/* 1 when the file holds a verdict document (then *json, malloc'd), else 0. */
int ka_scale_read_result(const char *path, char **json);

/* A ka_bench_runner that runs each job through the scale runner o (kept by
 * pointer: o must outlive the runner); jobs named PREFIX-N.  Its run_many
 * runs a batch of jobs as one ka_scale_run (the local pool: one GPU each,
 * a job's pairs interleaved on its GPU); width: the pool's GPUs, 1 for
 * Slurm. */
typedef struct ka_scale_runner {
	ka_bench_runner base; /* first: the runner's functions get this struct */
	const ka_scale_opts *o;
	char prefix[48];
	int seq;
} ka_scale_runner;
void ka_scale_runner_init(ka_scale_runner *r, const ka_scale_opts *o, const char *prefix);

#endif
