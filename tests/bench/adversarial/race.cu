/* Adversarial (reduce_sum): the baseline's shared-memory tree with the
 * barriers left out (threads read partial sums other warps have not yet
 * written).  Must fail correctness. */
#include "ka_task.h"
__global__ void racy_row_sum(const float *x, float *sums, long long cols)
{
	__shared__ float sh[256];
	const float *xr = x + blockIdx.x * cols;
	float s = 0.0f;
	for (long long j = threadIdx.x; j < cols; j += 256) s += xr[j];
	sh[threadIdx.x] = s;
	for (int k = 128; k > 0; k >>= 1)
		if (threadIdx.x < k) sh[threadIdx.x] += sh[threadIdx.x + k];
	if (threadIdx.x == 0) sums[blockIdx.x] = sh[0];
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	racy_row_sum<<<(unsigned)a->p[0], 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], a->p[1]);
	return 0;
}
