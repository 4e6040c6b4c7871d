// Lane and warp ids computed with a hard-coded warp size of 32.
#define WARPS 8
__global__ void lanes(int *out)
{
    __shared__ int per_warp[32];
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    int low = threadIdx.x & (warpSize - 1);
    per_warp[warp % WARPS] = lane + low;
    __syncthreads();
    out[threadIdx.x] = per_warp[lane % WARPS];
}
