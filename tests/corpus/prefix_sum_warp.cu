// Corpus: block-wide inclusive scan from warp scans (Kogge-Stone shuffles).
__global__ void block_scan(const int *in, int *out, int n)
{
	__shared__ int warp_sums[32];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
	int v = i < n ? in[i] : 0;
	for (int d = 1; d < 32; d <<= 1) {
		int t = __shfl_up_sync(0xffffffff, v, d);
		if (lane >= d)
			v += t;
	}
	if (lane == 31)
		warp_sums[wid] = v;
	__syncthreads();
	if (wid == 0) {
		int s = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
		for (int d = 1; d < 32; d <<= 1) {
			int t = __shfl_up_sync(0xffffffff, s, d);
			if (lane >= d)
				s += t;
		}
		warp_sums[lane] = s;
	}
	__syncthreads();
	if (wid > 0)
		v += warp_sums[wid - 1];
	if (i < n)
		out[i] = v;
}

void scan(const int *in, int *out, int n)
{
	block_scan<<<(n + 1023) / 1024, 1024>>>(in, out, n);
}
