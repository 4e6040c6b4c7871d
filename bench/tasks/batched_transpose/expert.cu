/* bench/tasks/batched_transpose/expert.cu: 32x32 tiles through padded shared
 * memory (no bank conflicts), 32x8 threads, 4 elements per thread, so both
 * the read and the write are coalesced. */
#include "ka_task.h"

enum { TILE = 32, ROWS = 8 };

__global__ void __launch_bounds__(TILE *ROWS) transpose_tiled(const float *x, float *y, int M, int N)
{
	__shared__ float tile[TILE][TILE + 1];
	size_t off = (size_t)blockIdx.z * M * N;
	const float *in = x + off;
	float *out = y + off;
	int c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
	int c = c0 + threadIdx.x;
	for (int k = threadIdx.y; k < TILE; k += ROWS) {
		int r = r0 + k;
		if (r < M && c < N)
			tile[k][threadIdx.x] = in[(size_t)r * N + c];
	}
	__syncthreads();
	int orow = r0 + threadIdx.x;
	for (int k = threadIdx.y; k < TILE; k += ROWS) {
		int ocol = c0 + k;
		if (ocol < N && orow < M)
			out[(size_t)ocol * M + orow] = tile[threadIdx.x][k];
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int B = (int)a->p[0], M = (int)a->p[1], N = (int)a->p[2];
	dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE, B);
	transpose_tiled<<<grid, dim3(TILE, ROWS), 0, s>>>((const float *)a->t[0], (float *)a->t[1], M, N);
	return 0;
}
