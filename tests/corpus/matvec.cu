// Corpus: dense matrix-vector product, one thread per row (row-major A).
__global__ void matvec(const float *A, const float *x, float *y, int rows, int cols)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	float acc = 0.0f;
	for (int c = 0; c < cols; ++c)
		acc += A[r * cols + c] * x[c];
	y[r] = acc;
}

__global__ void matvec_t(const float *A, const float *x, float *y, int rows, int cols)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= cols)
		return;
	float acc = 0.0f;
	for (int r = 0; r < rows; ++r)
		acc += A[r * cols + c] * x[r];
	y[c] = acc;
}

void gemv(const float *A, const float *x, float *y, int rows, int cols)
{
	matvec<<<(rows + 127) / 128, 128>>>(A, x, y, rows, cols);
	matvec_t<<<(cols + 127) / 128, 128>>>(A, x, y, rows, cols);
}
