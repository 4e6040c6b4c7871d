/* tests/agents/test_recipe_wmma.c: wmma-gemm, the naive bf16/f16 GEMM
 * rewritten for the tensor cores.  On the gemm_bf16 task's baseline and on
 * other spellings of the same product (f16 operands, two index statements
 * in the other order, swapped factors, fmaf, a float output with an
 * alpha/beta/bias epilogue), each rewrite's key lines and that it compiles
 * for sm_90 when nvcc is there; near misses (other layouts, types, loops,
 * epilogues, targets) decline naming the construct. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recipes/recipe.h"
#include "tests/agents/recipe_nvcc.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"

#define BF16 "#include <cuda_bf16.h>\n"
#define FP16 "#include <cuda_fp16.h>\n"

/* Applies wmma-gemm with params to kernel k of src (every kernel when k is
 * NULL): the rewrite (caller frees), after checking that it holds every
 * line of want and that it compiles. */
static char *applies(const char *src, const char *kernel, const char *params, const char *const *want)
{
	char why[256], err[8192];
	char *out = NULL;
	size_t n;
	if (ka_recipe_apply("wmma-gemm", src, strlen(src), kernel, params, &out, &n, why, sizeof why) !=
	    KA_OK)
		fail_msg("wmma-gemm declined:\n%s\nwhy: %s", src, why);
	for (; want && *want; want++)
		if (!strstr(out, *want))
			fail_msg("wmma-gemm: the rewrite lacks '%s':\n%s", *want, out);
	if (nvcc_compiles(out, err, sizeof err) == 0)
		fail_msg("wmma-gemm: the rewrite does not compile:\n%s\n%s", out, err);
	return out;
}

/* The rewrite of kernel k of src with params (caller frees), not compiled
 * (the key-line tests compile each set). */
static char *rewrite(const char *src, const char *kernel, const char *params)
{
	char why[256];
	char *out = NULL;
	size_t n;
	if (ka_recipe_apply("wmma-gemm", src, strlen(src), kernel, params, &out, &n, why, sizeof why) !=
	    KA_OK)
		fail_msg("wmma-gemm %s declined: %s", params ? params : "(the grid's first set)", why);
	return out;
}

/* The rewrites of src with each of the n parameter sets, as one text: each
 * renames kernel and the host function host to NAME_I by #define, undone
 * after it, and KA_EMU_VARIANTS lists host_0 .. host_n-1 (for
 * tests/agents/emu/wmma_main.cpp), so that one nvcc run or one host build
 * checks them all (a compile is most of this test's time).  Caller frees. */
static char *together(const char *src, const char *kernel, const char *host, const char *const *sets,
		      size_t n)
{
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	for (size_t i = 0; i < n; i++) {
		char *out = rewrite(src, kernel, sets[i]);
		ka_buf_printf(&b, "/* wmma-gemm %s */\n#define %s %s_%zu\n#define %s %s_%zu\n", sets[i],
			      kernel, kernel, i, host, host, i);
		ka_buf_adds(&b, out);
		ka_buf_printf(&b, "\n#undef %s\n#undef %s\n", kernel, host);
		free(out);
	}
	ka_buf_adds(&b, "#define KA_EMU_VARIANTS");
	for (size_t i = 0; i < n; i++)
		ka_buf_printf(&b, "%s %s_%zu", i ? "," : "", host, i);
	ka_buf_adds(&b, "\n");
	assert_non_null(b.data);
	return ka_buf_steal(&b);
}

/* Checks that the rewrite out (of params) holds every line of want. */
static void has_lines(const char *out, const char *params, const char *const *want)
{
	for (; *want; want++)
		if (!strstr(out, *want))
			fail_msg("wmma-gemm %s: the rewrite lacks '%s':\n%s", params, *want, out);
}

/* The rewrites of src with each of the n sets compile for sm_90, in one
 * nvcc run (together()). */
static void compile_together(const char *src, const char *kernel, const char *host, const char *const *sets,
			     size_t n)
{
	char err[8192];
	char *all = together(src, kernel, host, sets, n);
	if (nvcc_compiles(all, err, sizeof err) == 0)
		fail_msg("wmma-gemm: the rewrites do not compile:\n%s\n%s", all, err);
	free(all);
}

/* Runs rewrites on the host (tests/agents/emu/wmma_main.cpp, kernel
 * KA_EMU_TASK=task; several of them as together() writes them) over sizes
 * that cross every edge; their dynamic shared memory, which the launch
 * gives on a GPU, a static array there (128 KiB: 3 stages of bk=64 on a
 * transposed B take 110592 bytes). */
static void runs_on_host(const char *text, int task, const char *what)
{
	static const char dyn[] = "extern __shared__ __align__(128) uint4 ka_wsm[];";
	char log[8192], def[32];
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	for (const char *q = text;;) {
		const char *at = strstr(q, dyn);
		if (!at) {
			ka_buf_adds(&b, q);
			break;
		}
		ka_buf_add(&b, q, (size_t)(at - q));
		ka_buf_adds(&b, "static __align__(128) uint4 ka_wsm[131072 / 16];");
		q = at + strlen(dyn);
	}
	assert_non_null(b.data);
	snprintf(def, sizeof def, "-DKA_EMU_TASK=%d", task);
	const char *defs[] = {def};
	int rc = host_run_defs(b.data, "wmma_main.cpp", defs, 1, log, sizeof log);
	ka_buf_free(&b);
	if (rc < 0)
		fprintf(stderr, "SKIP: no C++ compiler (c++ or $CXX): %s is not run on the host\n", what);
	else if (rc == 0)
		fail_msg("%s fails on the host:\n%s", what, log);
}

