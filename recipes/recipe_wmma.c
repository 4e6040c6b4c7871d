/* recipes/recipe_wmma.c: the wmma-gemm recipe (rules math-lowp-gemm-no-tensor-core,
 * gmem-no-tile-reuse).  The naive GEMM of recipes/recipe_gemm_int.h on
 * __nv_bfloat16 or __half operands, each converted to float before the
 * multiply and summed in a float, is rewritten for the tensor cores
 * (nvcuda::wmma, 16 x 16 x 16 fragments, fp32 accumulator fragments):
 *   - a block of W warps computes a BM x BN tile of C, each warp FM x FN
 *     fragments (bm=128 bn=128: 8 warps of 64 x 32; bm=64 bn=64: 4 warps of
 *     32 x 32);
 *   - B may be row-major (B[l * N + j]) or stored transposed, N x K
 *     (B[j * K + l], a linear layer's x W^T): its tile is then staged as
 *     BN rows of 32 and read as a col_major fragment;
 *   - A's BM x 32 and B's 32 x BN tiles are staged in shared memory (rows
 *     padded by 8 elements), zero-filled past M, N and K, so every size is
 *     exact; 8 elements move as one 16-byte word when the row length is a
 *     multiple of 8 and the pointer 16-byte aligned (checked at run time),
 *     else element by element; the next tile is read into registers while
 *     the current one is multiplied;
 *   - or (stages=N, sm_80) the tiles live in N stages of dynamic shared
 *     memory, filled N - 1 k tiles ahead by cp.async
 *     (__pipeline_memcpy_async; edge chunks element by element), one
 *     __syncthreads per k tile, bm=128 bn=128 also as 4 warps of 64 x 64
 *     (warps=4), the tiles 32 or (bk=64) 64 deep, A's rows then padded to
 *     72; over 48 KiB the launch raises the kernel's limit first, and a
 *     set over the target's per-block limit declines;
 *   - each accumulator fragment goes through a per-warp 16 x 16 float
 *     scratch (the drained stages with stages=N), and the kernel's own
 *     store statement runs for every element inside C with the row, column
 *     and accumulator bound to their names, so the epilogue (conversion,
 *     alpha/beta, bias) is the kernel's own.
 * The products of two 16-bit floats are exact in fp32, so what changes is
 * the order of the sum (the bench's tolerance decides).  Needs sm_80 for
 * __nv_bfloat16 and sm_70 for __half (ka_recipe_arch); declines on HIP. */
#include "recipes/recipe_gemm_int.h"
#include "analyzer/arch.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 __nv_bfloat16, 2 __half, 3 float, 0 another type. */
static int elem_kind(const ka_csrc_kernel *k, const char *name)
{
	int pi = ka_csrc_param_index(k, name);
	if (pi < 0 || !k->params[pi].is_pointer)
		return 0;
	const char *t = k->params[pi].type;
	size_t n = strlen(t);
	if (ka_csrc_has_word(t, 0, n, "__nv_bfloat16") || ka_csrc_has_word(t, 0, n, "nv_bfloat16"))
		return 1;
	if (ka_csrc_has_word(t, 0, n, "__half") || ka_csrc_has_word(t, 0, n, "half"))
		return 2;
	if (ka_csrc_has_word(t, 0, n, "float"))
		return 3;
	return 0;
}

/* The target's compute capability (sm_90: 90), the default target's when
 * none is set; 0 for a target that is no NVIDIA GPU. */
static int target_sm(void)
{
	const char *a = ka_recipe_arch();
	if (!a)
		a = "sm_90";
	return !strncmp(a, "sm_", 3) ? atoi(a + 3) : 0;
}

/* The target's profile (the default's when none is set). */
static const ka_arch *target_arch(void)
{
	const ka_arch *a = ka_arch_find(ka_recipe_arch());
	return a ? a : ka_arch_default();
}

/* Where `#include <mma.h>` goes: after the last #include line before the
 * kernel, else at the top. */
static size_t include_at(const char *t, size_t before)
{
	size_t at = 0;
	for (size_t i = 0; i < before; i++)
		if ((i == 0 || t[i - 1] == '\n') && !strncmp(t + i, "#include", 8)) {
			const char *nl = memchr(t + i, '\n', before - i);
			at = nl ? (size_t)(nl - t) + 1 : at;
		}
	return at;
}

/* The body of an edge fetch, one level inside ind: the 8 elements at row
 * r, columns c .. c + 7 of the matrix P (rows x cols, row length ld) one by
 * one into the uint4 dst, zero past the edges. */
