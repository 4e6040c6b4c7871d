// recall: atomic-hot-bins
// 256-bin byte histogram with one global atomic per input byte.
__global__ void histo_global(const unsigned char *__restrict__ data, unsigned int *__restrict__ bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[data[i]], 1u);
}

void histogram(const unsigned char *data, unsigned int *bins, int n) {
  histo_global<<<264, 256>>>(data, bins, n);
}
