// recall: smem-tile-column-read
// Column sums of 32 x 32 tiles staged in an unpadded shared tile: the column
// walk hits one bank 32 times.
#define TILE 32
__global__ void tile_colsum(const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float tile[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.x * TILE + ty) * TILE + tx];
  __syncthreads();
  if (ty == 0) {
    float s = 0.0f;
    for (int r = 0; r < TILE; ++r) s += tile[tx][r];
    out[blockIdx.x * TILE + tx] = s;
  }
}

void colsums(const float *in, float *out, int tiles) {
  tile_colsum<<<tiles, dim3(TILE, TILE)>>>(in, out);
}
