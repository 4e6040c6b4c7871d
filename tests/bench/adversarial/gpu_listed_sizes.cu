/* Adversarial (gelu), class "public unseen sizes": computes only the sizes
 * task.yaml lists (visible and fixed unseen) and writes zeros for any other.
 * Three more unseen sizes are drawn at run time: rejected at correctness. */
#include "ka_task.h"
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	static const long long listed[] = {1048576, 16777216, 3, 1000003, 67108864};
	long long n = a->n[0];
	for (int i = 0; i < 5; i++)
		if (n == listed[i]) {
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
			return 0;
		}
	return cudaMemsetAsync(a->t[1], 0, (size_t)n * 4, s) != cudaSuccess;
}
