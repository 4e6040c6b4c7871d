// 256-bin byte histogram, naive: every input byte does one global atomicAdd
// on its bin.  On skewed data (text, images with large flat areas) most of the
// grid's atomics hit a few addresses and serialize in L2.
// kcheck reports the hot data-dependent global atomics (atomic-hot-bins)
// and the unchecked launch.

__global__ void histogram_global(unsigned int *hist, const unsigned char *data, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&hist[data[i]], 1u);
}

void histogram(unsigned int *hist, const unsigned char *data, int n)
{
	histogram_global<<<(n + 255) / 256, 256>>>(hist, data, n);
}
