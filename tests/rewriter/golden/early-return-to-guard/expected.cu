// Threads past the end return before the barrier the others wait at.
__global__ void shift(float *out, const float *in, int n)
{
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        tile[threadIdx.x] = in[i];
    }
    __syncthreads();
    if (i < n) {
        float left = threadIdx.x > 0 ? tile[threadIdx.x - 1] : 0.0f;
        out[i] = tile[threadIdx.x] - left;
    }
}
