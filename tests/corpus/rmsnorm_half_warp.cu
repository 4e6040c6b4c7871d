// Corpus: RMS normalization, one warp per row, legacy-style lane math.
__global__ void rmsnorm(const float *x, const float *w, float *y, int rows, int cols, float eps)
{
	int row = blockIdx.x * 4 + threadIdx.x / 32;
	int lane = threadIdx.x % 32;
	if (row >= rows)
		return;
	float ss = 0.0f;
	for (int c = lane; c < cols; c += 32) {
		float v = x[row * cols + c];
		ss += v * v;
	}
	for (int off = 16; off > 0; off >>= 1)
		ss += __shfl_xor_sync(0xffffffff, ss, off);
	float scale = rsqrtf(ss / cols + eps);
	for (int c = lane; c < cols; c += 32)
		y[row * cols + c] = x[row * cols + c] * scale * w[c];
}

void run_rmsnorm(const float *x, const float *w, float *y, int rows, int cols)
{
	rmsnorm<<<(rows + 3) / 4, 128>>>(x, w, y, rows, cols, 1e-6f);
}
