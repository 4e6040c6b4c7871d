// Golden: static and dynamic shared memory per kernel, and the dynamic size
// passed at the launch site.

extern __shared__ float dyn[];

__global__ void scan_dyn(const float *in, float *out, int n)
{
	int tid = threadIdx.x;
	int i = blockIdx.x * blockDim.x + tid;
	dyn[tid] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (int off = 1; off < blockDim.x; off *= 2) {
		float t = tid >= off ? dyn[tid - off] : 0.0f;
		__syncthreads();
		dyn[tid] += t;
		__syncthreads();
	}
	if (i < n)
		out[i] = dyn[tid];
}

__global__ void mixed(const int *in, int *out)
{
	__shared__ float a[256];
	__shared__ int flags[32];
	extern __shared__ double scratch[];
	a[threadIdx.x] = (float)in[threadIdx.x];
	if (threadIdx.x < 32)
		flags[threadIdx.x] = 0;
	scratch[threadIdx.x] = a[threadIdx.x];
	__syncthreads();
	out[threadIdx.x] = (int)scratch[255 - threadIdx.x] + flags[threadIdx.x % 32];
}

void launch_all(const float *in, float *out, const int *ii, int *io, int n)
{
	scan_dyn<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(in, out, n);
	mixed<<<1, 256, 2048>>>(ii, io);
}

// expect: SELECT uses_dynamic_smem FROM kernel WHERE name = 'scan_dyn' => 1
// expect: SELECT static_smem_bytes FROM kernel WHERE name = 'scan_dyn' => 0
// expect: SELECT max_launch_dyn_smem FROM kernel WHERE name = 'scan_dyn' => 1024
// expect: SELECT dyn_smem FROM launch WHERE line = 37 => 1024
// expect: SELECT smem_text FROM launch WHERE line = 37 => 256 * sizeof(float)
// expect: SELECT is_dynamic FROM shared_array WHERE name = 'dyn' => 1
// expect: SELECT is_file_scope FROM shared_array WHERE name = 'dyn' => 1
// expect: SELECT space FROM access WHERE line = 10 AND base = 'dyn' => shared
// expect: SELECT bank_ways FROM access WHERE line = 10 AND base = 'dyn' => 1
// expect: SELECT static_smem_bytes FROM kernel WHERE name = 'mixed' => 1152
// expect: SELECT uses_dynamic_smem FROM kernel WHERE name = 'mixed' => 1
// expect: SELECT dyn_smem FROM launch WHERE line = 38 => 2048
// expect: SELECT bytes FROM shared_array WHERE name = 'flags' => 128
// expect: SELECT is_file_scope FROM shared_array WHERE name = 'a' => 0
// expect: SELECT elem_bytes FROM shared_array WHERE name = 'scratch' => 8
// expect: SELECT bytes FROM shared_array WHERE name = 'scratch' => NULL
// expect: SELECT bank_ways FROM access WHERE line = 30 AND base = 'scratch' => 2
// expect: SELECT ideal_bank_ways FROM access WHERE line = 30 AND base = 'scratch' => 2
// expect: SELECT coef_tx FROM access WHERE line = 32 AND base = 'scratch' => -1
// expect: SELECT offset_const FROM access WHERE line = 32 AND base = 'scratch' => 255
// expect: SELECT in_divergent_branch FROM barrier WHERE line = 14 => 0
// expect: SELECT has_barrier FROM loop WHERE line = 12 => 1
// expect: SELECT uniformity FROM branch WHERE line = 28 => warp
