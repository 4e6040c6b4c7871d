// Corpus: CSR SpMV, one warp per row, shuffle reduction.
__global__ void spmv_csr_vector(int rows, const int *row_ptr, const int *cols,
				const float *vals, const float *x, float *y)
{
	int warp_id = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	int lane = threadIdx.x & 31;
	if (warp_id >= rows)
		return;
	float sum = 0.0f;
	for (int jj = row_ptr[warp_id] + lane; jj < row_ptr[warp_id + 1]; jj += 32)
		sum += vals[jj] * __ldg(&x[cols[jj]]);
	for (int off = 16; off > 0; off /= 2)
		sum += __shfl_down_sync(0xffffffff, sum, off);
	if (lane == 0)
		y[warp_id] = sum;
}

void spmv(int rows, const int *rp, const int *c, const float *v, const float *x, float *y)
{
	spmv_csr_vector<<<(rows * 32 + 255) / 256, 256>>>(rows, rp, c, v, x, y);
}
