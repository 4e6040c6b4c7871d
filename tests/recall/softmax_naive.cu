// recall: gmem-row-index-from-threadidx-x
// Softmax over the rows of a rows x cols matrix, one thread per row.
#include <cuda_runtime.h>

__global__ void softmax_rows(const float *__restrict__ x, float *__restrict__ y, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float *in = x + (size_t)row * cols;
  float m = -INFINITY;
  for (int j = 0; j < cols; ++j) m = fmaxf(m, x[(size_t)row * cols + j]);
  float s = 0.0f;
  for (int j = 0; j < cols; ++j) s += __expf(in[j] - m);
  for (int j = 0; j < cols; ++j) y[(size_t)row * cols + j] = __expf(x[(size_t)row * cols + j] - m) / s;
}

cudaError_t softmax(const float *x, float *y, int rows, int cols, cudaStream_t st) {
  softmax_rows<<<(rows + 127) / 128, 128, 0, st>>>(x, y, rows, cols);
  return cudaGetLastError();
}
