// Block sum with sequential addressing, finished with warp shuffles.
__global__ void __launch_bounds__(256) reduce3(const float *__restrict__ in, float *__restrict__ out, int n) {
  __shared__ float sdata[256];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = 128; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    float v = sdata[tid] + sdata[tid + 32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (tid == 0) out[blockIdx.x] = v;
  }
}

void block_sums(const float *in, float *out, int n) {
  reduce3<<<(n + 255) / 256, 256>>>(in, out, n);
}
