// Golden: an early return whose condition compares a thread id with the
// launched block's own extent never fires, so it leaves nobody out of the
// later barrier.  The same test against a smaller bound than the block's
// extent does return threads; so does any test against a run-time value.

#define WARP 32
#define ROWS 4

// One warp per row, ROWS rows per block; the guard is defensive only.
__global__ void rows_scale(float *out, const float *in, const float *scale, int ncols)
{
	__shared__ float s_scale[ROWS];
	if (threadIdx.y >= ROWS)
		return;
	if (threadIdx.x == 0)
		s_scale[threadIdx.y] = scale[blockIdx.x * ROWS + threadIdx.y];
	__syncthreads();
	int row = blockIdx.x * ROWS + threadIdx.y;
	for (int c = threadIdx.x; c < ncols; c += WARP)
		out[row * ncols + c] = in[row * ncols + c] * s_scale[threadIdx.y];
}

// Launched with 8 rows of warps: warps 4..7 return before the barrier.
__global__ void rows_scale_half(float *out, const float *in, const float *scale, int ncols)
{
	__shared__ float s_scale[ROWS];
	if (threadIdx.y >= ROWS)
		return;
	if (threadIdx.x == 0)
		s_scale[threadIdx.y] = scale[blockIdx.x * ROWS + threadIdx.y];
	__syncthreads();
	int row = blockIdx.x * ROWS + threadIdx.y;
	for (int c = threadIdx.x; c < ncols; c += WARP)
		out[row * ncols + c] = in[row * ncols + c] * s_scale[threadIdx.y];
}

// The bound is a parameter: nothing says it covers the block.
__global__ void rows_scale_n(float *out, const float *in, const float *scale, int ncols, int nrows)
{
	__shared__ float s_scale[ROWS];
	if (threadIdx.y >= nrows)
		return;
	if (threadIdx.x == 0)
		s_scale[threadIdx.y] = scale[blockIdx.x * ROWS + threadIdx.y];
	__syncthreads();
	int row = blockIdx.x * ROWS + threadIdx.y;
	for (int c = threadIdx.x; c < ncols; c += WARP)
		out[row * ncols + c] = in[row * ncols + c] * s_scale[threadIdx.y];
}

void launch_rows(float *out, const float *in, const float *scale, int nrows, int ncols)
{
	rows_scale<<<nrows / ROWS, dim3(WARP, ROWS)>>>(out, in, scale, ncols);
	rows_scale_half<<<nrows / ROWS, dim3(WARP, 2 * ROWS)>>>(out, in, scale, ncols);
	rows_scale_n<<<nrows / ROWS, dim3(WARP, ROWS)>>>(out, in, scale, ncols, nrows % ROWS);
}

// expect: SELECT thread_dependent FROM early_return WHERE kernel = 'rows_scale' => 0
// expect: SELECT after_divergent_return FROM barrier WHERE kernel = 'rows_scale' => 0
// expect: SELECT thread_dependent FROM early_return WHERE kernel = 'rows_scale_half' => 1
// expect: SELECT after_divergent_return FROM barrier WHERE kernel = 'rows_scale_half' => 1
// expect: SELECT thread_dependent FROM early_return WHERE kernel = 'rows_scale_n' => 1
// expect: SELECT block_y FROM kernel WHERE name = 'rows_scale' => 4
