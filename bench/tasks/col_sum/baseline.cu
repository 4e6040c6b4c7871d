/* bench/tasks/col_sum/baseline.cu: one thread per column walks all rows. */
#include "ka_task.h"

__global__ void col_sum_kernel(const float *x, float *y, size_t rows, size_t cols)
{
	size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= cols)
		return;
	float acc = 0.0f;
	for (size_t r = 0; r < rows; ++r)
		acc += x[r * cols + c];
	y[c] = acc;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	size_t rows = (size_t)a->p[0], cols = (size_t)a->p[1];
	int threads = 128;
	int blocks = (int)((cols + threads - 1) / threads);
	col_sum_kernel<<<blocks, threads, 0, s>>>((const float *)a->t[0], (float *)a->t[1], rows, cols);
	return 0;
}
