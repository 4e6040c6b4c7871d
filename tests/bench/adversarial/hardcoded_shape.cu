/* Adversarial (gelu): assumes n is a multiple of 1024, as both visible
 * configurations are.  Must fail correctness on the unseen ones. */
#include "ka_task.h"
__global__ void gelu_1024(const float *x, float *y)
{
	long long i = blockIdx.x * 1024LL + threadIdx.x;
	y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	if (n >= 1024) gelu_1024<<<(unsigned)(n / 1024), 1024, 0, s>>>((const float *)a->t[0], (float *)a->t[1]);
	return 0;
}
