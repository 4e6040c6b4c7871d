/* bench/tasks/histogram/baseline.cu: one global atomic per element. */
#include "ka_task.h"

#ifndef KA_PRIV_ADD_DEFINED
#define KA_PRIV_ADD_DEFINED
/* a bin below the shared copy's size counts in shared memory, any other in global */
template <typename T, typename U>
__device__ __forceinline__ void ka_priv_add(T *g, T *s, long long ns, long long b, U v)
{
	if (b >= 0 && b < ns) atomicAdd(&s[b], (T)v);
	else atomicAdd(&g[b], (T)v);
}
#endif

__global__ void __launch_bounds__(512) hist_naive(const int *x, unsigned *counts, long long n, int bins)
{
	extern __shared__ unsigned ka_bins[];
	const long long ka_nb = bins < 12288 ? bins : 12288;
	for (long long ka_b = threadIdx.x; ka_b < ka_nb; ka_b += blockDim.x) ka_bins[ka_b] = 0;
	__syncthreads();
	const long long ka_step = (long long)gridDim.x * blockDim.x;
	for (long long ka_e = blockIdx.x * (long long)blockDim.x + threadIdx.x; ka_e < n; ka_e += ka_step) {
		long long i = ka_e;
		ka_priv_add(counts, ka_bins, ka_nb, (long long)(x[i]%bins), 1u);
	}
	__syncthreads();
	for (long long ka_b = threadIdx.x; ka_b < ka_nb; ka_b += blockDim.x)
		if (ka_bins[ka_b]) atomicAdd(&counts[ka_b], ka_bins[ka_b]);
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	int bins = (int)a->p[1];
	cudaMemsetAsync(a->t[1], 0, (size_t)bins * sizeof(unsigned), s);
	hist_naive<<<(unsigned)(((long long)(n) + 512) / 512 < 528 ? ((long long)(n) + 512) / 512 : 528), 512, (size_t)((long long)(bins) < 12288 ? (long long)(bins) : 12288) * sizeof(unsigned), s>>>((const int *)a->t[0], (unsigned *)a->t[1], n, bins);
	return 0;
}
