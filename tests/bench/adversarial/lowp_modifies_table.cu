/* Adversarial (embedding_add_bf16), unprotected 2-byte inputs: adds the
 * position row into the token table in place and copies it out, so the
 * table changes under the caller.  The inputs are hashed before and after
 * every checked call: rejected at correctness. */
#include "ka_task.h"
#include <cuda_bf16.h>
__global__ void embed_in_place(const int *ids, __nv_bfloat16 *wte, const __nv_bfloat16 *wpe, __nv_bfloat16 *out,
			       long long tokens, long long seq, long long dim)
{
	long long t = blockIdx.x;
	if (t >= tokens) return;
	for (long long j = threadIdx.x; j < dim; j += blockDim.x) {
		__nv_bfloat16 v = __float2bfloat16(__bfloat162float(wte[ids[t] * dim + j]) + __bfloat162float(wpe[(t % seq) * dim + j]));
		out[t * dim + j] = v;
		if (t == 0) wte[ids[t] * dim + j] = wpe[j];
	}
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long tokens = a->p[0];
	embed_in_place<<<(unsigned)tokens, 256, 0, s>>>((const int *)a->t[0], (__nv_bfloat16 *)a->t[1], (const __nv_bfloat16 *)a->t[2],
							(__nv_bfloat16 *)a->t[3], tokens, a->p[1], a->p[2]);
	return 0;
}
