// Templated softmax, one warp per row.
#include <cuda_runtime.h>

template <typename T>
__global__ void __launch_bounds__(256) softmax_rows(const T *__restrict__ x, T *__restrict__ y, int rows, int cols) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const T *in = x + (size_t)row * cols;
  T *out = y + (size_t)row * cols;
  float m = -INFINITY;
  for (int j = lane; j < cols; j += 32) m = fmaxf(m, (float)in[j]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float s = 0.0f;
  for (int j = lane; j < cols; j += 32) s += __expf((float)in[j] - m);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  for (int j = lane; j < cols; j += 32) out[j] = (T)(__expf((float)in[j] - m) / s);
}

template <typename T>
cudaError_t softmax(const T *x, T *y, int rows, int cols) {
  softmax_rows<T><<<(rows * 32 + 255) / 256, 256>>>(x, y, rows, cols);
  return cudaGetLastError();
}
template cudaError_t softmax<float>(const float *, float *, int, int);
