// recall: launch-tiny-blocks
// A streaming scale launched with 32-thread blocks.
__global__ void scale(float *__restrict__ out, const float *__restrict__ in, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * in[i];
}

void run_scale(float *out, const float *in, float a, int n) { scale<<<(n + 31) / 32, 32>>>(out, in, a, n); }
