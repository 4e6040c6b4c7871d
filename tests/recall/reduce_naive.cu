// recall: div-interleaved-reduction
// Block sum with interleaved addressing: tid % (2 * s) leaves one active lane
// in 2s, and the stride grows every step.
__global__ void reduce0(const float *__restrict__ in, float *__restrict__ out, int n) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void block_sums(const float *in, float *out, int n) {
  reduce0<<<(n + 255) / 256, 256>>>(in, out, n);
}
