// Corpus: shared-memory tiled SGEMM.
#define BS 16

__global__ void sgemm_tiled(const float *A, const float *B, float *C, int n)
{
	__shared__ float As[BS][BS];
	__shared__ float Bs[BS][BS];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * BS + ty;
	int col = blockIdx.x * BS + tx;
	float acc = 0.0f;
	for (int t = 0; t < n / BS; ++t) {
		As[ty][tx] = A[row * n + t * BS + tx];
		Bs[ty][tx] = B[(t * BS + ty) * n + col];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < BS; ++k)
			acc += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	C[row * n + col] = acc;
}

void gemm(const float *A, const float *B, float *C, int n)
{
	sgemm_tiled<<<dim3(n / BS, n / BS), dim3(BS, BS)>>>(A, B, C, n);
}