static void emit_scalar8(ka_buf *b, const char *ind, const char *dst, const char *p, const char *r,
			 const char *rows, const char *c, const char *cols, const char *as_ushort)
{
	ka_buf_printf(
		b,
		"%s\tunsigned ka_h[8];\n"
		"%s\t#pragma unroll\n"
		"%s\tfor (int ka_p = 0; ka_p < 8; ka_p++)\n"
		"%s\t\tka_h[ka_p] = %s < %s && %s + ka_p < %s ? (unsigned)%s(%s[%s * %s + %s + ka_p]) : 0u;\n"
		"%s\t%s = make_uint4(ka_h[0] | ka_h[1] << 16, ka_h[2] | ka_h[3] << 16, ka_h[4] | ka_h[5] << 16,\n"
		"%s\t\t\tka_h[6] | ka_h[7] << 16);\n",
		ind, ind, ind, ind, r, rows, c, cols, as_ushort, p, r, cols, c, ind, dst, ind);
}

/* The 8 elements at row r, columns c .. c + 7 of the matrix P (rows x cols,
 * row length ld) into the uint4 dst: one 16-byte load when vec holds and
 * the 8 are inside, else element by element, zero past the edges. */
static void emit_fetch(ka_buf *b, const char *ind, const char *dst, const char *p, const char *r,
		       const char *rows, const char *c, const char *cols, const char *vec,
		       const char *as_ushort)
{
	ka_buf_printf(b,
		      "%sif (%s && %s < %s && %s + 8 <= %s) {\n"
		      "%s\t%s = *reinterpret_cast<const uint4 *>(%s + %s * %s + %s);\n"
		      "%s} else {\n",
		      ind, vec, r, rows, c, cols, ind, dst, p, r, cols, c, ind);
	emit_scalar8(b, ind, dst, p, r, rows, c, cols, as_ushort);
	ka_buf_printf(b, "%s}\n", ind);
}

/* Every thread's chunks of the A and B tiles at k offset k0 into ka_ra, ka_rb. */
static void emit_fetch_tiles(ka_buf *b, const ka_recipe_gemm *g, const char *k0, int nt, int pa, int pb,
			     int bn, const char *as_ushort)
{
	ka_buf_printf(b, "\t\t#pragma unroll\n\t\tfor (int ka_q = 0; ka_q < %d; ka_q++) {\n", pa);
	ka_buf_printf(b,
		      "\t\t\tconst int ka_x = ka_t + %d * ka_q;\n"
		      "\t\t\tconst long long ka_gr = ka_r0 + ka_x / 4, ka_gk = %s + ka_x %% 4 * 8;\n",
		      nt, k0);
	emit_fetch(b, "\t\t\t", "ka_ra[ka_q]", g->a, "ka_gr", "ka_M", "ka_gk", "ka_K", "ka_va", as_ushort);
	ka_buf_printf(b, "\t\t}\n\t\t#pragma unroll\n\t\tfor (int ka_q = 0; ka_q < %d; ka_q++) {\n", pb);
	if (g->b_transposed) { /* B's rows are C's columns, k along them: A's tiling */
		ka_buf_printf(b,
			      "\t\t\tconst int ka_x = ka_t + %d * ka_q;\n"
			      "\t\t\tconst long long ka_gc = ka_c0 + ka_x / 4, ka_gk = %s + ka_x %% 4 * 8;\n",
			      nt, k0);
		emit_fetch(b, "\t\t\t", "ka_rb[ka_q]", g->b, "ka_gc", "ka_N", "ka_gk", "ka_K", "ka_vb",
			   as_ushort);
	} else {
		ka_buf_printf(
			b,
			"\t\t\tconst int ka_x = ka_t + %d * ka_q;\n"
			"\t\t\tconst long long ka_gk = %s + ka_x / %d, ka_gc = ka_c0 + ka_x %% %d * 8;\n",
			nt, k0, bn / 8, bn / 8);
		emit_fetch(b, "\t\t\t", "ka_rb[ka_q]", g->b, "ka_gk", "ka_K", "ka_gc", "ka_N", "ka_vb",
			   as_ushort);
	}
	ka_buf_adds(b, "\t\t}\n");
}

