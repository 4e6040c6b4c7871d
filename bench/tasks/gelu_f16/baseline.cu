/* bench/tasks/gelu_f16/baseline.cu: one thread per element, one __half
 * at a time (2-byte loads and stores), converted to float for the math. */
#include "ka_task.h"
#include <cuda_fp16.h>

__global__ void gelu_f16_naive(const __half *x, __half *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) {
		float v = __half2float(x[i]);
		y[i] = __float2half(0.5f * v * erfcf(-v * 0.70710678f));
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	gelu_f16_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const __half *)a->t[0], (__half *)a->t[1], n);
	return 0;
}
