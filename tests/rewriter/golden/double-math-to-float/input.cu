// sqrt/exp on float operands call the double versions.
__global__ void norm(float *out, const float *x, const double *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        out[i] = sqrt(v) + exp(v) + (float)sqrt(d[i]);
    }
}
