/* bench/tasks/rmsnorm_bf16/baseline.cu: as commonly written: one block of
 * 256 threads per row, one bf16 at a time, the sum of squares in fp32
 * through a shared-memory tree, x * rstd rounded to bf16 before the weight
 * is applied. */
#include "ka_task.h"
#include <cuda_bf16.h>

__global__ void rmsnorm_bf16_naive(const __nv_bfloat16 *x, const __nv_bfloat16 *w, __nv_bfloat16 *y, long long cols,
				   float eps)
{
	__shared__ float part[256];
	const __nv_bfloat16 *xr = x + blockIdx.x * cols;
	__nv_bfloat16 *yr = y + blockIdx.x * cols;
	float ss = 0.0f;
	for (long long j = threadIdx.x; j < cols; j += blockDim.x) {
		float v = __bfloat162float(xr[j]);
		ss += v * v;
	}
	part[threadIdx.x] = ss;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];
		__syncthreads();
	}
	float rstd = rsqrtf(part[0] / (float)cols + eps);
	for (long long j = threadIdx.x; j < cols; j += blockDim.x) {
		__nv_bfloat16 n = __float2bfloat16(__bfloat162float(xr[j]) * rstd);
		yr[j] = __float2bfloat16(__bfloat162float(n) * __bfloat162float(w[j]));
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	rmsnorm_bf16_naive<<<(unsigned)rows, 256, 0, s>>>((const __nv_bfloat16 *)a->t[0], (const __nv_bfloat16 *)a->t[1],
							  (__nv_bfloat16 *)a->t[2], cols, (float)a->s[0]);
	return 0;
}
