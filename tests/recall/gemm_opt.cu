// Shared-memory tiled SGEMM: each 16 x 16 tile of A and B is loaded once per
// block and reused 16 times from shared memory.
#define TILE 16
__global__ void __launch_bounds__(256) sgemm_tiled(int M, int N, int K, const float *__restrict__ A,
                            const float *__restrict__ B, float *__restrict__ C) {
  __shared__ float As[TILE][TILE + 1];
  __shared__ float Bs[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

void sgemm(int M, int N, int K, const float *A, const float *B, float *C) {
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  sgemm_tiled<<<grid, block>>>(M, N, K, A, B, C);
}
