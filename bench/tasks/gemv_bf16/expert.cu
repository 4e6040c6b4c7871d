/* bench/tasks/gemv_bf16/expert.cu: rows of a multiple of 8 columns: one
 * warp per row, 16-byte loads of A and x (eight bf16 each), fp32
 * accumulators, a shuffle reduction.  Other rows: one warp per row, one
 * bf16 at a time, still coalesced.  Very short rows (n <= 8): one thread
 * per row. */
#include "ka_task.h"
#include <cuda_bf16.h>

__device__ __forceinline__ float dot8(uint4 a, uint4 b)
{
	const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&a);
	const __nv_bfloat162 *q = reinterpret_cast<const __nv_bfloat162 *>(&b);
	float s = 0.0f;
#pragma unroll
	for (int k = 0; k < 4; k++) {
		float2 f = __bfloat1622float2(p[k]), g = __bfloat1622float2(q[k]);
		s = fmaf(f.x, g.x, s);
		s = fmaf(f.y, g.y, s);
	}
	return s;
}

template <bool VEC>
__global__ void __launch_bounds__(256) gemv_bf16_warp(const __nv_bfloat16 *A, const __nv_bfloat16 *x,
						      __nv_bfloat16 *y, long long m, long long n)
{
	long long row = blockIdx.x * 8LL + (threadIdx.x >> 5);
	int lane = threadIdx.x & 31;
	if (row >= m) return;
	const __nv_bfloat16 *Ar = A + row * n;
	float s0 = 0.0f, s1 = 0.0f;
	if (VEC) {
		const uint4 *av = reinterpret_cast<const uint4 *>(Ar), *xv = reinterpret_cast<const uint4 *>(x);
		long long nv = n / 8, j = lane;
		for (; j + 32 < nv; j += 64) {
			uint4 a0 = __ldcs(av + j), a1 = __ldcs(av + j + 32);
			s0 += dot8(a0, __ldg(xv + j));
			s1 += dot8(a1, __ldg(xv + j + 32));
		}
		if (j < nv) s0 += dot8(__ldcs(av + j), __ldg(xv + j));
	} else {
		for (long long j = lane; j < n; j += 32) s0 = fmaf(__bfloat162float(Ar[j]), __bfloat162float(x[j]), s0);
	}
	float s = s0 + s1;
	for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
	if (lane == 0) y[row] = __float2bfloat16(s);
}

__global__ void gemv_bf16_short(const __nv_bfloat16 *A, const __nv_bfloat16 *x, __nv_bfloat16 *y, long long m,
				long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= m) return;
	float s = 0.0f;
	for (long long j = 0; j < n; j++) s = fmaf(__bfloat162float(A[i * n + j]), __bfloat162float(x[j]), s);
	y[i] = __float2bfloat16(s);
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long m = a->p[0], n = a->p[1];
	const __nv_bfloat16 *A = (const __nv_bfloat16 *)a->t[0], *x = (const __nv_bfloat16 *)a->t[1];
	__nv_bfloat16 *y = (__nv_bfloat16 *)a->t[2];
	if (n <= 8)
		gemv_bf16_short<<<(unsigned)((m + 255) / 256), 256, 0, s>>>(A, x, y, m, n);
	else if (n % 8 == 0)
		gemv_bf16_warp<true><<<(unsigned)((m + 7) / 8), 256, 0, s>>>(A, x, y, m, n);
	else
		gemv_bf16_warp<false><<<(unsigned)((m + 7) / 8), 256, 0, s>>>(A, x, y, m, n);
	return 0;
}
