// One warp per block: the resident-blocks-per-SM cap starves the SM.
__global__ void add(float *c, const float *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

void run(float *c, const float *a, const float *b, int n)
{
    add<<<(n + 31) / 32, 32>>>(c, a, b, n);
    add<<<n / 96, 96>>>(c, a, b, n);
}
