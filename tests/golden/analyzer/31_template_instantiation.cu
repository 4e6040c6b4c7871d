// Golden: templates both ways.  A kernel on `const T *` is instantiated from
// the launch in a templated host wrapper (T = __nv_bfloat16: 2-byte
// elements), a kernel with no launch in sight is analysed generically (the
// element size of T assumed and said so, the stride in elements exact), and
// a templated device function gets its template argument from the call.
#include <cuda_bf16.h>

#define BLOCK 256

template <typename T>
__global__ void scale_rows(const T *__restrict__ x, T *__restrict__ y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i];
}

template <typename T>
void run_scale(const T *x, T *y, int n, cudaStream_t s)
{
	scale_rows<<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, s>>>(x, y, n);
}

void scale_bf16(const __nv_bfloat16 *x, __nv_bfloat16 *y, int n, cudaStream_t s)
{
	run_scale(x, y, n, s);
}

template <typename T>
__global__ void gather_every8(const T *in, T *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	const T *row = in + 8 * i;
	if (i < n)
		out[i] = row[0];
}

template <unsigned int BS>
__device__ void warp_tail(volatile float *s, unsigned int tid)
{
	if (BS >= 64)
		s[tid] += s[tid + 32];
	if (BS >= 32)
		s[tid] += s[tid + 16];
}

template <unsigned int BS>
__global__ void block_reduce(const float *in, float *out)
{
	__shared__ float s[BS];
	unsigned int tid = threadIdx.x;
	s[tid] = in[blockIdx.x * BS + tid];
	__syncthreads();
	if (tid < 32)
		warp_tail<BS>(s, tid);
	if (tid == 0)
		out[blockIdx.x] = s[0];
}

void reduce_all(const float *in, float *out, int blocks)
{
	block_reduce<128><<<blocks, 128>>>(in, out);
}

// expect: SELECT kernel FROM launch WHERE line = 21 => scale_rows
// expect: SELECT block_x FROM kernel WHERE name = 'scale_rows' => 256
// expect: SELECT elem_bytes FROM access WHERE line = 15 AND base = 'x' => 2
// expect: SELECT rw FROM access WHERE line = 15 AND base = 'y' => write
// expect: SELECT sectors_per_request FROM access WHERE line = 15 AND base = 'x' => 2
// expect: SELECT sectors_assumed FROM access WHERE line = 15 AND base = 'x' => 0
// expect: SELECT coef_tx FROM access WHERE line = 35 AND base = 'in' => 8
// expect: SELECT kind_tx FROM access WHERE line = 35 AND base = 'in' => const
// expect: SELECT sectors_per_request FROM access WHERE line = 35 AND base = 'in' => 32
// expect: SELECT sectors_assumed FROM access WHERE line = 35 AND base = 'in' => 1
// expect: SELECT assumption LIKE '%element type T taken as 4 bytes%' FROM access WHERE line = 35 AND base = 'in' => 1
// expect: SELECT elem_bytes FROM access WHERE line = 35 AND base = 'out' => NULL
// expect: SELECT count(*) FROM access WHERE kernel = 'block_reduce' AND func = 'warp_tail' => 4
// expect: SELECT space FROM access WHERE kernel = 'block_reduce' AND func = 'warp_tail' AND line = 42 AND rw = 'read' => shared
// expect: SELECT coef_tx FROM access WHERE kernel = 'block_reduce' AND line = 44 AND rw = 'read' => 1
// expect: SELECT category FROM call WHERE kernel = 'block_reduce' AND line = 55 => device_fn
// expect: SELECT callee FROM call WHERE kernel = 'block_reduce' AND line = 55 => warp_tail
// expect: SELECT uniformity FROM branch WHERE kernel = 'block_reduce' AND line = 41 => grid
// expect: SELECT coef_tx FROM access WHERE kernel = 'block_reduce' AND line = 52 AND base = 'in' => 1
// expect: SELECT count(*) FROM launch WHERE kernel = '' OR kernel IS NULL => 0
// expect: SELECT count(*) FROM diag WHERE severity IN ('error', 'fatal') => 0
