/* bench/tasks/layernorm/baseline.cu: one thread per row, three passes. */
#include "ka_task.h"

__global__ void layernorm_naive(const float *x, const float *g, const float *b, float *y, long long rows,
				long long cols, float eps)
{
	long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (r >= rows) return;
	const float *xr = x + r * cols;
	float *yr = y + r * cols;
	float mean = 0.0f, var = 0.0f;
	for (long long j = 0; j < cols; j++) mean += xr[j];
	mean /= cols;
	for (long long j = 0; j < cols; j++) var += (xr[j] - mean) * (xr[j] - mean);
	var /= cols;
	float inv = rsqrtf(var + eps);
	for (long long j = 0; j < cols; j++) yr[j] = (xr[j] - mean) * inv * g[j] + b[j];
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0];
	layernorm_naive<<<(unsigned)((rows + 127) / 128), 128, 0, s>>>((const float *)a->t[0], (const float *)a->t[1],
								       (const float *)a->t[2], (float *)a->t[3], rows,
								       a->p[1], (float)a->s[0]);
	return 0;
}
