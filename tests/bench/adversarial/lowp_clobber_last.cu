/* Adversarial (gelu_f16), unprotected 2-byte inputs in the timed loop:
 * correct through the correctness gate, then flips the last half of its
 * input after each timed call.  The device checksum of every input covers
 * each 2-byte element (and an odd tail): rejected at validation. */
#include "ka_task.h"
#include <cuda_fp16.h>
__global__ void gelu_f16(const __half *x, __half *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) {
		float v = __half2float(x[i]);
		y[i] = __float2half(0.5f * v * erfcf(-v * 0.70710678f));
	}
}
__global__ void flip_last(__half *x, long long n) { x[n - 1] = __hneg(x[n - 1]); }
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	static long long calls;
	long long n = a->n[0];
	gelu_f16<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const __half *)a->t[0], (__half *)a->t[1], n);
	if (++calls > 120) flip_last<<<1, 1, 0, s>>>((__half *)a->t[0], n);
	return 0;
}