static void declines(const char *recipe, const char *src, const char *reason)
{
	char why[256];
	char *out = NULL;
	size_t n;
	int rc = ka_recipe_apply(recipe, src, strlen(src), "k", NULL, &out, &n, why, sizeof why);
	free(out);
	if (rc != KA_RECIPE_DECLINED)
		fail_msg("%s applied to:\n%s", recipe, src);
	if (!strstr(why, reason))
		fail_msg("%s: the reason '%s' does not say '%s'", recipe, why, reason);
}

/* The naive GEMM over parameters A, B, C of the given types, with its k
 * loop and C store to fill in, and a launch. */
static void gemm_src(char *buf, size_t cap, const char *types, const char *loop, const char *store)
{
	snprintf(
		buf, cap,
		BF16 FP16
		"__global__ void k(%s, int M, int N, int K)\n{\n"
		"\tint i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i >= M || j >= N) return;\n\tfloat acc = 0.0f;\n\t%s\n\t%s\n}\n"
		"void h(%s, int M, int N, int K)\n{\n"
		"\tk<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(A, B, C, M, N, K);\n}\n",
		types, loop, store, types);
}

/* A linear layer, y = x W^T + bias: B (w) stored transposed, N x K. */
#define LIN \
	BF16 "__global__ void lin_k(const __nv_bfloat16 *x, const __nv_bfloat16 *w, const __nv_bfloat16 *bias, " \
	     "__nv_bfloat16 *y, int rows, int out, int in)\n{\n" \
	     "\tint o = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;\n" \
	     "\tif (r >= rows || o >= out) return;\n\tfloat acc = 0.0f;\n" \
	     "\tfor (int l = 0; l < in; l++) acc += __bfloat162float(x[(long long)r * in + l]) * " \
	     "__bfloat162float(w[(long long)o * in + l]);\n" \
	     "\ty[(long long)r * out + o] = __float2bfloat16(acc + __bfloat162float(bias[o]));\n}\n" \
	     "void lin_h(const __nv_bfloat16 *x, const __nv_bfloat16 *w, const __nv_bfloat16 *bias, " \
	     "__nv_bfloat16 *y, int rows, int out, int in)\n{\n" \
	     "\tlin_k<<<dim3((out + 15) / 16, (rows + 15) / 16), dim3(16, 16)>>>(x, w, bias, y, rows, out, " \
	     "in);\n}\n"

#define BF_PARAMS "const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C"
#define BF_LOOP \
	"for (int l = 0; l < K; l++) acc += __bfloat162float(A[i * K + l]) * __bfloat162float(B[l * N + j]);"
#define BF_STORE "C[i * N + j] = __float2bfloat16(acc);"

/* The task's baseline: 128 x 128 tiles of 8 warps, the 2-D dim3 launch
 * rewritten to a 1-D block, <mma.h> included, the kernel's own store in the
 * guarded epilogue. */
static void test_gemm_bf16_baseline(void **st)
{
	(void)st;
	char path[512], *src = NULL;
	size_t n;
	snprintf(path, sizeof path, "%s/bench/tasks/gemm_bf16/baseline.cu", KA_SOURCE_DIR);
	assert_int_equal(ka_fs_read(path, 0, &src, &n), KA_OK);
	static const char *const want[] = {
		"#include <cuda_bf16.h>\n#include <mma.h>\n",
		"__global__ void __launch_bounds__(256) gemm_bf16_naive(",
		"__shared__ __align__(32) __nv_bfloat16 ka_as[128 * 40];",
		"nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> ka_acc[4][2];",
		"nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __nv_bfloat16, nvcuda::wmma::row_major> ka_fa[4];",
		"nvcuda::wmma::mma_sync(ka_acc[ka_x][ka_y], ka_fa[ka_x], ka_fb[ka_y], ka_acc[ka_x][ka_y]);",
		/* zero past the edges, 16-byte words only when aligned */
		"const bool ka_va = ka_K % 8 == 0 && (reinterpret_cast<unsigned long long>(A) & 15) == 0;",
		"ka_h[ka_p] = ka_gr < ka_M && ka_gk + ka_p < ka_K ? (unsigned)__bfloat16_as_ushort(A[ka_gr * ka_K + ka_gk + ka_p]) : 0u;",
		"if (ka_gi < ka_M && ka_gj < ka_N) {", "const int row = (int)ka_gi;",
		"const float s = ka_s[ka_q];", "C[(long long)row * n + col] = __float2bfloat16(s);",
		"gemm_bf16_naive<<<dim3((unsigned)(((long long)(n) + 127) / 128), (unsigned)(((long long)(m) + 127) / 128)), 256, 0, s>>>",
		NULL};
	free(applies(src, NULL, "bm=128 bn=128", want));
	/* the second parameter set: 64 x 64 tiles of 4 warps */
	static const char *const want64[] = {"__launch_bounds__(128)", "ka_acc[2][2];", "ka_bs[32 * 72];",
					     "+ 63) / 64)), 128, 0, s>>>", NULL};
	free(applies(src, NULL, "bm=64 bn=64", want64));
	free(src);
}

