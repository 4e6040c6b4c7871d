/* Adversarial (gelu): computes in half precision.  Must fail correctness. */
#include "ka_task.h"
#include <cuda_fp16.h>
__global__ void gelu_half(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) {
		__half v = __float2half(x[i]);
		__half g = __hmul(__hmul(__float2half(0.5f), v), __float2half(erfcf(-__half2float(v) * 0.70710678f)));
		y[i] = __half2float(g);
	}
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	gelu_half<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
