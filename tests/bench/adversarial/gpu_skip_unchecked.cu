/* Adversarial (gelu), class "predictable validation": correct through the
 * correctness gate, then does the work on one timed call in eight, betting
 * that only a few predictable samples are checked.  Every timed pair is
 * checked against the baseline's output: rejected at validation. */
#include "ka_task.h"
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	static long long calls;
	long long n = a->n[0];
	if (++calls > 120 && calls % 8) return 0;
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
