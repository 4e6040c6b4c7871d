/* bench/tasks/saxpy/expert.cu: 16-byte accesses, grid-stride, scalar tail. */
#include "ka_task.h"

__global__ void __launch_bounds__(256) saxpy_vec(float alpha, const float4 *x, const float4 *y, float4 *out,
						 long long n4, const float *xs, const float *ys, float *os, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	long long step = (long long)gridDim.x * blockDim.x;
	for (; i < n4; i += step) {
		float4 a = x[i], b = y[i], r;
		r.x = fmaf(alpha, a.x, b.x); r.y = fmaf(alpha, a.y, b.y);
		r.z = fmaf(alpha, a.z, b.z); r.w = fmaf(alpha, a.w, b.w);
		out[i] = r;
	}
	if (blockIdx.x == 0 && threadIdx.x < n - 4 * n4) {
		long long t = 4 * n4 + threadIdx.x;
		os[t] = fmaf(alpha, xs[t], ys[t]);
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0], n4 = n / 4, blocks = (n4 + 255) / 256;
	if (blocks > 132 * 16) blocks = 132 * 16;
	if (blocks < 1) blocks = 1;
	saxpy_vec<<<(unsigned)blocks, 256, 0, s>>>((float)a->s[0], (const float4 *)a->t[0], (const float4 *)a->t[1],
						   (float4 *)a->t[2], n4, (const float *)a->t[0],
						   (const float *)a->t[1], (float *)a->t[2], n);
	return 0;
}
