// Golden: strides only known at run time.  A row index derived from
// threadIdx.x multiplied by a run-time width gives a symbolic coefficient;
// the warp model evaluates it with the symbol = 1024 and says so.

__global__ void row_sums(const float *a, float *sums, int rows, int width)
{
	int row = blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= rows)
		return;
	float s = 0.0f;
	for (int c = 0; c < width; ++c)
		s += a[row * width + c];
	sums[row] = s;
}

__global__ void gather_stride(const float *in, float *out, int stride, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i * stride];
}

// expect: SELECT kind_tx FROM access WHERE line = 12 AND base = 'a' => symbolic
// expect: SELECT coef_tx FROM access WHERE line = 12 AND base = 'a' => NULL
// expect: SELECT coef_tx_text FROM access WHERE line = 12 AND base = 'a' => width
// expect: SELECT sectors_assumed FROM access WHERE line = 12 AND base = 'a' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 12 AND base = 'a' => 32
// expect: SELECT ideal_sectors FROM access WHERE line = 12 AND base = 'a' => 4
// expect: SELECT assumption IS NOT NULL FROM access WHERE line = 12 AND base = 'a' => 1
// expect: SELECT in_loop FROM access WHERE line = 12 AND base = 'a' => 1
// expect: SELECT loop_invariant FROM access WHERE line = 12 AND base = 'a' => 0
// expect: SELECT is_affine FROM access WHERE line = 12 AND base = 'a' => 1
// expect: SELECT kind_tx FROM access WHERE line = 13 AND base = 'sums' => const
// expect: SELECT sectors_assumed FROM access WHERE line = 13 AND base = 'sums' => 0
// expect: SELECT sectors_per_request FROM access WHERE line = 13 AND base = 'sums' => 4
// expect: SELECT kind_tx FROM access WHERE line = 20 AND base = 'in' => symbolic
// expect: SELECT coef_tx_text FROM access WHERE line = 20 AND base = 'in' => stride
// expect: SELECT sectors_assumed FROM access WHERE line = 20 AND base = 'in' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 20 AND base = 'in' => 32
// expect: SELECT kind_tx FROM access WHERE line = 20 AND base = 'out' => const
// expect: SELECT trip_count FROM loop WHERE line = 11 => NULL
// expect: SELECT trip_uniform FROM loop WHERE line = 11 => 1
// expect: SELECT iv FROM loop WHERE line = 11 => c
