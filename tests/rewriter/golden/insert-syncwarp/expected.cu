// The classic unrolled last warp, relying on lockstep execution.
__global__ void reduce(float *out, const float *in)
{
    __shared__ volatile float s[64];
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * 64 + tid];
    __syncthreads();
    if (tid < 32) {
        { auto warp_tmp = s[tid] + (s[tid + 32]); __syncwarp(); s[tid] = warp_tmp; __syncwarp(); }
        { auto warp_tmp = s[tid] + (s[tid + 16]); __syncwarp(); s[tid] = warp_tmp; __syncwarp(); }
        { auto warp_tmp = s[tid] + (s[tid + 8]); __syncwarp(); s[tid] = warp_tmp; __syncwarp(); }
        { auto warp_tmp = s[tid] + (s[tid + 4]); __syncwarp(); s[tid] = warp_tmp; __syncwarp(); }
        { auto warp_tmp = s[tid] + (s[tid + 2]); __syncwarp(); s[tid] = warp_tmp; __syncwarp(); }
        { auto warp_tmp = s[tid] + (s[tid + 1]); __syncwarp(); s[tid] = warp_tmp; __syncwarp(); }
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
