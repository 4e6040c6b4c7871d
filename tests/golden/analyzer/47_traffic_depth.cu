// Golden: execution-count weighting. A register-tiled kernel whose epilogue
// loops have template-constant trip counts: the store after the K loop runs
// once per thread (traffic_depth 0) although it is as deeply nested as the
// loads inside the K loop; a loop of 8 known trips is a register loop too,
// one of 64 is not.

template <int TM, int TN>
__global__ void tile_gemm(const float *a, const float *b, float *c, int n, int k)
{
	int col = threadIdx.x % 16;
	int row = threadIdx.x / 16;
	float acc[TM * TN] = {0.0f};
	for (int t = 0; t < k; ++t) {
		for (int i = 0; i < TM; ++i)
			acc[i * TN] += a[(row * TM + i) * k + t] * b[t * n + col];
	}
	for (int i = 0; i < TM; ++i)
		for (int j = 0; j < TN; ++j)
			c[(row * TM + i) * n + col * TN + j] = acc[i * TN + j];
}

__global__ void loops_by_count(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	for (int j = 0; j < 8; ++j)
		y[i * 8 + j] = x[i];
	for (int j = 0; j < 64; ++j)
		y[i * 64 + j] += x[j];
}

// expect: SELECT loop_depth FROM access WHERE line = 19 AND base = 'c' => 2
// expect: SELECT traffic_depth FROM access WHERE line = 19 AND base = 'c' => 0
// expect: SELECT traffic_depth FROM access WHERE line = 15 AND base = 'a' => 1
// expect: SELECT traffic_depth FROM access WHERE line = 15 AND base = 'b' => 1
// expect: SELECT traffic_depth FROM access WHERE line = 26 AND base = 'y' => 0
// expect: SELECT traffic_depth FROM access WHERE line = 28 AND base = 'x' => 1
