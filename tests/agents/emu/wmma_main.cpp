/* tests/agents/emu/wmma_main.cpp: runs a wmma-gemm rewrite of
 * test_recipe_wmma.c (kernel.cu) on the host, the threads of a block
 * together (KA_EMU_COOP, nvcuda::wmma and cp.async from mma.h and
 * cuda_pipeline.h here), over sizes that cross every edge: M, N and K past
 * a tile, K and N not multiples of 8 (the element-by-element path) and
 * multiples of 8 (the 16-byte and cp.async path), more k tiles than
 * stages.  The operands are small integers, so every sum is exact in fp32
 * in any order and each output must equal the sequential loop's bit for
 * bit; C has a guard band after it that must stay untouched.
 * KA_EMU_TASK selects the kernel's host function:
 *   1  the bench's gemm_bf16 (ka_task_run: A m x k, B k x n, C m x n);
 *   2  a linear layer, B stored transposed (h(x, w, bias, y, rows, out,
 *      in): y = x w^T + bias).
 * kernel.cu may hold several rewrites, each's names renamed, and list
 * their host functions in KA_EMU_VARIANTS (`#define KA_EMU_VARIANTS
 * ka_task_run_0, ka_task_run_1`): each is run in turn, one build for them
 * all.  Exit status 0 when all match. */
#define KA_EMU_COOP
#include <cstdio>
#include <cstdlib>
#include "ka_task.h"
#include "cuda_pipeline.h"
#include "kernel.cu"

#ifndef KA_EMU_TASK
#error "KA_EMU_TASK must be 1 (gemm_bf16) or 2 (transposed B)"
#endif
#ifndef KA_EMU_VARIANTS
#if KA_EMU_TASK == 1
#define KA_EMU_VARIANTS ka_task_run
#else
#define KA_EMU_VARIANTS h
#endif
#endif
#if KA_EMU_TASK == 1
static int (*const variants[])(const ka_task_args *, cudaStream_t) = {KA_EMU_VARIANTS};
#else
static void (*const variants[])(const __nv_bfloat16 *, const __nv_bfloat16 *, const __nv_bfloat16 *,
				__nv_bfloat16 *, int, int, int) = {KA_EMU_VARIANTS};
#endif

static __nv_bfloat16 *operand(long long n, int seed)
{
	__nv_bfloat16 *x = (__nv_bfloat16 *)aligned_alloc(64, (size_t)((n + 64) * 2 + 64) / 64 * 64);
	for (long long i = 0; i < n; i++)
		x[i] = __float2bfloat16((float)((i * 7 + i / 3 + seed) % 5 - 2));
	return x;
}

/* wrong elements of C (m x n) for one size and variant v, guard band included */
static long long wrong(long long m, long long n, long long k, size_t v)
{
	const long long guard = 64;
	__nv_bfloat16 *a = operand(m * k, 1), *b = operand(k * n, 2), *bias = operand(n, 3);
	__nv_bfloat16 *c = (__nv_bfloat16 *)aligned_alloc(64, (size_t)((m * n + guard) * 2 + 64) / 64 * 64);
	for (long long i = 0; i < m * n + guard; i++)
		c[i].v = 0xFFFF;
#if KA_EMU_TASK == 1
	ka_task_args args = {};
	args.t[0] = a;
	args.t[1] = b;
	args.t[2] = c;
	args.p[0] = m;
	args.p[1] = n;
	args.p[2] = k;
	variants[v](&args, 0);
#else
	variants[v](a, b, bias, c, (int)m, (int)n, (int)k);
#endif
	long long bad = 0;
	for (long long i = 0; i < m; i++)
		for (long long j = 0; j < n; j++) {
			float s = 0.0f;
			for (long long l = 0; l < k; l++)
#if KA_EMU_TASK == 1
				s += __bfloat162float(a[i * k + l]) * __bfloat162float(b[l * n + j]);
			unsigned short want = __float2bfloat16(s).v;
#else
				s += __bfloat162float(a[i * k + l]) * __bfloat162float(b[j * k + l]);
			unsigned short want = __float2bfloat16(s + __bfloat162float(bias[j])).v;
#endif
			if (c[i * n + j].v != want && bad++ < 5)
				fprintf(stderr, "variant %zu, %lldx%lldx%lld: C[%lld][%lld] = %04x, want %04x\n", v, m,
					n, k, i, j, c[i * n + j].v, want);
		}
	for (long long i = m * n; i < m * n + guard; i++)
		bad += c[i].v != 0xFFFF;
	if (ka_emu_async_pending()) {
		fprintf(stderr, "variant %zu, %lldx%lldx%lld: %zu cp.async copies never waited for\n", v, m, n,
			k, ka_emu_async_pending());
		bad++;
	}
	free(a);
	free(b);
	free(bias);
	free(c);
	return bad;
}

int main()
{
	static const long long sizes[][3] = {
		{7, 5, 3},	  /* a corner of one tile */
		{130, 140, 70},	  /* K % 8 != 0: element by element, past a tile in M and N */
		{136, 144, 136},  /* all multiples of 8: 16-byte copies, 5 k tiles, partial tiles */
		{40, 24, 200},	  /* 4 k tiles of 64 (bk=64): the 3 stages come round */
		{1, 200, 40},	  /* one row */
		{129, 9, 100},	  /* N % 8 != 0 */
		{64, 64, 0},	  /* no k: C is the epilogue of 0 */
	};
	long long bad = 0;
	for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
		for (const auto &s : sizes) {
			long long w = wrong(s[0], s[1], s[2], v);
			printf("variant %zu, %lldx%lldx%lld: %s (grid %u, block %u)\n", v, s[0], s[1], s[2],
			       w ? "WRONG" : "ok", ka_emu_last_grid, ka_emu_last_block);
			bad += w;
		}
	return bad ? 1 : 0;
}
