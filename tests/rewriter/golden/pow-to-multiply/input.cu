// Squares and cubes through powf/pow.
__global__ void poly(float *out, const float *x, const double *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = powf(x[i], 2.0f);
        float b = powf(x[i] + 1.0f, 3);
        double c = pow(d[i], 2.0);
        float e = powf(x[i], 2.5f);
        out[i] = a + b + (float)c + e;
    }
}
