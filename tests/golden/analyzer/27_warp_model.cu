// Golden: the warp model follows the block shape of the launch.  A narrow
// block x packs several rows into one warp: with (4, 64) blocks a warp
// covers 8 rows of 4 floats, so a row-major read touches 8 sectors.

#define N 1024

__global__ void copy_rows(const float *in, float *out)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	out[y * N + x] = in[y * N + x];
}

__global__ void naive_sgemm(const float *A, const float *B, float *C, int M, int K)
{
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	if (row < M && col < N) {
		float acc = 0.0f;
		for (int k = 0; k < K; ++k)
			acc += A[row * K + k] * B[k * N + col];
		C[row * N + col] = acc;
	}
}

void launch_models(const float *a, float *b, float *c, int m, int k)
{
	copy_rows<<<dim3(N / 4, N / 64), dim3(4, 64)>>>(a, b);
	naive_sgemm<<<dim3(N / 32, (m + 7) / 8), dim3(32, 8)>>>(a, b, c, m, k);
}

// expect: SELECT block_x * 100 + block_y FROM kernel WHERE name = 'copy_rows' => 464
// expect: SELECT lanes FROM access WHERE line = 11 AND base = 'in' => 32
// expect: SELECT coef_ty FROM access WHERE line = 11 AND base = 'in' => 1024
// expect: SELECT sectors_per_request FROM access WHERE line = 11 AND base = 'in' => 8
// expect: SELECT ideal_sectors FROM access WHERE line = 11 AND base = 'in' => 4
// expect: SELECT sectors_per_request FROM access WHERE line = 11 AND base = 'out' => 8
// expect: SELECT block_source FROM kernel WHERE name = 'naive_sgemm' => launch
// expect: SELECT kind_tx FROM access WHERE line = 21 AND base = 'A' => zero
// expect: SELECT kind_ty FROM access WHERE line = 21 AND base = 'A' => symbolic
// expect: SELECT warp_uniform FROM access WHERE line = 21 AND base = 'A' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 21 AND base = 'A' => 1
// expect: SELECT loop_invariant FROM access WHERE line = 21 AND base = 'A' => 0
// expect: SELECT coef_tx FROM access WHERE line = 21 AND base = 'B' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 21 AND base = 'B' => 4
// expect: SELECT warp_uniform FROM access WHERE line = 21 AND base = 'B' => 0
// expect: SELECT sectors_per_request FROM access WHERE line = 22 AND base = 'C' => 4
// expect: SELECT uniformity FROM branch WHERE line = 18 => warp
// expect: SELECT in_loop FROM access WHERE line = 22 AND base = 'C' => 0
