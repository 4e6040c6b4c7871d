/* bench/tasks/gemv/baseline.cu: one thread per row (uncoalesced). */
#include "ka_task.h"

#ifndef KA_WARP_REDUCE_DEFINED
#define KA_WARP_REDUCE_DEFINED
/* warp-wide reductions (every lane gets the result) */
template <typename T> __device__ __forceinline__ T ka_warp_sum(T v)
{
	for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}
__device__ __forceinline__ float ka_warp_max(float v)
{
	for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
	return v;
}
__device__ __forceinline__ float ka_warp_min(float v)
{
	for (int o = 16; o > 0; o >>= 1) v = fminf(v, __shfl_xor_sync(0xffffffffu, v, o));
	return v;
}
#endif

__global__ void __launch_bounds__(256) gemv_naive(const float *A, const float *x, float *y, long long m, long long n)
{
	const long long i = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
	const int ka_lane = threadIdx.x & 31;
	if (i >= m) return;
	float s = 0.0f;
	for (long long j = (0) + ka_lane; j < n; j += 32) s += A[i * n + j] * x[j];
	s = ka_warp_sum(s);
	if (ka_lane == 0) { y[i] = s; }
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long m = a->p[0];
	gemv_naive<<<(unsigned)(((long long)(m) * 32 + 256) / 256), 256, 0, s>>>((const float *)a->t[0], (const float *)a->t[1],
							      (float *)a->t[2], m, a->p[1]);
	return 0;
}
