// Warp butterflies: a value combined with its `__shfl_xor_sync` partner
// (`v += __shfl_xor_sync(m, v, k)`, `OP::op(v, partner)` of a functor) is
// the same at lane and lane ^ k. A loop that halves k from 16 to 1 leaves
// it the same in the whole warp (a warp all-reduce), so a test of it does
// not split the warp; from 8 to 1, in each half of the warp; two steps
// (1 and 2) in each group of 4 lanes, where a butterfly step inside the
// group is `segment` divergence and a shuffle down by 4 leaves it.
struct MaxOp { static __device__ float op(float a, float b) { return fmaxf(a, b); } };
template <typename OP, typename T, unsigned LOG2>
__device__ T warp_reduce(unsigned mask, T input) {
  const unsigned group = 1u << LOG2;
#pragma unroll
  for (unsigned r = group >> 1; r > 0; r >>= 1) {
    T val = __shfl_xor_sync(mask, input, r, group);
    input = OP::op(input, val);
  }
  return input;
}
__global__ void k(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  float m = warp_reduce<MaxOp, float, 5>(0xffffffff, v);
  if (m > 1.0f) v += __shfl_down_sync(0xffffffff, v, 1);
  float s = v;
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
  if (s > 0.f) v += __shfl_down_sync(0xffffffff, v, 2);
  float t = v;
  t += __shfl_xor_sync(0xffffffff, t, 1);
  t += __shfl_xor_sync(0xffffffff, t, 2);
  if (t > 0.f) v += __shfl_xor_sync(0xffffffff, v, 1);
  if (t > 1.f) v += __shfl_down_sync(0xffffffff, v, 4);
  float u = v;
  for (int o = 8; o > 0; o >>= 1) u += __shfl_xor_sync(0xffffffff, u, o);
  if (u > 0.f) v += __shfl_down_sync(0xffffffff, v, 1);
  out[i] = v;
}
void run(const float *a, float *b, int n) { k<<<n / 256, 256>>>(a, b, n); }

// expect: SELECT COALESCE(divergence, 'none') FROM call WHERE kernel = 'k' AND line = 23 => none
// expect: SELECT COALESCE(divergence, 'none') FROM call WHERE kernel = 'k' AND line = 26 => none
// expect: SELECT divergence FROM call WHERE kernel = 'k' AND line = 30 => segment
// expect: SELECT divergence FROM call WHERE kernel = 'k' AND line = 31 => thread
// expect: SELECT divergence FROM call WHERE kernel = 'k' AND line = 34 => thread
