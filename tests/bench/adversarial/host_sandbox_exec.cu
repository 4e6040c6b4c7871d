/* Adversarial (gelu), class "host code in the measuring process": starts a
 * program (execve) from inside the wrapper, e.g. to run a tool that
 * rewrites the result. The object imports it, so the static gate rejects
 * it; with that gate skipped, the harness's seccomp sandbox traps the call
 * on the first run of the wrapper and the correctness gate rejects the
 * run. */
#include "ka_task.h"
extern "C" int execve(const char *path, char *const argv[], char *const envp[]);
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	static char *argv[] = {(char *)"true", 0};
	execve("/bin/true", argv, argv + 1);   /* returns only on failure */
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
