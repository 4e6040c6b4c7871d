/* Adversarial (gelu): defines its own cudaEventElapsedTime that reports a
 * tiny time.  Rejected by the static gate; with the gate skipped the bench
 * makes every candidate symbol but ka_task_run local, so the harness still
 * calls the real function and the candidate is not faster. */
#include "ka_task.h"
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
	*ms = 1e-6f;
	return cudaSuccess;
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
