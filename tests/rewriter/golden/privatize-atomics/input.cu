// A 256-bin histogram hammering global atomics.
__global__ void histogram(unsigned int *hist, const unsigned char *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&hist[data[i] & 255], 1u);
}
