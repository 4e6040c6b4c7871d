/* Adversarial (gelu): correct but slow (one element per 32-thread block,
 * recomputed by every lane).  Must score below 1 ("slower"). */
#include "ka_task.h"
__global__ void gelu_slow(const float *x, float *y, long long n)
{
	for (long long i = blockIdx.x; i < n; i += gridDim.x) {
		float v = x[i], g = 0.0f;
		for (int r = 0; r < 8; r++) g = 0.5f * v * erfcf(-v * 0.70710678f);
		if (threadIdx.x == 0) y[i] = g;
	}
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	gelu_slow<<<4096, 32, 0, s>>>((const float *)a->t[0], (float *)a->t[1], a->n[0]);
	return 0;
}
