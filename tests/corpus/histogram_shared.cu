// Corpus: 256-bin byte histogram, privatized in shared memory.
__global__ void histogram256(const unsigned char *data, unsigned int *bins, size_t n)
{
	__shared__ unsigned int local[256];
	for (int b = threadIdx.x; b < 256; b += blockDim.x)
		local[b] = 0;
	__syncthreads();
	size_t stride = (size_t)blockDim.x * gridDim.x;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
		atomicAdd(&local[data[i]], 1u);
	__syncthreads();
	for (int b = threadIdx.x; b < 256; b += blockDim.x)
		atomicAdd(&bins[b], local[b]);
}

void histogram(const unsigned char *d, unsigned int *bins, size_t n)
{
	histogram256<<<240, 256>>>(d, bins, n);
}
