/* tests/agents/emu/embedding_main.cpp: runs a rewrite of the bench's
 * embedding_add_bf16 (kernel.cu, the rewrite with its launches written as
 * ka_emu_launch calls) on the host over several shapes, and compares every
 * output element with the task's formula, bit for bit (one bf16 rounding
 * of an fp32 sum).  Exit status 0 when all match. */
#include <cstdio>
#include <cstdlib>
#include "ka_task.h"
#include "kernel.cu"

static int check(long long tokens, long long seq, long long dim, int misalign)
{
	const long long vocab = dim >= 8192 ? 16 : 512; /* rows of the table the ids pick from */
	int *ids = (int *)malloc(sizeof(int) * (size_t)tokens);
	__nv_bfloat16 *wte0 = (__nv_bfloat16 *)aligned_alloc(16, (size_t)((vocab * dim + 16) * 2 + 16));
	__nv_bfloat16 *wpe = (__nv_bfloat16 *)aligned_alloc(16, (size_t)((seq * dim + 16) * 2 + 16));
	__nv_bfloat16 *out = (__nv_bfloat16 *)aligned_alloc(16, (size_t)((tokens * dim + 16) * 2 + 16));
	__nv_bfloat16 *wte = wte0 + misalign;
	for (long long t = 0; t < tokens; t++)
		ids[t] = (int)((t * 2654435761u) % vocab);
	for (long long i = 0; i < vocab * dim; i++)
		wte[i] = __float2bfloat16((float)((i * 7) % 13) - 6.0f);
	for (long long i = 0; i < seq * dim; i++)
		wpe[i] = __float2bfloat16((float)((i * 5) % 11) * 0.25f);
	for (long long i = 0; i < tokens * dim; i++)
		out[i].v = 0xFFFF;
	ka_task_args a = {};
	a.t[0] = ids;
	a.t[1] = wte;
	a.t[2] = wpe;
	a.t[3] = out;
	a.p[0] = tokens;
	a.p[1] = seq;
	a.p[2] = dim;
	ka_task_run(&a, 0);
	long long bad = 0;
	for (long long i = 0; i < tokens * dim; i++) {
		long long t = i / dim, j = i % dim;
		float v = __bfloat162float(wte[ids[t] * dim + j]) + __bfloat162float(wpe[(t % seq) * dim + j]);
		bad += __float2bfloat16(v).v != out[i].v;
	}
	printf("tokens=%lld seq=%lld dim=%lld misaligned=%d: %lld wrong\n", tokens, seq, dim, misalign, bad);
	free(ids);
	free(wte0);
	free(wpe);
	free(out);
	return bad != 0;
}

int main()
{
	int f = 0;
	f |= check(3, 2, 5, 0);         /* the scalar rows */
	f |= check(1001, 77, 999, 0);   /* rows not a multiple of 8 */
	f |= check(1, 1, 65536, 0);     /* one long row, cut into a block's segments */
	f |= check(3, 2, 65536 + 8, 0); /* long rows, a short last segment */
	f |= check(2, 2, 8192 + 3, 0);  /* long rows, scalar */
	f |= check(700, 300, 1600, 0);  /* the vector rows */
	f |= check(64, 64, 768, 1);     /* a table not 16-byte aligned: scalar rows */
	f |= check(40000, 13, 16, 0);   /* more rows than the capped grid's warps */
	f |= check(9, 4, 1, 0);
	return f;
}
