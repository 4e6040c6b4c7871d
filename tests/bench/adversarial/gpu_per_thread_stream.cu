/* Adversarial (gelu), class "escape from the timer": launches its kernel on
 * the per-thread default stream by handle value (no stream name for a scan
 * to find), so the events on the harness's stream do not see it.  The graph
 * capture comes out empty, or the event on the legacy stream (which waits
 * for every blocking stream) shows the work after the timed window, or the
 * output is missing: rejected. */
#include "ka_task.h"
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	cudaStream_t other = (cudaStream_t)(unsigned long)2;
	(void)s;
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, other>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
