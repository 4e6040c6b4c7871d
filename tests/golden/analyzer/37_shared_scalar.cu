// Golden: a __shared__ scalar is one word for the whole block.  Written by
// one thread and read after a barrier, it holds the same value in every
// thread, so loops bounded by it (directly, or through a __device__ helper's
// parameter) have a block-uniform trip count.  A per-thread local written
// under the same condition stays thread-dependent.

// Work-efficient scan over the first `count` flags, as in bisection and
// stream-compaction kernels: the bound is a parameter.
__device__ void scan_flags(unsigned *flags, unsigned count)
{
	const unsigned tid = threadIdx.x;
	unsigned offset = 1;
	for (unsigned d = count >> 1; d > 0; d >>= 1) {
		__syncthreads();
		if (tid < d)
			flags[offset * (2 * tid + 2) - 1] += flags[offset * (2 * tid + 1) - 1];
		offset <<= 1;
	}
	__syncthreads();
}

__global__ void compact_rounds(unsigned *out, const unsigned *keys, int n)
{
	__shared__ unsigned flags[257];
	__shared__ unsigned active;
	if (threadIdx.x == 0)
		active = n < 256 ? n : 256;
	__syncthreads();
	while (active > 1) {
		unsigned k = threadIdx.x < active ? keys[blockIdx.x * 256 + threadIdx.x] : 0u;
		flags[threadIdx.x] = k & 1u;
		scan_flags(flags, active);
		if (threadIdx.x == 0)
			active = (active + 1) / 2;
		__syncthreads();
	}
	out[blockIdx.x * 256 + threadIdx.x] = flags[threadIdx.x];
}

__global__ void private_bound(float *out, const int *len, int n)
{
	__shared__ float s[256];
	int m = 0;
	if (threadIdx.x == 0)
		m = len[blockIdx.x];
	float acc = 0.0f;
	for (int j = 0; j < m; ++j) {
		s[threadIdx.x] = (float)j;
		__syncthreads();
		acc += s[(threadIdx.x + 1) % 256];
	}
	out[blockIdx.x * 256 + threadIdx.x] = acc + (float)n;
}

void launch_compact(unsigned *out, const unsigned *keys, float *o2, const int *len, int n)
{
	compact_rounds<<<(n + 255) / 256, 256>>>(out, keys, n);
	private_bound<<<(n + 255) / 256, 256>>>(o2, len, n);
}

// expect: SELECT trip_thread_dependent FROM loop WHERE line = 29 => 0
// expect: SELECT trip_thread_dependent FROM loop WHERE line = 13 AND kernel = 'compact_rounds' => 0
// expect: SELECT in_nonuniform_loop FROM barrier WHERE line = 14 AND kernel = 'compact_rounds' => 0
// expect: SELECT in_nonuniform_loop FROM barrier WHERE line = 35 => 0
// expect: SELECT uniformity FROM branch WHERE line = 30 AND kind = 'ternary' => thread
// expect: SELECT trip_thread_dependent FROM loop WHERE line = 47 => 1
// expect: SELECT in_nonuniform_loop FROM barrier WHERE line = 49 => 1
