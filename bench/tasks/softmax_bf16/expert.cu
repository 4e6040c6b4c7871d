/* bench/tasks/softmax_bf16/expert.cu: one 256-thread block per row; when a
 * row starts on a 16-byte boundary (cols a multiple of 8) it is read and
 * written eight bf16 at a time (uint4), else one at a time.  One read pass
 * with an online max/sum in fp32, warp-shuffle then shared-memory combine,
 * one read+write pass (the row is still in L2). */
#include "ka_task.h"
#include <cuda_bf16.h>

__device__ __forceinline__ void combine(float &m, float &s, float m2, float s2)
{
	float M = fmaxf(m, m2);
	s = (m == -INFINITY ? 0.0f : s * __expf(m - M)) + (m2 == -INFINITY ? 0.0f : s2 * __expf(m2 - M));
	m = M;
}

__device__ __forceinline__ void push(float &m, float &s, float v)
{
	if (v > m) { s = s * __expf(m - v) + 1.0f; m = v; }
	else s += __expf(v - m);
}

template <bool VEC>
__global__ void __launch_bounds__(256) softmax_bf16_block(const __nv_bfloat16 *x, __nv_bfloat16 *y, long long cols)
{
	__shared__ float sm[8], ss[8];
	const __nv_bfloat16 *xr = x + blockIdx.x * cols;
	__nv_bfloat16 *yr = y + blockIdx.x * cols;
	float m = -INFINITY, s = 0.0f;
	if (VEC) {
		const uint4 *xv = reinterpret_cast<const uint4 *>(xr);
		for (long long j = threadIdx.x; j < cols / 8; j += 256) {
			uint4 u = xv[j];
			const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&u);
#pragma unroll
			for (int k = 0; k < 4; k++) {
				float2 f = __bfloat1622float2(p[k]);
				push(m, s, f.x);
				push(m, s, f.y);
			}
		}
	} else {
		for (long long j = threadIdx.x; j < cols; j += 256) push(m, s, __bfloat162float(xr[j]));
	}
	for (int o = 16; o > 0; o >>= 1) combine(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
	if ((threadIdx.x & 31) == 0) { sm[threadIdx.x >> 5] = m; ss[threadIdx.x >> 5] = s; }
	__syncthreads();
	m = sm[0]; s = ss[0];
	for (int w = 1; w < 8; w++) combine(m, s, sm[w], ss[w]);
	float inv = 1.0f / s;
	if (VEC) {
		const uint4 *xv = reinterpret_cast<const uint4 *>(xr);
		uint4 *yv = reinterpret_cast<uint4 *>(yr);
		for (long long j = threadIdx.x; j < cols / 8; j += 256) {
			uint4 u = xv[j];
			__nv_bfloat162 *p = reinterpret_cast<__nv_bfloat162 *>(&u);
#pragma unroll
			for (int k = 0; k < 4; k++) {
				float2 f = __bfloat1622float2(p[k]);
				p[k] = __floats2bfloat162_rn(__expf(f.x - m) * inv, __expf(f.y - m) * inv);
			}
			yv[j] = u;
		}
	} else {
		for (long long j = threadIdx.x; j < cols; j += 256)
			yr[j] = __float2bfloat16(__expf(__bfloat162float(xr[j]) - m) * inv);
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	const __nv_bfloat16 *x = (const __nv_bfloat16 *)a->t[0];
	__nv_bfloat16 *y = (__nv_bfloat16 *)a->t[1];
	if (cols % 8 == 0) softmax_bf16_block<true><<<(unsigned)rows, 256, 0, s>>>(x, y, cols);
	else softmax_bf16_block<false><<<(unsigned)rows, 256, 0, s>>>(x, y, cols);
	return 0;
}
