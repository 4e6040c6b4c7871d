/* bench/tasks/reduce_sum/expert.cu: a fixed grid of 1056 blocks streams the
 * vector with 16-byte loads (grid-stride), warp shuffles, one partial per
 * block; a second one-block pass adds the partials in a fixed order, so the
 * result is deterministic. */
#include "ka_task.h"

enum { GRID = 1056 };

__device__ float block_reduce(float v)
{
	__shared__ float sh[32];
	for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
	if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
	__syncthreads();
	v = threadIdx.x < (blockDim.x >> 5) ? sh[threadIdx.x] : 0.0f;
	if (threadIdx.x < 32)
		for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

__global__ void __launch_bounds__(512) partials(const float4 *x4, long long n4, const float *x, long long n, float *part)
{
	float s = 0.0f;
	long long step = (long long)gridDim.x * blockDim.x;
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += step) {
		float4 v = x4[i];
		s += (v.x + v.y) + (v.z + v.w);
	}
	if (blockIdx.x == 0 && threadIdx.x < n - 4 * n4) s += x[4 * n4 + threadIdx.x];
	s = block_reduce(s);
	if (threadIdx.x == 0) part[blockIdx.x] = s;
}

__global__ void __launch_bounds__(1024) finish(const float *part, int m, float *out)
{
	float s = 0.0f;
	for (int i = threadIdx.x; i < m; i += blockDim.x) s += part[i];
	s = block_reduce(s);
	if (threadIdx.x == 0) out[0] = s;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0], n4 = n / 4;
	float *part = (float *)a->work;
	partials<<<GRID, 512, 0, s>>>((const float4 *)a->t[0], n4, (const float *)a->t[0], n, part);
	finish<<<1, 1024, 0, s>>>(part, GRID, (float *)a->t[1]);
	return 0;
}
