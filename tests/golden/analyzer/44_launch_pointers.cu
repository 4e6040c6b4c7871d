// Golden: launches through a function-pointer variable and a table of kernels in
// the same file bind the kernels' block shapes (one launch row per kernel the
// pointer can hold), so the warp model uses the real block, not an assumed one.
#define TILE 32
__global__ void transpose_tiled(float *out, const float *in, int n)
{
	__shared__ float tile[TILE][TILE];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += 8)
		tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += 8)
		out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
__global__ void copy_k(float *out, const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = in[i];
}
typedef void (*kfn)(float *, const float *, int);
static kfn table[] = {copy_k, transpose_tiled};
void run(float *o, const float *i, int n, int which)
{
	void (*kernel)(float *, const float *, int) = &transpose_tiled;
	dim3 grid(n / TILE, n / TILE), block(TILE, 8);
	kernel<<<grid, block>>>(o, i, n);
	table[which]<<<grid, block>>>(o, i, n);
}

// expect: SELECT block_source FROM kernel WHERE name = 'transpose_tiled' => launch
// expect: SELECT block_x * 1000 + block_y FROM kernel WHERE name = 'transpose_tiled' => 32008
// expect: SELECT block_source FROM kernel WHERE name = 'copy_k' => launch
// expect: SELECT count(*) FROM launch WHERE line = 29 AND kernel = 'transpose_tiled' => 1
// expect: SELECT count(*) FROM launch WHERE line = 30 => 2
// expect: SELECT bank_ways FROM access WHERE line = 16 AND base = 'tile' AND rw = 'read' => 32
