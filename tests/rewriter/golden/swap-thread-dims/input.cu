// Row index from threadIdx.x: neighbouring lanes are N floats apart.
__global__ void scale2d(float *a, int N)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < N && col < N)
        a[row * N + col] *= 2.0f;
}

void run(float *a, int N)
{
    dim3 block(32, 8);
    dim3 grid((N + 31) / 32, (N + 7) / 8);
    scale2d<<<grid, block>>>(a, N);
}
