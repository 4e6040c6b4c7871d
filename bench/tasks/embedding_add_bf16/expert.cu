/* bench/tasks/embedding_add_bf16/expert.cu: one warp per token row (the id
 * read once per warp); rows of a multiple of 8 columns go eight bf16 at a
 * time (16-byte loads of both tables, 16-byte streaming stores), the pairs
 * added in fp32 and rounded once; other rows one bf16 per lane. */
#include "ka_task.h"
#include <cuda_bf16.h>

__device__ __forceinline__ uint4 add8(uint4 a, uint4 b)
{
	__nv_bfloat162 *p = reinterpret_cast<__nv_bfloat162 *>(&a);
	const __nv_bfloat162 *q = reinterpret_cast<const __nv_bfloat162 *>(&b);
#pragma unroll
	for (int k = 0; k < 4; k++) {
		float2 f = __bfloat1622float2(p[k]), g = __bfloat1622float2(q[k]);
		p[k] = __floats2bfloat162_rn(f.x + g.x, f.y + g.y);
	}
	return a;
}

template <bool VEC>
__global__ void __launch_bounds__(256) embed_warp(const int *ids, const __nv_bfloat16 *wte, const __nv_bfloat16 *wpe,
						  __nv_bfloat16 *out, long long tokens, long long seq, long long dim)
{
	long long t = blockIdx.x * 8LL + (threadIdx.x >> 5);
	int lane = threadIdx.x & 31;
	if (t >= tokens) return;
	long long id = __ldg(ids + t);
	const __nv_bfloat16 *e = wte + id * dim, *p = wpe + (t % seq) * dim;
	__nv_bfloat16 *o = out + t * dim;
	if (VEC) {
		const uint4 *ev = reinterpret_cast<const uint4 *>(e), *pv = reinterpret_cast<const uint4 *>(p);
		uint4 *ov = reinterpret_cast<uint4 *>(o);
		for (long long j = lane; j < dim / 8; j += 32) __stcs(ov + j, add8(__ldg(ev + j), __ldg(pv + j)));
	} else {
		for (long long j = lane; j < dim; j += 32)
			o[j] = __float2bfloat16(__bfloat162float(e[j]) + __bfloat162float(p[j]));
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long tokens = a->p[0], seq = a->p[1], dim = a->p[2];
	const int *ids = (const int *)a->t[0];
	const __nv_bfloat16 *wte = (const __nv_bfloat16 *)a->t[1], *wpe = (const __nv_bfloat16 *)a->t[2];
	__nv_bfloat16 *out = (__nv_bfloat16 *)a->t[3];
	unsigned blocks = (unsigned)((tokens + 7) / 8);
	if (dim % 8 == 0) embed_warp<true><<<blocks, 256, 0, s>>>(ids, wte, wpe, out, tokens, seq, dim);
	else embed_warp<false><<<blocks, 256, 0, s>>>(ids, wte, wpe, out, tokens, seq, dim);
	return 0;
}
