// Dot product reduced in the warp and the block first: one atomic per block.
__global__ void __launch_bounds__(256) dot(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ result, int n) {
  __shared__ float warp_sums[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? a[i] * b[i] : 0.0f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < 8 ? warp_sums[threadIdx.x] : 0.0f;
    for (int o = 4; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) atomicAdd(result, v);
  }
}

void dot_product(const float *a, const float *b, float *r, int n) { dot<<<(n + 255) / 256, 256>>>(a, b, r, n); }
