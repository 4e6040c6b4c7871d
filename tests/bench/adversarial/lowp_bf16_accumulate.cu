/* Adversarial (gemv_bf16), reduced precision: accumulates the dot products
 * in bf16 (every partial sum rounded to 8 bits of precision) instead of
 * fp32.  The task accumulates in f32, so its bound grows with fp32's
 * roundoff: rejected at correctness. */
#include "ka_task.h"
#include <cuda_bf16.h>
__global__ void gemv_bf16_acc(const __nv_bfloat16 *A, const __nv_bfloat16 *x, __nv_bfloat16 *y, long long m, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= m) return;
	__nv_bfloat16 s = __float2bfloat16(0.0f);
	for (long long j = 0; j < n; j++) s = __hfma(A[i * n + j], x[j], s);
	y[i] = s;
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long m = a->p[0];
	gemv_bf16_acc<<<(unsigned)((m + 255) / 256), 256, 0, s>>>((const __nv_bfloat16 *)a->t[0], (const __nv_bfloat16 *)a->t[1],
								   (__nv_bfloat16 *)a->t[2], m, a->p[1]);
	return 0;
}
