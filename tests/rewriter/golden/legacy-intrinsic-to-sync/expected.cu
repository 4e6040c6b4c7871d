// Pre-Volta warp reduction with the removed non-_sync intrinsics.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
// Legacy intrinsics are gone on sm_70+: declare them so the old code parses.
__device__ float __shfl_down(float v, unsigned int d, int w = 32);
__device__ int __any(int p);
#endif

__device__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}

__global__ void flag(int *out, const float *x)
{
    int p = x[threadIdx.x] > 0.0f;
    if (threadIdx.x % 2)
        out[0] = __any_sync(__activemask(), p);
    out[1] = (int)warp_sum(x[threadIdx.x]);
}
