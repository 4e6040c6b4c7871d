/* bench/tasks/cumsum_rows/baseline.cu: one thread per row, running sum. */
#include "ka_task.h"

__global__ void cumsum_kernel(const float *in, float *out, int rows, int cols)
{
	int row = blockIdx.x * blockDim.x + threadIdx.x;
	if (row < rows) {
		long offset = (long)row * cols;
		float acc = 0.0f;
		for (int j = 0; j < cols; j++) {
			acc += in[offset + j];
			out[offset + j] = acc;
		}
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int rows = (int)a->p[0], cols = (int)a->p[1];
	const int threadsPerBlock = 256;
	int blocksPerGrid = (rows + threadsPerBlock - 1) / threadsPerBlock;
	cumsum_kernel<<<blocksPerGrid, threadsPerBlock, 0, s>>>((const float *)a->t[0], (float *)a->t[1],
								rows, cols);
	return 0;
}