/* The grid's first sets: cp.async stages in dynamic shared memory, 16-byte
 * chunks copied asynchronously when inside and aligned, the edges element
 * by element as before; over 48 KiB the launch raises the kernel's limit
 * first.  Three stages of 128 x 128 (4 warps of 64 x 64 or 8 of 64 x 32),
 * 64 deep (bk=64) or 32, four stages of 32, two stages that fit in
 * 48 KiB, and the same on bm=64 bn=64; all six compile in one nvcc run. */
static void test_gemm_bf16_async(void **st)
{
	(void)st;
	char *src = read_task_baseline("gemm_bf16", NULL, 0);
	static const char *const sets[] = {"bm=128 bn=128 warps=4 stages=3 bk=64",
					   "bm=128 bn=128 warps=4 stages=4",
					   "bm=128 bn=128 warps=4 stages=3",
					   "bm=128 bn=128 warps=8 stages=3",
					   "bm=128 bn=128 stages=2",
					   "bm=64 bn=64 stages=2"};
	/* 64-deep tiles: rows of A padded to 72 (144 bytes: 32-byte aligned
	 * fragments, eight rows on distinct banks), 8 chunks of A and 8 of B a
	 * thread, unrolled 4 at a time; 105 KiB, two blocks an SM on sm_90 */
	static const char *const want64k[] = {
		"__global__ void __launch_bounds__(128, 2) gemm_bf16_naive(",
		"3 cp.async stages of 64-deep tiles (107520 bytes of dynamic shared memory)",
		"__nv_bfloat16 *const ka_as = reinterpret_cast<__nv_bfloat16 *>(ka_wsm), *const ka_bs = ka_as + 27648;",
		"const long long ka_nk = (ka_K + 63) / 64;",
		"const long long ka_kb = (long long)ka_st * 64;",
		"#pragma unroll 4\n\t\t\tfor (int ka_q = 0; ka_q < 8; ka_q++) {",
		"const long long ka_gr = ka_r0 + ka_x / 8, ka_gc = ka_kb + ka_x % 8 * 8;",
		"__nv_bfloat16 *ka_d = ka_as + ka_st * 9216 + (ka_x / 8) * 72 + ka_x % 8 * 8;",
		"const long long ka_gr = ka_kb + ka_x / 16, ka_gc = ka_c0 + ka_x % 16 * 8;",
		"__nv_bfloat16 *ka_d = ka_bs + ka_st * 8704 + (ka_x / 16) * 136 + ka_x % 16 * 8;",
		"const long long ka_kb = (ka_kt + 2) * 64;",
		"const __nv_bfloat16 *const ka_a = ka_as + (int)(ka_kt % 3) * 9216, *const ka_b = ka_bs + (int)(ka_kt % 3) * 8704;",
		"for (int ka_kk = 0; ka_kk < 64; ka_kk += 16) {",
		"nvcuda::wmma::load_matrix_sync(ka_fa[ka_x], ka_a + (ka_wm * 64 + ka_x * 16) * 72 + ka_kk, 72);",
		"nvcuda::wmma::load_matrix_sync(ka_fb[ka_y], ka_b + ka_kk * 136 + ka_wn * 64 + ka_y * 16, 136);",
		"gemm_bf16_naive<<<((void)cudaFuncSetAttribute(gemm_bf16_naive, cudaFuncAttributeMaxDynamicSharedMemorySize, 107520), dim3((unsigned)(((long long)(n) + 127) / 128), (unsigned)(((long long)(m) + 127) / 128))), 128, 107520, s>>>",
		NULL};
	static const char *const want4[] = {
		"__launch_bounds__(128, 2)",
		"4 cp.async stages of 32-deep tiles (75776 bytes of dynamic shared memory)",
		"for (int ka_st = 0; ka_st < 3; ka_st++) {",
		"__pipeline_wait_prior(2); /* tile ka_kt is in */",
		"const int ka_st = (int)((ka_kt + 3) % 4);",
		"const long long ka_kb = (ka_kt + 3) * 32;",
		"#pragma unroll\n\t\t\tfor (int ka_q = 0; ka_q < 4; ka_q++) {",
		"ka_a = ka_as + (int)(ka_kt % 4) * 5120, *const ka_b = ka_bs + (int)(ka_kt % 4) * 4352;",
		"for (int ka_kk = 0; ka_kk < 32; ka_kk += 16) {",
		"75776), dim3(",
		NULL};
	static const char *const want[] = {
		"#include <mma.h>\n#include <cuda_pipeline.h>\n",
		"__global__ void __launch_bounds__(128, 2) gemm_bf16_naive(",
		"extern __shared__ __align__(128) uint4 ka_wsm[];",
		"__nv_bfloat16 *const ka_as = reinterpret_cast<__nv_bfloat16 *>(ka_wsm), *const ka_bs = ka_as + 15360;",
		"nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> ka_acc[4][4];",
		/* the prologue fills two stages ahead, one barrier per k tile */
		"for (int ka_st = 0; ka_st < 2; ka_st++) {",
		"__pipeline_wait_prior(1); /* tile ka_kt is in */",
		"const int ka_st = (int)((ka_kt + 2) % 3);", "const long long ka_kb = (ka_kt + 2) * 32;",
		"__nv_bfloat16 *ka_d = ka_as + ka_st * 5120 + (ka_x / 4) * 40 + ka_x % 4 * 8;",
		"const long long ka_gr = ka_r0 + ka_x / 4, ka_gc = ka_kb + ka_x % 4 * 8;",
		"if (ka_va && ka_gr < ka_M && ka_gc + 8 <= ka_K) {",
		"__pipeline_memcpy_async(ka_d, A + ka_gr * ka_K + ka_gc, 16);",
		"ka_h[ka_p] = ka_gr < ka_M && ka_gc + ka_p < ka_K ? (unsigned)__bfloat16_as_ushort(A[ka_gr * ka_K + ka_gc + ka_p]) : 0u;",
		/* B row-major: its rows are k */
		"const long long ka_gr = ka_kb + ka_x / 16, ka_gc = ka_c0 + ka_x % 16 * 8;",
		"__nv_bfloat16 *ka_d = ka_bs + ka_st * 4352 + (ka_x / 16) * 136 + ka_x % 16 * 8;",
		"const __nv_bfloat16 *const ka_a = ka_as + (int)(ka_kt % 3) * 5120, *const ka_b = ka_bs + (int)(ka_kt % 3) * 4352;",
		"nvcuda::wmma::load_matrix_sync(ka_fa[ka_x], ka_a + (ka_wm * 64 + ka_x * 16) * 40 + ka_kk, 40);",
		"nvcuda::wmma::load_matrix_sync(ka_fb[ka_y], ka_b + ka_kk * 136 + ka_wn * 64 + ka_y * 16, 136);",
		"__pipeline_wait_prior(0);\n\t__syncthreads(); /* the stages become the scratch */",
		"float *ka_s = reinterpret_cast<float *>(ka_wsm) + ka_w * 256;\n"
		"\t#pragma unroll\n\tfor (int ka_x = 0; ka_x < 4; ka_x++)\n"
		"\t\t#pragma unroll\n\t\tfor (int ka_y = 0; ka_y < 4; ka_y++) {",
		"C[(long long)row * n + col] = __float2bfloat16(s);",
		"gemm_bf16_naive<<<((void)cudaFuncSetAttribute(gemm_bf16_naive, cudaFuncAttributeMaxDynamicSharedMemorySize, 56832), dim3((unsigned)(((long long)(n) + 127) / 128), (unsigned)(((long long)(m) + 127) / 128))), 128, 56832, s>>>",
		NULL};
	static const char *const want8[] = {"__launch_bounds__(256, 2)",
					    "ka_acc[4][2];",
					    "ka_b + ka_kk * 136 + ka_wn * 32 + ka_y * 16, 136);",
					    "float *ka_s = reinterpret_cast<float *>(ka_wsm) + ka_w * 256;",
					    "56832), dim3(",
					    NULL};
	/* two stages fit in 48 KiB: no attribute */
	static const char *const want2[] = {"__pipeline_wait_prior(0); /* tile ka_kt is in */",
					    "+ 127) / 128)), 256, 37888, s>>>", NULL};
	static const char *const want64[] = {"__launch_bounds__(128, 2)", "ka_acc[2][2];",
					     "+ 63) / 64)), 128, 19456, s>>>", NULL};
	const char *const *wants[] = {want64k, want4, want, want8, want2, want64};
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		char *out = rewrite(src, NULL, sets[i]);
		has_lines(out, sets[i], wants[i]);
		if (i >= 4)
			assert_null(strstr(out, "cudaFuncSetAttribute"));
		free(out);
	}
	/* no set named: the grid's first */
	char *out = rewrite(src, NULL, NULL);
	has_lines(out, "(none)", want64k);
	free(out);
	compile_together(src, "gemm_bf16_naive", "ka_task_run", sets, sizeof sets / sizeof sets[0]);
	/* sets that are not written decline, saying which are */
	static const char *const bad[][2] = {
		{"bm=128 bn=128 stages=5", "stages=5: 2, 3 or 4 cp.async stages are written"},
		{"bm=128 bn=128 warps=2 stages=3",
		 "only bm=128 bn=128 (warps=8 or 4) and bm=64 bn=64 are written"},
		{"bm=128 bn=128 stages=3 bk=48", "bk=48: 32- and 64-deep k tiles are written"},
		{"bm=128 bn=128 bk=64", "bk=64 is written for the cp.async sets (stages=N) only"}};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char why[256];
		size_t n;
		out = NULL;
		assert_int_equal(ka_recipe_apply("wmma-gemm", src, strlen(src), NULL, bad[i][0], &out, &n,
						 why, sizeof why),
				 KA_RECIPE_DECLINED);
		free(out);
		if (!strstr(why, bad[i][1]))
			fail_msg("wmma-gemm %s: the reason '%s' does not say '%s'", bad[i][0], why,
				 bad[i][1]);
	}
	free(src);
}

