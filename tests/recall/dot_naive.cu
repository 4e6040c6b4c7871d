// recall: atomic-scalar-reduction
// Dot product where every thread adds its product straight into the result.
__global__ void dot(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(result, a[i] * b[i]);
}

void dot_product(const float *a, const float *b, float *r, int n) { dot<<<(n + 255) / 256, 256>>>(a, b, r, n); }
