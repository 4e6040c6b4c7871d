// A 32-bit global index over a buffer that may hold more than 2^31 elements.
#include <cstddef>
__global__ void copy(float *dst, const float *src, size_t n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int j = blockDim.x * blockIdx.x + threadIdx.x;
    int k = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n && j < n && k < n)
        dst[i] = src[j] + src[k];
}
