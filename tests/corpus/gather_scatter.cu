// Corpus: indexed gather and scatter (data-dependent addresses).
__global__ void gather(const float *src, const int *idx, float *dst, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] = src[idx[i]];
}

__global__ void scatter_add(const float *src, const int *idx, float *dst, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&dst[idx[i]], src[i]);
}

void permute(const float *s, const int *ix, float *d, int n)
{
	gather<<<(n + 255) / 256, 256>>>(s, ix, d, n);
	scatter_add<<<(n + 255) / 256, 256>>>(s, ix, d, n);
}
