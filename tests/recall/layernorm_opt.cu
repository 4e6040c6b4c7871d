// LayerNorm, one warp per token: lanes stride over the row, shuffles reduce.
#include <cuda_runtime.h>

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__global__ void __launch_bounds__(256) layernorm_fwd(float *__restrict__ out, const float *__restrict__ inp,
                              const float *__restrict__ w, const float *__restrict__ b, int N, int C) {
  int t = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (t >= N) return;
  const float *x = inp + (size_t)t * C;
  float *o = out + (size_t)t * C;
  float sum = 0.0f;
  for (int i = lane; i < C; i += 32) sum += x[i];
  float mean = warp_sum(sum) / C;
  float sq = 0.0f;
  for (int i = lane; i < C; i += 32) {
    float d = x[i] - mean;
    sq += d * d;
  }
  float rstd = rsqrtf(warp_sum(sq) / C + 1e-5f);
  for (int i = lane; i < C; i += 32) o[i] = (x[i] - mean) * rstd * w[i] + b[i];
}

void layernorm(float *out, const float *inp, const float *w, const float *b, int N, int C) {
  layernorm_fwd<<<(N * 32 + 255) / 256, 256>>>(out, inp, w, b, N, C);
}
