/* bench/harness/ka_task.h: the fixed C ABI between the bench harness and a
 * task implementation (baseline, expert or candidate).  The harness owns
 * main(), the inputs, the reference, the clock and the verdict; an
 * implementation only supplies ka_task_run() and launches its kernels on the
 * stream it is given.  Tensors, parameters and scalars arrive in the order of
 * the task's task.yaml.  The harness compiles every implementation in its own
 * translation unit and renames ka_task_run, so implementations never see each
 * other. */
#ifndef KA_TASK_H
#define KA_TASK_H
#include <stddef.h>
#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
typedef hipStream_t cudaStream_t;
#else
#include <cuda_runtime.h>
#endif

#define KA_TASK_MAX_TENSORS 8
#define KA_TASK_MAX_PARAMS 8
#define KA_TASK_MAX_SCALARS 4

typedef struct ka_task_args {
	void *t[KA_TASK_MAX_TENSORS];     /* device pointers, spec order */
	long long n[KA_TASK_MAX_TENSORS]; /* element counts */
	long long p[KA_TASK_MAX_PARAMS];  /* configuration parameters */
	double s[KA_TASK_MAX_SCALARS];    /* scalar parameters */
	void *work;                       /* scratch; garbage before each call */
	size_t work_bytes;
} ka_task_args;

/* Host copies for the reference: inputs in their own dtype, outputs in fp64. */
typedef struct ka_ref_args {
	const void *in[KA_TASK_MAX_TENSORS]; /* NULL for outputs */
	double *out[KA_TASK_MAX_TENSORS];    /* NULL for inputs */
	long long n[KA_TASK_MAX_TENSORS];
	long long p[KA_TASK_MAX_PARAMS];
	double s[KA_TASK_MAX_SCALARS];
} ka_ref_args;

#ifdef __cplusplus
extern "C" {
#endif
/* Implementations: 0 on success.  Launch only on `stream`. */
int ka_task_run(const ka_task_args *a, cudaStream_t stream);
/* The task's independent CPU reference (reference.cu): 0 on success. */
int ka_task_reference(const ka_ref_args *a);
/* Harness helper for costly references: runs fn over [0,n) on host threads. */
void ka_ref_parallel_for(long long n, void (*fn)(long long lo, long long hi, void *ctx), void *ctx);
#ifdef __cplusplus
}
#endif

#endif
