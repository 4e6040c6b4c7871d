// Block sum, portable HIP: the reduction depth, lane and warp indices follow
// warpSize, the lane mask is 64 bits wide, and the per-warp scratch array has
// room for the 32-lane case (the larger count).  The same source is correct
// on wave32 and wave64 GPUs.

#include <hip/hip_runtime.h>

#define BLOCK 256

__global__ void __launch_bounds__(BLOCK)
block_sum(float *__restrict__ out, const float *__restrict__ in, int n)
{
	__shared__ float warp_sums[BLOCK / 32];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = (i < n) ? in[i] : 0.0f;
	for (int o = warpSize / 2; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffffffffffull, v, o);
	int lane = threadIdx.x % warpSize;
	int warp = threadIdx.x / warpSize;
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();
	if (threadIdx.x == 0) {
		float s = 0.0f;
		for (int w = 0; w < BLOCK / warpSize; ++w)
			s += warp_sums[w];
		out[blockIdx.x] = s;
	}
}

hipError_t block_sums(float *out, const float *in, int n)
{
	hipLaunchKernelGGL(block_sum, dim3((n + BLOCK - 1) / BLOCK), dim3(BLOCK), 0, 0, out, in, n);
	return hipGetLastError();
}
