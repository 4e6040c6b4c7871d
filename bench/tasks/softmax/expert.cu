/* bench/tasks/softmax/expert.cu: one 256-thread block per row, coalesced
 * passes, warp-shuffle block reductions, online max/sum in one read pass. */
#include "ka_task.h"

__device__ __forceinline__ void combine(float &m, float &s, float m2, float s2)
{
	float M = fmaxf(m, m2);
	s = (m == -INFINITY ? 0.0f : s * expf(m - M)) + (m2 == -INFINITY ? 0.0f : s2 * expf(m2 - M));
	m = M;
}

__global__ void __launch_bounds__(256) softmax_block(const float *x, float *y, long long cols)
{
	__shared__ float sm[8], ss[8];
	const float *xr = x + blockIdx.x * cols;
	float *yr = y + blockIdx.x * cols;
	float m = -INFINITY, s = 0.0f;
	for (long long j = threadIdx.x; j < cols; j += 256) {
		float v = xr[j];
		if (v > m) { s = s * expf(m - v) + 1.0f; m = v; }
		else s += expf(v - m);
	}
	for (int o = 16; o > 0; o >>= 1) combine(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
	if ((threadIdx.x & 31) == 0) { sm[threadIdx.x >> 5] = m; ss[threadIdx.x >> 5] = s; }
	__syncthreads();
	m = sm[0]; s = ss[0];
	for (int w = 1; w < 8; w++) combine(m, s, sm[w], ss[w]);
	float inv = 1.0f / s;
	for (long long j = threadIdx.x; j < cols; j += 256) yr[j] = expf(xr[j] - m) * inv;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	softmax_block<<<(unsigned)a->p[0], 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], a->p[1]);
	return 0;
}
