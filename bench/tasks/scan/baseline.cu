/* bench/tasks/scan/baseline.cu: Hillis-Steele scan of 256-element blocks,
 * block totals scanned by a single thread, then offsets added. */
#include "ka_task.h"

__global__ void block_scan(const unsigned *x, unsigned *y, unsigned *totals, long long n)
{
	__shared__ unsigned sh[256];
	long long i = blockIdx.x * 256LL + threadIdx.x;
	sh[threadIdx.x] = i < n ? x[i] : 0u;
	__syncthreads();
	for (int d = 1; d < 256; d <<= 1) {
		unsigned v = threadIdx.x >= d ? sh[threadIdx.x - d] : 0u;
		__syncthreads();
		sh[threadIdx.x] += v;
		__syncthreads();
	}
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
