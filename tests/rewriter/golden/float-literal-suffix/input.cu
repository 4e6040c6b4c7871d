// A float kernel whose double literals widen every multiply to FP64.
#define HALF 0.5

__global__ void scale(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i] * 0.5 + 1e-3;
        out[i] = v * HALF;
    }
}
