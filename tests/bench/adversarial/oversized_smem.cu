/* Adversarial (gelu): asks for 200 KB of dynamic shared memory without the
 * opt-in, so the launch fails and the output is whatever was there before.
 * Must fail correctness (launch error, poisoned output). */
#include "ka_task.h"
__global__ void gelu_smem(const float *x, float *y, long long n)
{
	extern __shared__ float buf[];
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	buf[threadIdx.x] = i < n ? x[i] : 0.0f;
	if (i < n) y[i] = 0.5f * buf[threadIdx.x] * erfcf(-buf[threadIdx.x] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	gelu_smem<<<(unsigned)((n + 255) / 256), 256, 200 * 1024, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
