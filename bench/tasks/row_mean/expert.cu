/* bench/tasks/row_mean/expert.cu: one warp per row, coalesced loads, shuffle reduction. */
#include "ka_task.h"

__global__ void __launch_bounds__(256) row_mean_warp(const float *x, float *y, long long rows, long long cols)
{
	long long row = (long long)blockIdx.x * 8 + threadIdx.x / 32;
	int lane = threadIdx.x & 31;
	if (row >= rows)
		return;
	const float *p = x + row * cols;
	float t = 0.0f;
	for (long long c = lane; c < cols; c += 32)
		t += p[c];
	for (int o = 16; o > 0; o >>= 1)
		t += __shfl_xor_sync(0xffffffffu, t, o);
	if (lane == 0)
		y[row] = t / (float)cols;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	row_mean_warp<<<(unsigned)((rows + 7) / 8), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1],
								 rows, cols);
	return 0;
}
