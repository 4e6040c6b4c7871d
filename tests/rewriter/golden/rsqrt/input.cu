// Reciprocal square roots spelled as a division.
__global__ void inv_norm(float *out, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = 1.0f / sqrtf(x[i]);
        float b = x[i] / 1.0f / sqrtf(x[i] + 1.0f);
        out[i] = a + b;
    }
}
