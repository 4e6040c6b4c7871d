/* bench/tasks/softmax/baseline.cu: one thread per row, three passes.  The
 * sum is kept in 1024-element partial sums so that a 100 000-long row stays
 * inside the tolerance (a single running fp32 sum drifted to 1.2e-4 relative
 * L2 on the H200 run of 2026-11-29). */
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

__global__ void __launch_bounds__(256) softmax_naive(const float *x, float *y, long long rows, long long cols)
{
	const long long r = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
	const int ka_lane = threadIdx.x & 31;
	if (r >= rows) return;
	const float *xr = x + r * cols;
	float *yr = y + r * cols;
	float m = -INFINITY, s = 0.0f;
	for (long long j = (0) + ka_lane; j < cols; j += 32) m = fmaxf(m, xr[j]);
	m = ka_warp_max(m);
	for (long long j0 = 0; j0 < cols; j0 += 1024) {
		float part = 0.0f;
		for (long long j = (j0) + ka_lane; j < cols && j < j0 + 1024; j += 32) part += expf(xr[j] - m);
		s += part;
	}
	s = ka_warp_sum(s);
	for (long long j = (0) + ka_lane; j < cols; j += 32) yr[j] = expf(xr[j] - m) / s;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	softmax_naive<<<(unsigned)(((long long)(rows) * 32 + 256) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], rows, cols);
	return 0;
}
