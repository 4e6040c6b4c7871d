/* bench/tasks/softmax/baseline.cu: one thread per row, three passes.  The
 * sum is kept in 1024-element partial sums so that a 100 000-long row stays
 * inside the tolerance (a single running fp32 sum drifted to 1.2e-4 relative
 * L2 on the H200 run of 2026-11-29). */
#include "ka_task.h"

__global__ void softmax_naive(const float *x, float *y, long long rows, long long cols)
{
	long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (r >= rows) return;
	const float *xr = x + r * cols;
	float *yr = y + r * cols;
	float m = -INFINITY, s = 0.0f;
	for (long long j = 0; j < cols; j++) m = fmaxf(m, xr[j]);
	for (long long j0 = 0; j0 < cols; j0 += 1024) {
		float part = 0.0f;
		for (long long j = j0; j < cols && j < j0 + 1024; j++) part += expf(xr[j] - m);
		s += part;
	}
	for (long long j = 0; j < cols; j++) yr[j] = expf(xr[j] - m) / s;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	softmax_naive<<<(unsigned)((rows + 127) / 128), 128, 0, s>>>((const float *)a->t[0], (float *)a->t[1], rows, cols);
	return 0;
}
