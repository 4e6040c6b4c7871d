// Corpus: naive SGEMM, C = alpha * A * B + beta * C (row-major).
__global__ void sgemm_naive(int M, int N, int K, float alpha, const float *A,
			    const float *B, float beta, float *C)
{
	int row = blockIdx.x * blockDim.x + threadIdx.x;
	int col = blockIdx.y * blockDim.y + threadIdx.y;
	if (row < M && col < N) {
		float acc = 0.0f;
		for (int k = 0; k < K; ++k)
			acc += A[row * K + k] * B[k * N + col];
		C[row * N + col] = alpha * acc + beta * C[row * N + col];
	}
}

void gemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	dim3 block(32, 32);
	dim3 grid((M + 31) / 32, (N + 31) / 32);
	sgemm_naive<<<grid, block>>>(M, N, K, 1.0f, A, B, 0.0f, C);
}
