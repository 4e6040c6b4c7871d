// Tiled transpose: the column read tile[threadIdx.x][...] is a 32-way bank conflict.
#define TILE 32
__global__ void transpose(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    __shared__ float other[32][33];
    __shared__ float vec[32][32];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    other[threadIdx.y][threadIdx.x] = 0.0f;
    vec[threadIdx.y][threadIdx.x] = 0.0f;
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y] + other[threadIdx.x][threadIdx.y]
        + reinterpret_cast<float4 *>(vec[threadIdx.x])[0].x;
}
