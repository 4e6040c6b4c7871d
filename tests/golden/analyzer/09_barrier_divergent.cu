// Golden: barriers under divergent control flow (a correctness hazard) next
// to barriers under uniform conditions (fine).

__global__ void partial_sum(const float *in, float *out, int n)
{
	__shared__ float buf[256];
	int tid = threadIdx.x;
	int i = blockIdx.x * 256 + tid;
	buf[tid] = i < n ? in[i] : 0.0f;
	__syncthreads();
	if (tid < 100) {
		buf[tid] += buf[tid + 128];
		__syncthreads();
	}
	if (tid / 32 < 2) {
		buf[tid] += buf[tid + 64];
		__syncthreads();
	}
	if (blockIdx.x > 0) {
		buf[tid] *= 2.0f;
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = buf[0];
}

// expect: SELECT count(*) FROM barrier WHERE kernel = 'partial_sum' => 4
// expect: SELECT count(*) FROM barrier WHERE in_divergent_branch = 1 => 2
// expect: SELECT in_divergent_branch FROM barrier WHERE line = 10 => 0
// expect: SELECT in_divergent_branch FROM barrier WHERE line = 13 => 1
// expect: SELECT divergence FROM barrier WHERE line = 13 => thread
// expect: SELECT divergent_branch_line FROM barrier WHERE line = 13 => 11
// expect: SELECT in_divergent_branch FROM barrier WHERE line = 17 => 1
// expect: SELECT divergence FROM barrier WHERE line = 17 => warp
// expect: SELECT in_divergent_branch FROM barrier WHERE line = 21 => 0
// expect: SELECT divergence FROM barrier WHERE line = 21 => NULL
// expect: SELECT name FROM barrier WHERE line = 10 => __syncthreads
// expect: SELECT kind FROM barrier WHERE line = 10 => block
// expect: SELECT then_has_barrier FROM branch WHERE line = 11 => 1
// expect: SELECT uniformity FROM branch WHERE line = 15 => warp
// expect: SELECT then_has_barrier FROM branch WHERE line = 23 => 0
// expect: SELECT after_divergent_return FROM barrier WHERE line = 13 => 0
// expect: SELECT count(*) FROM call WHERE callee = '__syncthreads' AND category = 'sync' => 4
// expect: SELECT n_barriers FROM kernel WHERE name = 'partial_sum' => 4
// expect: SELECT kind FROM branch WHERE line = 9 => ternary
// expect: SELECT bank_ways FROM access WHERE line = 12 AND base = 'buf' AND rw = 'read' => 1
