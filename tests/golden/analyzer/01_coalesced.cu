// Golden: unit-stride element-wise kernels; every global access is coalesced.
// No launch site: the warp model assumes a (256,1,1) block.

__global__ void copy_f32(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i];
}

__global__ void axpy_f64(double a, const double *x, double *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

__global__ void copy_vec4(const float4 *__restrict__ in, float4 *__restrict__ out)
{
	out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
}

// expect: SELECT count(*) FROM kernel WHERE kind = 'global' => 3
// expect: SELECT block_source FROM kernel WHERE name = 'copy_f32' => assumed
// expect: SELECT block_x * 1000 + block_y FROM kernel WHERE name = 'copy_f32' => 256001
// expect: SELECT nparams FROM kernel WHERE name = 'axpy_f64' => 4
// expect: SELECT lang FROM kernel WHERE name = 'copy_f32' => cuda
// expect: SELECT space FROM access WHERE line = 8 AND base = 'in' => global
// expect: SELECT rw FROM access WHERE line = 8 AND base = 'in' => read
// expect: SELECT rw FROM access WHERE line = 8 AND base = 'out' => write
// expect: SELECT kind_tx FROM access WHERE line = 8 AND base = 'in' => const
// expect: SELECT coef_tx FROM access WHERE line = 8 AND base = 'in' => 1
// expect: SELECT stride_bytes_tx FROM access WHERE line = 8 AND base = 'in' => 4
// expect: SELECT lanes FROM access WHERE line = 8 AND base = 'in' => 32
// expect: SELECT sectors_per_request FROM access WHERE line = 8 AND base = 'in' => 4
// expect: SELECT ideal_sectors FROM access WHERE line = 8 AND base = 'in' => 4
// expect: SELECT bytes_per_request FROM access WHERE line = 8 AND base = 'in' => 128
// expect: SELECT sectors_per_request FROM access WHERE line = 8 AND base = 'out' => 4
// expect: SELECT thread_dependent FROM access WHERE line = 8 AND base = 'in' => 1
// expect: SELECT base_is_param FROM access WHERE line = 8 AND base = 'in' => 1
// expect: SELECT elem_bytes FROM access WHERE line = 15 AND base = 'x' => 8
// expect: SELECT sectors_per_request FROM access WHERE line = 15 AND base = 'x' => 8
// expect: SELECT ideal_sectors FROM access WHERE line = 15 AND base = 'x' => 8
// expect: SELECT count(*) FROM access WHERE line = 15 AND base = 'y' => 2
// expect: SELECT access_bytes FROM access WHERE line = 20 AND base = 'in' => 16
// expect: SELECT vector_width FROM access WHERE line = 20 AND base = 'in' => 4
// expect: SELECT sectors_per_request FROM access WHERE line = 20 AND base = 'in' => 16
// expect: SELECT ideal_sectors FROM access WHERE line = 20 AND base = 'out' => 16
// expect: SELECT is_restrict FROM param WHERE kernel = 'copy_vec4' AND name = 'in' => 1
// expect: SELECT is_const_pointee FROM param WHERE kernel = 'copy_vec4' AND name = 'in' => 1
// expect: SELECT is_const_pointee FROM param WHERE kernel = 'copy_vec4' AND name = 'out' => 0
// expect: SELECT is_pointer FROM param WHERE kernel = 'copy_f32' AND name = 'n' => 0
// expect: SELECT uniformity FROM branch WHERE line = 7 => thread
// expect: SELECT is_guard FROM branch WHERE line = 7 => 1
// expect: SELECT has_bounds_guard FROM kernel WHERE name = 'copy_f32' => 1
