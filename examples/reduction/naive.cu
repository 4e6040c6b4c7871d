// Sum reduction, naive: the first kernel of M. Harris' study.  Each block
// loads 256 values into shared memory and reduces them with interleaved
// addressing (`tid % (2 * s) == 0`), so every warp diverges at every step;
// the block results are then added with one float atomic per block.
// kcheck reports the interleaved reduction (div-interleaved-reduction), the
// order-dependent float atomic and the unchecked launch.

__global__ void reduce_interleaved(float *total, const float *in, unsigned int n)
{
	__shared__ float sdata[256];
	unsigned int tid = threadIdx.x;
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	sdata[tid] = (i < n) ? in[i] : 0.0f;
	__syncthreads();
	for (unsigned int s = 1; s < blockDim.x; s *= 2) {
		if (tid % (2 * s) == 0)
			sdata[tid] += sdata[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		atomicAdd(total, sdata[0]);
}

void reduce(float *total, const float *in, unsigned int n)
{
	reduce_interleaved<<<(n + 255) / 256, 256>>>(total, in, n);
}
