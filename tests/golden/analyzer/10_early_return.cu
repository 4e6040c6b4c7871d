// Golden: early returns.  A thread-dependent return before __syncthreads
// leaves the returned threads out of the barrier; a block-uniform one does not.

__global__ void stencil_bad(const float *in, float *out, int n)
{
	__shared__ float s[258];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	s[threadIdx.x + 1] = in[i];
	__syncthreads();
	out[i] = s[threadIdx.x] + s[threadIdx.x + 1] + s[threadIdx.x + 2];
}

__global__ void stencil_tail_block(const float *in, float *out, int n, int nblocks)
{
	__shared__ float s[258];
	if (blockIdx.x >= nblocks)
		return;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	s[threadIdx.x + 1] = in[i];
	__syncthreads();
	if (i < n)
		out[i] = s[threadIdx.x] + s[threadIdx.x + 1] + s[threadIdx.x + 2];
}

// expect: SELECT count(*) FROM early_return WHERE kernel = 'stencil_bad' => 1
// expect: SELECT thread_dependent FROM early_return WHERE kernel = 'stencil_bad' => 1
// expect: SELECT uniformity FROM early_return WHERE kernel = 'stencil_bad' => thread
// expect: SELECT before_barrier FROM early_return WHERE kernel = 'stencil_bad' => 1
// expect: SELECT barrier_line FROM early_return WHERE kernel = 'stencil_bad' => 11
// expect: SELECT cond_text FROM early_return WHERE kernel = 'stencil_bad' => i >= n
// expect: SELECT after_divergent_return FROM barrier WHERE line = 11 => 1
// expect: SELECT divergent_return_line FROM barrier WHERE line = 11 => 8
// expect: SELECT in_divergent_branch FROM barrier WHERE line = 11 => 0
// expect: SELECT is_early_return FROM branch WHERE line = 8 => 1
// expect: SELECT thread_dependent FROM early_return WHERE kernel = 'stencil_tail_block' => 0
// expect: SELECT uniformity FROM early_return WHERE kernel = 'stencil_tail_block' => block
// expect: SELECT after_divergent_return FROM barrier WHERE line = 22 => 0
// expect: SELECT count(*) FROM barrier WHERE after_divergent_return = 1 => 1
// expect: SELECT is_guard FROM branch WHERE line = 23 => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 12 AND base = 'out' => 4
// expect: SELECT bank_ways FROM access WHERE line = 10 AND base = 's' => 1
// expect: SELECT offset_const FROM access WHERE line = 12 AND base = 's' AND col > 40 => 2
