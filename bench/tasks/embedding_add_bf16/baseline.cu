/* bench/tasks/embedding_add_bf16/baseline.cu: one thread per output
 * element, one bf16 at a time, the id reloaded by every thread. */
#include "ka_task.h"
#include <cuda_bf16.h>

__global__ void embed_naive(const int *ids, const __nv_bfloat16 *wte, const __nv_bfloat16 *wpe, __nv_bfloat16 *out,
			    long long tokens, long long seq, long long dim)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= tokens * dim) return;
	long long t = i / dim, j = i % dim;
	float v = __bfloat162float(wte[ids[t] * dim + j]) + __bfloat162float(wpe[(t % seq) * dim + j]);
	out[i] = __float2bfloat16(v);
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long tokens = a->p[0], n = tokens * a->p[2];
	embed_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const int *)a->t[0], (const __nv_bfloat16 *)a->t[1],
								 (const __nv_bfloat16 *)a->t[2], (__nv_bfloat16 *)a->t[3],
								 tokens, a->p[1], a->p[2]);
	return 0;
}
