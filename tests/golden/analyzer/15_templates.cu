// Golden: template kernels, launched with explicit template arguments.

template <int BLOCK, typename T>
__global__ void block_sum(const T *in, T *out, int n)
{
	__shared__ T sh[BLOCK];
	int tid = threadIdx.x;
	int i = blockIdx.x * BLOCK + tid;
	sh[tid] = i < n ? in[i] : T(0);
	__syncthreads();
	for (int s = BLOCK / 2; s > 0; s >>= 1) {
		if (tid < s)
			sh[tid] += sh[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = sh[0];
}

template <typename T>
__global__ void fill(T *dst, T value, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] = value;
}

void sums(const float *in, float *out, double *d, int n)
{
	block_sum<256, float><<<(n + 255) / 256, 256>>>(in, out, n);
	fill<double><<<(n + 127) / 128, 128>>>(d, 1.0, n);
}

// expect: SELECT count(*) FROM kernel WHERE name = 'block_sum' => 1
// expect: SELECT is_template FROM kernel WHERE name = 'block_sum' => 1
// expect: SELECT is_template FROM kernel WHERE name = 'fill' => 1
// expect: SELECT count(*) FROM launch => 2
// expect: SELECT kernel FROM launch WHERE line = 30 => block_sum
// expect: SELECT block_x FROM launch WHERE line = 30 => 256
// expect: SELECT block_x FROM launch WHERE line = 31 => 128
// expect: SELECT block_source FROM kernel WHERE name = 'block_sum' => launch
// expect: SELECT block_x FROM kernel WHERE name = 'fill' => 128
// expect: SELECT coef_tx FROM access WHERE line = 9 AND base = 'in' => 1
// expect: SELECT space FROM access WHERE line = 9 AND base = 'sh' => shared
// expect: SELECT coef_tx FROM access WHERE line = 13 AND base = 'sh' AND rw = 'read' => 1
// expect: SELECT uniformity FROM branch WHERE line = 12 => thread
// expect: SELECT in_loop FROM branch WHERE line = 12 => 1
// expect: SELECT has_barrier FROM loop WHERE line = 11 => 1
// expect: SELECT trip_uniform FROM loop WHERE line = 11 => 1
// expect: SELECT in_divergent_branch FROM barrier WHERE line = 14 => 0
// expect: SELECT in_loop FROM barrier WHERE line = 14 => 1
// expect: SELECT in_nonuniform_loop FROM barrier WHERE line = 14 => 0
// expect: SELECT count(*) FROM barrier WHERE kernel = 'block_sum' => 2
// expect: SELECT coef_tx FROM access WHERE line = 25 AND base = 'dst' => 1
// expect: SELECT count(*) FROM diag WHERE severity IN ('error', 'fatal') => 0
