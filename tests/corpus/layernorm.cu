// Corpus: layer normalization, one block per row, shared-memory reduction.
#define THREADS 256

__global__ void layernorm(const float *x, const float *gamma, const float *beta,
			  float *y, int cols, float eps)
{
	__shared__ float red[THREADS];
	const float *row = x + (size_t)blockIdx.x * cols;
	float s = 0.0f;
	for (int c = threadIdx.x; c < cols; c += THREADS)
		s += row[c];
	red[threadIdx.x] = s;
	__syncthreads();
	for (int k = THREADS / 2; k > 0; k >>= 1) {
		if (threadIdx.x < k)
			red[threadIdx.x] += red[threadIdx.x + k];
		__syncthreads();
	}
	float mean = red[0] / cols;
	__syncthreads();
	float v = 0.0f;
	for (int c = threadIdx.x; c < cols; c += THREADS) {
		float d = row[c] - mean;
		v += d * d;
	}
	red[threadIdx.x] = v;
	__syncthreads();
	for (int k = THREADS / 2; k > 0; k >>= 1) {
		if (threadIdx.x < k)
			red[threadIdx.x] += red[threadIdx.x + k];
		__syncthreads();
	}
	float rstd = rsqrtf(red[0] / cols + eps);
	for (int c = threadIdx.x; c < cols; c += THREADS)
		y[(size_t)blockIdx.x * cols + c] = (row[c] - mean) * rstd * gamma[c] + beta[c];
}

void run_layernorm(const float *x, const float *g, const float *b, float *y, int rows, int cols)
{
	layernorm<<<rows, THREADS>>>(x, g, b, y, cols, 1e-5f);
}
