// A CUDA-style warp sum ported to HIP with a 32-bit lane mask.
__device__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffff, v, o);
    unsigned mask = 0xffffffffu;
    return __shfl_sync(mask, v, 0);
}
