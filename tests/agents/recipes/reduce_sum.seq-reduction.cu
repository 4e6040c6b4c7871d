/* bench/tasks/reduce_sum/baseline.cu: one 256-thread block per row,
 * strided loads, shared-memory tree. */
#include "ka_task.h"

__global__ void row_sum(const float *x, float *sums, long long cols)
{
	__shared__ float sh[256];
	const float *xr = x + blockIdx.x * cols;
	float s = 0.0f;
	for (long long j = threadIdx.x; j < cols; j += 256) s += xr[j];
	sh[threadIdx.x] = s;
	__syncthreads();
	/* sequential addressing: contiguous active threads, conflict-free shared accesses */
	for (int k = 128; k > 32; k >>= 1) {
		if (threadIdx.x < k) sh[threadIdx.x] += sh[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x < 32) { /* the last 64 values: warp 0 with shuffles */
		float ka_v = sh[threadIdx.x] + sh[threadIdx.x + 32];
		for (int ka_o = 16; ka_o > 0; ka_o >>= 1) ka_v += __shfl_down_sync(0xffffffffu, ka_v, ka_o);
		if (threadIdx.x == 0) sh[0] = ka_v;
	}
	if (threadIdx.x == 0) sums[blockIdx.x] = sh[0];
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	row_sum<<<(unsigned)a->p[0], 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], a->p[1]);
	return 0;
}
