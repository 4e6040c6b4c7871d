// The bias and the scale are re-read from global memory every iteration.
__global__ void dense(float *out, const float *w, const float *x, const float *bias, const float *scale, int k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = 0.0f;
    #pragma unroll 4
    for (int j = 0; j < k; j++) {
        acc += w[i * k + j] * x[j] * scale[0] + bias[i];
    }
    out[i] = acc;
}
