// Values the lanes of a warp share because they read one address: a field
// of the warp's own slot of a shared scratch, reached through a local
// reference (`Scratch &s = scratch[threadIdx.y]` with 32-wide rows), and a
// global element indexed by the warp (`counts[base / 32]`). Tests of them
// do not split the warp. A record read by groups of 4 lanes
// (`counts[(base + threadIdx.x) / 4]`) is the same in each group, so a
// butterfly step that stays in the group (`__shfl_xor_sync(m, v, 2)`) is
// `segment` divergence; a lane's own element splits the warp.
struct Scratch {
  int count;
  int type;
  float d[32];
};

__global__ void per_warp(const int *counts, float *out, int n) {
  __shared__ Scratch scratch[8];
  Scratch &s = scratch[threadIdx.y];
  if (threadIdx.x == 0) s.count = counts[blockIdx.x * 8 + threadIdx.y];
  __syncwarp();
  float v = threadIdx.x;
  if (s.count > 2) {
    v += __shfl_xor_sync(0xffffffff, v, 16);
  }
  int base = blockIdx.x * 256 + threadIdx.y * 32;
  int m = counts[base / 32];
  if (m > 1) v += __shfl_down_sync(0xffffffff, v, 1);
  int g = counts[(base + threadIdx.x) / 4];
  if (g > 1) v += __shfl_xor_sync(0xffffffff, v, 2);
  int own = counts[base + threadIdx.x];
  if (own > 1) v += __shfl_xor_sync(0xffffffff, v, 1);
  out[base + threadIdx.x] = v;
}

void run_per_warp(const int *c, float *o, int n) { per_warp<<<n, dim3(32, 8)>>>(c, o, n); }

// Binding a reference to an element reads nothing; a field array of that
// element is indexed from the element's address; a pointer loaded where
// the lanes differ is each lane's own (stores through it are not one
// address for the block).
struct Body {
  float *pos;
  float vel[32];
};

__global__ void bodies(Body *all, const int *ids, int n) {
  const Body &b = all[ids[blockIdx.x * blockDim.x + threadIdx.x]];
  Body &g = all[blockIdx.x];
  float *p = b.pos;
  for (int i = 0; i < n; i++) p[i] = g.vel[threadIdx.x % 32];
}

// expect: SELECT COUNT(*) FROM access WHERE kernel = 'per_warp' AND space = 'shared' AND base = 'scratch' AND line = 21 => 1
// expect: SELECT COALESCE(divergence, 'none') FROM call WHERE kernel = 'per_warp' AND line = 22 => none
// expect: SELECT COALESCE(divergence, 'none') FROM call WHERE kernel = 'per_warp' AND line = 26 => none
// expect: SELECT divergence FROM call WHERE kernel = 'per_warp' AND line = 28 => segment
// expect: SELECT divergence FROM call WHERE kernel = 'per_warp' AND line = 30 => thread
// expect: SELECT COUNT(*) FROM access WHERE kernel = 'bodies' AND line = 46 AND base = 'all' => 0
// expect: SELECT COUNT(*) FROM access WHERE kernel = 'bodies' AND line = 49 AND rw = 'read' AND base = 'all' AND block_uniform = 0 => 1
// expect: SELECT COUNT(*) FROM access WHERE kernel = 'bodies' AND line = 49 AND rw = 'write' AND block_uniform = 1 => 0
