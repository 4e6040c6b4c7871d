// A block whose x and y sizes are run-time values at every launch but
// whose z size every launch writes as 1 (`dim3 threads(n, n, 1)`): the
// z axis comes from the launches, so threadIdx.z is 0 and an index built
// from it (`blockIdx.x * blockDim.z + threadIdx.z`) is the same in every
// thread. The loop over this block's share of k and its early return
// are then not thread-dependent. A launch with a run-time z size keeps
// the axis unknown.
template <int N>
__global__ void share_of_k(int k, const double *dA, double *dC, int nblocks) {
  extern __shared__ double tile[];
  const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  const int bx = blockIdx.x * blockDim.z + tz;
  double *sA = tile + tz * N * N;
  if (bx >= nblocks) return;
  const int myk = min(N * 4, k - bx * N * 4);
  double r = 0;
  for (int kk = 0; kk < myk - N; kk += N) {
    sA[ty * N + tx] = dA[ty * k + tx + kk];
    __syncthreads();
    for (int j = 0; j < N; j++) r += sA[j * N + tx] * sA[j * N + ty];
    __syncthreads();
  }
  dC[ty * N + tx] = r;
}

void run_share_of_k(int n, int k, const double *dA, double *dC, int nb) {
  dim3 threads(n, n, 1);
  share_of_k<8><<<nb, threads, 8 * 8 * 8>>>(k, dA, dC, nb);
}

template <int N>
__global__ void share_of_k_z(int k, const double *dA, double *dC, int nblocks) {
  extern __shared__ double tile[];
  const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  const int bx = blockIdx.x * blockDim.z + tz;
  double *sA = tile + tz * N * N;
  if (bx >= nblocks) return;
  const int myk = min(N * 4, k - bx * N * 4);
  double r = 0;
  for (int kk = 0; kk < myk - N; kk += N) {
    sA[ty * N + tx] = dA[ty * k + tx + kk];
    __syncthreads();
    for (int j = 0; j < N; j++) r += sA[j * N + tx] * sA[j * N + ty];
    __syncthreads();
  }
  dC[ty * N + tx] = r;
}

void run_share_of_k_z(int n, int nz, int k, const double *dA, double *dC, int nb) {
  dim3 threads(n, n, nz);
  share_of_k_z<8><<<nb, threads, 8 * 8 * 8 * nz>>>(k, dA, dC, nb);
}

// expect: SELECT block_z FROM kernel WHERE name = 'share_of_k' => 1
// expect: SELECT COUNT(*) FROM loop WHERE kernel = 'share_of_k' AND trip_thread_dependent = 1 => 0
// expect: SELECT COUNT(*) FROM barrier WHERE kernel = 'share_of_k' AND (in_nonuniform_loop = 1 OR after_divergent_return = 1) => 0
// expect: SELECT COUNT(*) FROM loop WHERE kernel = 'share_of_k_z' AND trip_thread_dependent = 1 => 1
// expect: SELECT COUNT(*) FROM barrier WHERE kernel = 'share_of_k_z' AND in_nonuniform_loop = 1 => 2
