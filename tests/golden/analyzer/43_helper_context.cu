// Golden: a __device__ helper walked in its caller's context: its accesses carry
// the caller's call (call_line, call_begin_off), so rules can ask whether the
// call sits under a branch of the caller (a warp-synchronous tail under tid < 32).
__device__ void warpReduce(volatile float *s, int tid)
{
	s[tid] += s[tid + 32];
	s[tid] += s[tid + 16];
	s[tid] += s[tid + 8];
	s[tid] += s[tid + 4];
	s[tid] += s[tid + 2];
	s[tid] += s[tid + 1];
}
__global__ void reduce6(const float *in, float *out, int n)
{
	__shared__ float s[256];
	int tid = threadIdx.x;
	int i = blockIdx.x * blockDim.x + tid;
	s[tid] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (int st = blockDim.x / 2; st > 32; st >>= 1) {
		if (tid < st)
			s[tid] += s[tid + st];
		__syncthreads();
	}
	if (tid < 32)
		warpReduce(s, tid);
	if (tid == 0)
		out[blockIdx.x] = s[0];
}
void go(const float *i, float *o, int n) { reduce6<<<(n + 255) / 256, 256>>>(i, o, n); }

// expect: SELECT call_line FROM access WHERE line = 6 AND func = 'warpReduce' AND rw = 'readwrite' => 26
// expect: SELECT count(*) FROM access WHERE func = 'reduce6' AND call_line IS NOT NULL => 0
// expect: SELECT count(*) FROM divergent_warp_code d, access a WHERE a.kernel_id = d.kernel_id AND a.func = 'warpReduce' AND a.call_begin_off >= d.begin_off AND a.call_end_off <= d.end_off => 12
// expect: SELECT value_thread_dependent FROM access WHERE line = 28 AND base = 'out' => 0
// expect: SELECT value_thread_dependent FROM access WHERE line = 18 AND base = 's' => 1
