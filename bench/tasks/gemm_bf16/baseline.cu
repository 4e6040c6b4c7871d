/* bench/tasks/gemm_bf16/baseline.cu: the textbook kernel: one thread per
 * output element, 16x16 blocks, one bf16 of A and of B at a time, fp32
 * accumulator, CUDA cores only. */
#include "ka_task.h"
#include <cuda_bf16.h>

__global__ void gemm_bf16_naive(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C, int m, int n, int k)
{
	int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= m || col >= n) return;
	float s = 0.0f;
	for (int l = 0; l < k; l++) s += __bfloat162float(A[(long long)row * k + l]) * __bfloat162float(B[(long long)l * n + col]);
	C[(long long)row * n + col] = __float2bfloat16(s);
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int m = (int)a->p[0], n = (int)a->p[1], k = (int)a->p[2];
	dim3 block(16, 16), grid((unsigned)((n + 15) / 16), (unsigned)((m + 15) / 16));
	gemm_bf16_naive<<<grid, block, 0, s>>>((const __nv_bfloat16 *)a->t[0], (const __nv_bfloat16 *)a->t[1],
					       (__nv_bfloat16 *)a->t[2], m, n, k);
	return 0;
}
