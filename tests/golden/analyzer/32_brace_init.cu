// Golden: brace and member initialization.  Indices initialized with braces
// keep their value (`size_t row{...}`, `int col{...}`, `size_t{...}`), a
// dim3 built member by member (`dim3 t; t.x = 128;`) or with braces
// (`dim3 b{16, 16}`) gives the launch its real block.
#include <cstddef>

__global__ void add_rows(const float *__restrict__ a, float *__restrict__ c, size_t n)
{
	size_t row{blockIdx.x * blockDim.x + threadIdx.x};
	if (row < n)
		c[row] = a[row] + 1.0f;
}

__global__ void copy2d(const float *src, float *dst, int w)
{
	int col{static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x)};
	int row{static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y)};
	auto idx = size_t{static_cast<size_t>(row)} * w + col;
	dst[idx] = src[idx];
}

__global__ void col_read(const float *src, float *dst, int h)
{
	int x{static_cast<int>(threadIdx.x)};
	dst[x] = src[x * h];
}

void launch_all(const float *a, float *c, int n, int w, int h)
{
	dim3 threads;
	threads.x = 128;
	add_rows<<<(n + 127) / 128, threads>>>(a, c, n);

	dim3 blk{16, 16};
	dim3 grid{static_cast<unsigned>(w / 16), static_cast<unsigned>(h / 16)};
	copy2d<<<grid, blk>>>(a, c, w);

	dim3 one;
	one.x = 64;
	one.y = h > 4 ? 4 : 1;
	col_read<<<1, one>>>(a, c, h);
}

// expect: SELECT coef_tx FROM access WHERE line = 11 AND base = 'a' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 11 AND base = 'a' => 4
// expect: SELECT rw FROM access WHERE line = 11 AND base = 'c' => write
// expect: SELECT block_x FROM launch WHERE line = 32 => 128
// expect: SELECT block_threads FROM launch WHERE line = 32 => 128
// expect: SELECT block_source FROM kernel WHERE name = 'add_rows' => launch
// expect: SELECT block_x FROM kernel WHERE name = 'add_rows' => 128
// expect: SELECT is_guard FROM branch WHERE line = 10 => 1
// expect: SELECT block_x FROM launch WHERE line = 36 => 16
// expect: SELECT block_y FROM launch WHERE line = 36 => 16
// expect: SELECT block_source FROM kernel WHERE name = 'copy2d' => launch
// expect: SELECT coef_tx FROM access WHERE line = 19 AND base = 'src' => 1
// expect: SELECT kind_ty FROM access WHERE line = 19 AND base = 'src' => symbolic
// expect: SELECT block_x FROM launch WHERE line = 41 => NULL
// expect: SELECT block_source FROM kernel WHERE name = 'col_read' => assumed
// expect: SELECT coef_tx FROM access WHERE line = 25 AND base = 'dst' => 1
// expect: SELECT coef_tx_text FROM access WHERE line = 25 AND base = 'src' => h
// expect: SELECT count(*) FROM diag WHERE severity IN ('error', 'fatal') => 0
