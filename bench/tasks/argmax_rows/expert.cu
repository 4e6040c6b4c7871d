/* bench/tasks/argmax_rows/expert.cu: one warp per row, coalesced loads,
 * (value, index) pairs merged by shuffle, ties to the smaller index. */
#include "ka_task.h"

__global__ void __launch_bounds__(256) argmax_warp(const float *x, int *out, long long rows, long long cols)
{
	long long row = (long long)blockIdx.x * 8 + threadIdx.x / 32;
	int lane = threadIdx.x & 31;
	if (row >= rows)
		return;
	const float *p = x + row * cols;
	float best = -INFINITY;
	int bi = 0x7fffffff;
	for (long long c = lane; c < cols; c += 32) {
		float v = p[c];
		if (v > best || bi == 0x7fffffff) {
			best = v;
			bi = (int)c;
		}
	}
	for (int o = 16; o > 0; o >>= 1) {
		float v = __shfl_xor_sync(0xffffffffu, best, o);
		int i = __shfl_xor_sync(0xffffffffu, bi, o);
		if (i != 0x7fffffff && (bi == 0x7fffffff || v > best || (v == best && i < bi))) {
			best = v;
			bi = i;
		}
	}
	if (lane == 0)
		out[row] = bi;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0];
	argmax_warp<<<(unsigned)((rows + 7) / 8), 256, 0, s>>>((const float *)a->t[0], (int *)a->t[1], rows,
							       a->p[1]);
	return 0;
}
