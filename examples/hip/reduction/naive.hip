// Block sum, as first ported from CUDA to HIP: the warp reduction starts at
// offset 16 and passes a 32-bit lane mask, and lanes and warps are computed
// with a hard-coded 32.  Correct on NVIDIA and on wave32 RDNA GPUs; on
// 64-lane CDNA wavefronts (MI200, MI300) half of every wavefront is left out.
// kcheck reports the offset-16 shuffle loop (hip-shuffle-offset-from-16), the
// 32-bit mask (hip-32bit-lane-mask, an error), the hard-coded warp size
// (hip-hardcoded-warp-size) and the unchecked launch.

#include <hip/hip_runtime.h>

__global__ void block_sum(float *out, const float *in, int n)
{
	__shared__ float warp_sums[8];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = (i < n) ? in[i] : 0.0f;
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffff, v, o);
	int lane = threadIdx.x % 32;
	int warp = threadIdx.x / 32;
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();
	if (threadIdx.x == 0) {
		float s = 0.0f;
		for (int w = 0; w < 8; ++w)
			s += warp_sums[w];
		out[blockIdx.x] = s;
	}
}

void block_sums(float *out, const float *in, int n)
{
	hipLaunchKernelGGL(block_sum, dim3((n + 255) / 256), dim3(256), 0, 0, out, in, n);
}
