/* Adversarial (gemv): does the work on its own non-blocking stream so the
 * harness's events see nothing.  Rejected by the static gate; with the gate
 * skipped, by the wall-time cross-check. */
#include "ka_task.h"
__global__ void gemv_naive(const float *A, const float *x, float *y, long long m, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= m) return;
	float s = 0.0f;
	for (long long j = 0; j < n; j++) s += A[i * n + j] * x[j];
	y[i] = s;
}
static cudaStream_t mine;
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long m = a->p[0], n = a->p[1];
	if (!mine) cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking);
	gemv_naive<<<(unsigned)((m + 255) / 256), 256, 0, mine>>>((const float *)a->t[0], (const float *)a->t[1], (float *)a->t[2], m, n);
	return 0;
}
