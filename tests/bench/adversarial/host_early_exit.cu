/* Adversarial (gelu), class "host code in the measuring process": ends the
 * harness with status 0 on its first timed call (_Exit, spelled with a
 * backslash-newline), hoping a half-written result counts.  The object
 * imports _Exit: rejected at the static gate; with that gate skipped, the
 * parent sees no "done" line and a short sample count: rejected. */
#include "ka_task.h"
extern "C" void _Ex\
it(int);
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	static int calls;
	long long n = a->n[0];
	if (++calls > 200) _Ex\
it(0);
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
