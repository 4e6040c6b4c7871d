// An index array a callee fills, and a pack whose size the template leaves
// open: both are one address per lane.
template <int N> struct IndexHelper {
  long dims[N];
  __device__ void split(long off, long *idx) const {
    for (int i = 0; i < N; i++) {
      idx[i] = off % dims[i];
      off /= dims[i];
    }
  }
};

// `h.split(i, idx)` of a dependent `h` is not inlined: what it leaves in
// idx varies as i does, so entire[idx[0]] is no block-uniform address
template <typename T, int N>
__global__ void scatter_back(int n, IndexHelper<N> h, T *entire, const T *sliced) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    long idx[N] = {0};
    h.split(i, idx);
    entire[idx[0]] = sliced[i];
  }
}

template <typename T, int P> struct alignas(sizeof(T) * P) Pack { T elem[P]; };
template <typename T, int P> struct PackOf { using type = Pack<T, P>; };

// each lane loads P elements as one pack, the next lane the next P: the
// lanes are one pack apart, not a run-time width
template <typename T, int P>
__global__ void pack_sum(const T *x, float *out, int len) {
  using Load = typename PackOf<T, P>::type;
  float s = 0.0f;
  for (int j = threadIdx.x * P; j < len; j += blockDim.x * P) {
    const Load *p = reinterpret_cast<const Load *>(x + blockIdx.x * len + j);
    Load v = *p;
    for (int i = 0; i < P; i++)
      s += v.elem[i];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// expect: SELECT block_uniform FROM access WHERE line = 20 AND base = 'entire' => 0
// expect: SELECT kind_tx FROM access WHERE line = 35 AND base = 'x' => const
// expect: SELECT sectors_per_request FROM access WHERE line = 35 AND base = 'x' => 16
