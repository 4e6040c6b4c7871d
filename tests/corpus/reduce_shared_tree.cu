// Corpus: the textbook interleaved shared-memory reduction (divergent).
__global__ void reduce0(const int *g_idata, int *g_odata, unsigned int n)
{
	extern __shared__ int sdata[];
	unsigned int tid = threadIdx.x;
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	sdata[tid] = (i < n) ? g_idata[i] : 0;
	__syncthreads();
	for (unsigned int s = 1; s < blockDim.x; s *= 2) {
		if ((tid % (2 * s)) == 0)
			sdata[tid] += sdata[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		g_odata[blockIdx.x] = sdata[0];
}

void reduce(const int *in, int *out, unsigned int n)
{
	int threads = 256;
	int blocks = (n + threads - 1) / threads;
	reduce0<<<blocks, threads, threads * sizeof(int)>>>(in, out, n);
}
