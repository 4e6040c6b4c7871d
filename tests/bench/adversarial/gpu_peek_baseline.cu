/* Adversarial (gemv), class "peeks at the baseline's output buffer": the
 * output buffers rotate between the baseline and the candidate, so the
 * buffer the candidate wrote two calls ago is the one the baseline has just
 * filled (when the baseline runs first).  Once past the correctness gate it
 * copies that buffer instead of computing.  The harness moves the baseline's
 * outputs out of reach and poisons its buffers right after its call, so the
 * copy is NaN: rejected at validation. */
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
	static void *seen[2];
	static long long calls, seen_m;
	long long m = a->p[0], n = a->p[1];
	void *two_ago = seen_m == m ? seen[calls % 2] : NULL;
	seen[calls % 2] = a->t[2];
	seen_m = m;
	if (++calls > 400 && two_ago && two_ago != a->t[2])
		return cudaMemcpyAsync(a->t[2], two_ago, (size_t)m * sizeof(float), cudaMemcpyDeviceToDevice, s) != cudaSuccess;
	gemv_naive<<<(unsigned)((m + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (const float *)a->t[1], (float *)a->t[2], m, n);
	return 0;
}
