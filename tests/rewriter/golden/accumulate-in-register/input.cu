// Naive SGEMM accumulating straight into C: a global read-modify-write per k.
__global__ void sgemm(float *C, const float *A, const float *B, int N)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < N && col < N) {
        C[row * N + col] = 0.0f;
        for (int k = 0; k < N; k++)
            C[row * N + col] += A[row * N + k] * B[k * N + col];
    }
}
