// A helper in a header whose barrier runs under its caller's condition
// (tests/golden/analyzer/69_helper_barrier_file.cu).
__device__ void scale_panel(float *panel, int n) {
  panel[threadIdx.x] *= 2.0f;
  __syncthreads();
  panel[threadIdx.x] += panel[(threadIdx.x + 1) % n];
}
