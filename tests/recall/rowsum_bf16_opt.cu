// Row sums of a bf16 matrix, one warp per row, two elements per lane and
// step through __nv_bfloat162.
#include <cuda_bf16.h>

__global__ void __launch_bounds__(256) row_sum(const __nv_bfloat162 *__restrict__ x, float *__restrict__ out, int rows, int cols2) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (r >= rows) return;
  const __nv_bfloat162 *row = x + (size_t)r * cols2;
  float s = 0.0f;
  for (int c = lane; c < cols2; c += 32) {
    float2 v = __bfloat1622float2(row[c]);
    s += v.x + v.y;
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) out[r] = s;
}

void row_sums(const __nv_bfloat162 *x, float *out, int rows, int cols) {
  row_sum<<<(rows * 32 + 255) / 256, 256>>>(x, out, rows, cols / 2);
}
