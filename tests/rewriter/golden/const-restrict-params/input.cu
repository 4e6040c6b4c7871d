// Read-only inputs passed as plain pointers: every store may alias them.
__global__ void saxpy(float *y, float *x, float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a[0] * x[i] + y[i];
}
