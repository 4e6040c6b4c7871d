// Golden: reduced-precision kernels parsed with kcheck's shim headers (no
// toolkit): cuda_fp16.h, cuda_bf16.h and mma.h resolve to the shim, the
// 2-byte types are 2 bytes, their pairs 4, uint4 views 16; 2-byte elements
// of a shared tile go two to a bank, and WMMA code parses.
// golden-args: --shim
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

__global__ void __launch_bounds__(256) scale_bf16(const __nv_bfloat16 *x, __nv_bfloat16 *y, __nv_bfloat162 *y2, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	y[i] = __float2bfloat16(a * __bfloat162float(x[i]));
	y2[i] = __floats2bfloat162_rn(a, a);
	uint4 v = reinterpret_cast<const uint4 *>(x)[i];
	reinterpret_cast<uint4 *>(y)[i] = v;
}

__global__ void __launch_bounds__(256) tile_half(const __half *in, __half *out)
{
	__shared__ __half t[32][32];
	__shared__ __half u[32][64];
	t[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
	u[threadIdx.x][threadIdx.y] = hexp(in[threadIdx.x]);
	__syncthreads();
	out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y] + u[threadIdx.x][0];
}

__global__ void wmma_tile(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c)
{
	using namespace nvcuda;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
	wmma::fill_fragment(acc, 0.0f);
	wmma::load_matrix_sync(fa, a, 16);
	wmma::load_matrix_sync(fb, b, 16);
	wmma::mma_sync(acc, fa, fb, acc);
	wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

// expect: SELECT count(*) FROM diag WHERE severity IN ('error', 'fatal') => 0
// expect: SELECT access_bytes FROM access WHERE line = 14 AND base = 'y' => 2
// expect: SELECT sectors_per_request FROM access WHERE line = 14 AND base = 'y' => 2
// expect: SELECT access_bytes FROM access WHERE line = 15 AND base = 'y2' => 4
// expect: SELECT sectors_per_request FROM access WHERE line = 15 AND base = 'y2' => 4
// expect: SELECT access_bytes FROM access WHERE line = 17 AND base = 'y' => 16
// expect: SELECT sectors_per_request FROM access WHERE line = 17 AND base = 'y' => 16
// expect: SELECT bank_ways FROM access WHERE line = 24 AND base = 't' => 1
// expect: SELECT bank_ways FROM access WHERE line = 27 AND base = 't' => 16
// expect: SELECT bank_ways FROM access WHERE line = 25 AND base = 'u' => 32
// expect: SELECT count(*) FROM kernel WHERE name = 'wmma_tile' => 1