/* f16 operands spelled otherwise: the x index declared after the y one in
 * two statements, the guard's sides swapped, a 64-bit loop variable with
 * ++p, fmaf with B's factor first and (float) casts, a float output whose
 * store is an alpha/beta epilogue with a bias. */
static void test_gemm_f16_spelling(void **st)
{
	(void)st;
	const char *src = FP16
		"__global__ void k(const __half *__restrict__ a, const __half *__restrict__ b, float *c, "
		"const float *bias, float alpha, float beta, int M, int N, int K)\n{\n"
		"\tint y = threadIdx.y + blockIdx.y * blockDim.y;\n"
		"\tint x = blockDim.x * blockIdx.x + threadIdx.x;\n"
		"\tif (x >= N || y >= M) { return; }\n"
		"\tfloat acc = 0.f;\n"
		"\tfor (long long p = 0; p < K; ++p) {\n"
		"\t\tacc = fmaf((float)b[p * N + x], __half2float(a[(size_t)y * K + p]), acc);\n\t}\n"
		"\tc[x + y * N] = alpha * acc + beta * c[x + y * N] + bias[x];\n}\n"
		"void h(const __half *a, const __half *b, float *c, const float *bias, int M, int N, int K, "
		"cudaStream_t s)\n{\n"
		"\tk<<<dim3((N + 31) / 32, (M + 7) / 8), dim3(32, 8), 0, s>>>(a, b, c, bias, 1.0f, 0.5f, M, N, "
		"K);\n}\n";
	static const char *const want[] = {
		"__shared__ __align__(32) __half ka_bs[32 * 136];",
		"nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::row_major> ka_fb[2];",
		"(unsigned)__half_as_ushort(b[ka_gk * ka_N + ka_gc + ka_p])",
		"const long long ka_M = M, ka_N = N, ka_K = K;",
		"const int y = (int)ka_gi;",
		"const int x = (int)ka_gj;",
		"c[x + y * N] = alpha * acc + beta * c[x + y * N] + bias[x];",
		"k<<<dim3((unsigned)(((long long)(N) + 127) / 128), (unsigned)(((long long)(M) + 127) / 128)), 256, 0, s>>>",
		NULL};
	free(applies(src, "k", "bm=128 bn=128", want));
	/* and in the grid's first set (3 cp.async stages 64 deep): the same
	 * epilogue, B's 16-byte path on N */
	static const char *const want_async[] = {
		"__half *const ka_as = reinterpret_cast<__half *>(ka_wsm), *const ka_bs = ka_as + 27648;",
		"__pipeline_memcpy_async(ka_d, b + ka_gr * ka_N + ka_gc, 16);",
		"(unsigned)__half_as_ushort(b[ka_gr * ka_N + ka_gc + ka_p])",
		"c[x + y * N] = alpha * acc + beta * c[x + y * N] + bias[x];", NULL};
	free(applies(src, "k", NULL, want_async));
}

