// Harris's reduction #1: interleaved addressing, divergent warps.
__global__ void reduce(float *out, const float *in)
{
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}
