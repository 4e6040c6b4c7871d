// Corpus: dot product with a per-thread atomic (contended single address).
__global__ void dot(const float *a, const float *b, float *result, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(result, a[i] * b[i]);
}

void dot_product(const float *a, const float *b, float *r, int n)
{
	dot<<<(n + 255) / 256, 256>>>(a, b, r, n);
}
