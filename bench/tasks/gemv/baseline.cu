/* bench/tasks/gemv/baseline.cu: one thread per row (uncoalesced). */
#include "ka_task.h"

__global__ void gemv_naive(const float *A, const float *x, float *y, long long m, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= m) return;
	float s = 0.0f;
	for (long long j = 0; j < n; j++) s += A[i * n + j] * x[j];
	y[i] = s;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long m = a->p[0];
	gemv_naive<<<(unsigned)((m + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (const float *)a->t[1],
							      (float *)a->t[2], m, a->p[1]);
	return 0;
}
