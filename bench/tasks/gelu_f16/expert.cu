/* bench/tasks/gelu_f16/expert.cu: 16-byte loads and stores (eight halves,
 * four half2 pairs per thread), fp32 math on each pair, a grid-stride loop
 * sized to the device; the tail (n not a multiple of 8) one half at a time. */
#include "ka_task.h"
#include <cuda_fp16.h>

__device__ __forceinline__ float gelu(float v) { return 0.5f * v * erfcf(-v * 0.70710678f); }

__device__ __forceinline__ __half2 gelu2(__half2 h)
{
	float2 f = __half22float2(h);
	return __floats2half2_rn(gelu(f.x), gelu(f.y));
}

__global__ void __launch_bounds__(256) gelu_f16_vec(const uint4 *x, uint4 *y, long long nvec, const __half *xt,
						    __half *yt, long long tail)
{
	long long stride = (long long)gridDim.x * blockDim.x;
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < nvec; i += stride) {
		uint4 v = __ldg(x + i);
		__half2 *h = reinterpret_cast<__half2 *>(&v);
#pragma unroll
		for (int k = 0; k < 4; k++) h[k] = gelu2(h[k]);
		y[i] = v;
	}
	long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (t < tail) yt[t] = __float2half(gelu(__half2float(xt[t])));
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0], nvec = n / 8, tail = n - 8 * nvec;
	int sms = 132;
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	long long blocks = (nvec + 255) / 256;
	if (blocks > (long long)sms * 8) blocks = (long long)sms * 8;
	if (blocks < 1) blocks = 1;
	const __half *x = (const __half *)a->t[0];
	__half *y = (__half *)a->t[1];
	gelu_f16_vec<<<(unsigned)blocks, 256, 0, s>>>((const uint4 *)x, (uint4 *)y, nvec, x + 8 * nvec, y + 8 * nvec, tail);
	return 0;
}
