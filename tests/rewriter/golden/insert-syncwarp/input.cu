// The classic unrolled last warp, relying on lockstep execution.
__global__ void reduce(float *out, const float *in)
{
    __shared__ volatile float s[64];
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * 64 + tid];
    __syncthreads();
    if (tid < 32) {
        s[tid] += s[tid + 32];
        s[tid] += s[tid + 16];
        s[tid] += s[tid + 8];
        s[tid] += s[tid + 4];
        s[tid] += s[tid + 2];
        s[tid] += s[tid + 1];
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
