/* Adversarial (gelu), class "device-wide state": sets a device-wide cache
 * preference (and a larger stack limit) that can slow the baseline down.
 * The object imports cudaDeviceSetCacheConfig: rejected at the static gate;
 * with that gate skipped, the harness sees the device state change after
 * the call: rejected at the correctness gate. */
#include "ka_task.h"
#define SET_CACHE cudaDeviceSetCache\
Config
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	SET_CACHE(cudaFuncCachePreferShared);
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
