// Two barriers after a braced early exit, and a second kernel whose value
// crosses a barrier (not the simple pattern: left alone with a note).
__global__ void stencil(float *out, const float *in, int n)
{
    __shared__ float a[256];
    __shared__ float b[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || in[i] < 0.0f) {
        return;
    }
    a[threadIdx.x] = in[i];
    __syncthreads();
    b[threadIdx.x] = a[threadIdx.x] * 2.0f; // scale
    __syncthreads();
    out[i] = b[threadIdx.x] + b[0];
}

__global__ void carry(float *out, const float *in, int n)
{
    __shared__ float a[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    a[threadIdx.x] = v;
    __syncthreads();
    out[i] = a[threadIdx.x] + v;
}
