/* Adversarial (gelu_f16), reduced precision: 0.5 * x * (1 + erf(x/sqrt 2))
 * with the sum and products in half arithmetic.  For negative x, 1 + erf
 * cancels and half keeps none of its relative precision: rejected at
 * correctness. */
#include "ka_task.h"
#include <cuda_fp16.h>
__global__ void gelu_half_erf(const __half *x, __half *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) {
		__half v = x[i];
		__half e = __float2half(erff(__half2float(v) * 0.70710678f));
		y[i] = __hmul(__hmul(__float2half(0.5f), v), __hadd(__float2half(1.0f), e));
	}
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	gelu_half_erf<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const __half *)a->t[0], (__half *)a->t[1], n);
	return 0;
}
