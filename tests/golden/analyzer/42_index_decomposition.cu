// Golden: an index split with / and % (by a run-time extent, a constant, or
// >> and & by powers of two) and put back together is seen as the index it
// came from: `b * T * C + t * C` with b = idx / T, t = idx % T is idx * C, and
// `2 * (idx & 31) + 64 * (idx >> 5)` is 2 * idx.

__global__ void row_sum_bt(float *out, const float *inp, int B, int T, int C)
{
	int idx = blockIdx.x * blockDim.x + threadIdx.x;
	if (idx < B * T) {
		int b = idx / T;
		int t = idx % T;
		const float *x = inp + b * T * C + t * C;
		float s = 0.0f;
		for (int i = 0; i < C; i++)
			s += x[i];
		out[b * T + t] = s;
	}
}

__global__ void copy_split(float *out, const float *in, int n)
{
	int idx = blockIdx.x * blockDim.x + threadIdx.x;
	int row = idx / 64, col = idx % 64;
	int hi = idx >> 5, lo = idx & 31;
	if (idx < n) {
		out[row * 64 + col] = in[hi * 32 + lo];
		out[n + col + 64 * row] = in[n + 2 * lo + hi * 64];
	}
}

__global__ void split_other(float *out, const float *in, int W, int H)
{
	int idx = blockIdx.x * blockDim.x + threadIdx.x;
	int y = idx / W, x = idx % W;
	if (y < H)
		out[x * H + y] = in[y * W + x];
}

// expect: SELECT kind_tx FROM access WHERE line = 15 AND base = 'inp' => symbolic
// expect: SELECT coef_tx_text FROM access WHERE line = 15 AND base = 'inp' => C
// expect: SELECT affine FROM access WHERE line = 15 AND base = 'inp' => (blockIdx.x*blockDim.x + threadIdx.x)*C + i
// expect: SELECT coef_tx FROM access WHERE line = 16 AND base = 'out' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 16 AND base = 'out' => 4
// expect: SELECT coef_tx FROM access WHERE line = 26 AND base = 'out' => 1
// expect: SELECT coef_tx FROM access WHERE line = 26 AND base = 'in' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 26 AND base = 'in' => 4
// expect: SELECT kind_tx FROM access WHERE line = 27 AND base = 'out' => const
// expect: SELECT coef_tx FROM access WHERE line = 27 AND base = 'in' => 2
// expect: SELECT coef_tx FROM access WHERE line = 36 AND base = 'in' => 1
// expect: SELECT kind_tx FROM access WHERE line = 36 AND base = 'out' => nonaffine
