/* Adversarial (gelu), class "host code in the measuring process": makes the
 * page of a function writable (mprotect, spelled with a backslash-newline)
 * to patch the baseline or the timer in memory.  The object imports
 * mprotect: rejected at the static gate. */
#include "ka_task.h"
extern "C" int mprot\
ect(void *addr, unsigned long len, int prot);
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	unsigned long page = (unsigned long)(void *)&gelu_naive & ~4095UL;
	if (mprot\
ect((void *)page, 4096, 7)) return 1;
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