/* What both bodies share: the shape, the types and the tiling. */
typedef struct wmma_plan {
	const ka_recipe_gemm *g;
	const char *T, *as_ushort; /* the element type, its bits as an unsigned short */
	int bm, bn, wm, wn, nw, nt, fm, fn;
	int stages;     /* 0: the next tile through registers; 2..4: cp.async stages */
	int bk, ldk;    /* the depth of a k tile (32, or 64 with stages), rows along k padded: bk + 8 */
	int min_blocks; /* __launch_bounds__'s blocks per SM with stages (what shared memory allows, <= 2) */
} wmma_plan;

#define NS "nvcuda::wmma::"

/* The accumulators and the block's coordinates, after the shared arrays. */
static void emit_prologue(ka_buf *b, const wmma_plan *p)
{
	const ka_recipe_gemm *g = p->g;
	ka_buf_printf(
		b,
		"\tconst int ka_t = threadIdx.x, ka_w = ka_t >> 5, ka_lane = ka_t & 31;\n"
		"\tconst int ka_wm = ka_w / %d, ka_wn = ka_w %% %d;\n"
		"\tconst long long ka_M = %s, ka_N = %s, ka_K = %s;\n"
		"\tconst long long ka_r0 = (long long)blockIdx.y * %d, ka_c0 = (long long)blockIdx.x * %d;\n"
		"\tconst bool ka_va = ka_K %% 8 == 0 && (reinterpret_cast<unsigned long long>(%s) & 15) == 0;\n"
		"\tconst bool ka_vb = ka_%c %% 8 == 0 && (reinterpret_cast<unsigned long long>(%s) & 15) == 0;\n"
		"\t" NS "fragment<" NS "accumulator, 16, 16, 16, float> ka_acc[%d][%d];\n"
		"\t#pragma unroll\n\tfor (int ka_x = 0; ka_x < %d; ka_x++)\n"
		"\t\t#pragma unroll\n\t\tfor (int ka_y = 0; ka_y < %d; ka_y++) " NS
		"fill_fragment(ka_acc[ka_x][ka_y], 0.0f);\n",
		p->wn, p->wn, g->m, g->n, g->k, p->bm, p->bn, g->a, g->b_transposed ? 'K' : 'N', g->b, p->fm,
		p->fn, p->fm, p->fn);
}

/* One bk-deep tile of A (at as) and B (at bs) into the accumulators. */
static void emit_mma(ka_buf *b, const wmma_plan *p, const char *as, const char *bs)
{
	const int ldb = p->bn + 8, ldk = p->ldk;
	char b_frag[128];
	if (p->g->b_transposed) /* bn rows of bk (+ 8), read as col_major */
		snprintf(b_frag, sizeof b_frag, "%s + (ka_wn * %d + ka_y * 16) * %d + ka_kk, %d", bs,
			 p->fn * 16, ldk, ldk);
	else /* bk rows of bn (+ 8) */
		snprintf(b_frag, sizeof b_frag, "%s + ka_kk * %d + ka_wn * %d + ka_y * 16, %d", bs, ldb,
			 p->fn * 16, ldb);
	ka_buf_printf(b,
		      "\t\t#pragma unroll\n\t\tfor (int ka_kk = 0; ka_kk < %d; ka_kk += 16) {\n"
		      "\t\t\t" NS "fragment<" NS "matrix_a, 16, 16, 16, %s, " NS "row_major> ka_fa[%d];\n"
		      "\t\t\t" NS "fragment<" NS "matrix_b, 16, 16, 16, %s, " NS "%s> ka_fb[%d];\n"
		      "\t\t\t#pragma unroll\n\t\t\tfor (int ka_x = 0; ka_x < %d; ka_x++)\n"
		      "\t\t\t\t" NS
		      "load_matrix_sync(ka_fa[ka_x], %s + (ka_wm * %d + ka_x * 16) * %d + ka_kk, %d);\n"
		      "\t\t\t#pragma unroll\n\t\t\tfor (int ka_y = 0; ka_y < %d; ka_y++)\n"
		      "\t\t\t\t" NS "load_matrix_sync(ka_fb[ka_y], %s);\n"
		      "\t\t\t#pragma unroll\n\t\t\tfor (int ka_x = 0; ka_x < %d; ka_x++)\n"
		      "\t\t\t\t#pragma unroll\n\t\t\t\tfor (int ka_y = 0; ka_y < %d; ka_y++)\n"
		      "\t\t\t\t\t" NS
		      "mma_sync(ka_acc[ka_x][ka_y], ka_fa[ka_x], ka_fb[ka_y], ka_acc[ka_x][ka_y]);\n"
		      "\t\t}\n",
		      p->bk, p->T, p->fm, p->T, p->g->b_transposed ? "col_major" : "row_major", p->fn, p->fm,
		      as, p->fm * 16, ldk, ldk, p->fn, b_frag, p->fm, p->fn);
}

