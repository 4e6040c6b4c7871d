// recall: gmem-row-index-from-threadidx-x
// LayerNorm, one thread per token: each thread walks its own row of C floats.
#include <cuda_runtime.h>

__global__ void layernorm_fwd(float *__restrict__ out, const float *__restrict__ inp,
                              const float *__restrict__ w, const float *__restrict__ b, int N, int C) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= N) return;
  float mean = 0.0f;
  for (int i = 0; i < C; i++) mean += inp[t * C + i];
  mean /= C;
  float var = 0.0f;
  for (int i = 0; i < C; i++) {
    float d = inp[t * C + i] - mean;
    var += d * d;
  }
  float rstd = rsqrtf(var / C + 1e-5f);
  for (int i = 0; i < C; i++) out[t * C + i] = (inp[t * C + i] - mean) * rstd * w[i] + b[i];
}

void layernorm(float *out, const float *inp, const float *w, const float *b, int N, int C) {
  layernorm_fwd<<<(N + 255) / 256, 256>>>(out, inp, w, b, N, C);
}
