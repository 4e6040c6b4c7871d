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
 *   - each accumulator fragment goes through a per-warp 16 x 16 float
 *     scratch, and the kernel's own store statement runs for every element
 *     inside C with the row, column and accumulator bound to their names, so
 *     the epilogue (conversion, alpha/beta, bias) is the kernel's own.
 * The products of two 16-bit floats are exact in fp32, so what changes is
 * the order of the sum (the bench's tolerance decides).  Needs sm_80 for
 * __nv_bfloat16 and sm_70 for __half (ka_recipe_arch); declines on HIP. */
#include "recipes/recipe_gemm_int.h"
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

/* The 8 elements at row r, columns c .. c + 7 of the matrix P (rows x cols,
 * row length ld) into the uint4 dst: one 16-byte load when vec holds and
 * the 8 are inside, else element by element, zero past the edges. */
static void emit_fetch(ka_buf *b, const char *ind, const char *dst, const char *p, const char *r,
		       const char *rows, const char *c, const char *cols, const char *vec,
		       const char *as_ushort)
{
	ka_buf_printf(
		b,
		"%sif (%s && %s < %s && %s + 8 <= %s) {\n"
		"%s\t%s = *reinterpret_cast<const uint4 *>(%s + %s * %s + %s);\n"
		"%s} else {\n"
		"%s\tunsigned ka_h[8];\n"
		"%s\t#pragma unroll\n"
		"%s\tfor (int ka_p = 0; ka_p < 8; ka_p++)\n"
		"%s\t\tka_h[ka_p] = %s < %s && %s + ka_p < %s ? (unsigned)%s(%s[%s * %s + %s + ka_p]) : 0u;\n"
		"%s\t%s = make_uint4(ka_h[0] | ka_h[1] << 16, ka_h[2] | ka_h[3] << 16, ka_h[4] | ka_h[5] << 16,\n"
		"%s\t\t\tka_h[6] | ka_h[7] << 16);\n"
		"%s}\n",
		ind, vec, r, rows, c, cols, ind, dst, p, r, cols, c, ind, ind, ind, ind, ind, r, rows, c,
		cols, as_ushort, p, r, cols, c, ind, dst, ind, ind);
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
	long bm = ka_recipe_param(c->params, "bm", 128), bn = ka_recipe_param(c->params, "bn", 128);
	int wm, wn;
	if (bm == 128 && bn == 128)
		wm = 2, wn = 4;
	else if (bm == 64 && bn == 64)
		wm = 2, wn = 2;
	else
		return ka_recipe_decline(c, "only bm=128 bn=128 and bm=64 bn=64 are written");
	const int nw = wm * wn, nt = 32 * nw, fm = (int)bm / wm / 16, fn = (int)bn / wn / 16,
		  ldb = (int)bn + 8;
	const int pa = (int)bm * 4 / nt, pb = 32 * (int)bn / 8 / nt;
	/* B's tile: 32 rows of bn (+ 8), or transposed bn rows of 32 (+ 8) */
	char bs_size[32], b_store[96], b_frag[128];
	if (g.b_transposed) {
		snprintf(bs_size, sizeof bs_size, "%ld * 40", bn);
		snprintf(b_store, sizeof b_store, "ka_x / 4 * 40 + ka_x %% 4 * 8");
		snprintf(b_frag, sizeof b_frag, "ka_bs + (ka_wn * %d + ka_y * 16) * 40 + ka_kk, 40", fn * 16);
	} else {
		snprintf(bs_size, sizeof bs_size, "32 * %d", ldb);
		snprintf(b_store, sizeof b_store, "ka_x / %d * %d + ka_x %% %d * 8", (int)bn / 8, ldb,
			 (int)bn / 8);
		snprintf(b_frag, sizeof b_frag, "ka_bs + ka_kk * %d + ka_wn * %d + ka_y * 16, %d", ldb,
			 fn * 16, ldb);
	}
	const char *T = ka == 1 ? "__nv_bfloat16" : "__half";
	const char *as_ushort = ka == 1 ? "__bfloat16_as_ushort" : "__half_as_ushort";
	const char *W = "nvcuda::wmma::";
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_buf_printf(
		&b,
		"{\n\t/* %ld x %ld tiles of C per block, %d warps of %d x %d 16x16x16 fragments, fp32 "
		"accumulators */\n"
		"\t__shared__ __align__(32) %s ka_as[%ld * 40];\n"
		"\t__shared__ __align__(32) %s ka_bs[%s];\n"
		"\t__shared__ __align__(32) float ka_sc[%d][256];\n"
		"\tconst int ka_t = threadIdx.x, ka_w = ka_t >> 5, ka_lane = ka_t & 31;\n"
		"\tconst int ka_wm = ka_w / %d, ka_wn = ka_w %% %d;\n"
		"\tconst long long ka_M = %s, ka_N = %s, ka_K = %s;\n"
		"\tconst long long ka_r0 = (long long)blockIdx.y * %ld, ka_c0 = (long long)blockIdx.x * %ld;\n"
		"\tconst bool ka_va = ka_K %% 8 == 0 && (reinterpret_cast<unsigned long long>(%s) & 15) == 0;\n"
		"\tconst bool ka_vb = ka_%c %% 8 == 0 && (reinterpret_cast<unsigned long long>(%s) & 15) == 0;\n"
		"\t%sfragment<%saccumulator, 16, 16, 16, float> ka_acc[%d][%d];\n"
		"\t#pragma unroll\n\tfor (int ka_x = 0; ka_x < %d; ka_x++)\n"
		"\t\t#pragma unroll\n\t\tfor (int ka_y = 0; ka_y < %d; ka_y++) %sfill_fragment(ka_acc[ka_x][ka_y], 0.0f);\n"
		"\tuint4 ka_ra[%d], ka_rb[%d];\n"
		"\t{\n",
		bm, bn, nw, fm, fn, T, bm, T, bs_size, nw, wn, wn, g.m, g.n, g.k, bm, bn, g.a,
		g.b_transposed ? 'K' : 'N', g.b, W, W, fm, fn, fm, fn, W, pa, pb);
	emit_fetch_tiles(&b, &g, "0", nt, pa, pb, (int)bn, as_ushort);
	ka_buf_printf(
		&b,
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
	emit_fetch_tiles(&b, &g, "(ka_k0 + 32)", nt, pa, pb, (int)bn, as_ushort);
	ka_buf_printf(
		&b,
		"\t\t}\n"
		"\t\t#pragma unroll\n\t\tfor (int ka_kk = 0; ka_kk < 32; ka_kk += 16) {\n"
		"\t\t\t%sfragment<%smatrix_a, 16, 16, 16, %s, %srow_major> ka_fa[%d];\n"
		"\t\t\t%sfragment<%smatrix_b, 16, 16, 16, %s, %s%s> ka_fb[%d];\n"
		"\t\t\t#pragma unroll\n\t\t\tfor (int ka_x = 0; ka_x < %d; ka_x++)\n"
		"\t\t\t\t%sload_matrix_sync(ka_fa[ka_x], ka_as + (ka_wm * %d + ka_x * 16) * 40 + ka_kk, 40);\n"
		"\t\t\t#pragma unroll\n\t\t\tfor (int ka_y = 0; ka_y < %d; ka_y++)\n"
		"\t\t\t\t%sload_matrix_sync(ka_fb[ka_y], %s);\n"
		"\t\t\t#pragma unroll\n\t\t\tfor (int ka_x = 0; ka_x < %d; ka_x++)\n"
		"\t\t\t\t#pragma unroll\n\t\t\t\tfor (int ka_y = 0; ka_y < %d; ka_y++)\n"
		"\t\t\t\t\t%smma_sync(ka_acc[ka_x][ka_y], ka_fa[ka_x], ka_fb[ka_y], ka_acc[ka_x][ka_y]);\n"
		"\t\t}\n"
		"\t\t__syncthreads();\n"
		"\t}\n"
		"\t/* each fragment through the warp's scratch; the kernel's store for the elements inside C */\n"
		"\tfloat *ka_s = ka_sc[ka_w];\n"
		"\tfor (int ka_x = 0; ka_x < %d; ka_x++)\n"
		"\t\tfor (int ka_y = 0; ka_y < %d; ka_y++) {\n"
		"\t\t\t%sstore_matrix_sync(ka_s, ka_acc[ka_x][ka_y], 16, %smem_row_major);\n"
		"\t\t\t__syncwarp();\n"
		"\t\t\tfor (int ka_q = ka_lane; ka_q < 256; ka_q += 32) {\n"
		"\t\t\t\tconst long long ka_gi = ka_r0 + ka_wm * %d + ka_x * 16 + ka_q / 16,\n"
		"\t\t\t\t\t\tka_gj = ka_c0 + ka_wn * %d + ka_y * 16 + ka_q %% 16;\n"
		"\t\t\t\tif (ka_gi < ka_M && ka_gj < ka_N) {\n"
		"\t\t\t\t\tconst %s %s = (%s)ka_gi;\n"
		"\t\t\t\t\tconst %s %s = (%s)ka_gj;\n"
		"\t\t\t\t\tconst float %s = ka_s[ka_q];\n"
		"\t\t\t\t\t",
		W, W, T, W, fm, W, W, T, W, g.b_transposed ? "col_major" : "row_major", fn, fm, W, fm * 16,
		fn, W, b_frag, fm, fn, W, fm, fn, W, W, fm * 16, fn * 16, g.itype, g.i, g.itype, g.jtype, g.j,
		g.jtype, g.acc);
	ka_buf_add(&b, t + g.store_s, g.store_e - g.store_s);
	ka_buf_adds(&b, "\n\t\t\t\t}\n\t\t\t}\n\t\t\t__syncwarp();\n\t\t}\n}");
	ka_recipe_edits ed = {0};
	rc = ka_recipe_new_body(c, &ed, &b, nt);
	if (rc == KA_OK && !strstr(t, "<mma.h>"))
		rc = ka_recipe_edit(&ed, include_at(t, c->k->start), include_at(t, c->k->start),
				    "#include <mma.h>\n");
	char grid[160], block[16];
	snprintf(grid, sizeof grid, "dim3((unsigned)((@N + %ld) / %ld), (unsigned)((@B + %ld) / %ld))",
		 bn - 1, bn, bm - 1, bm);
	snprintf(block, sizeof block, "%d", nt);
	if (rc == KA_OK)
		rc = ka_recipe_relaunch_smem(c, &ed, g.n, grid, block, g.m, NULL);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, t, len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&b);
	return rc;
}

static const char *const wmma_grid[] = {"bm=128 bn=128", "bm=64 bn=64", NULL};

const ka_recipe ka_recipe_wmma_gemm = {
	.name = "wmma-gemm",
	.summary =
		"naive bf16/f16 GEMM with fp32 sums -> tensor cores (nvcuda::wmma), shared tiles, guarded edges",
	.rules = "math-lowp-gemm-no-tensor-core gmem-no-tile-reuse",
	.grid = wmma_grid,
	.apply = wmma_apply,
};
