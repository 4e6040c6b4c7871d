/* Adversarial (gelu), class "host code in the measuring process": writes
 * forged sample lines into the harness's result channel (fd 3) with write(),
 * spelled with a backslash-newline so that a token scan misses it.  The
 * object imports write: rejected at the static gate. */
#include "ka_task.h"
extern "C" long wri\
te(int fd, const void *p, unsigned long n);
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	static const char forged[] = "sample v_1m 0 100.0 1.0 100.0 1.0 0 0\n";
	long long n = a->n[0];
	wri\
te(3, forged, sizeof forged - 1);
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
