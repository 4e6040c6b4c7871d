/* Adversarial (gelu_f16), packed pairs: one half2 per thread over
 * ceil(n/2) pairs, so an odd n reads and writes one half past the end of
 * its buffers.  The write lands in the guard region after the output:
 * rejected at correctness. */
#include "ka_task.h"
#include <cuda_fp16.h>
__global__ void gelu_pairs(const __half2 *x, __half2 *y, long long pairs)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= pairs) return;
	float2 f = __half22float2(x[i]);
	y[i] = __floats2half2_rn(0.5f * f.x * erfcf(-f.x * 0.70710678f), 0.5f * f.y * erfcf(-f.y * 0.70710678f));
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long pairs = (a->n[0] + 1) / 2;
	gelu_pairs<<<(unsigned)((pairs + 255) / 256), 256, 0, s>>>((const __half2 *)a->t[0], (__half2 *)a->t[1], pairs);
	return 0;
}