/* Each accumulator fragment through the warp's 16 x 16 float scratch (the
 * pointer `scratch`), the kernel's own store for the elements inside C;
 * closes the body.  The cp.async body unrolls the fragment loops: indexed
 * at run time, its 16 accumulators would go to the stack. */
static void emit_epilogue(ka_buf *b, const wmma_plan *p, const char *text, const char *scratch)
{
	const ka_recipe_gemm *g = p->g;
	const int unroll = p->stages > 0;
	ka_buf_printf(
		b,
		"\t/* each fragment through the warp's scratch; the kernel's store for the elements inside C */\n"
		"\tfloat *ka_s = %s;\n"
		"\t%sfor (int ka_x = 0; ka_x < %d; ka_x++)\n"
		"\t\t%sfor (int ka_y = 0; ka_y < %d; ka_y++) {\n"
		"\t\t\t" NS "store_matrix_sync(ka_s, ka_acc[ka_x][ka_y], 16, " NS "mem_row_major);\n"
		"\t\t\t__syncwarp();\n"
		"\t\t\tfor (int ka_q = ka_lane; ka_q < 256; ka_q += 32) {\n"
		"\t\t\t\tconst long long ka_gi = ka_r0 + ka_wm * %d + ka_x * 16 + ka_q / 16,\n"
		"\t\t\t\t\t\tka_gj = ka_c0 + ka_wn * %d + ka_y * 16 + ka_q %% 16;\n"
		"\t\t\t\tif (ka_gi < ka_M && ka_gj < ka_N) {\n"
		"\t\t\t\t\tconst %s %s = (%s)ka_gi;\n"
		"\t\t\t\t\tconst %s %s = (%s)ka_gj;\n"
		"\t\t\t\t\tconst float %s = ka_s[ka_q];\n"
		"\t\t\t\t\t",
		scratch, unroll ? "#pragma unroll\n\t" : "", p->fm, unroll ? "#pragma unroll\n\t\t" : "",
		p->fn, p->fm * 16, p->fn * 16, g->itype, g->i, g->itype, g->jtype, g->j, g->jtype, g->acc);
	ka_buf_add(b, text + g->store_s, g->store_e - g->store_s);
	ka_buf_adds(b, "\n\t\t\t\t}\n\t\t\t}\n\t\t\t__syncwarp();\n\t\t}\n}");
}

/* The register-prefetch body: one shared tile of A and of B, the next k
 * tile read into registers while the current one is multiplied. */
static void emit_regs_body(ka_buf *b, const wmma_plan *p)
{
	const ka_recipe_gemm *g = p->g;
	const int bm = p->bm, bn = p->bn, nt = p->nt, ldb = bn + 8;
	const int pa = bm * 4 / nt, pb = 32 * bn / 8 / nt;
	char bs_size[32], b_store[96];
	if (g->b_transposed) {
		snprintf(bs_size, sizeof bs_size, "%d * 40", bn);
		snprintf(b_store, sizeof b_store, "ka_x / 4 * 40 + ka_x %% 4 * 8");
	} else {
		snprintf(bs_size, sizeof bs_size, "32 * %d", ldb);
		snprintf(b_store, sizeof b_store, "ka_x / %d * %d + ka_x %% %d * 8", bn / 8, ldb, bn / 8);
	}
	ka_buf_printf(b,
		      "{\n\t/* %d x %d tiles of C per block, %d warps of %d x %d 16x16x16 fragments, fp32 "
		      "accumulators */\n"
		      "\t__shared__ __align__(32) %s ka_as[%d * 40];\n"
		      "\t__shared__ __align__(32) %s ka_bs[%s];\n"
		      "\t__shared__ __align__(32) float ka_sc[%d][256];\n",
		      bm, bn, p->nw, p->fm, p->fn, p->T, bm, p->T, bs_size, p->nw);
	emit_prologue(b, p);
	ka_buf_printf(b, "\tuint4 ka_ra[%d], ka_rb[%d];\n\t{\n", pa, pb);
	emit_fetch_tiles(b, g, "0", nt, pa, pb, bn, p->as_ushort);
	ka_buf_printf(
		b,
		"\t}\n"
		"\tfor (long long ka_k0 = 0; ka_k0 < ka_K; ka_k0 += 32) {\n"
		"\t\t#pragma unroll\n\t\tfor (int ka_q = 0; ka_q < %d; ka_q++) {\n"
		"\t\t\tconst int ka_x = ka_t + %d * ka_q;\n"
		"\t\t\t*reinterpret_cast<uint4 *>(&ka_as[ka_x / 4 * 40 + ka_x %% 4 * 8]) = ka_ra[ka_q];\n"
		"\t\t}\n"
		"\t\t#pragma unroll\n\t\tfor (int ka_q = 0; ka_q < %d; ka_q++) {\n"
		"\t\t\tconst int ka_x = ka_t + %d * ka_q;\n"
		"\t\t\t*reinterpret_cast<uint4 *>(&ka_bs[%s]) = ka_rb[ka_q];\n"
		"\t\t}\n"
		"\t\t__syncthreads();\n"
		"\t\tif (ka_k0 + 32 < ka_K) {\n",
		pa, nt, pb, nt, b_store);
	emit_fetch_tiles(b, g, "(ka_k0 + 32)", nt, pa, pb, bn, p->as_ushort);
	ka_buf_adds(b, "\t\t}\n");
	emit_mma(b, p, "ka_as", "ka_bs");
	ka_buf_adds(b, "\t\t__syncthreads();\n\t}\n");
}

