/* Adversarial (gelu): writes a constant.  Must fail correctness. */
#include "ka_task.h"
__global__ void fill(float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f;
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	fill<<<(unsigned)((a->n[1] + 255) / 256), 256, 0, s>>>((float *)a->t[1], a->n[1]);
	return 0;
}
