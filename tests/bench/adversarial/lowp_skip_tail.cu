/* Adversarial (gelu_f16), 2-byte vectorization: eight halves per 16-byte
 * load and store, and no tail: when n is not a multiple of 8 the last
 * elements keep the harness's poison (NaN).  Drawn and listed odd sizes
 * catch it: rejected at correctness. */
#include "ka_task.h"
#include <cuda_fp16.h>
__global__ void gelu_vec_only(const uint4 *x, uint4 *y, long long nvec)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= nvec) return;
	uint4 v = x[i];
	__half2 *h = reinterpret_cast<__half2 *>(&v);
	for (int k = 0; k < 4; k++) {
		float2 f = __half22float2(h[k]);
		h[k] = __floats2half2_rn(0.5f * f.x * erfcf(-f.x * 0.70710678f), 0.5f * f.y * erfcf(-f.y * 0.70710678f));
	}
	y[i] = v;
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long nvec = a->n[0] / 8;
	if (nvec > 0) gelu_vec_only<<<(unsigned)((nvec + 255) / 256), 256, 0, s>>>((const uint4 *)a->t[0], (uint4 *)a->t[1], nvec);
	return 0;
}