/* One thread's 16-byte chunks of a stage: n of them, chunk ka_x at row
 * ROW, column COL of the tile (C expressions of ka_x), the matrix P with
 * rows x cols elements, copied to the stage at dst (row length ld) by
 * cp.async when vec holds and the 8 are inside, else element by element,
 * zero past the edges. */
static void emit_stage_part(ka_buf *b, const wmma_plan *p, int n, const char *row, const char *col,
			    const char *r0, int rows_are_k, const char *mat, const char *rows,
			    const char *cols, const char *vec, const char *dst, int ld)
{
	/* unrolled 4 at a time: 8 chunks of A and 8 of B (bk=64 on 4 warps) unrolled
	 * whole hold 16 addresses across the k loop and spill (ptxas, sm_90) */
	ka_buf_printf(b,
		      "\t\t\t#pragma unroll%s\n\t\t\tfor (int ka_q = 0; ka_q < %d; ka_q++) {\n"
		      "\t\t\t\tconst int ka_x = ka_t + %d * ka_q;\n",
		      n > 4 ? " 4" : "", n, p->nt);
	if (rows_are_k) /* B row-major */
		ka_buf_printf(b, "\t\t\t\tconst long long ka_gr = ka_kb + %s, ka_gc = %s + %s;\n", row, r0,
			      col);
	else
		ka_buf_printf(b, "\t\t\t\tconst long long ka_gr = %s + %s, ka_gc = ka_kb + %s;\n", r0, row,
			      col);
	ka_buf_printf(b,
		      "\t\t\t\t%s *ka_d = %s + (%s) * %d + %s;\n"
		      "\t\t\t\tif (%s && ka_gr < %s && ka_gc + 8 <= %s) {\n"
		      "\t\t\t\t\t__pipeline_memcpy_async(ka_d, %s + ka_gr * %s + ka_gc, 16);\n"
		      "\t\t\t\t} else {\n"
		      "\t\t\t\t\tuint4 ka_v;\n",
		      p->T, dst, row, ld, col, vec, rows, cols, mat, cols);
	emit_scalar8(b, "\t\t\t\t", "ka_v", mat, "ka_gr", rows, "ka_gc", cols, p->as_ushort);
	ka_buf_adds(b, "\t\t\t\t\t*reinterpret_cast<uint4 *>(ka_d) = ka_v;\n\t\t\t\t}\n\t\t\t}\n");
}

/* Fill stage `ka_st` with the k tile starting at ka_kb: A's bm rows of bk
 * (bk / 8 chunks a row), B's bk rows of bn or, transposed, bn rows of bk. */
