/* bench/tasks/gemv/expert.cu: rows of 1024 or more go to a whole block,
 * shorter rows to one warp each; lanes stride along the row (coalesced)
 * and reduce with shuffles. */
#include "ka_task.h"

__global__ void __launch_bounds__(256) gemv_warp(const float *A, const float *x, float *y, long long m, long long n)
{
	long long i = blockIdx.x * 8LL + (threadIdx.x >> 5);
	int lane = threadIdx.x & 31;
	if (i >= m) return;
	const float *Ai = A + i * n;
	float s = 0.0f;
	for (long long j = lane; j < n; j += 32) s = fmaf(Ai[j], __ldg(x + j), s);
	for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
	if (lane == 0) y[i] = s;
}

__global__ void __launch_bounds__(256) gemv_block(const float *A, const float *x, float *y, long long n)
{
	__shared__ float sh[8];
	const float *Ai = A + blockIdx.x * n;
	float s = 0.0f;
	for (long long j = threadIdx.x; j < n; j += 256) s = fmaf(Ai[j], __ldg(x + j), s);
	for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
	if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = s;
	__syncthreads();
	if (threadIdx.x == 0) {
		float t = 0.0f;
		for (int w = 0; w < 8; w++) t += sh[w];
		y[blockIdx.x] = t;
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long m = a->p[0], n = a->p[1];
	if (n >= 1024 && m <= 0x7fffffff)
		gemv_block<<<(unsigned)m, 256, 0, s>>>((const float *)a->t[0], (const float *)a->t[1], (float *)a->t[2], n);
	else
		gemv_warp<<<(unsigned)((m + 7) / 8), 256, 0, s>>>((const float *)a->t[0], (const float *)a->t[1],
								 (float *)a->t[2], m, n);
	return 0;
}
