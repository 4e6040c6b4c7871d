/* bench/tasks/transpose/baseline.cu: coalesced reads, strided writes. */
#include "ka_task.h"

__global__ void __launch_bounds__(256) transpose_naive(const float *x, float *y, long long rows, long long cols)
{
	/* a tile of x, padded by one column: the column read below hits 32 banks */
	__shared__ float ka_tile[32][33];
	const long long ka_col0 = (long long)blockIdx.x * 32, ka_row0 = (long long)blockIdx.y * 32;
	for (int ka_k = threadIdx.y; ka_k < 32; ka_k += 8) {
		const long long r = ka_row0 + ka_k, c = ka_col0 + threadIdx.x;
		if (r < rows && c < cols) ka_tile[ka_k][threadIdx.x] = x[r * cols + c];
	}
	__syncthreads();
	for (int ka_k = threadIdx.y; ka_k < 32; ka_k += 8) {
		const long long c = ka_col0 + ka_k, r = ka_row0 + threadIdx.x;
		if (r < rows && c < cols) y[c * rows + r] = ka_tile[threadIdx.x][ka_k];
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	dim3 block(32, 8), grid((unsigned)((cols + 31) / 32), (unsigned)((rows + 7) / 8));
	transpose_naive<<<dim3((unsigned)(((long long)(cols) + 31) / 32), (unsigned)(((long long)(rows) + 31) / 32)), dim3(32, 8), 0, s>>>((const float *)a->t[0], (float *)a->t[1], rows, cols);
	return 0;
}