static void emit_stage_fill(ka_buf *b, const wmma_plan *p, int a_size, int b_size)
{
	const ka_recipe_gemm *g = p->g;
	const int kc = p->bk / 8;
	char dst[64], krow[32], kcol[32];
	snprintf(krow, sizeof krow, "ka_x / %d", kc);
	snprintf(kcol, sizeof kcol, "ka_x %% %d * 8", kc);
	int chunks = p->bm * kc / p->nt;
	snprintf(dst, sizeof dst, "ka_as + ka_st * %d", a_size);
	emit_stage_part(b, p, chunks, krow, kcol, "ka_r0", 0, g->a, "ka_M", "ka_K", "ka_va", dst, p->ldk);
	snprintf(dst, sizeof dst, "ka_bs + ka_st * %d", b_size);
	if (g->b_transposed) {
		chunks = p->bn * kc / p->nt;
		emit_stage_part(b, p, chunks, krow, kcol, "ka_c0", 0, g->b, "ka_N", "ka_K", "ka_vb", dst,
				p->ldk);
	} else {
		char row[32], col[32];
		snprintf(row, sizeof row, "ka_x / %d", p->bn / 8);
		snprintf(col, sizeof col, "ka_x %% %d * 8", p->bn / 8);
		chunks = p->bk * p->bn / 8 / p->nt;
		emit_stage_part(b, p, chunks, row, col, "ka_c0", 1, g->b, "ka_K", "ka_N", "ka_vb", dst,
				p->bn + 8);
	}
}

/* Bytes of dynamic shared memory the cp.async body asks for. */
static int async_smem(const wmma_plan *p, int *a_size, int *b_size)
{
	*a_size = p->bm * p->ldk;
	*b_size = p->g->b_transposed ? p->bn * p->ldk : p->bk * (p->bn + 8);
	return p->stages * (*a_size + *b_size) * 2;
}

/* The cp.async body: `stages` shared tiles of A and B in dynamic shared
 * memory, filled stages - 1 k tiles ahead (__pipeline_memcpy_async for the
 * full 16-byte chunks, element by element at the edges), one
 * __syncthreads per k tile; the epilogue's scratch reuses the stages. */
static void emit_async_body(ka_buf *b, const wmma_plan *p)
{
	int a_size, b_size;
	const int bytes = async_smem(p, &a_size, &b_size), s = p->stages;
	ka_buf_printf(b,
		      "{\n\t/* %d x %d tiles of C per block, %d warps of %d x %d 16x16x16 fragments, fp32 "
		      "accumulators; %d cp.async stages of %d-deep tiles (%d bytes of dynamic shared memory) "
		      "*/\n"
		      "\textern __shared__ __align__(128) uint4 ka_wsm[];\n"
		      "\t%s *const ka_as = reinterpret_cast<%s *>(ka_wsm), *const ka_bs = ka_as + %d;\n",
		      p->bm, p->bn, p->nw, p->fm, p->fn, s, p->bk, bytes, p->T, p->T, s * a_size);
	emit_prologue(b, p);
	ka_buf_printf(b,
		      "\tconst long long ka_nk = (ka_K + %d) / %d;\n"
		      "\tfor (int ka_st = 0; ka_st < %d; ka_st++) {\n"
		      "\t\tif (ka_st < ka_nk) {\n"
		      "\t\t\tconst long long ka_kb = (long long)ka_st * %d;\n",
		      p->bk - 1, p->bk, s - 1, p->bk);
	emit_stage_fill(b, p, a_size, b_size);
	ka_buf_printf(b,
		      "\t\t}\n\t\t__pipeline_commit();\n\t}\n"
		      "\tfor (long long ka_kt = 0; ka_kt < ka_nk; ka_kt++) {\n"
		      "\t\t__pipeline_wait_prior(%d); /* tile ka_kt is in */\n"
		      "\t\t__syncthreads(); /* and every warp is done with the stage refilled next */\n"
		      "\t\tif (ka_kt + %d < ka_nk) {\n"
		      "\t\t\tconst int ka_st = (int)((ka_kt + %d) %% %d);\n"
		      "\t\t\tconst long long ka_kb = (ka_kt + %d) * %d;\n",
		      s - 2, s - 1, s - 1, s, s - 1, p->bk);
	emit_stage_fill(b, p, a_size, b_size);
	ka_buf_printf(b,
		      "\t\t}\n\t\t__pipeline_commit();\n"
		      "\t\tconst %s *const ka_a = ka_as + (int)(ka_kt %% %d) * %d, *const ka_b = ka_bs + "
		      "(int)(ka_kt %% %d) * %d;\n",
		      p->T, s, a_size, s, b_size);
	emit_mma(b, p, "ka_a", "ka_b");
	ka_buf_adds(
		b,
		"\t}\n\t__pipeline_wait_prior(0);\n\t__syncthreads(); /* the stages become the scratch */\n");
}

/* The launch: grid over bn x bm tiles, block, and for the cp.async body its
 * dynamic shared memory (over 48 KiB: the kernel's limit raised first, by
 * cudaFuncSetAttribute in the grid expression). */
