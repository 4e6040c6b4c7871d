// Golden: __launch_bounds__ (not exposed by libclang; read from the tokens).
// With no launch site it sets the block shape of the warp model.

#define BLOCK_SIZE 512

__global__ void __launch_bounds__(256, 2) relu(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n && x[i] < 0.0f)
		x[i] = 0.0f;
}

__global__ void __launch_bounds__(128) narrow_rows(const float *in, float *out, int w)
{
	int c = threadIdx.x;
	int r = blockIdx.y * blockDim.y + threadIdx.y;
	out[r * w + c] = in[r * w + c];
}

__global__ void __launch_bounds__(BLOCK_SIZE) wide(float *x)
{
	x[blockIdx.x * BLOCK_SIZE + threadIdx.x] = 0.0f;
}

__global__ void plain(float *x)
{
	x[threadIdx.y * 32 + threadIdx.x] = 1.0f;
}

// expect: SELECT launch_bounds_max FROM kernel WHERE name = 'relu' => 256
// expect: SELECT launch_bounds_min_blocks FROM kernel WHERE name = 'relu' => 2
// expect: SELECT block_source FROM kernel WHERE name = 'relu' => launch_bounds
// expect: SELECT block_x FROM kernel WHERE name = 'relu' => 256
// expect: SELECT launch_bounds_max FROM kernel WHERE name = 'narrow_rows' => 128
// expect: SELECT launch_bounds_min_blocks FROM kernel WHERE name = 'narrow_rows' => NULL
// expect: SELECT block_x * 100 + block_y FROM kernel WHERE name = 'narrow_rows' => 12801
// expect: SELECT block_source FROM access WHERE line = 17 AND base = 'out' => launch_bounds
// expect: SELECT sectors_per_request FROM access WHERE line = 17 AND base = 'in' => 4
// expect: SELECT launch_bounds_max FROM kernel WHERE name = 'wide' => 512
// expect: SELECT block_x FROM kernel WHERE name = 'wide' => 512
// expect: SELECT launch_bounds_max FROM kernel WHERE name = 'plain' => NULL
// expect: SELECT block_source FROM kernel WHERE name = 'plain' => assumed
// expect: SELECT block_x * 100 + block_y FROM kernel WHERE name = 'plain' => 3208
// expect: SELECT block_source FROM access WHERE kernel = 'plain' => assumed
// expect: SELECT line FROM kernel WHERE name = 'relu' => 6
// expect: SELECT count(*) FROM access WHERE line = 9 AND base = 'x' => 1
// expect: SELECT guarded FROM access WHERE line = 10 AND base = 'x' => 1
