/* bench/tasks/layernorm/baseline.cu: one thread per row, three passes. */
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

__global__ void __launch_bounds__(128) layernorm_naive(const float *x, const float *g, const float *b, float *y, long long rows,
				long long cols, float eps)
{
	const long long r = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
	const int ka_lane = threadIdx.x & 31;
	if (r >= rows) return;
	const float *xr = x + r * cols;
	float *yr = y + r * cols;
	float mean = 0.0f, var = 0.0f;
	for (long long j = (0) + ka_lane; j < cols; j += 32) mean += xr[j];
	mean = ka_warp_sum(mean);
	mean /= cols;
	for (long long j = (0) + ka_lane; j < cols; j += 32) var += (xr[j] - mean) * (xr[j] - mean);
	var = ka_warp_sum(var);
	var /= cols;
	float inv = rsqrtf(var + eps);
	for (long long j = (0) + ka_lane; j < cols; j += 32) yr[j] = (xr[j] - mean) * inv * g[j] + b[j];
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0];
	layernorm_naive<<<(unsigned)(((long long)(rows) * 32 + 128) / 128), 128, 0, s>>>((const float *)a->t[0], (const float *)a->t[1],
								       (const float *)a->t[2], (float *)a->t[3], rows,
								       a->p[1], (float)a->s[0]);
	return 0;
}