static int relaunch(ka_recipe_ctx *c, ka_recipe_edits *ed, const wmma_plan *p)
{
	char tiles[128], grid[512], block[16], smem[16];
	snprintf(tiles, sizeof tiles, "dim3((unsigned)((@N + %d) / %d), (unsigned)((@B + %d) / %d))",
		 p->bn - 1, p->bn, p->bm - 1, p->bm);
	snprintf(block, sizeof block, "%d", p->nt);
	if (!p->stages)
		return ka_recipe_relaunch_smem(c, ed, p->g->n, tiles, block, p->g->m, NULL);
	int a_size, b_size, bytes = async_smem(p, &a_size, &b_size);
	snprintf(smem, sizeof smem, "%d", bytes);
	if (bytes <= 48 * 1024)
		return ka_recipe_relaunch_smem(c, ed, p->g->n, tiles, block, p->g->m, smem);
	snprintf(grid, sizeof grid,
		 "((void)cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, %d), %s)",
		 c->k->name, bytes, tiles);
	return ka_recipe_relaunch_smem(c, ed, p->g->n, grid, block, p->g->m, smem);
}

/* The tiling of params, KA_OK, or a decline. */
static int plan_tiles(ka_recipe_ctx *c, wmma_plan *p, int sm)
{
	long bm = ka_recipe_param(c->params, "bm", 128), bn = ka_recipe_param(c->params, "bn", 128);
	long warps = ka_recipe_param(c->params, "warps", bm == 64 ? 4 : 8),
	     stages = ka_recipe_param(c->params, "stages", 0), bk = ka_recipe_param(c->params, "bk", 32);
	if (bm == 128 && bn == 128 && warps == 8)
		p->wm = 2, p->wn = 4;
	else if (bm == 128 && bn == 128 && warps == 4)
		p->wm = 2, p->wn = 2;
	else if (bm == 64 && bn == 64 && warps == 4)
		p->wm = 2, p->wn = 2;
	else
		return ka_recipe_decline(c, "only bm=128 bn=128 (warps=8 or 4) and bm=64 bn=64 are written");
	if (stages && (stages < 2 || stages > 4))
		return ka_recipe_decline(c, "stages=%ld: 2, 3 or 4 cp.async stages are written", stages);
	if (stages && sm < 80)
		return ka_recipe_decline(c, "cp.async (stages=%ld) needs sm_80, the target is sm_%d", stages,
					 sm);
	if (bk != 32 && bk != 64)
		return ka_recipe_decline(c, "bk=%ld: 32- and 64-deep k tiles are written", bk);
	if (bk == 64 && !stages)
		return ka_recipe_decline(c, "bk=64 is written for the cp.async sets (stages=N) only");
	p->bm = (int)bm, p->bn = (int)bn, p->stages = (int)stages;
	p->bk = (int)bk, p->ldk = p->bk + 8;
	p->nw = p->wm * p->wn, p->nt = 32 * p->nw;
	p->fm = p->bm / p->wm / 16, p->fn = p->bn / p->wn / 16;
	if (p->stages) {
		const ka_arch *a = target_arch();
		int a_size, b_size, bytes = async_smem(p, &a_size, &b_size);
		if (bytes > a->smem_per_block_optin)
			return ka_recipe_decline(c,
						 "stages=%d bk=%d need %d bytes of shared memory a block, %s "
						 "allows %d",
						 p->stages, p->bk, bytes, a->name, a->smem_per_block_optin);
		/* two blocks an SM when they fit beside the 1 KiB the runtime keeps for each */
		p->min_blocks = a->smem_per_sm / (bytes + 1024) >= 2 ? 2 : 1;
	}
	return KA_OK;
}

/* `#include <h>` after the last #include before the kernel, when absent. */
static int add_include(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *h)
{
	const char *t = c->m->text;
	char line[64], name[48];
	snprintf(name, sizeof name, "<%s>", h);
	if (strstr(t, name))
		return KA_OK;
	snprintf(line, sizeof line, "#include %s\n", name);
	size_t at = include_at(t, c->k->start);
	return ka_recipe_edit(ed, at, at, line);
}

/* The body and its __launch_bounds__: the cp.async body asks for two
 * blocks per SM where the target's shared memory holds two (8 warps: at
 * most 128 registers a thread; 4 warps of 64 x 64 fit 255), else one (3
 * stages of bk=64, 105 KiB, on sm_80); the register-prefetch body for its
 * block size. */
