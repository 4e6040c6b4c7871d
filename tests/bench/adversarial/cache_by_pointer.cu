/* Adversarial (gemv): remembers the last (A, x) pointers and replays its
 * cached y when they repeat.  Its object imports cudaMalloc/cudaFree, which
 * a kernel wrapper does not need: rejected at the static gate (and, with that
 * gate skipped, at correctness: same buffers, new data). */
#include "ka_task.h"
__global__ void gemv_naive(const float *A, const float *x, float *y, long long m, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= m) return;
	float s = 0.0f;
	for (long long j = 0; j < n; j++) s += A[i * n + j] * x[j];
	y[i] = s;
}
static const void *seen_a, *seen_x;
static void *cache;
static size_t cache_bytes;
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long m = a->p[0], n = a->p[1];
	size_t bytes = (size_t)m * sizeof(float);
	if (a->t[0] == seen_a && a->t[1] == seen_x && cache && cache_bytes == bytes) {
		cudaMemcpyAsync(a->t[2], cache, bytes, cudaMemcpyDeviceToDevice, s);
		return 0;
	}
	gemv_naive<<<(unsigned)((m + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (const float *)a->t[1], (float *)a->t[2], m, n);
	if (cache_bytes != bytes) { cudaFree(cache); cudaMalloc(&cache, bytes); cache_bytes = bytes; }
	cudaMemcpyAsync(cache, a->t[2], bytes, cudaMemcpyDeviceToDevice, s);
	seen_a = a->t[0];
	seen_x = a->t[1];
	return 0;
}
