// Inclusive prefix sum of up to 256 * 1024 floats in three kernels:
// (1) each 256-thread block scans its elements with warp shuffles
//     (__shfl_up_sync), scans the eight warp totals the same way in warp 0,
//     and writes its total; (2) one 1024-thread block scans the block totals;
// (3) every block adds the total of the blocks before it.  No thread leaves
// before a barrier, and no thread scans serially.

#define BLOCK 256

__device__ float warp_inclusive_scan(float v, int lane)
{
	for (int o = 1; o < 32; o <<= 1) {
		float u = __shfl_up_sync(0xffffffffu, v, o);
		if (lane >= o)
			v += u;
	}
	return v;
}

/* Inclusive scan of one value per thread across the block; blockDim.x <= 1024. */
__device__ float block_inclusive_scan(float v)
{
	__shared__ float warp_totals[32];
	int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	v = warp_inclusive_scan(v, lane);
	if (lane == 31)
		warp_totals[warp] = v;
	__syncthreads();
	if (warp == 0) {
		float t = (lane < blockDim.x / 32) ? warp_totals[lane] : 0.0f;
		warp_totals[lane] = warp_inclusive_scan(t, lane);
	}
	__syncthreads();
	if (warp > 0)
		v += warp_totals[warp - 1];
	return v;
}

__global__ void __launch_bounds__(BLOCK)
scan_blocks(float *__restrict__ out, float *__restrict__ block_sums, const float *__restrict__ in,
	    int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = block_inclusive_scan((i < n) ? in[i] : 0.0f);
	if (i < n)
		out[i] = v;
	if (threadIdx.x == BLOCK - 1)
		block_sums[blockIdx.x] = v;
}

__global__ void __launch_bounds__(1024)
scan_totals(float *__restrict__ block_sums, int count)
{
	int i = threadIdx.x;
	float v = block_inclusive_scan((i < count) ? block_sums[i] : 0.0f);
	if (i < count)
		block_sums[i] = v;
}

__global__ void __launch_bounds__(BLOCK)
add_offsets(float *__restrict__ out, const float *__restrict__ block_sums, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (blockIdx.x > 0 && i < n)
		out[i] += block_sums[blockIdx.x - 1];
}

/* block_sums: one float per block of 256; n <= 256 * 1024. */
cudaError_t inclusive_scan(float *out, float *block_sums, const float *in, int n)
{
	int blocks = (n + BLOCK - 1) / BLOCK;
	scan_blocks<<<blocks, BLOCK>>>(out, block_sums, in, n);
	cudaError_t err = cudaGetLastError();
	if (err != cudaSuccess)
		return err;
	scan_totals<<<1, 1024>>>(block_sums, blocks);
	if ((err = cudaGetLastError()) != cudaSuccess)
		return err;
	add_offsets<<<blocks, BLOCK>>>(out, block_sums, n);
	return cudaGetLastError();
}
