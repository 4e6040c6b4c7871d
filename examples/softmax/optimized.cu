// Row softmax, optimized: one 256-thread block per row.  Threads stride over
// the row (coalesced), the row maximum and the sum of exponentials are
// block reductions with warp shuffles, exponentials use the SFU intrinsic
// __expf (the max-subtracted arguments are <= 0, where its error is tiny), and
// the division is one reciprocal per row.

#define BLOCK 256

__device__ float warp_max(float v)
{
	for (int o = 16; o > 0; o >>= 1)
		v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
	return v;
}

__device__ float warp_sum(float v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

/* Block-wide max or sum, returned to every thread. */
__device__ float block_reduce(float v, bool is_max, float *scratch)
{
	int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	v = is_max ? warp_max(v) : warp_sum(v);
	if (lane == 0)
		scratch[warp] = v;
	__syncthreads();
	float r = scratch[0];
	for (int w = 1; w < BLOCK / 32; ++w)
		r = is_max ? fmaxf(r, scratch[w]) : r + scratch[w];
	__syncthreads();
	return r;
}

__global__ void __launch_bounds__(BLOCK)
softmax_rows(float *__restrict__ y, const float *__restrict__ x, int cols)
{
	__shared__ float scratch[BLOCK / 32];
	const float *xr = x + (size_t)blockIdx.x * cols;
	float *yr = y + (size_t)blockIdx.x * cols;

	float m = -INFINITY;
	for (int c = threadIdx.x; c < cols; c += BLOCK)
		m = fmaxf(m, xr[c]);
	m = block_reduce(m, true, scratch);

	float s = 0.0f;
	for (int c = threadIdx.x; c < cols; c += BLOCK)
		s += __expf(xr[c] - m);
	s = block_reduce(s, false, scratch);

	const float inv = 1.0f / s;
	for (int c = threadIdx.x; c < cols; c += BLOCK)
		yr[c] = __expf(xr[c] - m) * inv;
}

cudaError_t softmax(float *y, const float *x, int rows, int cols)
{
	softmax_rows<<<rows, BLOCK>>>(y, x, cols);
	return cudaGetLastError();
}
