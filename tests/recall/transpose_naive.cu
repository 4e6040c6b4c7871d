// recall: gmem-uncoalesced-store
// Naive transpose of a 4096 x 4096 matrix: reads are coalesced, the writes
// walk down a column.
#define N 4096
__global__ void transpose(float *__restrict__ out, const float *__restrict__ in) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  out[x * N + y] = in[y * N + x];
}

void run_transpose(float *out, const float *in) {
  dim3 grid(N / 32, N / 32), block(32, 32);
  transpose<<<grid, block>>>(out, in);
}