/* acc = acc + X * Y, the conversions through float(...), indices cast to
 * 64 bits. */
static void test_gemm_bf16_acc_plus(void **st)
{
	(void)st;
	char src[2048];
	gemm_src(src, sizeof src, BF_PARAMS,
		 "for (int l = 0; l < K; l += 1) acc = acc + float(A[(long long)i * K + l]) * "
		 "static_cast<float>(B[(long long)l * N + j]);",
		 BF_STORE);
	static const char *const want[] = {"nvcuda::wmma::mma_sync(", "C[i * N + j] = __float2bfloat16(acc);",
					   NULL};
	free(applies(src, "k", NULL, want));
}

/* Every set of the grid, and two stages of 64 x 64, computes the bench's
 * gemm_bf16 exactly on the host (small integer operands: every sum exact),
 * at the edges and inside; and the transposed B of a linear layer, staged
 * (32 and 64 deep) and not.  One host build for each source (variant I of
 * the driver's output is sets[I]). */
static void test_host_runs(void **st)
{
	(void)st;
	char *src = read_task_baseline("gemm_bf16", NULL, 0);
	static const char *const sets[] = {"bm=128 bn=128 warps=4 stages=3 bk=64",
					   "bm=128 bn=128 warps=4 stages=4",
					   "bm=128 bn=128 warps=4 stages=3",
					   "bm=128 bn=128 warps=8 stages=3",
					   "bm=128 bn=128",
					   "bm=64 bn=64",
					   "bm=64 bn=64 stages=2"};
	char *all = together(src, "gemm_bf16_naive", "ka_task_run", sets, sizeof sets / sizeof sets[0]);
	runs_on_host(all, 1, "gemm_bf16 with the wmma-gemm sets of test_host_runs");
	free(all);
	free(src);
	static const char *const lin_sets[] = {"bm=128 bn=128 warps=4 stages=3 bk=64",
					       "bm=128 bn=128 warps=4 stages=3", "bm=128 bn=128"};
	all = together(LIN, "lin_k", "lin_h", lin_sets, sizeof lin_sets / sizeof lin_sets[0]);
	runs_on_host(all, 2, "a transposed B with the wmma-gemm sets of test_host_runs");
	free(all);
}

/* B stored transposed, N x K (a linear layer, y = x W^T + bias): B's tile
 * is staged as A's is (rows of 32 along k) and read as a col_major
 * matrix_b fragment; its 16-byte path needs K % 8 == 0. */
