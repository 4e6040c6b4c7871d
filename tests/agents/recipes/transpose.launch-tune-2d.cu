/* bench/tasks/transpose/baseline.cu: coalesced reads, strided writes. */
#include "ka_task.h"

__global__ void transpose_naive(const float *x, float *y, long long rows, long long cols)
{
	long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	long long r = blockIdx.y * (long long)blockDim.y + threadIdx.y;
	if (r < rows && c < cols) y[c * rows + r] = x[r * cols + c];
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	dim3 block(64, 4), grid((unsigned)((cols + 63) / 64), (unsigned)((rows + 3) / 4));
	transpose_naive<<<grid, block, 0, s>>>((const float *)a->t[0], (float *)a->t[1], rows, cols);
	return 0;
}
