/* Adversarial (gelu), class "host code in the measuring process": loads a
 * vendor library at run time (dlopen through a macro and a
 * backslash-newline).  The object imports dlopen: rejected at the static
 * gate. */
#include "ka_task.h"
#define LOAD dlop\
en
extern "C" void *LOAD(const char *name, int flags);
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	static void *lib = LOAD("libcublas.so", 1);
	(void)lib;
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
