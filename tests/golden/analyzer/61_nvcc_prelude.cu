// Golden: declarations nvcc provides and clang 19 lacks (the built-in
// prelude): cache-hinted loads and stores on scalars and vectors, host
// max/min and isfinite.  Without the prelude every function here fails.
#include <cmath>

template <typename T>
struct Packed16 {
	int4 bits;
};

__device__ Packed16<float> load16_streaming(const float *p)
{
	return Packed16<float>{__ldcs(reinterpret_cast<const int4 *>(p))};
}

__global__ void scale_streaming(float *__restrict__ out, const float *__restrict__ in, float s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = __ldcs(in + i);
	__stcs(out + i, v * s);
	float4 w = __ldcg(reinterpret_cast<const float4 *>(in) + (i >> 2));
	__stcg(reinterpret_cast<float4 *>(out) + (i >> 2), w);
	Packed16<float> p = load16_streaming(in);
	__stwt(reinterpret_cast<int4 *>(out), p.bits);
}

bool all_finite(const float *h, int n)
{
	for (int i = 0; i < n; i++)
		if (!isfinite(h[i]))
			return false;
	return true;
}

void launch_scale(float *out, const float *in, float s, int n)
{
	int blocks = max((n + 255) / 256, 1);
	scale_streaming<<<min(blocks, 65535), 256>>>(out, in, s, n);
}

// expect: SELECT count(*) FROM diag WHERE severity IN ('error', 'fatal') => 0
// expect: SELECT count(*) FROM kernel WHERE name = 'scale_streaming' AND kind = 'global' => 1
// expect: SELECT count(*) FROM kernel WHERE name = 'load16_streaming' => 1
// The cache-hinted intrinsics are accesses through their pointer argument.
// expect: SELECT count(*) FROM access WHERE line = 21 AND rw = 'read' AND base = 'in' AND elem_bytes = 4 => 1
// expect: SELECT count(*) FROM access WHERE line = 24 AND rw = 'write' AND base = 'out' AND elem_bytes = 16 => 1
// expect: SELECT block_x FROM launch WHERE kernel = 'scale_streaming' => 256
