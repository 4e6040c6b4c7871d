// Corpus: sum reduction with warp shuffles and one atomic per block.
__inline__ __device__ float warp_reduce(float v)
{
	for (int off = 16; off > 0; off >>= 1)
		v += __shfl_down_sync(0xffffffff, v, off);
	return v;
}

__global__ void reduce_sum(const float *in, float *out, int n)
{
	__shared__ float partial[32];
	float s = 0.0f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		s += in[i];
	s = warp_reduce(s);
	int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
	if (lane == 0)
		partial[wid] = s;
	__syncthreads();
	s = threadIdx.x < blockDim.x / 32 ? partial[lane] : 0.0f;
	if (wid == 0) {
		s = warp_reduce(s);
		if (lane == 0)
			atomicAdd(out, s);
	}
}

void sum(const float *in, float *out, int n)
{
	reduce_sum<<<264, 512>>>(in, out, n);
}
