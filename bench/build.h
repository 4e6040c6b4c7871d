/* bench/build.h: the compile gate.  Builds the harness binary of one bench
 * run from the embedded harness sources, the task's reference, the baseline
 * (slot a) and the candidate (slot b), with fixed flags (-O3 -arch=ARCH) and
 * a time limit per compiler call. */
#ifndef KA_BENCH_BUILD_H
#define KA_BENCH_BUILD_H
#include <stddef.h>
#include "bench/scan.h"

enum {
	KA_BENCH_BUILD_OK = 0,
	KA_BENCH_BUILD_HARNESS = 1,
	KA_BENCH_BUILD_REFERENCE,
	KA_BENCH_BUILD_BASELINE,
	KA_BENCH_BUILD_CANDIDATE,
	KA_BENCH_BUILD_LINK,
	KA_BENCH_BUILD_OBJCHECK    /* the candidate's object failed bench/objcheck.h */
};

typedef struct ka_bench_build {
	const char *build_dir;    /* cache: harness sources, objects, binaries */
	const char *nvcc;         /* path or name of nvcc */
	const char *arch;         /* e.g. "sm_90" */
	const char *reference, *baseline, *candidate;   /* source paths */
	int compile_timeout_s;
	int compile_only;         /* --compile-only (the harness binary is still linked) */
	int objcheck;             /* check the candidate's object (bench/objcheck.h) */
} ka_bench_build;

typedef struct ka_bench_build_out {
	int failed;               /* KA_BENCH_BUILD_* of the step that failed, 0 if none */
	char log[512];            /* first lines of the failing tool's output (capped) */
	char *ref_obj, *a_obj, *b_obj;   /* object paths (heap; ka_bench_build_out_free) */
	char *binary;             /* the linked harness (heap) */
	double seconds;           /* compiler time spent (0 when all cached) */
	int nfindings;            /* KA_BENCH_BUILD_OBJCHECK: how many (up to 16 stored) */
	ka_bench_finding findings[16];
} ka_bench_build_out;

/* 0 when every step succeeded; else a negative code and out->failed/log say
 * where.  Either way, free out's paths with ka_bench_build_out_free. */
int ka_bench_build_run(const ka_bench_build *b, ka_bench_build_out *out);
void ka_bench_build_out_free(ka_bench_build_out *out);

#endif
