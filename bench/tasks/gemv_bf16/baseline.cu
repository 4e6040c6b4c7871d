/* bench/tasks/gemv_bf16/baseline.cu: one thread per row (uncoalesced), one
 * bf16 at a time, fp32 accumulator. */
#include "ka_task.h"
#include <cuda_bf16.h>

__global__ void gemv_bf16_naive(const __nv_bfloat16 *A, const __nv_bfloat16 *x, __nv_bfloat16 *y, long long m,
				long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= m) return;
	float s = 0.0f;
	for (long long j = 0; j < n; j++) s += __bfloat162float(A[i * n + j]) * __bfloat162float(x[j]);
	y[i] = __float2bfloat16(s);
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long m = a->p[0];
	gemv_bf16_naive<<<(unsigned)((m + 255) / 256), 256, 0, s>>>((const __nv_bfloat16 *)a->t[0],
								     (const __nv_bfloat16 *)a->t[1],
								     (__nv_bfloat16 *)a->t[2], m, a->p[1]);
	return 0;
}
