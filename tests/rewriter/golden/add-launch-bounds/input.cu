// Always launched with 256 threads per block, but the compiler is not told.
__global__ void axpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += a * x[i];
}

template <typename T>
__global__ void fill(T *p, T v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v;
}

__global__ void tiny(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 0.0f;
}

void run(float *y, const float *x, int n)
{
    axpy<<<(n + 255) / 256, 256>>>(y, x, 2.0f, n);
    fill<float><<<(n + 127) / 128, 128>>>(y, 0.0f, n);
    tiny<<<(n + 63) / 64, 64>>>(y, n);
}
