// Corpus: one compare-exchange step of a global bitonic sort.
__global__ void bitonic_step(float *values, int j, int k)
{
	unsigned int i = threadIdx.x + blockDim.x * blockIdx.x;
	unsigned int ixj = i ^ j;
	if (ixj > i) {
		if ((i & k) == 0) {
			if (values[i] > values[ixj]) {
				float t = values[i];
				values[i] = values[ixj];
				values[ixj] = t;
			}
		} else {
			if (values[i] < values[ixj]) {
				float t = values[i];
				values[i] = values[ixj];
				values[ixj] = t;
			}
		}
	}
}

void bitonic_sort(float *d, int n)
{
	for (int k = 2; k <= n; k <<= 1)
		for (int j = k >> 1; j > 0; j >>= 1)
			bitonic_step<<<n / 512, 512>>>(d, j, k);
}
