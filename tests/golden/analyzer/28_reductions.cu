// Golden: the classic shared-memory tree reductions: interleaved addressing
// with a lane-parity branch, sequential addressing, and a warp-synchronous
// tail that relies on lockstep execution without __syncwarp().

#define BLOCK 256

__global__ void reduce_interleaved(const float *in, float *out)
{
	__shared__ float sdata[BLOCK];
	unsigned int tid = threadIdx.x;
	sdata[tid] = in[blockIdx.x * BLOCK + tid];
	__syncthreads();
	for (unsigned int s = 1; s < blockDim.x; s *= 2) {
		if (tid % (2 * s) == 0)
			sdata[tid] += sdata[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = sdata[0];
}

__global__ void reduce_sequential(const float *in, float *out)
{
	__shared__ float sdata[BLOCK];
	unsigned int tid = threadIdx.x;
	sdata[tid] = in[blockIdx.x * BLOCK + tid];
	__syncthreads();
	for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
		if (tid < s)
			sdata[tid] += sdata[tid + s];
		__syncthreads();
	}
	if (tid < 32) {
		volatile float *vs = sdata;
		vs[tid] += vs[tid + 32];
		vs[tid] += vs[tid + 16];
		vs[tid] += vs[tid + 8];
		vs[tid] += vs[tid + 4];
		vs[tid] += vs[tid + 2];
		vs[tid] += vs[tid + 1];
	}
	if (tid == 0)
		out[blockIdx.x] = sdata[0];
}

void launch_reductions(const float *in, float *out, int blocks)
{
	reduce_interleaved<<<blocks, BLOCK>>>(in, out);
	reduce_sequential<<<blocks, BLOCK>>>(in, out);
}

// expect: SELECT uniformity FROM branch WHERE line = 14 => thread
// expect: SELECT in_loop FROM branch WHERE line = 14 => 1
// expect: SELECT style FROM reduction_loop WHERE kernel = 'reduce_interleaved' => interleaved
// expect: SELECT array FROM reduction_loop WHERE kernel = 'reduce_interleaved' => sdata
// expect: SELECT iv FROM reduction_loop WHERE kernel = 'reduce_interleaved' => s
// expect: SELECT style FROM reduction_loop WHERE kernel = 'reduce_sequential' => sequential
// expect: SELECT lane_parity FROM branch WHERE line = 29 => 0
// expect: SELECT iv_unsigned FROM loop WHERE line = 28 => 1
// expect: SELECT iv_bytes FROM loop WHERE line = 28 => 4
// expect: SELECT count(*) FROM divergent_warp_code WHERE kernel = 'reduce_sequential' => 1
// expect: SELECT uses_volatile FROM divergent_warp_code WHERE kernel = 'reduce_sequential' => 1
// expect: SELECT has_syncwarp FROM divergent_warp_code WHERE kernel = 'reduce_sequential' => 0
// expect: SELECT n_shared_steps FROM divergent_warp_code WHERE kernel = 'reduce_sequential' => 6
// expect: SELECT count(*) FROM divergent_warp_code WHERE kernel = 'reduce_interleaved' => 0
// expect: SELECT uniformity FROM branch WHERE line = 33 => warp
// expect: SELECT count(*) FROM barrier WHERE in_divergent_branch = 1 => 0
// expect: SELECT bank_ways FROM access WHERE line = 15 AND base = 'sdata' AND rw = 'read' => 1
// expect: SELECT space FROM access WHERE line = 35 AND rw = 'read' => shared
