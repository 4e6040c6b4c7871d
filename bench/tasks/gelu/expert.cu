/* bench/tasks/gelu/expert.cu: 16-byte loads and stores, four elements per
 * thread per step, grid-stride over a grid sized to the chip; scalar tail. */
#include "ka_task.h"

__device__ __forceinline__ float gelu(float v) { return 0.5f * v * erfcf(-v * 0.70710678f); }

__global__ void __launch_bounds__(256) gelu_vec(const float4 *x, float4 *y, long long n4, const float *xs, float *ys, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	long long step = (long long)gridDim.x * blockDim.x;
	for (; i < n4; i += step) {
		float4 v = x[i];
		v.x = gelu(v.x); v.y = gelu(v.y); v.z = gelu(v.z); v.w = gelu(v.w);
		y[i] = v;
	}
	if (blockIdx.x == 0 && threadIdx.x < n - 4 * n4) {
		long long t = 4 * n4 + threadIdx.x;
		ys[t] = gelu(xs[t]);
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0], n4 = n / 4;
	long long blocks = (n4 + 255) / 256;
	if (blocks > 132 * 16) blocks = 132 * 16;
	if (blocks < 1) blocks = 1;
	gelu_vec<<<(unsigned)blocks, 256, 0, s>>>((const float4 *)a->t[0], (float4 *)a->t[1], n4,
						  (const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
