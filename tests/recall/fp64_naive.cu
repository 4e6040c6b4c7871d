// recall: math-fp64-promotion
// A float polynomial evaluated with double literals in its inner loop.
__global__ void horner(const float *__restrict__ x, float *__restrict__ y, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], acc = 0.0f;
  for (int k = 0; k < iters; ++k) acc = acc * v + 0.5;
  y[i] = acc;
}

void poly(const float *x, float *y, int n, int iters) { horner<<<(n + 255) / 256, 256>>>(x, y, n, iters); }
