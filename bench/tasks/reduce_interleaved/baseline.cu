/* bench/tasks/reduce_interleaved/baseline.cu: the classic first reduction
 * kernel (Harris' "interleaved addressing").  Each 256-thread block loads
 * 256 consecutive elements of one row, one per thread, and adds them in a
 * shared-memory tree whose active threads are every 2s-th one; thread 0
 * writes the block's sum.  The same kernel then reduces the per-block sums
 * again (rows x cdiv(cols, 256) -> rows x cdiv(cols, 65536) -> ...) until
 * one value per row is left, which the last pass writes into sums. */
#include "ka_task.h"

__global__ void block_sum(const float *in, float *out, long long n)
{
	__shared__ float sh[256];
	unsigned int tid = threadIdx.x;
	long long j = (long long)blockIdx.y * 256 + tid;
	sh[tid] = j < n ? in[blockIdx.x * n + j] : 0.0f;
	__syncthreads();
	for (unsigned int s = 1; s < blockDim.x; s *= 2) {
		if (tid % (2 * s) == 0) sh[tid] += sh[tid + s];
		__syncthreads();
	}
	if (tid == 0) out[blockIdx.x * (long long)gridDim.y + blockIdx.y] = sh[0];
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], n = a->p[1];
	const float *src = (const float *)a->t[0];
	/* two scratch areas, used in turn: rows x cdiv(cols, 256) partial sums,
	 * then rows x cdiv(cols, 65536) */
	float *scratch[2] = {(float *)a->work, (float *)a->work + rows * ((n + 255) / 256)};
	for (int pass = 0;; pass++) {
		long long blocks = (n + 255) / 256;
		if (blocks > 65535) return 1; /* the grid's y limit: cols up to 16776960 */
		float *dst = blocks == 1 ? (float *)a->t[1] : scratch[pass & 1];
		block_sum<<<dim3((unsigned)rows, (unsigned)blocks), 256, 0, s>>>(src, dst, n);
		if (blocks == 1) return 0;
		src = dst;
		n = blocks;
	}
}
