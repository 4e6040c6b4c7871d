// A 256-bin histogram hammering global atomics.
__global__ void histogram(unsigned int *hist, const unsigned char *data, int n)
{
    __shared__ unsigned int hist_priv[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) hist_priv[b] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&hist_priv[data[i] & 255], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        atomicAdd(&hist[b], hist_priv[b]);
}
