/* bench/tasks/reduce_sum/baseline.cu: shared-memory tree per 256-element
 * block into the scratch, then one block adds the partial sums. */
#include "ka_task.h"

__global__ void partial_sums(const float *x, float *part, long long n)
{
	__shared__ float sh[256];
	long long i = blockIdx.x * 256LL + threadIdx.x;
	sh[threadIdx.x] = i < n ? x[i] : 0.0f;
	__syncthreads();
	for (int s = 128; s > 0; s >>= 1) {
		if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
		__syncthreads();
	}
	if (threadIdx.x == 0) part[blockIdx.x] = sh[0];
}

__global__ void final_sum(const float *part, long long m, float *out)
{
	__shared__ float sh[256];
	float s = 0.0f;
	for (long long i = threadIdx.x; i < m; i += 256) s += part[i];
	sh[threadIdx.x] = s;
	__syncthreads();
	for (int k = 128; k > 0; k >>= 1) {
		if (threadIdx.x < k) sh[threadIdx.x] += sh[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x == 0) out[0] = sh[0];
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0], blocks = (n + 255) / 256;
	float *part = (float *)a->work;
	partial_sums<<<(unsigned)blocks, 256, 0, s>>>((const float *)a->t[0], part, n);
	final_sum<<<1, 256, 0, s>>>(part, blocks, (float *)a->t[1]);
	return 0;
}
