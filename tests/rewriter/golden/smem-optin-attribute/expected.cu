// 64 KB of dynamic shared memory without the opt-in: the launch fails.
__global__ void big(float *out)
{
    extern __shared__ float buf[];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

void run(float *out, bool twice)
{
    const int bytes = 64 * 1024;
    cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(bytes));
    big<<<1, 256, bytes>>>(out);
    if (twice)
        big<<<1, 256, bytes>>>(out);
}
