// Matrix transpose, naive: out = in^T for an n x n row-major float matrix.
// Reads are coalesced (threadIdx.x walks a row of `in`), but each thread
// writes a column of `out`, so the lanes of a warp store n floats apart.
// kcheck reports the column-wise store (gmem-row-index-from-threadidx-x; the
// stride is the run-time width n, hence a note) and the unchecked launch.

__global__ void transpose_naive(float *out, const float *in, int n)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < n && y < n)
		out[x * n + y] = in[y * n + x];
}

void transpose(float *out, const float *in, int n)
{
	transpose_naive<<<dim3((n + 31) / 32, (n + 7) / 8), dim3(32, 8)>>>(out, in, n);
}
