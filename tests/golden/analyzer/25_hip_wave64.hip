// Golden: a HIP block reduction analysed for gfx942 (64-wide wavefronts).
// golden-args: --arch gfx942

#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(256) reduce_rows(const float *in, float *out, int n)
{
	__shared__ float partial[256];
	int tid = threadIdx.x;
	int i = blockIdx.x * 256 + tid;
	if (blockIdx.x * 256 >= n)
		return;
	partial[tid] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (int s = 128; s > 0; s >>= 1) {
		if (tid < s)
			partial[tid] += partial[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = partial[0];
}

void launch_reduce(const float *in, float *out, int n)
{
	hipLaunchKernelGGL(reduce_rows, dim3((n + 255) / 256), dim3(256), 0, 0, in, out, n);
}

// expect: SELECT name FROM arch => gfx942
// expect: SELECT warp_size FROM arch => 64
// expect: SELECT vendor FROM arch => amd
// expect: SELECT lang FROM kernel WHERE name = 'reduce_rows' => hip
// expect: SELECT launch_bounds_max FROM kernel WHERE name = 'reduce_rows' => 256
// expect: SELECT block_source FROM kernel WHERE name = 'reduce_rows' => launch
// expect: SELECT lanes FROM access WHERE line = 13 AND base = 'in' => 64
// expect: SELECT bytes_per_request FROM access WHERE line = 13 AND base = 'in' => 256
// expect: SELECT sectors_per_request FROM access WHERE line = 13 AND base = 'in' => 8
// expect: SELECT ideal_sectors FROM access WHERE line = 13 AND base = 'in' => 8
// expect: SELECT thread_dependent FROM early_return WHERE line BETWEEN 11 AND 12 => 0
// expect: SELECT after_divergent_return FROM barrier WHERE line = 14 => 0
// expect: SELECT trip_count FROM loop WHERE line = 15 => 8
// expect: SELECT uniformity FROM branch WHERE line = 16 => thread
// expect: SELECT in_divergent_branch FROM barrier WHERE line = 18 => 0
// expect: SELECT static_smem_bytes FROM kernel WHERE name = 'reduce_rows' => 1024
// expect: SELECT api FROM launch WHERE line = 26 => hipLaunchKernelGGL
