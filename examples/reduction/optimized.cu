// Sum reduction, optimized and deterministic.  Pass 1: a fixed grid (eight
// 256-thread blocks per SM of an H100/H200) walks the input with a grid-stride
// loop, each thread accumulating in a register; warps reduce with
// __shfl_down_sync, the eight warp sums go through shared memory, and warp 0
// produces one partial per block.  Pass 2: one block reduces the partials in a
// fixed order, so the result does not change from run to run.

#define BLOCK 256
#define WARPS (BLOCK / 32)
#define GRID 1056

__device__ float warp_sum(float v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	return v;
}

/* Block-wide sum; the result is valid in thread 0. */
__device__ float block_sum(float v)
{
	__shared__ float warp_sums[32];
	int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	v = warp_sum(v);
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = (lane < blockDim.x / 32) ? warp_sums[lane] : 0.0f;
		v = warp_sum(v);
	}
	return v;
}

__global__ void __launch_bounds__(BLOCK)
reduce_partials(float *__restrict__ partial, const float *__restrict__ in, int n)
{
	float v = 0.0f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		v += in[i];
	v = block_sum(v);
	if (threadIdx.x == 0)
		partial[blockIdx.x] = v;
}

__global__ void __launch_bounds__(1024)
reduce_final(float *__restrict__ total, const float *__restrict__ partial, int count)
{
	float v = 0.0f;
	for (int i = threadIdx.x; i < count; i += blockDim.x)
		v += partial[i];
	v = block_sum(v);
	if (threadIdx.x == 0)
		*total = v;
}

/* partial: GRID floats of scratch. */
cudaError_t reduce(float *total, float *partial, const float *in, int n)
{
	reduce_partials<<<GRID, BLOCK>>>(partial, in, n);
	cudaError_t err = cudaGetLastError();
	if (err != cudaSuccess)
		return err;
	reduce_final<<<1, 1024>>>(total, partial, GRID);
	return cudaGetLastError();
}
