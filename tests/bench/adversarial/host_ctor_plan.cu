/* Adversarial (gelu), class "host code in the measuring process": runs code
 * before main() through a dynamic initializer (no 'constructor' token for a
 * scan to find), the place to rewrite a timing plan.  The object's
 * .init_array holds a second entry beside nvcc's registration: rejected at
 * the static gate. */
#include "ka_task.h"
static int before_main(void)
{
	static volatile int touched = 1;
	return touched;
}
static int early = before_main();
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return early - 1;
}