static int new_body(ka_recipe_ctx *c, ka_recipe_edits *ed, const ka_buf *b, const wmma_plan *p)
{
	if (!p->stages)
		return ka_recipe_new_body(c, ed, b, p->nt);
	if (!b->data)
		return KA_ENOMEM;
	char lb[64];
	snprintf(lb, sizeof lb, "__launch_bounds__(%d, %d) ", p->nt, p->min_blocks);
	int rc = ka_recipe_edit(ed, c->k->body_open, c->k->body_close + 1, b->data);
	return rc == KA_OK ? ka_recipe_edit(ed, c->k->name_at, c->k->name_at, lb) : rc;
}

static int wmma_apply(ka_recipe_ctx *c, ka_buf *out)
{
	const char *t = c->m->text;
	size_t len = c->m->len;
	if (strstr(t, "hip/hip_runtime.h") || strstr(t, "__HIP_PLATFORM"))
		return ka_recipe_decline(c, "a HIP file: nvcuda::wmma is CUDA's");
	int sm = target_sm();
	if (!sm)
		return ka_recipe_decline(c, "the target %s is no NVIDIA GPU: nvcuda::wmma is CUDA's",
					 ka_recipe_arch());
	ka_recipe_gemm g;
	int rc = ka_recipe_gemm_shape(c, &g);
	if (rc)
		return rc;
	int ka = elem_kind(c->k, g.a), kb = elem_kind(c->k, g.b), kc = elem_kind(c->k, g.c);
	if ((ka != 1 && ka != 2) || kb != ka)
		return ka_recipe_decline(c, "%s and %s are not both __nv_bfloat16 or both __half pointers",
					 g.a, g.b);
	if (!kc)
		return ka_recipe_decline(c, "%s is not a float, __half or __nv_bfloat16 pointer", g.c);
	if (!g.converted)
		return ka_recipe_decline(c,
					 "the product of %s and %s is taken in 16 bits (no conversion to "
					 "float before the multiply): tensor cores would not round it",
					 g.a, g.b);
	if (ka == 1 && sm < 80)
		return ka_recipe_decline(c, "__nv_bfloat16 tensor cores need sm_80, the target is sm_%d", sm);
	if (sm < 70)
		return ka_recipe_decline(c, "__half tensor cores need sm_70, the target is sm_%d", sm);
	wmma_plan p = {.g = &g,
		       .T = ka == 1 ? "__nv_bfloat16" : "__half",
		       .as_ushort = ka == 1 ? "__bfloat16_as_ushort" : "__half_as_ushort"};
	rc = plan_tiles(c, &p, sm);
	if (rc)
		return rc;
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	if (p.stages) {
		emit_async_body(&b, &p);
		emit_epilogue(&b, &p, t, "reinterpret_cast<float *>(ka_wsm) + ka_w * 256");
	} else {
		emit_regs_body(&b, &p);
		emit_epilogue(&b, &p, t, "ka_sc[ka_w]");
	}
	ka_recipe_edits ed = {0};
	rc = new_body(c, &ed, &b, &p);
	if (rc == KA_OK)
		rc = add_include(c, &ed, "mma.h");
	if (rc == KA_OK && p.stages)
		rc = add_include(c, &ed, "cuda_pipeline.h");
	if (rc == KA_OK)
		rc = relaunch(c, &ed, &p);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, t, len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&b);
	return rc;
}

#undef NS

/* The cp.async sets first (the bench picks by measurement): 64-deep k
 * tiles (half the barriers and waits per multiply), four stages of 32, the
 * sets measured before them (issue 24, H100: warps=4 stages=3 0.159 of the
 * roofline, warps=8 0.140), then the register-prefetch ones. */
static const char *const wmma_grid[] = {"bm=128 bn=128 warps=4 stages=3 bk=64",
					"bm=128 bn=128 warps=4 stages=4",
					"bm=128 bn=128 warps=4 stages=3",
					"bm=128 bn=128 warps=8 stages=3",
					"bm=128 bn=128",
					"bm=64 bn=64",
					NULL};

const ka_recipe ka_recipe_wmma_gemm = {
	.name = "wmma-gemm",
	.summary =
		"naive bf16/f16 GEMM with fp32 sums -> tensor cores (nvcuda::wmma), shared tiles, guarded edges",
	.rules = "math-lowp-gemm-no-tensor-core gmem-no-tile-reuse",
	.grid = wmma_grid,
	.apply = wmma_apply,
};
