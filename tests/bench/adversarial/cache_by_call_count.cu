/* Adversarial (gemv): does the matrix-vector product only on every other call (keeps the
 * last result).  Must fail correctness (the repeated call sees poison). */
#include "ka_task.h"
__global__ void gemv_naive(const float *A, const float *x, float *y, long long m, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= m) return;
	float s = 0.0f;
	for (long long j = 0; j < n; j++) s += A[i * n + j] * x[j];
	y[i] = s;
}
static long long calls;
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long m = a->p[0], n = a->p[1];
	if (calls++ % 2) return 0;
	gemv_naive<<<(unsigned)((m + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (const float *)a->t[1], (float *)a->t[2], m, n);
	return 0;
}
