// Threads grouped along y or z, each group in its own region of shared
// memory: through a pointer offset by the group's coordinate, or the row
// subscript of a 2-D array. The group's axes and its base are recorded
// (group_axes, group_base); a row read one group over has another base.
// A read of a pointer table (`A[batch]`) is marked as loading a pointer.
__global__ void rows_pick(const float *const *A, float *out, int rows, int w) {
  extern __shared__ float sm[];
  __shared__ float t[9][32];
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= rows) return;
  const float *a = A[row];
  float *mine = sm + threadIdx.y * w;
  for (int k = threadIdx.x; k < w; k += blockDim.x) mine[k] = a[k];
  t[threadIdx.y][threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  float acc = t[threadIdx.y + 1][threadIdx.x];
  for (int k = 0; k < w; k++) acc += mine[k];
  out[row] = acc;
}

void run(const float *const *A, float *out, int rows, int w) {
  rows_pick<<<(rows + 7) / 8, dim3(32, 8), 8 * w * sizeof(float)>>>(A, out, rows, w);
}

// expect: SELECT group_axes FROM access WHERE line = 13 AND base = 'sm' => y
// expect: SELECT count(DISTINCT group_base) FROM access WHERE base = 'sm' => 1
// expect: SELECT group_axes FROM access WHERE line = 14 AND base = 't' => y
// expect: SELECT (SELECT group_base FROM access WHERE line = 14 AND base = 't') = (SELECT group_base FROM access WHERE line = 16 AND base = 't') => 0
// expect: SELECT loads_pointer FROM access WHERE line = 11 AND base = 'A' AND rw = 'read' => 1
// expect: SELECT count(*) FROM access WHERE line = 13 AND base = 'A' AND loads_pointer = 1 => 0
// expect: SELECT exchange_access_id IS NOT NULL FROM early_return WHERE line = 10 => 1
