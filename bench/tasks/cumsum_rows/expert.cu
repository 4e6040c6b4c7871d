/* bench/tasks/cumsum_rows/expert.cu: one warp per row, 32 columns at a time:
 * coalesced load, shuffle inclusive scan, carry broadcast from lane 31. */
#include "ka_task.h"

__global__ void __launch_bounds__(256) cumsum_warp(const float *x, float *y, long long rows, long long cols)
{
	long long row = (long long)blockIdx.x * 8 + threadIdx.x / 32;
	int lane = threadIdx.x & 31;
	if (row >= rows)
		return;
	const float *p = x + row * cols;
	float *q = y + row * cols;
	float carry = 0.0f;
	for (long long base = 0; base < cols; base += 32) {
		long long c = base + lane;
		float v = c < cols ? p[c] : 0.0f;
		for (int o = 1; o < 32; o <<= 1) {
			float u = __shfl_up_sync(0xffffffffu, v, o);
			if (lane >= o)
				v += u;
		}
		v += carry;
		if (c < cols)
			q[c] = v;
		carry = __shfl_sync(0xffffffffu, v, 31);
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0];
	cumsum_warp<<<(unsigned)((rows + 7) / 8), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], rows,
							       a->p[1]);
	return 0;
}
