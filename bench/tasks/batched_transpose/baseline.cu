/* bench/tasks/batched_transpose/baseline.cu: 3-D grid, one element per thread,
 * reads along rows of x, writes down columns of y. */
#include "ka_task.h"

__global__ void batched_transpose_kernel(const float *in, float *out, int B, int M, int N)
{
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	int b = blockIdx.z;
	if (b < B && row < M && col < N) {
		size_t matrix = (size_t)M * N;
		out[b * matrix + (size_t)col * M + row] = in[b * matrix + (size_t)row * N + col];
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int B = (int)a->p[0], M = (int)a->p[1], N = (int)a->p[2];
	dim3 threads(16, 16);
	dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y, B);
	batched_transpose_kernel<<<blocks, threads, 0, s>>>((const float *)a->t[0], (float *)a->t[1], B, M,
							    N);
	return 0;
}
