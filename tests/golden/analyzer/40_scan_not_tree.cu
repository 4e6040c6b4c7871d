// Golden: a Hillis-Steele block scan doubles its stride like an interleaved
// tree reduction but reads the element d places back: it is a scan (style
// 'scan'), which sync-block-scan-barriers speaks of; the interleaved-tree
// rule stays quiet.

__global__ void hs_scan(const unsigned *x, unsigned *y, int n)
{
	__shared__ unsigned sh[256];
	int i = blockIdx.x * 256 + threadIdx.x;
	sh[threadIdx.x] = i < n ? x[i] : 0u;
	__syncthreads();
	for (int d = 1; d < 256; d <<= 1) {
		unsigned v = threadIdx.x >= d ? sh[threadIdx.x - d] : 0u;
		__syncthreads();
		sh[threadIdx.x] += v;
		__syncthreads();
	}
	if (i < n)
		y[i] = sh[threadIdx.x];
}

__global__ void harris_index(const float *x, float *y)
{
	__shared__ float sh[256];
	unsigned tid = threadIdx.x;
	sh[tid] = x[blockIdx.x * 256 + tid];
	__syncthreads();
	for (unsigned s = 1; s < 256; s *= 2) {
		unsigned index = 2 * s * tid;
		if (index < 256)
			sh[index] += sh[index + s];
		__syncthreads();
	}
	if (tid == 0)
		y[blockIdx.x] = sh[0];
}

void launch(const unsigned *x, unsigned *y, const float *f, float *g, int n)
{
	hs_scan<<<(n + 255) / 256, 256>>>(x, y, n);
	harris_index<<<(n + 255) / 256, 256>>>(f, g);
}

// expect: SELECT style FROM reduction_loop WHERE kernel = 'hs_scan' => scan
// expect: SELECT iv FROM reduction_loop WHERE kernel = 'hs_scan' => d
// expect: SELECT style FROM reduction_loop WHERE kernel = 'harris_index' => interleaved_index
