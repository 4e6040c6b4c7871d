// Tiled transpose: a 32 x 33 shared tile (padded against bank conflicts),
// coalesced reads and coalesced writes.
#define N 4096
#define TILE 32
__global__ void __launch_bounds__(1024) transpose(float *__restrict__ out, const float *__restrict__ in) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * N + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}

void run_transpose(float *out, const float *in) {
  dim3 grid(N / TILE, N / TILE), block(TILE, TILE);
  transpose<<<grid, block>>>(out, in);
}
