// Corpus: shared-memory transpose with a padded tile.
#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_no_conflicts(float *odata, const float *idata)
{
	__shared__ float tile[TILE_DIM][TILE_DIM + 1];
	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	int width = gridDim.x * TILE_DIM;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
	__syncthreads();
	x = blockIdx.y * TILE_DIM + threadIdx.x;
	y = blockIdx.x * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *o, const float *i, int n)
{
	dim3 grid(n / TILE_DIM, n / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
	transpose_no_conflicts<<<grid, block>>>(o, i);
}
