// Corpus: work-efficient exclusive scan of one block (Blelloch).
#define N 1024

__global__ void scan_block(const float *in, float *out)
{
	__shared__ float temp[N];
	int thid = threadIdx.x;
	int offset = 1;
	temp[2 * thid] = in[2 * thid];
	temp[2 * thid + 1] = in[2 * thid + 1];
	for (int d = N >> 1; d > 0; d >>= 1) {
		__syncthreads();
		if (thid < d) {
			int ai = offset * (2 * thid + 1) - 1;
			int bi = offset * (2 * thid + 2) - 1;
			temp[bi] += temp[ai];
		}
		offset *= 2;
	}
	if (thid == 0)
		temp[N - 1] = 0;
	for (int d = 1; d < N; d *= 2) {
		offset >>= 1;
		__syncthreads();
		if (thid < d) {
			int ai = offset * (2 * thid + 1) - 1;
			int bi = offset * (2 * thid + 2) - 1;
			float t = temp[ai];
			temp[ai] = temp[bi];
			temp[bi] += t;
		}
	}
	__syncthreads();
	out[2 * thid] = temp[2 * thid];
	out[2 * thid + 1] = temp[2 * thid + 1];
}

void scan(const float *in, float *out)
{
	scan_block<<<1, N / 2>>>(in, out);
}
