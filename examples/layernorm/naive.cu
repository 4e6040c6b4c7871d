// Layer normalization, naive: y = (x - mean) / sqrt(var + eps) * gamma + beta
// over each row of a row-major rows x cols matrix, one thread per row.
// kcheck reports the row-per-lane accesses (gmem-row-index-from-threadidx-x),
// the double literals that turn the arithmetic into FP64
// (math-fp64-promotion), 1 / sqrt (math-recip-sqrt), the missing
// __restrict__ on the parameters read in loops and the unchecked launch.

__global__ void layernorm_rows(float *y, const float *x, const float *gamma, const float *beta,
			       int rows, int cols)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r < rows) {
		float sum = 0.0f;
		for (int c = 0; c < cols; ++c)
			sum += x[r * cols + c];
		float mean = sum / cols;
		float var = 0.0f;
		for (int c = 0; c < cols; ++c) {
			float d = x[r * cols + c] - mean;
			var += d * d;
		}
		var = var / cols;
		float rstd = 1.0f / sqrtf(var + 1e-5);
		for (int c = 0; c < cols; ++c)
			y[r * cols + c] = (x[r * cols + c] - mean) * rstd * gamma[c] + beta[c];
	}
}

void layernorm(float *y, const float *x, const float *gamma, const float *beta, int rows, int cols)
{
	layernorm_rows<<<(rows + 127) / 128, 128>>>(y, x, gamma, beta, rows, cols);
}