static void test_gemm_bf16_transposed_b(void **st)
{
	(void)st;
	static const char *const sets[] = {"bm=128 bn=128", "bm=128 bn=128 warps=4 stages=3",
					   "bm=128 bn=128 warps=4 stages=3 bk=64", "bm=64 bn=64"};
	static const char *const want[] = {
		"__shared__ __align__(32) __nv_bfloat16 ka_bs[128 * 40];",
		"const bool ka_vb = ka_K % 8 == 0 && (reinterpret_cast<unsigned long long>(w) & 15) == 0;",
		"const long long ka_gc = ka_c0 + ka_x / 4, ka_gk = 0 + ka_x % 4 * 8;",
		"ka_rb[ka_q] = *reinterpret_cast<const uint4 *>(w + ka_gc * ka_K + ka_gk);",
		"*reinterpret_cast<uint4 *>(&ka_bs[ka_x / 4 * 40 + ka_x % 4 * 8]) = ka_rb[ka_q];",
		"nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __nv_bfloat16, nvcuda::wmma::col_major> ka_fb[2];",
		"nvcuda::wmma::load_matrix_sync(ka_fb[ka_y], ka_bs + (ka_wn * 32 + ka_y * 16) * 40 + ka_kk, 40);",
		"y[(long long)r * out + o] = __float2bfloat16(acc + __bfloat162float(bias[o]));",
		NULL};
	/* in cp.async stages: B's stage is bn rows of 40 as well */
	static const char *const want_async[] = {
		"const long long ka_gr = ka_c0 + ka_x / 4, ka_gc = ka_kb + ka_x % 4 * 8;",
		"__nv_bfloat16 *ka_d = ka_bs + ka_st * 5120 + (ka_x / 4) * 40 + ka_x % 4 * 8;",
		"if (ka_vb && ka_gr < ka_N && ka_gc + 8 <= ka_K) {",
		"__pipeline_memcpy_async(ka_d, w + ka_gr * ka_K + ka_gc, 16);",
		"nvcuda::wmma::load_matrix_sync(ka_fb[ka_y], ka_b + (ka_wn * 64 + ka_y * 16) * 40 + ka_kk, 40);",
		"61440), dim3(",
		NULL};
	/* 64 deep: rows of 72 (108 KiB, still two blocks an SM on sm_90) */
	static const char *const want_bk[] = {
		"__launch_bounds__(128, 2)",
		"const long long ka_gr = ka_c0 + ka_x / 8, ka_gc = ka_kb + ka_x % 8 * 8;",
		"__nv_bfloat16 *ka_d = ka_bs + ka_st * 9216 + (ka_x / 8) * 72 + ka_x % 8 * 8;",
		"nvcuda::wmma::load_matrix_sync(ka_fb[ka_y], ka_b + (ka_wn * 64 + ka_y * 16) * 72 + ka_kk, 72);",
		"110592), dim3(",
		NULL};
	static const char *const want64[] = {"__shared__ __align__(32) __nv_bfloat16 ka_bs[64 * 40];", NULL};
	const char *const *wants[] = {want, want_async, want_bk, want64};
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		char *out = rewrite(LIN, "lin_k", sets[i]);
		has_lines(out, sets[i], wants[i]);
		free(out);
	}
	compile_together(LIN, "lin_k", "lin_h", sets, sizeof sets / sizeof sets[0]);
}

/* The guard as a block, `if (i < M && j < N) { ... }` ending the kernel
 * (the textbook's spelling), in bf16 for wmma-gemm and in float for
 * smem-tile-gemm, which reads the same shape. */
