/* bench/tasks/col_sum/expert.cu: 32 columns x 8 row-slices per block, partials combined in shared memory. */
#include "ka_task.h"

__global__ void __launch_bounds__(256) col_sum_tiled(const float *x, float *y, long long rows, long long cols)
{
	__shared__ float part[8][33];
	long long c = (long long)blockIdx.x * 32 + threadIdx.x;
	float acc = 0.0f;
	if (c < cols)
		for (long long r = threadIdx.y; r < rows; r += 8)
			acc += x[r * cols + c];
	part[threadIdx.y][threadIdx.x] = acc;
	__syncthreads();
	if (threadIdx.y == 0 && c < cols) {
		float t = 0.0f;
		for (int k = 0; k < 8; k++)
			t += part[k][threadIdx.x];
		y[c] = t;
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	col_sum_tiled<<<(unsigned)((cols + 31) / 32), dim3(32, 8), 0, s>>>((const float *)a->t[0],
									   (float *)a->t[1], rows, cols);
	return 0;
}
