// Lane and warp ids computed with a hard-coded warp size of 32.
#define WARPS 8
__global__ void lanes(int *out)
{
    __shared__ int per_warp[32];
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    int low = threadIdx.x & 31;
    per_warp[warp % WARPS] = lane + low;
    __syncthreads();
    out[threadIdx.x] = per_warp[lane % WARPS];
}
