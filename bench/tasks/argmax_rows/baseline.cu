/* bench/tasks/argmax_rows/baseline.cu: one thread per row scans its columns. */
#include "ka_task.h"

__global__ void argmax_kernel(const float *logits, int *out, size_t rows, size_t cols)
{
	size_t row = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= rows)
		return;
	const float *r = logits + row * cols;
	float best = r[0];
	int best_idx = 0;
	for (size_t j = 1; j < cols; ++j) {
		if (r[j] > best) {
			best = r[j];
			best_idx = (int)j;
		}
	}
	out[row] = best_idx;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	size_t rows = (size_t)a->p[0], cols = (size_t)a->p[1];
	int threads = 128;
	int blocks = (int)((rows + threads - 1) / threads);
	argmax_kernel<<<blocks, threads, 0, s>>>((const float *)a->t[0], (int *)a->t[1], rows, cols);
	return 0;
}
