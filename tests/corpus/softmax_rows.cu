// Corpus: row-wise softmax, one warp per row, warp-shuffle reductions.
#define WARP 32

__device__ float warp_max(float v)
{
	for (int off = WARP / 2; off > 0; off /= 2)
		v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, off));
	return v;
}

__device__ float warp_sum(float v)
{
	for (int off = WARP / 2; off > 0; off /= 2)
		v += __shfl_xor_sync(0xffffffff, v, off);
	return v;
}

__global__ void softmax_rows(const float *in, float *out, int rows, int cols)
{
	int row = blockIdx.x * (blockDim.x / WARP) + threadIdx.x / WARP;
	int lane = threadIdx.x % WARP;
	if (row >= rows)
		return;
	const float *x = in + (size_t)row * cols;
	float m = -1e30f;
	for (int c = lane; c < cols; c += WARP)
		m = fmaxf(m, x[c]);
	m = warp_max(m);
	float s = 0.0f;
	for (int c = lane; c < cols; c += WARP)
		s += expf(x[c] - m);
	s = warp_sum(s);
	for (int c = lane; c < cols; c += WARP)
		out[(size_t)row * cols + c] = expf(x[c] - m) / s;
}

void softmax(const float *in, float *out, int rows, int cols)
{
	softmax_rows<<<(rows + 7) / 8, 256>>>(in, out, rows, cols);
}
