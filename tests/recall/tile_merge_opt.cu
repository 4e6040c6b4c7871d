// The launch gives as many threads as the copy loops' step (128): every
// thread runs 8 trips of each, so their barriers are reached uniformly; and
// the switch is on range = last - first, the same in every thread although
// first is not.
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
  tile_merge<<<ntiles, TILE / 8>>>(out, in, TILE);
}
