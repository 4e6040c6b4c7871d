/* bench/tasks/softmax/baseline.cu: one thread per row, three passes. */
#include "ka_task.h"

__global__ void softmax_naive(const float *x, float *y, long long rows, long long cols)
{
	long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (r >= rows) return;
	const float *xr = x + r * cols;
	float *yr = y + r * cols;
	float m = -INFINITY, s = 0.0f;
	for (long long j = 0; j < cols; j++) m = fmaxf(m, xr[j]);
	for (long long j = 0; j < cols; j++) s += expf(xr[j] - m);
	for (long long j = 0; j < cols; j++) yr[j] = expf(xr[j] - m) / s;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	softmax_naive<<<(unsigned)((rows + 127) / 128), 128, 0, s>>>((const float *)a->t[0], (float *)a->t[1], rows, cols);
	return 0;
}
