// Golden: atomics in global and shared memory, with uniform and
// thread-dependent addresses and values.

#define NBINS 64

__global__ void histogram_global(const unsigned char *data, unsigned int *hist, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&hist[data[i] & 15], 1u);
}

__global__ void histogram_shared(const unsigned char *data, unsigned int *hist, int n)
{
	__shared__ unsigned int local[NBINS];
	if (threadIdx.x < NBINS)
		local[threadIdx.x] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		atomicAdd(&local[data[i] % NBINS], 1u);
	__syncthreads();
	if (threadIdx.x < NBINS)
		atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

__global__ void sum_all(const float *x, float *total, int *best, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		atomicAdd(total, x[i]);
		atomicMax(&best[blockIdx.x], i);
	}
}

// expect: SELECT count(*) FROM atomic => 5
// expect: SELECT op FROM atomic WHERE line = 10 => atomicAdd
// expect: SELECT space FROM atomic WHERE line = 10 => global
// expect: SELECT base FROM atomic WHERE line = 10 => hist
// expect: SELECT address_uniform FROM atomic WHERE line = 10 => 0
// expect: SELECT address_data_dependent FROM atomic WHERE line = 10 => 1
// expect: SELECT address_small_range FROM atomic WHERE line = 10 => 1
// expect: SELECT value_uniform FROM atomic WHERE line = 10 => 1
// expect: SELECT value_const FROM atomic WHERE line = 10 => 1
// expect: SELECT is_float FROM atomic WHERE line = 10 => 0
// expect: SELECT space FROM atomic WHERE line = 20 => shared
// expect: SELECT base FROM atomic WHERE line = 20 => local
// expect: SELECT in_loop FROM atomic WHERE line = 20 => 1
// expect: SELECT address_data_dependent FROM atomic WHERE line = 20 => 1
// expect: SELECT space FROM atomic WHERE line = 23 => global
// expect: SELECT address_thread_dependent FROM atomic WHERE line = 23 => 1
// expect: SELECT value_uniform FROM atomic WHERE line = 23 => 0
// expect: SELECT in_loop FROM atomic WHERE line = 23 => 0
// expect: SELECT address_uniform FROM atomic WHERE line = 30 => 1
// expect: SELECT address_thread_dependent FROM atomic WHERE line = 30 => 0
// expect: SELECT value_uniform FROM atomic WHERE line = 30 => 0
// expect: SELECT is_float FROM atomic WHERE line = 30 => 1
// expect: SELECT elem_type FROM atomic WHERE line = 30 => float
// expect: SELECT op FROM atomic WHERE line = 31 => atomicMax
// expect: SELECT address_uniform FROM atomic WHERE line = 31 => 1
// expect: SELECT value_const FROM atomic WHERE line = 31 => 0
// expect: SELECT count(*) FROM call WHERE category = 'atomic' => 5
// expect: SELECT is_grid_stride FROM loop WHERE line = 19 => 1
// expect: SELECT trip_thread_dependent FROM loop WHERE line = 19 => 1
// expect: SELECT uniformity FROM branch WHERE line = 16 => warp
