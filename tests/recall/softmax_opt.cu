// Softmax over the rows of a rows x cols matrix, one warp per row: lanes
// walk along the row, partial results meet through warp shuffles.
#include <cuda_runtime.h>

__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__global__ void __launch_bounds__(256) softmax_rows(const float *__restrict__ x, float *__restrict__ y, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  const float *in = x + (size_t)warp * cols;
  float *out = y + (size_t)warp * cols;
  float m = -INFINITY;
  for (int j = lane; j < cols; j += 32) m = fmaxf(m, in[j]);
  m = warp_max(m);
  float s = 0.0f;
  for (int j = lane; j < cols; j += 32) s += __expf(in[j] - m);
  s = warp_sum(s);
  for (int j = lane; j < cols; j += 32) out[j] = __expf(in[j] - m) / s;
}

cudaError_t softmax(const float *x, float *y, int rows, int cols, cudaStream_t st) {
  softmax_rows<<<(rows * 32 + 255) / 256, 256, 0, st>>>(x, y, rows, cols);
  return cudaGetLastError();
}