static void test_gemm_block_guard(void **st)
{
	(void)st;
	const char *body =
		"\tint row = blockIdx.y * blockDim.y + threadIdx.y;\n"
		"\tint col = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (row < m && col < n) {\n\t\tfloat acc = 0.0f;\n"
		"\t\tfor (int p = 0; p < k; ++p)\n\t\t\tacc += %s;\n\t\tc[row * n + col] = %s;\n\t}\n}\n"
		"void run(%s *c, const %s *a, const %s *b, int m, int n, int k)\n{\n"
		"\tmm<<<dim3((n + 31) / 32, (m + 7) / 8), dim3(32, 8)>>>(c, a, b, m, n, k);\n}\n";
	char src[2048], fmt[2048];
	snprintf(fmt, sizeof fmt,
		 BF16 "__global__ void mm(__nv_bfloat16 *c, const __nv_bfloat16 *a, const "
		      "__nv_bfloat16 *b, int m, int n, int k)\n{\n%s",
		 body);
	snprintf(src, sizeof src, fmt, "__bfloat162float(a[row * k + p]) * __bfloat162float(b[p * n + col])",
		 "__float2bfloat16(acc)", "__nv_bfloat16", "__nv_bfloat16", "__nv_bfloat16");
	static const char *const want[] = {"nvcuda::wmma::mma_sync(", "const int row = (int)ka_gi;",
					   "c[row * n + col] = __float2bfloat16(acc);", NULL};
	free(applies(src, "mm", NULL, want));
	snprintf(fmt, sizeof fmt,
		 "__global__ void mm(float *c, const float *a, const float *b, int m, int n, int k)\n{\n%s",
		 body);
	snprintf(src, sizeof src, fmt, "a[row * k + p] * b[p * n + col]", "acc", "float", "float", "float");
	char why[256], err[8192], *out = NULL;
	size_t n;
	if (ka_recipe_apply("smem-tile-gemm", src, strlen(src), "mm", NULL, &out, &n, why, sizeof why) !=
	    KA_OK)
		fail_msg("smem-tile-gemm declined the block guard: %s", why);
	assert_non_null(strstr(out, "__shared__ float ka_as[64][17], ka_bs[16][64];"));
	if (nvcc_compiles(out, err, sizeof err) == 0)
		fail_msg("smem-tile-gemm: the rewrite does not compile:\n%s\n%s", out, err);
	free(out);
	/* a statement after the guarded block runs for the threads outside C too */
	snprintf(
		src, sizeof src,
		BF16
		"__global__ void k(" BF_PARAMS ", int M, int N, int K, int *done)\n{\n"
		"\tint i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i < M && j < N) {\n\t\tfloat acc = 0.0f;\n\t\t" BF_LOOP "\n\t\t" BF_STORE
		"\n\t}\n\tdone[0] = 1;\n}\n");
	declines("wmma-gemm", src, "ending the kernel");
	/* <= is not the bound */
	snprintf(
		src, sizeof src,
		BF16
		"__global__ void k(" BF_PARAMS ", int M, int N, int K)\n{\n"
		"\tint i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i <= M && j < N) {\n\t\tfloat acc = 0.0f;\n\t\t" BF_LOOP "\n\t\t" BF_STORE
		"\n\t}\n}\n");
	declines("wmma-gemm", src, "the bounds are not `i < M && j < N` with parameters");
}

/* Near misses of the shape: layouts it cannot read, types, a loop that
 * does more, an epilogue that reads what the rewrite changes. */
static void test_declines_shape(void **st)
{
	(void)st;
	char src[2048];
	/* B with a leading dimension that is neither N (row-major) nor K (transposed) */
	gemm_src(
		src, sizeof src, BF_PARAMS,
		"for (int l = 0; l < K; l++) acc += __bfloat162float(A[i * K + l]) * __bfloat162float(B[l * M + j]);",
		BF_STORE);
	declines("wmma-gemm", src, "B is read as B[l*M+j], neither B[l * N + j] (row-major, ldb = N) nor");
	/* smem-tile-gemm writes row-major B only */
	gemm_src(src, sizeof src, "const float *A, const float *B, float *C",
		 "for (int l = 0; l < K; l++) acc += A[i * K + l] * B[j * K + l];", "C[i * N + j] = acc;");
	declines("smem-tile-gemm", src, "B is read transposed (B[j * K + l])");
	/* A with a leading dimension other than K */
	gemm_src(
		src, sizeof src, BF_PARAMS,
		"for (int l = 0; l < K; l++) acc += __bfloat162float(A[i * N + l]) * __bfloat162float(B[l * N + j]);",
		BF_STORE);
	declines("wmma-gemm", src, "A is not read as A[i * K + l]");
	/* an index narrowed to int may wrap where the rewrite's does not */
	gemm_src(src, sizeof src, BF_PARAMS,
		 "for (int l = 0; l < K; l++) acc += __bfloat162float(A[(int)(i * K) + l]) * "
		 "__bfloat162float(B[l * N + j]);",
		 BF_STORE);
	declines("wmma-gemm", src, "A is not read as");
	/* float operands are smem-tile-gemm's */
	gemm_src(src, sizeof src, "const float *A, const float *B, float *C",
		 "for (int l = 0; l < K; l++) acc += A[i * K + l] * B[l * N + j];", "C[i * N + j] = acc;");
	declines("wmma-gemm", src, "A and B are not both __nv_bfloat16 or both __half pointers");
	/* mixed operand types */
	gemm_src(
		src, sizeof src, "const __nv_bfloat16 *A, const __half *B, float *C",
		"for (int l = 0; l < K; l++) acc += __bfloat162float(A[i * K + l]) * __half2float(B[l * N + j]);",
		"C[i * N + j] = acc;");
	declines("wmma-gemm", src, "not both __nv_bfloat16 or both __half");
	/* the product rounded to 16 bits before the sum */
	gemm_src(src, sizeof src, BF_PARAMS,
		 "for (int l = 0; l < K; l++) acc += A[i * K + l] * B[l * N + j];", BF_STORE);
	declines("wmma-gemm", src, "is taken in 16 bits");
	/* the k loop does more than accumulate */
	gemm_src(src, sizeof src, BF_PARAMS,
		 "for (int l = 0; l < K; l++) { acc += __bfloat162float(A[i * K + l]) * "
		 "__bfloat162float(B[l * N + j]); acc *= 0.5f; }",
		 BF_STORE);
	declines("wmma-gemm", src, "the k loop does more than one accumulation");
	/* a sum of three factors */
	gemm_src(src, sizeof src, BF_PARAMS,
		 "for (int l = 0; l < K; l++) acc += 2.0f * __bfloat162float(A[i * K + l]) * "
		 "__bfloat162float(B[l * N + j]);",
		 BF_STORE);
	declines("wmma-gemm", src, "more than two factors");
	/* a k loop from 1 */
	gemm_src(
		src, sizeof src, BF_PARAMS,
		"for (int l = 1; l < K; l++) acc += __bfloat162float(A[i * K + l]) * __bfloat162float(B[l * N + j]);",
		BF_STORE);
	declines("wmma-gemm", src, "does not declare its variable from 0");
	/* the epilogue reads a thread id (the rewrite's threads are others) */
	gemm_src(src, sizeof src, BF_PARAMS, BF_LOOP, "C[i * N + j] = __float2bfloat16(acc + threadIdx.x);");
	declines("wmma-gemm", src, "the stored value reads threadIdx");
	/* the epilogue reads C at another element */
	gemm_src(src, sizeof src, BF_PARAMS, BF_LOOP,
		 "C[i * N + j] = __float2bfloat16(acc + __bfloat162float(C[j]));");
	declines("wmma-gemm", src, "reads C elsewhere than the stored element");
	/* a store with a side effect */
	gemm_src(src, sizeof src, BF_PARAMS, BF_LOOP, "C[i * N + j] = __float2bfloat16(acc++);");
	declines("wmma-gemm", src, "not a pure function of the accumulator");
	/* an accumulator that does not start at zero */
	snprintf(
		src, sizeof src,
		BF16
		"__global__ void k(" BF_PARAMS ", int M, int N, int K)\n{\n"
		"\tint i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i >= M || j >= N) return;\n\tfloat acc = 1.0f;\n\t" BF_LOOP "\n\t" BF_STORE "\n}\n");
	declines("wmma-gemm", src, "the accumulator does not start at zero");
	/* smem-tile-gemm reads the same shape and keeps to float operands */
	gemm_src(src, sizeof src, BF_PARAMS, BF_LOOP, BF_STORE);
	declines("smem-tile-gemm", src, "A is not a float pointer parameter");
}

