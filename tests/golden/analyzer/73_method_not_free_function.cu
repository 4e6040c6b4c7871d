// A method call in a template (`(p - q).magnitude()`) that the walk
// resolves by name must not land on a free function of the same name with
// one parameter more (`magnitude(float)`, whose warp shuffles would then be
// walked in a per-thread kernel). A call clang names through a prototype
// (`dot(float3, float3)` declared before use) takes the definition with the
// same parameter types, not another overload of the arity (`dot(float,
// float)`).
struct Vec3 {
  float x, y, z;
  __device__ float magnitude() const { return sqrtf(x * x + y * y + z * z); }
  __device__ Vec3 operator-(const Vec3 &o) const { return Vec3{x - o.x, y - o.y, z - o.z}; }
};

static __device__ inline float magnitude(float a) {
  float x = a * a;
  return sqrtf(x + __shfl_down_sync(0xffffffff, x, 1) + __shfl_down_sync(0xffffffff, x, 2));
}

template <int N>
__device__ float spread(const Vec3 &p, const Vec3 &q) {
  return (p - q).magnitude() * N;
}

__global__ void lengths(const Vec3 *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = spread<2>(in[i], in[0]);
}

__device__ float dot(float3 a, float3 b);
static __device__ inline float dot(float a, float b) {
  float x = a * b;
  return x + __shfl_down_sync(0xffffffff, x, 1);
}
__device__ float3 unit3(float3 v) {
  float inv = rsqrtf(dot(v, v));
  return make_float3(v.x * inv, v.y * inv, v.z * inv);
}
__device__ float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

__global__ void units(const float3 *in, float3 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = unit3(in[i]);
}

// expect: SELECT COUNT(*) FROM call WHERE kernel = 'lengths' AND callee = '__shfl_down_sync' => 0
// expect: SELECT COUNT(*) FROM call WHERE kernel = 'units' AND callee = '__shfl_down_sync' => 0
