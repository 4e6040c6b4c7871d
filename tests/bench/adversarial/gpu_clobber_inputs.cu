/* Adversarial (gelu), class "unprotected inputs": correct through the
 * correctness gate, then zeroes its input after each timed call, so that a
 * reference recomputed from inputs read after the sample would agree with
 * anything.  Inputs are checksummed before and after every timed pair:
 * rejected at validation. */
#include "ka_task.h"
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
__global__ void zero(float *x, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) x[i] = 0.0f;
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	static long long calls;
	long long n = a->n[0];
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	if (++calls > 120) zero<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((float *)a->t[0], n);
	return 0;
}
