// Golden: loops: constant trip counts, unroll pragmas, grid-stride loops,
// thread-dependent trip counts and nesting.

#define TAPS 8

__global__ void fir(const float *x, const float *h, float *y, int n, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float acc = 0.0f;
#pragma unroll
	for (int t = 0; t < TAPS; ++t)
		acc += h[t] * x[i + t];
#pragma unroll 4
	for (int t = 0; t < k; ++t)
		acc += x[i + t * n];
	for (int t = 0; t <= 7; t += 2)
		acc *= 0.5f;
	for (int t = 10; t > 0; --t)
		acc += 1.0f;
	y[i] = acc;
}

__global__ void grid_stride_scale(float *a, float s, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		a[i] *= s;
}

__global__ void ragged(const int *row_ptr, const float *vals, float *out, int rows)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	float sum = 0.0f;
	for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j)
		sum += vals[j];
	int steps = 0;
	while (sum > 1.0f) {
		sum *= 0.5f;
		steps++;
	}
	out[r] = sum + steps;
}

// expect: SELECT count(*) FROM loop WHERE kernel = 'fir' => 4
// expect: SELECT kind FROM loop WHERE line = 11 => for
// expect: SELECT trip_count FROM loop WHERE line = 11 => 8
// expect: SELECT has_unroll_pragma FROM loop WHERE line = 11 => 1
// expect: SELECT unroll_count FROM loop WHERE line = 11 => NULL
// expect: SELECT iv FROM loop WHERE line = 11 => t
// expect: SELECT trip_uniform FROM loop WHERE line = 11 => 1
// expect: SELECT has_unroll_pragma FROM loop WHERE line = 14 => 1
// expect: SELECT unroll_count FROM loop WHERE line = 14 => 4
// expect: SELECT trip_count FROM loop WHERE line = 14 => NULL
// expect: SELECT trip_uniform FROM loop WHERE line = 14 => 1
// expect: SELECT trip_count FROM loop WHERE line = 16 => 4
// expect: SELECT has_unroll_pragma FROM loop WHERE line = 16 => 0
// expect: SELECT trip_count FROM loop WHERE line = 18 => 10
// expect: SELECT depth FROM loop WHERE line = 18 => 0
// expect: SELECT loop_invariant FROM access WHERE line = 12 AND base = 'h' => 0
// expect: SELECT warp_uniform FROM access WHERE line = 12 AND base = 'h' => 1
// expect: SELECT kind_tx FROM access WHERE line = 15 AND base = 'x' => const
// expect: SELECT is_grid_stride FROM loop WHERE line = 25 => 1
// expect: SELECT trip_uniform FROM loop WHERE line = 25 => 0
// expect: SELECT trip_thread_dependent FROM loop WHERE line = 25 => 1
// expect: SELECT rw FROM access WHERE line = 26 AND base = 'a' => readwrite
// expect: SELECT sectors_per_request FROM access WHERE line = 26 AND base = 'a' => 4
// expect: SELECT is_grid_stride FROM loop WHERE line = 11 => 0
// expect: SELECT trip_data_dependent FROM loop WHERE line = 35 => 1
// expect: SELECT trip_thread_dependent FROM loop WHERE line = 35 => 1
// expect: SELECT trip_count FROM loop WHERE line = 35 => NULL
// expect: SELECT data_dependent FROM access WHERE line = 36 AND base = 'vals' => 1
// expect: SELECT kind FROM loop WHERE line = 38 => while
// expect: SELECT trip_count FROM loop WHERE line = 38 => NULL
// expect: SELECT n_loops FROM kernel WHERE name = 'ragged' => 2