/* The target: bf16 tensor cores from sm_80, f16 ones from sm_70, none on
 * AMD or in a HIP file. */
static void test_declines_target(void **st)
{
	(void)st;
	char src[2048], f16[2048], *out = NULL, why[256];
	size_t n;
	gemm_src(src, sizeof src, BF_PARAMS, BF_LOOP, BF_STORE);
	gemm_src(
		f16, sizeof f16, "const __half *A, const __half *B, __half *C",
		"for (int l = 0; l < K; l++) acc += __half2float(A[i * K + l]) * __half2float(B[l * N + j]);",
		"C[i * N + j] = __float2half(acc);");
	ka_recipe_set_arch("sm_75");
	declines("wmma-gemm", src, "__nv_bfloat16 tensor cores need sm_80, the target is sm_75");
	/* f16 on sm_75: the register-prefetch sets, not cp.async */
	assert_int_equal(ka_recipe_apply("wmma-gemm", f16, strlen(f16), "k", NULL, &out, &n, why, sizeof why),
			 KA_RECIPE_DECLINED);
	assert_non_null(strstr(why, "cp.async (stages=3) needs sm_80, the target is sm_75"));
	assert_int_equal(ka_recipe_apply("wmma-gemm", f16, strlen(f16), "k", "bm=128 bn=128", &out, &n, why,
					 sizeof why),
			 KA_OK);
	free(out);
	ka_recipe_set_arch("sm_60");
	declines("wmma-gemm", f16, "__half tensor cores need sm_70, the target is sm_60");
	ka_recipe_set_arch("gfx942");
	declines("wmma-gemm", src, "the target gfx942 is no NVIDIA GPU");
	/* the grid's first set, 3 stages of bk=64 (107520 bytes): one block an
	 * SM on sm_80 (164 KiB), over the 99 KiB a block of sm_89 */
	ka_recipe_set_arch("sm_80");
	assert_int_equal(ka_recipe_apply("wmma-gemm", src, strlen(src), "k", NULL, &out, &n, why, sizeof why),
			 KA_OK);
	assert_non_null(strstr(out, "__launch_bounds__(128, 1) k("));
	free(out);
	ka_recipe_set_arch("sm_89");
	declines("wmma-gemm", src,
		 "stages=3 bk=64 need 107520 bytes of shared memory a block, sm_89 allows 101376");
	assert_int_equal(ka_recipe_apply("wmma-gemm", src, strlen(src), "k", "bm=128 bn=128 warps=4 stages=4",
					 &out, &n, why, sizeof why),
			 KA_OK);
	free(out);
	ka_recipe_set_arch(NULL);
	char hip[2300];
	snprintf(hip, sizeof hip, "#include <hip/hip_runtime.h>\n%s", src);
	declines("wmma-gemm", hip, "a HIP file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gemm_bf16_baseline),
		cmocka_unit_test(test_gemm_f16_spelling),
		cmocka_unit_test(test_gemm_bf16_acc_plus),
		cmocka_unit_test(test_gemm_block_guard),
		cmocka_unit_test(test_gemm_bf16_transposed_b),
		cmocka_unit_test(test_declines_shape),
		cmocka_unit_test(test_declines_target),
		cmocka_unit_test(test_gemm_bf16_async),
		cmocka_unit_test(test_host_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
