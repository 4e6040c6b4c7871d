/* Adversarial (gelu), class "host code in the measuring process": opens a
 * network socket from inside the wrapper, e.g. to fetch a precomputed
 * answer. The object imports it, so the static gate rejects it; with that
 * gate skipped, the harness's seccomp sandbox traps the call on the first
 * run of the wrapper and the correctness gate rejects the run. */
#include "ka_task.h"
extern "C" int socket(int domain, int type, int protocol);
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	int fd = socket(2 /* AF_INET */, 1 /* SOCK_STREAM */, 0);
	(void)fd;
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
