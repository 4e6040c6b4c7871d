/* Adversarial (reduce_sum): a shared-memory tree with the barriers left out
 * and a racy single-slot accumulation.  Must fail correctness. */
#include "ka_task.h"
__global__ void racy_sum(const float *x, float *out, long long n)
{
	__shared__ float sh[256];
	long long i = blockIdx.x * 256LL + threadIdx.x;
	sh[threadIdx.x] = i < n ? x[i] : 0.0f;
	for (int s = 128; s > 0; s >>= 1)
		if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
	if (threadIdx.x == 0) out[0] += sh[0];   /* read-modify-write race between blocks */
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	cudaMemsetAsync(a->t[1], 0, sizeof(float), s);
	racy_sum<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
