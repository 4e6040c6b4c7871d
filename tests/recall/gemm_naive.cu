// recall: gmem-no-tile-reuse
// Naive SGEMM C = A * B (row-major, M x K times K x N), one thread per
// output element; every thread streams a row of A and a column of B.
__global__ void sgemm_naive(int M, int N, int K, const float *__restrict__ A,
                            const float *__restrict__ B, float *__restrict__ C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}

void sgemm(int M, int N, int K, const float *A, const float *B, float *C) {
  dim3 block(16, 16), grid((N + 15) / 16, (M + 15) / 16);
  sgemm_naive<<<grid, block>>>(M, N, K, A, B, C);
}
