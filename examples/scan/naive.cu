// Inclusive prefix sum within blocks of 256, naive: out-of-range threads
// return before the barrier, and thread 0 then scans the whole block serially
// while the other 255 threads wait.
// kcheck reports the early return before __syncthreads (an error:
// sync-early-return-before-barrier), the serial section
// (div-long-serial-section), its run-time trip count and the unchecked launch.

__global__ void scan_serial(float *out, float *block_sums, const float *in, int n)
{
	__shared__ float s[256];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	s[threadIdx.x] = in[i];
	__syncthreads();
	if (threadIdx.x == 0) {
		for (int k = 1; k < blockDim.x; ++k)
			s[k] += s[k - 1];
		block_sums[blockIdx.x] = s[blockDim.x - 1];
	}
	__syncthreads();
	out[i] = s[threadIdx.x];
}

void scan_blocks(float *out, float *block_sums, const float *in, int n)
{
	scan_serial<<<(n + 255) / 256, 256>>>(out, block_sums, in, n);
}
