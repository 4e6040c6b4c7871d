// Row index from threadIdx.x: neighbouring lanes are N floats apart.
__global__ void scale2d(float *a, int N)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < N && col < N)
        a[row * N + col] *= 2.0f;
}

void run(float *a, int N)
{
    dim3 block(8, 32);
    dim3 grid((N + 7) / 8, (N + 31) / 32);
    scale2d<<<grid, block>>>(a, N);
}
