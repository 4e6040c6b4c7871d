// Squares and cubes through powf/pow.
__global__ void poly(float *out, const float *x, const double *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = (x[i] * x[i]);
        float b = ((x[i] + 1.0f) * (x[i] + 1.0f) * (x[i] + 1.0f));
        double c = (d[i] * d[i]);
        float e = powf(x[i], 2.5f);
        out[i] = a + b + (float)c + e;
    }
}
