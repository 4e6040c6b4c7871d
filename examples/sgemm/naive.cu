// SGEMM, naive: C = A * B for row-major float matrices (A: m x k, B: k x n).
// One thread per element of C, every operand read straight from global
// memory, launched with 16 x 16 blocks.  kcheck reports: no reuse of the A and
// B elements between threads (gmem-no-tile-reuse), a block narrower than a
// warp in x (gmem-narrow-blockdim-x) and the unchecked launch.

__global__ void sgemm_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	if (row < m && col < n) {
		float acc = 0.0f;
		for (int p = 0; p < k; ++p)
			acc += a[row * k + p] * b[p * n + col];
		c[row * n + col] = acc;
	}
}

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
	sgemm_naive<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(c, a, b, m, n, k);
}
