/* bench/tasks/rmsnorm_bf16/expert.cu: one 256-thread block per row; rows
 * of a multiple of 8 columns go eight bf16 at a time (16-byte loads and
 * stores) with the row kept in registers when it fits (cols <= 8192: at
 * most four uint4 per thread), so x is read from memory once.  fp32 sum of
 * squares, warp shuffles then shared memory; one rounding per output. */
#include "ka_task.h"
#include <cuda_bf16.h>

__device__ __forceinline__ float block_sum(float v)
{
	__shared__ float part[8];
	for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
	if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
	__syncthreads();
	float t = 0.0f;
#pragma unroll
	for (int k = 0; k < 8; k++) t += part[k];
	return t;
}

__device__ __forceinline__ float sumsq8(uint4 u)
{
	const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&u);
	float s = 0.0f;
#pragma unroll
	for (int k = 0; k < 4; k++) {
		float2 f = __bfloat1622float2(p[k]);
		s += f.x * f.x + f.y * f.y;
	}
	return s;
}

__device__ __forceinline__ uint4 scale8(uint4 u, uint4 wv, float rstd)
{
	__nv_bfloat162 *p = reinterpret_cast<__nv_bfloat162 *>(&u);
	const __nv_bfloat162 *q = reinterpret_cast<const __nv_bfloat162 *>(&wv);
#pragma unroll
	for (int k = 0; k < 4; k++) {
		float2 f = __bfloat1622float2(p[k]), g = __bfloat1622float2(q[k]);
		p[k] = __floats2bfloat162_rn(f.x * rstd * g.x, f.y * rstd * g.y);
	}
	return u;
}

/* cols a multiple of 8 and at most 8192: the row stays in registers. */
__global__ void __launch_bounds__(256) rmsnorm_bf16_reg(const uint4 *x, const uint4 *w, uint4 *y, int vcols, float eps)
{
	uint4 v[4];
	const uint4 *xr = x + (long long)blockIdx.x * vcols;
	uint4 *yr = y + (long long)blockIdx.x * vcols;
	float ss = 0.0f;
#pragma unroll
	for (int k = 0; k < 4; k++) {
		int j = threadIdx.x + 256 * k;
		if (j < vcols) { v[k] = xr[j]; ss += sumsq8(v[k]); }
	}
	float rstd = rsqrtf(block_sum(ss) / (float)(8 * vcols) + eps);
#pragma unroll
	for (int k = 0; k < 4; k++) {
		int j = threadIdx.x + 256 * k;
		if (j < vcols) yr[j] = scale8(v[k], __ldg(w + j), rstd);
	}
}

/* Any cols: two passes, 16-byte accesses when cols is a multiple of 8. */
__global__ void __launch_bounds__(256) rmsnorm_bf16_any(const __nv_bfloat16 *x, const __nv_bfloat16 *w,
							__nv_bfloat16 *y, long long cols, float eps)
{
	const __nv_bfloat16 *xr = x + blockIdx.x * cols;
	__nv_bfloat16 *yr = y + blockIdx.x * cols;
	bool vec = cols % 8 == 0;
	float ss = 0.0f;
	if (vec)
		for (long long j = threadIdx.x; j < cols / 8; j += 256) ss += sumsq8(reinterpret_cast<const uint4 *>(xr)[j]);
	else
		for (long long j = threadIdx.x; j < cols; j += 256) {
			float v = __bfloat162float(xr[j]);
			ss += v * v;
		}
	float rstd = rsqrtf(block_sum(ss) / (float)cols + eps);
	if (vec)
		for (long long j = threadIdx.x; j < cols / 8; j += 256)
			reinterpret_cast<uint4 *>(yr)[j] = scale8(reinterpret_cast<const uint4 *>(xr)[j],
								  __ldg(reinterpret_cast<const uint4 *>(w) + j), rstd);
	else
		for (long long j = threadIdx.x; j < cols; j += 256)
			yr[j] = __float2bfloat16(__bfloat162float(xr[j]) * rstd * __bfloat162float(w[j]));
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	float eps = (float)a->s[0];
	if (cols % 8 == 0 && cols <= 8192)
		rmsnorm_bf16_reg<<<(unsigned)rows, 256, 0, s>>>((const uint4 *)a->t[0], (const uint4 *)a->t[1], (uint4 *)a->t[2],
								(int)(cols / 8), eps);
	else
		rmsnorm_bf16_any<<<(unsigned)rows, 256, 0, s>>>((const __nv_bfloat16 *)a->t[0], (const __nv_bfloat16 *)a->t[1],
								(__nv_bfloat16 *)a->t[2], cols, eps);
	return 0;
}
