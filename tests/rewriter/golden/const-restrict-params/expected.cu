// Read-only inputs passed as plain pointers: every store may alias them.
__global__ void saxpy(float *__restrict__ y, const float *__restrict__ x, const float* __restrict__ a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a[0] * x[i] + y[i];
}
