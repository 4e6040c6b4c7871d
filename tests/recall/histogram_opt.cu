// 256-bin byte histogram privatized per block in shared memory, merged with
// one global atomic per bin and block.
#define NBINS 256
__global__ void __launch_bounds__(256) histo_shared(const unsigned char *__restrict__ data, unsigned int *__restrict__ bins, int n) {
  __shared__ unsigned int local[NBINS];
  local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

void histogram(const unsigned char *data, unsigned int *bins, int n) {
  histo_shared<<<264, NBINS>>>(data, bins, n);
}
