// recall: gmem-row-index-from-threadidx-x
// Row sums of a bf16 matrix, one thread per row.
#include <cuda_bf16.h>

__global__ void row_sum(const __nv_bfloat16 *__restrict__ x, float *__restrict__ out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += __bfloat162float(x[(size_t)r * cols + c]);
  out[r] = s;
}

void row_sums(const __nv_bfloat16 *x, float *out, int rows, int cols) {
  row_sum<<<(rows + 255) / 256, 256>>>(x, out, rows, cols);
}
