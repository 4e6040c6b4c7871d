// Corpus: CSR sparse matrix-vector product, one thread per row.
__global__ void spmv_csr_scalar(int rows, const int *row_ptr, const int *cols,
				const float *vals, const float *x, float *y)
{
	int row = blockIdx.x * blockDim.x + threadIdx.x;
	if (row < rows) {
		float dot = 0.0f;
		for (int jj = row_ptr[row]; jj < row_ptr[row + 1]; jj++)
			dot += vals[jj] * x[cols[jj]];
		y[row] = dot;
	}
}

void spmv(int rows, const int *rp, const int *c, const float *v, const float *x, float *y)
{
	spmv_csr_scalar<<<(rows + 127) / 128, 128>>>(rows, rp, c, v, x, y);
}
