// A 32-bit global index over a buffer that may hold more than 2^31 elements.
#include <cstddef>
__global__ void copy(float *dst, const float *src, size_t n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long j = (unsigned long long)blockDim.x * blockIdx.x + threadIdx.x;
    long long k = threadIdx.x + (long long)blockIdx.x * blockDim.x;
    if (i < n && j < n && k < n)
        dst[i] = src[j] + src[k];
}
