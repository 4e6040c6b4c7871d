/* bench/tasks/scan/baseline.cu: Hillis-Steele scan of 256-element blocks,
 * block totals scanned by a single thread, then offsets added. */
#include "ka_task.h"

#ifndef KA_BLOCK_SCAN_DEFINED
#define KA_BLOCK_SCAN_DEFINED
/* the sum of v over the block's threads before this one; every thread of
 * the block calls it (blockDim.x a multiple of 32, at most 1024) */
template <typename T>
__device__ __forceinline__ T ka_block_exclusive_scan(T v)
{
	__shared__ T ka_warp_incl[32];
	const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
	T inc = v;
	for (unsigned o = 1; o < 32; o <<= 1) {
		T u = __shfl_up_sync(0xffffffffu, inc, o);
		if (lane >= o) inc += u;
	}
	T ex = __shfl_up_sync(0xffffffffu, inc, 1);
	if (lane == 0) ex = (T)0;
	if (lane == 31) ka_warp_incl[warp] = inc;
	__syncthreads();
	if (warp == 0) {
		T w = lane < (blockDim.x >> 5) ? ka_warp_incl[lane] : (T)0;
		for (unsigned o = 1; o < 32; o <<= 1) {
			T u = __shfl_up_sync(0xffffffffu, w, o);
			if (lane >= o) w += u;
		}
		ka_warp_incl[lane] = w;
	}
	__syncthreads();
	T r = warp ? ka_warp_incl[warp - 1] + ex : ex;
	__syncthreads(); /* the next call may write ka_warp_incl again */
	return r;
}

/* 1 when the first n elements of a and of b share a byte */
template <typename T, typename U>
__device__ __forceinline__ bool ka_scan_overlap(const T *a, const U *b, long long n)
{
	const unsigned long long x = (unsigned long long)a, y = (unsigned long long)b;
	return n > 0 && x < y + n * sizeof(U) && y < x + n * sizeof(T);
}
#endif

__global__ void block_scan(const unsigned *x, unsigned *y, unsigned *totals, long long n)
{
	__shared__ unsigned sh[256];
	long long i = blockIdx.x * 256LL + threadIdx.x;
	sh[threadIdx.x] = i < n ? x[i] : 0u;
	__syncthreads();
	/* shuffle-block-scan: the inclusive scan of sh[0, 256) by warp shuffles */
	sh[threadIdx.x] += ka_block_exclusive_scan(sh[threadIdx.x]);
	__syncthreads();
	if (i < n) y[i] = sh[threadIdx.x];
	if (threadIdx.x == 255) totals[blockIdx.x] = sh[255];
}

__global__ void scan_totals_serial(unsigned *totals, long long m)
{
	unsigned s = 0;
	for (long long b = 0; b < m; b++) {
		unsigned t = totals[b];
		totals[b] = s;   /* exclusive */
		s += t;
	}
}

__global__ void add_offsets(unsigned *y, const unsigned *offsets, long long n)
{
	long long i = blockIdx.x * 256LL + threadIdx.x;
	if (i < n) y[i] += offsets[blockIdx.x];
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0], blocks = (n + 255) / 256;
	unsigned *totals = (unsigned *)a->work;
	block_scan<<<(unsigned)blocks, 256, 0, s>>>((const unsigned *)a->t[0], (unsigned *)a->t[1], totals, n);
	scan_totals_serial<<<1, 1, 0, s>>>(totals, blocks);
	add_offsets<<<(unsigned)blocks, 256, 0, s>>>((unsigned *)a->t[1], totals, n);
	return 0;
}
