/* Adversarial (gelu): right output, but it also scribbles on its input.
 * Must fail correctness (input hash). */
#include "ka_task.h"
__global__ void gelu_clobber(float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i];
		y[i] = 0.5f * v * erfcf(-v * 0.70710678f);
		x[i] = 0.0f;
	}
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	gelu_clobber<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
