// SGEMM, optimized: 32 x 32 tiles of A and B staged through shared memory,
// each thread of a 32 x 8 block accumulating four outputs of its column in
// registers (rows ty, ty + 8, ty + 16, ty + 24).  Every global load is
// coalesced along threadIdx.x, every element is loaded once per block instead
// of once per thread, and the shared reads are broadcasts or conflict-free.

#define TILE 32
#define ROWS 8                    /* blockDim.y; TILE / ROWS outputs per thread */

__global__ void __launch_bounds__(TILE * ROWS)
sgemm_tiled(float *__restrict__ c, const float *__restrict__ a, const float *__restrict__ b,
	    int m, int n, int k)
{
	__shared__ float as[TILE][TILE];
	__shared__ float bs[TILE][TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row0 = blockIdx.y * TILE + ty;
	int col = blockIdx.x * TILE + tx;
	float acc[TILE / ROWS] = {0.0f, 0.0f, 0.0f, 0.0f};

	for (int t = 0; t < k; t += TILE) {
#pragma unroll
		for (int r = 0; r < TILE / ROWS; ++r) {
			int ar = row0 + r * ROWS, bk = t + ty + r * ROWS;
			as[ty + r * ROWS][tx] = (ar < m && t + tx < k) ? a[ar * k + t + tx] : 0.0f;
			bs[ty + r * ROWS][tx] = (bk < k && col < n) ? b[bk * n + col] : 0.0f;
		}
		__syncthreads();
#pragma unroll
		for (int p = 0; p < TILE; ++p) {
			float bv = bs[p][tx];
#pragma unroll
			for (int r = 0; r < TILE / ROWS; ++r)
				acc[r] += as[ty + r * ROWS][p] * bv;
		}
		__syncthreads();
	}
#pragma unroll
	for (int r = 0; r < TILE / ROWS; ++r) {
		int cr = row0 + r * ROWS;
		if (cr < m && col < n)
			c[cr * n + col] = acc[r];
	}
}

cudaError_t sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
	dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
	sgemm_tiled<<<grid, dim3(TILE, ROWS)>>>(c, a, b, m, n, k);
	return cudaGetLastError();
}
