// A barrier in a helper from a header, reached under a condition of the
// kernel's file: the barrier row names that file beside the condition's
// line, so the message can say where the condition is. A barrier in the
// kernel's own file under its own condition leaves the file NULL.
#include "inc/69_panel.cuh"

__global__ void panels(float *a, int n) {
  __shared__ float panel[256];
  panel[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < n) {
    scale_panel(panel, n);
  }
  if (threadIdx.x < n / 2) {
    __syncthreads();
    a[threadIdx.x] = panel[threadIdx.x];
  }
}

void run_panels(float *a, int n) { panels<<<1, 256>>>(a, n); }

// A warp call under a lane-dependent condition records it the same way.
__global__ void sums(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    v += __shfl_down_sync(0xffffffffu, v, 1);
    out[i] = v;
  }
}

// expect: SELECT COUNT(*) FROM barrier WHERE kernel = 'panels' AND in_divergent_branch = 1 => 2
// expect: SELECT divergent_branch_line FROM barrier WHERE kernel = 'panels' AND file LIKE '%69_panel.cuh' => 10
// expect: SELECT divergent_branch_file LIKE '%69_helper_barrier_file.cu' FROM barrier WHERE kernel = 'panels' AND file LIKE '%69_panel.cuh' => 1
// expect: SELECT COALESCE(divergent_branch_file, 'none') FROM barrier WHERE kernel = 'panels' AND line = 14 => none
// expect: SELECT divergent_branch_line FROM call WHERE kernel = 'sums' AND callee = '__shfl_down_sync' => 24
// expect: SELECT COALESCE(divergent_branch_file, 'none') FROM call WHERE kernel = 'sums' AND callee = '__shfl_down_sync' => none
