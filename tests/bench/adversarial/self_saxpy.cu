/* Adversarial (saxpy), class "verdicts that flip": the task's own baseline
 * as the candidate.  The same kernel must come out "same", run after run
 * (bench/RESULTS.md: a 2.4% bias once made saxpy "faster" than itself).
 * A copy of bench/tasks/saxpy/baseline.cu: one thread per element. */
#include "ka_task.h"

__global__ void saxpy_naive(float alpha, const float *x, const float *y, float *out, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) out[i] = alpha * x[i] + y[i];
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	saxpy_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((float)a->s[0], (const float *)a->t[0],
							      (const float *)a->t[1], (float *)a->t[2], n);
	return 0;
}
