/* bench/spec.h: a bench task, as read from bench/tasks/<task>/task.yaml
 * (docs/bench.md documents the format).  Loading validates everything that
 * can be validated without a GPU: names, dtypes, distributions, and that every
 * shape, scratch, bytes and FLOPs expression evaluates on every config. */
#ifndef KA_BENCH_SPEC_H
#define KA_BENCH_SPEC_H
#include <stddef.h>

#define KA_BENCH_MAX_TENSORS 8
#define KA_BENCH_MAX_PARAMS 8
#define KA_BENCH_MAX_SCALARS 4
#define KA_BENCH_MAX_CONFIGS 40
#define KA_BENCH_NAME 64
#define KA_BENCH_EXPR 256

/* f16 (IEEE binary16) and bf16 (bfloat16) are 2-byte floating types: drawn
 * in fp32 and rounded to nearest even (bench/harness/ka_lowp.h). */
enum ka_bench_dtype { KA_BENCH_F32, KA_BENCH_F64, KA_BENCH_I32, KA_BENCH_U32, KA_BENCH_F16, KA_BENCH_BF16 };
enum ka_bench_dist_kind { KA_BENCH_UNIFORM, KA_BENCH_NORMAL, KA_BENCH_INT };

typedef struct ka_bench_dist {
	int kind;
	double a, b; /* uniform/int: [a,b]; normal: mean a, deviation b */
} ka_bench_dist;

typedef struct ka_bench_tensor {
	char name[KA_BENCH_NAME];
	int out; /* role: 0 in, 1 out */
	int dtype;
	char shape[KA_BENCH_EXPR]; /* element count: product of the shape's expressions */
	ka_bench_dist dist, adversarial;
} ka_bench_tensor;

typedef struct ka_bench_scalar {
	char name[KA_BENCH_NAME];
	double lo, hi; /* drawn uniformly per input set; lo == hi: fixed */
} ka_bench_scalar;

typedef struct ka_bench_config {
	char name[KA_BENCH_NAME];
	int unseen;
	int drawn; /* drawn at run time from the spec's unseen ranges */
	long long p[KA_BENCH_MAX_PARAMS];
	/* derived at load time */
	long long n[KA_BENCH_MAX_TENSORS];
	long long work, bytes, flops;
	long long reduction; /* longest reduction behind one output element (1: none) */
} ka_bench_config;

/* Unseen configurations drawn at run time (task.yaml `unseen:`): `n` of
 * them, each parameter log-uniform in [lo, hi], redrawn until the tensors
 * fit in max_bytes and the work in max_flops (0: no limit). */
typedef struct ka_bench_draw {
	int n;
	long long lo[KA_BENCH_MAX_PARAMS], hi[KA_BENCH_MAX_PARAMS];
	long long max_bytes, max_flops;
} ka_bench_draw;

typedef struct ka_bench_spec {
	char dir[1200];
	char name[KA_BENCH_NAME], category[KA_BENCH_NAME];
	int nparams, ntensors, nscalars, nconfigs;
	char params[KA_BENCH_MAX_PARAMS][KA_BENCH_NAME];
	ka_bench_tensor t[KA_BENCH_MAX_TENSORS];
	ka_bench_scalar s[KA_BENCH_MAX_SCALARS];
	double atol, rtol, l2;
	int deterministic;
	int accumulate; /* floating dtype reductions accumulate in (default f32) */
	char work[KA_BENCH_EXPR], bytes[KA_BENCH_EXPR], flops[KA_BENCH_EXPR];
	char reduction[KA_BENCH_EXPR]; /* optional; the tolerance grows with its square root */
	ka_bench_draw draw;
	ka_bench_config c[KA_BENCH_MAX_CONFIGS];
} ka_bench_spec;

/* Load DIR/task.yaml (or a .yaml path) into *spec.  KA_EIO / KA_EINPUT with a
 * one-line message "PATH: what is wrong". */
int ka_bench_spec_load(const char *path, ka_bench_spec *spec);
/* Parse YAML text; `origin` names it in messages. */
int ka_bench_spec_parse(const char *text, size_t len, const char *origin, ka_bench_spec *spec);
const char *ka_bench_dtype_name(int dtype);
/* Bytes per element: 2, 4 or 8. */
int ka_bench_dtype_bytes(int dtype);
/* Appends spec->draw.n configurations drawn from `seed` (named
 * d1_P=V_..., unseen, drawn); KA_EINPUT when none fits the limits. */
int ka_bench_spec_draw(ka_bench_spec *spec, unsigned long long seed);

#endif
