// The value a helper returns, joined over its return statements. A helper
// whose returns each give a value the warp agrees on (a constant, a
// parameter, a shuffle broadcast from lane 0) returns one value per warp,
// so a condition on it (`if (len == RETRY)`) does not diverge and the
// full-mask shuffles of the retried call are reached by every lane. A
// helper that returns under a condition of its own that differs between
// lanes (`if (lane == 0) return 1; return 2;`) gives the lanes different
// values, though each return is a constant.
#define RETRY (-2)
#define FULL 0xffffffffu

__device__ int align_warp(const int *buf, int n, int rerun) {
  int lane = threadIdx.x % 32;
  if (rerun != 0 && n > 4096)
    return rerun;
  int best = 0;
  if (lane == 0) {
    for (int i = 0; i < n; ++i)
      best = max(best, buf[i]);
    if (best > 100)
      best = RETRY;
  }
  best = __shfl_sync(FULL, best, 0);
  return best;
}

__global__ void windows(const int *buf, int *out, int n, int total) {
  int lane = threadIdx.x % 32;
  int w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (w >= total)
    return;
  int len = align_warp(buf + w * n, n, 0);
  if (len == RETRY) {
    len = align_warp(buf + w * n, n * 2, len);
  }
  if (lane == 0)
    out[w] = len;
}

__device__ int lane_kind(void) {
  if (threadIdx.x % 32 == 0)
    return 1;
  return 2;
}

__global__ void kinds(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (lane_kind() == 1) {
    v += __shfl_down_sync(FULL, v, 1);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// A warp's own record (lens[w * 16 + s], w from threadIdx.x / 32), widened
// under a condition on a float of it: the condition, both values and so the
// merged width are one value per warp; so is the float product of it.
__global__ void bands(const int *lens, float *out, int total, int width0, float budget) {
  int w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (w >= total)
    return;
  int read_length = lens[w * 16 + 1], graph_count = lens[w * 16];
  float gradient = float(read_length + 1) / float(graph_count + 1);
  int width = width0;
  if (gradient > 1.1f)
    width = max(width, (int)(read_length * 0.08f * gradient));
  float need = float(graph_count) * float(width + 8);
  float v = 0.0f;
  if (need > budget)
    v = __shfl_sync(FULL, gradient, 0);
  int lane = threadIdx.x % 32;
  int wide = width0;
  if (lane < 4)
    wide = width0 * 2;
  if (wide > 64)
    v += __shfl_sync(FULL, v, 1);
  out[w * 32 + lane] = v;
}

void run(const int *buf, int *out, int n, int total, const float *in, float *o) {
  windows<<<(total + 3) / 4, 128>>>(buf, out, n, total);
  kinds<<<total, 256>>>(in, o);
  bands<<<(total + 3) / 4, 128>>>(buf, o, total, 256, 1e6f);
}

// The retry condition is one value per warp: no full-mask shuffle of windows is under a lane-divergent branch.
// expect: SELECT uniformity FROM branch WHERE kernel = 'windows' AND line = 33 => warp
// expect: SELECT count(*) FROM call WHERE kernel = 'windows' AND callee = '__shfl_sync' AND in_divergent_branch = 1 => 0
// expect: SELECT count(*) FROM call WHERE kernel = 'windows' AND callee = '__shfl_sync' => 2
// lane_kind's returns differ between lanes: the shuffle under its result diverges.
// expect: SELECT uniformity FROM branch WHERE kernel = 'kinds' AND line = 48 => thread
// expect: SELECT in_divergent_branch FROM call WHERE kernel = 'kinds' AND callee = '__shfl_down_sync' => 1
// bands: the widened width and the float product of it stay one value per warp; a value widened under a lane condition does not.
// expect: SELECT uniformity FROM branch WHERE kernel = 'bands' AND cond_text = 'need > budget' => warp
// expect: SELECT uniformity FROM branch WHERE kernel = 'bands' AND cond_text = 'wide > 64' => thread
// expect: SELECT count(*) FROM call WHERE kernel = 'bands' AND callee = '__shfl_sync' AND in_divergent_branch = 1 => 1
