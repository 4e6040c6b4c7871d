// An unqualified call in a template whose arguments depend on it, with
// two candidates of the same arity: a warp variant that needs its block
// size written out (BLOCKDIM appears in no parameter) and a per-thread
// one. The call writes no template arguments, so it names the per-thread
// one: its loop is walked inside the kernel, the warp variant's shuffle
// is not.
namespace priv {
template <unsigned BLOCKDIM, typename T>
__device__ int score(const T *a, int n, int *out) {
  int v = a[threadIdx.x % BLOCKDIM];
  v += __shfl_down_sync(0xffffffff, v, 1);
  out[threadIdx.x] = v;
  return v;
}
}  // namespace priv

template <typename T>
__device__ int score(const T *a, int n, int *out) {
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  out[0] = s;
  return s;
}

using namespace priv;

template <typename T>
__device__ void batched(const T *a, int n, int *out) {
  score(a, n, out);
}

template <typename T>
__global__ void per_thread(const T *a, int n, int *out) {
  if (blockIdx.x * blockDim.x + threadIdx.x < n) batched(a + threadIdx.x * n, n, out + threadIdx.x);
}

void run(const int *a, int n, int *out) { per_thread<<<4, 128>>>(a, n, out); }

// expect: SELECT count(*) FROM call WHERE kernel = 'per_thread' AND callee = '__shfl_down_sync' => 0
// expect: SELECT count(*) FROM loop WHERE kernel = 'per_thread' AND line = 20 => 1
