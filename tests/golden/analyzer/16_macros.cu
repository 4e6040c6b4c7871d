// Golden: macros in index expressions.  The index is analysed after macro
// expansion; N is a compile-time width, so transposed indexing has a
// constant coefficient.  No launch site and threadIdx.y is used: the warp
// model assumes a (32, 8) block.

#define N 64
#define IDX(r, c, ld) ((r) * (ld) + (c))
#define GLOBAL_X (blockIdx.x * blockDim.x + threadIdx.x)
#define GLOBAL_Y (blockIdx.y * blockDim.y + threadIdx.y)
#define HALF 0.5

__global__ void average_transpose(const float *in, float *out)
{
	int col = GLOBAL_X;
	int row = GLOBAL_Y;
	float a = in[IDX(row, col, N)];
	float b = in[IDX(col, row, N)];
	out[IDX(row, col, N)] = (a + b) * HALF;
}

__global__ void copy_flat(const int *in, int *out)
{
	out[GLOBAL_X] = in[GLOBAL_X + 1];
}

// expect: SELECT block_source FROM kernel WHERE name = 'average_transpose' => assumed
// expect: SELECT block_x * 100 + block_y FROM kernel WHERE name = 'average_transpose' => 3208
// expect: SELECT block_x FROM kernel WHERE name = 'copy_flat' => 256
// expect: SELECT coef_tx FROM access WHERE line = 16 AND base = 'in' => 1
// expect: SELECT coef_ty FROM access WHERE line = 16 AND base = 'in' => 64
// expect: SELECT sectors_per_request FROM access WHERE line = 16 AND base = 'in' => 4
// expect: SELECT index_text FROM access WHERE line = 16 AND base = 'in' => IDX(row, col, N)
// expect: SELECT coef_tx FROM access WHERE line = 17 AND base = 'in' => 64
// expect: SELECT kind_tx FROM access WHERE line = 17 AND base = 'in' => const
// expect: SELECT coef_ty FROM access WHERE line = 17 AND base = 'in' => 1
// expect: SELECT stride_bytes_tx FROM access WHERE line = 17 AND base = 'in' => 256
// expect: SELECT sectors_per_request FROM access WHERE line = 17 AND base = 'in' => 32
// expect: SELECT sectors_assumed FROM access WHERE line = 17 AND base = 'in' => 0
// expect: SELECT sectors_per_request FROM access WHERE line = 18 AND base = 'out' => 4
// expect: SELECT count(*) FROM literal WHERE in_macro = 1 AND promotes_to_double = 1 => 1
// expect: SELECT kind FROM literal WHERE in_macro = 1 AND kind <> 'int' => double
// expect: SELECT text FROM literal WHERE in_macro = 1 AND kind <> 'int' => 0.5
// expect: SELECT coef_tx FROM access WHERE line = 23 AND base = 'in' => 1
// expect: SELECT offset_const FROM access WHERE line = 23 AND base = 'in' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 23 AND base = 'in' => 5
// expect: SELECT sectors_per_request FROM access WHERE line = 23 AND base = 'out' => 4
