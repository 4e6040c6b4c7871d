// Golden: vector and reduced-precision element types.  Loads and stores of
// __nv_bfloat16, __half, __half2, __nv_bfloat162, float2/4, int2/4, double2
// and char4 are recorded with their direction (on class types `a = b` is an
// operator call), through reinterpret_cast vector views and the load/store
// intrinsics too; the index reads as written, and a pointer stored through
// a vector view counts as written.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

typedef __nv_bfloat16 floatX;

__global__ void residual_bf16(floatX *out, const floatX *inp1, const floatX *inp2, int n)
{
	int idx = blockIdx.x * blockDim.x + threadIdx.x;
	if (idx < n)
		out[idx] = __float2bfloat16(__bfloat162float(inp1[idx]) + (float)inp2[idx]);
}

__global__ void half_to_float(const __half *h, float *f, __half2 *h2, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = h[i];
	f[i] = v;
	h2[i] += h2[i + n];
}

__global__ void copy_vec4(const float *__restrict__ x, float *__restrict__ y, int n4)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n4)
		return;
	float4 v = reinterpret_cast<const float4 *>(x)[i];
	reinterpret_cast<float4 *>(y)[i] = v;
}

__global__ void pack_bf16(const floatX *in, floatX *out, __nv_bfloat162 *acc)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float4 r = *reinterpret_cast<const float4 *>(&in[8 * i]);
	*reinterpret_cast<float4 *>(&out[8 * i]) = r;
	__nv_bfloat162 p = *reinterpret_cast<const __nv_bfloat162 *>(&in[2 * i]);
	acc[i] = p;
}

__global__ void mixed(const int4 *a, const double2 *b, const char4 *c, const float2 *d,
                      int2 *o, const float *e, float *f)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int4 q = a[i];
	double2 r = b[i];
	char4 s = c[i];
	float2 t = d[i];
	o[i] = make_int2(q.x + s.x, (int)(r.y + t.x));
	float4 u = __ldg(reinterpret_cast<const float4 *>(e) + i);
	f[i] = u.x + __ldg(&e[2 * i]);
}

// expect: SELECT rw FROM access WHERE line = 16 AND base = 'out' => write
// expect: SELECT access_bytes FROM access WHERE line = 16 AND base = 'out' => 2
// expect: SELECT sectors_per_request FROM access WHERE line = 16 AND base = 'out' => 2
// expect: SELECT rw FROM access WHERE line = 16 AND base = 'inp1' => read
// expect: SELECT rw FROM access WHERE line = 16 AND base = 'inp2' => read
// expect: SELECT is_written FROM param WHERE kernel = 'residual_bf16' AND name = 'out' => 1
// expect: SELECT rw FROM access WHERE line = 22 AND base = 'h' => read
// expect: SELECT access_bytes FROM access WHERE line = 22 AND base = 'h' => 2
// expect: SELECT rw FROM access WHERE line = 24 AND base = 'h2' AND index_text = 'i' => readwrite
// expect: SELECT rw FROM access WHERE line = 24 AND base = 'h2' AND index_text = 'i + n' => read
// expect: SELECT vector_width FROM access WHERE line = 24 AND base = 'h2' AND index_text = 'i' => 2
// expect: SELECT rw FROM access WHERE line = 32 AND base = 'x' => read
// expect: SELECT access_bytes FROM access WHERE line = 32 AND base = 'x' => 16
// expect: SELECT rw FROM access WHERE line = 33 AND base = 'y' => write
// expect: SELECT index_text FROM access WHERE line = 33 AND base = 'y' => i
// expect: SELECT sectors_per_request FROM access WHERE line = 33 AND base = 'y' => 16
// expect: SELECT vector_width FROM access WHERE line = 33 AND base = 'y' => 4
// expect: SELECT is_written FROM param WHERE kernel = 'copy_vec4' AND name = 'y' => 1
// expect: SELECT is_read FROM param WHERE kernel = 'copy_vec4' AND name = 'y' => 0
// expect: SELECT rw FROM access WHERE line = 39 AND base = 'in' => read
// expect: SELECT index_text FROM access WHERE line = 39 AND base = 'in' => 8 * i
// expect: SELECT stride_bytes_tx FROM access WHERE line = 39 AND base = 'in' => 16
// expect: SELECT rw FROM access WHERE line = 40 AND base = 'out' => write
// expect: SELECT access_bytes FROM access WHERE line = 40 AND base = 'out' => 16
// expect: SELECT count(*) FROM access WHERE index_text LIKE '%reinterpret_cast%' => 0
// expect: SELECT access_bytes FROM access WHERE line = 41 AND base = 'in' => 4
// expect: SELECT rw FROM access WHERE line = 42 AND base = 'acc' => write
// expect: SELECT access_bytes FROM access WHERE line = 49 AND base = 'a' => 16
// expect: SELECT access_bytes FROM access WHERE line = 50 AND base = 'b' => 16
// expect: SELECT vector_width FROM access WHERE line = 50 AND base = 'b' => 2
// expect: SELECT vector_width FROM access WHERE line = 51 AND base = 'c' => 4
// expect: SELECT access_bytes FROM access WHERE line = 52 AND base = 'd' => 8
// expect: SELECT rw FROM access WHERE line = 53 AND base = 'o' => write
// expect: SELECT access_bytes FROM access WHERE line = 54 AND base = 'e' => 16
// expect: SELECT coef_tx FROM access WHERE line = 54 AND base = 'e' => 1
// expect: SELECT index_text FROM access WHERE line = 54 AND base = 'e' => i
// expect: SELECT coef_tx FROM access WHERE line = 55 AND base = 'e' => 2
// expect: SELECT index_text FROM access WHERE line = 55 AND base = 'e' => 2 * i
// expect: SELECT count(*) FROM diag WHERE severity IN ('error', 'fatal') => 0
