/* bench/tasks/histogram/baseline.cu: one global atomic per element. */
#include "ka_task.h"

__global__ void hist_naive(const int *x, unsigned *counts, long long n, int bins)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) atomicAdd(&counts[x[i] % bins], 1u);
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	int bins = (int)a->p[1];
	cudaMemsetAsync(a->t[1], 0, (size_t)bins * sizeof(unsigned), s);
	hist_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const int *)a->t[0], (unsigned *)a->t[1], n, bins);
	return 0;
}
