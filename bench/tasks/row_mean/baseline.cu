/* bench/tasks/row_mean/baseline.cu: one thread per row sums its columns, then divides. */
#include "ka_task.h"

__global__ void row_mean_kernel(const float *input, float *output, long rows, long cols)
{
	long row = blockIdx.x * blockDim.x + threadIdx.x;
	if (row < rows) {
		const float *p = input + row * cols;
		float sum = 0.f;
		for (long j = 0; j < cols; j++) {
			sum += p[j];
		}
		output[row] = sum / (float)cols;
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long rows = (long)a->p[0], cols = (long)a->p[1];
	dim3 block(256);
	dim3 grid((unsigned)((rows + block.x - 1) / block.x));
	row_mean_kernel<<<grid, block, 0, s>>>((const float *)a->t[0], (float *)a->t[1], rows, cols);
	return 0;
}
