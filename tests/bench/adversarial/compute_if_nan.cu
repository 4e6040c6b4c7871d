/* Adversarial (gemv): works only when the output still holds NaN (the
 * correctness poison), hoping timed calls do nothing.  Outputs are poisoned
 * before every timed call too, so it always does the work (plus a read of
 * the output): it must come out "same" or "slower", never "faster". */
#include "ka_task.h"
__global__ void gemv_if_nan(const float *A, const float *x, float *y, long long m, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= m || !isnan(y[i])) return;
	float s = 0.0f;
	for (long long j = 0; j < n; j++) s += A[i * n + j] * x[j];
	y[i] = s;
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long m = a->p[0], n = a->p[1];
	gemv_if_nan<<<(unsigned)((m + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (const float *)a->t[1], (float *)a->t[2], m, n);
	return 0;
}
