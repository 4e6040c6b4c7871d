/* bench/tasks/histogram/expert.cu: per-block histograms in shared memory
 * (when the bins fit), 16-byte loads, grid-stride, then one global atomic
 * per non-empty bin per block.  Too many bins: global atomics, grid-stride. */
#include "ka_task.h"

enum { SMEM_BINS = 8192, GRID = 528 };

__global__ void __launch_bounds__(512) hist_shared(const int *x, unsigned *counts, long long n, int bins)
{
	extern __shared__ unsigned h[];
	for (int b = threadIdx.x; b < bins; b += blockDim.x) h[b] = 0;
	__syncthreads();
	long long n4 = n / 4, step = (long long)gridDim.x * blockDim.x;
	const int4 *x4 = (const int4 *)x;
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += step) {
		int4 v = x4[i];
		atomicAdd(&h[v.x % bins], 1u);
		atomicAdd(&h[v.y % bins], 1u);
		atomicAdd(&h[v.z % bins], 1u);
		atomicAdd(&h[v.w % bins], 1u);
	}
	if (blockIdx.x == 0 && threadIdx.x < n - 4 * n4) atomicAdd(&h[x[4 * n4 + threadIdx.x] % bins], 1u);
	__syncthreads();
	for (int b = threadIdx.x; b < bins; b += blockDim.x)
		if (h[b]) atomicAdd(&counts[b], h[b]);
}

__global__ void __launch_bounds__(256) hist_global(const int *x, unsigned *counts, long long n, int bins)
{
	long long step = (long long)gridDim.x * blockDim.x;
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += step)
		atomicAdd(&counts[x[i] % bins], 1u);
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	int bins = (int)a->p[1];
	cudaMemsetAsync(a->t[1], 0, (size_t)bins * sizeof(unsigned), s);
	if (bins <= SMEM_BINS) {
		long long blocks = (n / 4 + 511) / 512;
		blocks = blocks < 1 ? 1 : blocks > GRID ? GRID : blocks;
		hist_shared<<<(unsigned)blocks, 512, bins * sizeof(unsigned), s>>>((const int *)a->t[0], (unsigned *)a->t[1], n, bins);
	} else {
		hist_global<<<GRID * 2, 256, 0, s>>>((const int *)a->t[0], (unsigned *)a->t[1], n, bins);
	}
	return 0;
}
