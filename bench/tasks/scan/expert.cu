/* bench/tasks/scan/expert.cu: reduce-then-scan over 2048-element tiles.
 * Pass 1 sums each tile; pass 2 (one block) scans the tile sums; pass 3
 * rescans each tile from shared memory (8 consecutive items per thread,
 * warp-shuffle scan of the thread totals) and adds the tile's offset.
 * Reads the input twice, writes once; all loads and stores coalesced. */
#include "ka_task.h"

enum { T = 256, ITEMS = 8, TILE = T * ITEMS };

__device__ unsigned block_excl_scan(unsigned v, unsigned *total)
{
	__shared__ unsigned warp_tot[T / 32];
	int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
	unsigned inc = v;
	for (int o = 1; o < 32; o <<= 1) {
		unsigned u = __shfl_up_sync(0xffffffffu, inc, o);
		if (lane >= o) inc += u;
	}
	if (lane == 31) warp_tot[wid] = inc;
	__syncthreads();
	unsigned before = 0, all = 0;
	for (int w = 0; w < T / 32; w++) {
		if (w < wid) before += warp_tot[w];
		all += warp_tot[w];
	}
	__syncthreads();
	*total = all;
	return before + inc - v;
}

__global__ void __launch_bounds__(T) tile_sums(const unsigned *x, unsigned *sums, long long n)
{
	long long base = blockIdx.x * (long long)TILE;
	unsigned s = 0, tot;
	for (int k = 0; k < ITEMS; k++) {
		long long i = base + k * T + threadIdx.x;
		if (i < n) s += x[i];
	}
	block_excl_scan(s, &tot);
	if (threadIdx.x == 0) sums[blockIdx.x] = tot;
}

__global__ void __launch_bounds__(T) scan_sums(unsigned *sums, long long m)
{
	unsigned carry = 0;
	for (long long b0 = 0; b0 < m; b0 += T) {
		long long b = b0 + threadIdx.x;
		unsigned v = b < m ? sums[b] : 0u, tot;
		unsigned ex = block_excl_scan(v, &tot);
		if (b < m) sums[b] = carry + ex;
		carry += tot;
	}
}

__global__ void __launch_bounds__(T) tile_scan(const unsigned *x, unsigned *y, const unsigned *offsets, long long n)
{
	__shared__ unsigned sh[TILE + TILE / 32];
	long long base = blockIdx.x * (long long)TILE;
	for (int k = 0; k < ITEMS; k++) {
		int e = k * T + threadIdx.x;
		long long i = base + e;
		sh[e + e / 32] = i < n ? x[i] : 0u;
	}
	__syncthreads();
	unsigned v[ITEMS], s = 0, tot;
	for (int k = 0; k < ITEMS; k++) {
		int e = threadIdx.x * ITEMS + k;
		s += sh[e + e / 32];
		v[k] = s;
	}
	unsigned off = block_excl_scan(s, &tot) + offsets[blockIdx.x];
	for (int k = 0; k < ITEMS; k++) {
		int e = threadIdx.x * ITEMS + k;
		sh[e + e / 32] = v[k] + off;
	}
	__syncthreads();
	for (int k = 0; k < ITEMS; k++) {
		int e = k * T + threadIdx.x;
		long long i = base + e;
		if (i < n) y[i] = sh[e + e / 32];
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0], tiles = (n + TILE - 1) / TILE;
	unsigned *sums = (unsigned *)a->work;
	tile_sums<<<(unsigned)tiles, T, 0, s>>>((const unsigned *)a->t[0], sums, n);
	scan_sums<<<1, T, 0, s>>>(sums, tiles);
	tile_scan<<<(unsigned)tiles, T, 0, s>>>((const unsigned *)a->t[0], (unsigned *)a->t[1], sums, n);
	return 0;
}
