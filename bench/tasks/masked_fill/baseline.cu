/* bench/tasks/masked_fill/baseline.cu: grid-stride loop, one element a step. */
#include "ka_task.h"

__global__ void masked_fill_kernel(const float *x, const int *mask, float value, float *out, long n)
{
	for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)blockDim.x * gridDim.x) {
		if (mask[i]) {
			out[i] = value;
		} else {
			out[i] = x[i];
		}
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long n = (long)a->n[0];
	int block = 512;
	long grid = (n + block - 1) / block;
	if (grid > 65535)
		grid = 65535;
	masked_fill_kernel<<<(unsigned)grid, block, 0, s>>>((const float *)a->t[0], (const int *)a->t[1],
							    (float)a->s[0], (float *)a->t[2], n);
	return 0;
}
