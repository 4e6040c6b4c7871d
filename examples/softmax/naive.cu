// Row softmax, naive: y[r][c] = exp(x[r][c] - max_r) / sum_r for a row-major
// rows x cols matrix, one thread per row, 64-thread blocks.  Each lane walks
// its own row, so a warp's loads are a whole row apart; the max, the sum and
// the output take three passes over global memory with the accurate expf.
// kcheck reports the row-per-lane accesses (gmem-row-index-from-threadidx-x),
// the tiny blocks, the double literal in the division, expf in a loop and the
// unchecked launch.

__global__ void softmax_rows(float *y, const float *x, int rows, int cols)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r < rows) {
		float m = x[r * cols];
		for (int c = 1; c < cols; ++c)
			m = fmaxf(m, x[r * cols + c]);
		float s = 0.0f;
		for (int c = 0; c < cols; ++c)
			s += expf(x[r * cols + c] - m);
		for (int c = 0; c < cols; ++c)
			y[r * cols + c] = expf(x[r * cols + c] - m) * (1.0 / s);
	}
}

void softmax(float *y, const float *x, int rows, int cols)
{
	softmax_rows<<<(rows + 63) / 64, 64>>>(y, x, rows, cols);
}
