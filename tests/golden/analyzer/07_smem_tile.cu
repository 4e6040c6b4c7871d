// Golden: matrix transpose through a 2-D shared tile, launched with
// (32, 8) blocks.  Reading the tile by column conflicts 32 ways without
// padding and not at all with one column of padding.

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_tile(float *odata, const float *idata, int width)
{
	__shared__ float tile[TILE_DIM][TILE_DIM];
	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
	__syncthreads();
	int ox = blockIdx.y * TILE_DIM + threadIdx.x;
	int oy = blockIdx.x * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		odata[(oy + j) * width + ox] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float *odata, const float *idata, int width)
{
	__shared__ float tile[TILE_DIM][TILE_DIM + 1];
	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
	__syncthreads();
	int ox = blockIdx.y * TILE_DIM + threadIdx.x;
	int oy = blockIdx.x * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		odata[(oy + j) * width + ox] = tile[threadIdx.x][threadIdx.y + j];
}

void run_transpose(float *d_out, const float *d_in, int width)
{
	dim3 grid(width / TILE_DIM, width / TILE_DIM);
	dim3 block(TILE_DIM, BLOCK_ROWS);
	transpose_tile<<<grid, block>>>(d_out, d_in, width);
	transpose_padded<<<grid, block>>>(d_out, d_in, width);
}

// expect: SELECT block_source FROM kernel WHERE name = 'transpose_tile' => launch
// expect: SELECT block_x FROM kernel WHERE name = 'transpose_tile' => 32
// expect: SELECT block_y FROM kernel WHERE name = 'transpose_tile' => 8
// expect: SELECT block_threads FROM kernel WHERE name = 'transpose_padded' => 256
// expect: SELECT static_smem_bytes FROM kernel WHERE name = 'transpose_tile' => 4096
// expect: SELECT static_smem_bytes FROM kernel WHERE name = 'transpose_padded' => 4224
// expect: SELECT ndims FROM shared_array WHERE kernel = 'transpose_padded' => 2
// expect: SELECT dim0 FROM shared_array WHERE kernel = 'transpose_padded' => 32
// expect: SELECT dim1 FROM shared_array WHERE kernel = 'transpose_padded' => 33
// expect: SELECT bytes FROM shared_array WHERE kernel = 'transpose_padded' => 4224
// expect: SELECT elem_bytes FROM shared_array WHERE kernel = 'transpose_tile' => 4
// expect: SELECT is_dynamic FROM shared_array WHERE kernel = 'transpose_tile' => 0
// expect: SELECT max_bank_ways FROM shared_array WHERE kernel = 'transpose_tile' => 32
// expect: SELECT max_bank_ways FROM shared_array WHERE kernel = 'transpose_padded' => 1
// expect: SELECT space FROM access WHERE line = 14 AND base = 'tile' => shared
// expect: SELECT rw FROM access WHERE line = 14 AND base = 'tile' => write
// expect: SELECT bank_ways FROM access WHERE line = 14 AND base = 'tile' => 1
// expect: SELECT ideal_bank_ways FROM access WHERE line = 14 AND base = 'tile' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 14 AND base = 'idata' => 4
// expect: SELECT kind_ty FROM access WHERE line = 14 AND base = 'idata' => symbolic
// expect: SELECT coef_ty FROM access WHERE line = 14 AND base = 'tile' => 32
// expect: SELECT coef_tx FROM access WHERE line = 19 AND base = 'tile' => 32
// expect: SELECT coef_ty FROM access WHERE line = 19 AND base = 'tile' => 1
// expect: SELECT bank_ways FROM access WHERE line = 19 AND base = 'tile' => 32
// expect: SELECT ideal_bank_ways FROM access WHERE line = 19 AND base = 'tile' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 19 AND base = 'odata' => 4
// expect: SELECT bank_ways FROM access WHERE line = 28 AND base = 'tile' => 1
// expect: SELECT coef_tx FROM access WHERE line = 33 AND base = 'tile' => 33
// expect: SELECT bank_ways FROM access WHERE line = 33 AND base = 'tile' => 1
// expect: SELECT trip_count FROM loop WHERE line = 13 => 4
// expect: SELECT count(*) FROM launch WHERE func = 'run_transpose' => 2
// expect: SELECT block_x * 100 + block_y FROM launch WHERE kernel = 'transpose_tile' => 3208
// expect: SELECT grid_x FROM launch WHERE kernel = 'transpose_tile' => NULL
// expect: SELECT block_text FROM launch WHERE kernel = 'transpose_padded' => block
// expect: SELECT count(*) FROM barrier WHERE kernel = 'transpose_tile' AND in_divergent_branch = 0 => 1
