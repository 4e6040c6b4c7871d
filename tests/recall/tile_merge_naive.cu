// recall: sync-barrier-in-divergent-branch
// A block merges a 1024-key tile in shared memory and copies it out in a
// loop with barriers, for (i = threadIdx.x; i < tile; i += TILE_STEP),
// each thread reading its neighbour's key after the barrier.  The launch
// gives 256 threads for a step of 128: threads 0-127 run 8 trips, threads
// 128-255 run 7, so in the last trip a thread reads a key that a thread
// which has left the loop did not update.  (Had each thread read back only
// its own key, current GPUs, which count the exited threads as arrived,
// would pass: sync-barrier-skip-exit, measured by scripts/probe.sh
// skip_barrier.)
#define TILE 1024
#define TILE_STEP 128

__global__ void tile_merge(unsigned *__restrict__ out, const unsigned *__restrict__ in, int tile) {
  __shared__ unsigned keys[TILE];
  for (int i = threadIdx.x; i < tile; i += TILE_STEP)
    keys[i] = in[blockIdx.x * tile + i];
  __syncthreads();
  int tid = threadIdx.x;
  for (int pass = 0; pass < 4; pass++) {
    int width = 8 << pass;
    // the quarter of its half tile this thread searches: the start differs
    // between threads (and warps), the length (range) does not
    int first = (tid / 64) * 512;
    if (tid % 64 >= 32)
      first += 4 * width;
    int last = first + 4 * width - 1;
    int range = last - first;
    unsigned mine = keys[tid];
    int pos = first;
    switch (range) {
    case 255:
      pos += keys[first + 128] < mine ? 128 : 0;
      __syncthreads();
    default:
      pos += keys[first + 16] < mine ? 16 : 0;
      __syncthreads();
    }
    unsigned got = keys[pos];
    __syncthreads();
    keys[tid] = got;
    __syncthreads();
  }
  for (int i = threadIdx.x; i < tile; i += TILE_STEP) {
    keys[i] += 1;
    __syncthreads();
    out[blockIdx.x * tile + i] = keys[(i + 1) % tile];
    __syncthreads();
  }
}

void sort_tiles(unsigned *out, const unsigned *in, int ntiles) {
  tile_merge<<<ntiles, 256>>>(out, in, TILE);
}
