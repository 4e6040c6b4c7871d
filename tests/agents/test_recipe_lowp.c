/* tests/agents/test_recipe_lowp.c: the recipes on 2-byte element types
 * (__half, __nv_bfloat16).  vectorize-2byte on element-wise kernels (f16
 * in and out, bf16 in and float out, a read-modify-write, an atomic that
 * must stay scalar) and warp-per-row on bf16 rows with fp32 accumulators:
 * vectorize-2byte on bf16 rows walked by a warp's or a block's lanes (a
 * block-per-row RMSNorm whose partial sums feed a shared-memory tree), and
 * fp32-accumulate on sums kept in 16 bits: each rewrite's key lines, and
 * that it compiles for sm_90 when nvcc is there; near misses decline
 * naming the reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recipes/recipe.h"
#include "tests/agents/recipe_nvcc.h"
#include "util/error.h"

/* Applies recipe to kernel k of src: the rewrite (caller frees) after
 * checking that it holds every line of want and none of unwanted, and that
 * it compiles. */
static char *applies(const char *recipe, const char *src, const char *const *want,
		     const char *const *unwanted)
{
	char why[256], err[8192];
	char *out = NULL;
	size_t n;
	if (ka_recipe_apply(recipe, src, strlen(src), "k", NULL, &out, &n, why, sizeof why) != KA_OK)
		fail_msg("%s declined:\n%s\nwhy: %s", recipe, src, why);
	for (; want && *want; want++)
		if (!strstr(out, *want))
			fail_msg("%s: the rewrite lacks '%s':\n%s", recipe, *want, out);
	for (; unwanted && *unwanted; unwanted++)
		if (strstr(out, *unwanted))
			fail_msg("%s: the rewrite has '%s':\n%s", recipe, *unwanted, out);
	if (nvcc_compiles(out, err, sizeof err) == 0)
		fail_msg("%s: the rewrite does not compile:\n%s\n%s", recipe, out, err);
	return out;
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

/* The same with a parameter set. */
static void declines_with(const char *recipe, const char *src, const char *params, const char *reason)
{
	char why[256];
	char *out = NULL;
	size_t n;
	int rc = ka_recipe_apply(recipe, src, strlen(src), "k", params, &out, &n, why, sizeof why);
	free(out);
	if (rc != KA_RECIPE_DECLINED)
		fail_msg("%s %s applied to:\n%s", recipe, params, src);
	if (!strstr(why, reason))
		fail_msg("%s: the reason '%s' does not say '%s'", recipe, why, reason);
}

#define FP16 "#include <cuda_fp16.h>\n"
#define BF16 "#include <cuda_bf16.h>\n"

/* f16 in, f16 out, fp32 math: both move as one uint4 per 8 elements, the
 * output is stored without being loaded, and the tail stays scalar. */
static void test_vec2_f16_gelu(void **st)
{
	(void)st;
	const char *src = FP16 "__global__ void k(const __half *x, __half *y, long long n)\n{\n"
			       "\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
			       "\tif (i < n) {\n\t\tfloat v = __half2float(x[i]);\n"
			       "\t\ty[i] = __float2half(0.5f * v * erfcf(-v * 0.70710678f));\n\t}\n}\n"
			       "void h(const __half *x, __half *y, long long n, cudaStream_t s)\n{\n"
			       "\tk<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(x, y, n);\n}\n";
	static const char *const want[] = {
		"ka_x[0] = reinterpret_cast<const uint4 *>(x)[1 * ka_v + 0];",
		"__half *ka_y_e = reinterpret_cast<__half *>(ka_y);",
		"ka_y_e[ka_l] = __float2half(",
		"reinterpret_cast<uint4 *>(y)[1 * ka_v + 0] = ka_y[0];",
		"(ka_align & 15) ? 0 : (long long)n / 8",
		"for (long long ka_e = 8 * ka_n8 + ka_tid; ka_e < n; ka_e += ka_step)",
		"y[i] = __float2half(",
		"/ 8 + 256) / 256",
		NULL};
	static const char *const unwanted[] = {"ka_y[0] = reinterpret_cast<const uint4 *>(y)", NULL};
	free(applies("vectorize-2byte", src, want, unwanted));
}

/* bf16 in, float out (a mixed kernel): the float pointer takes two 16-byte
 * words for the same 8 elements; an output updated in place (op=) is
 * loaded first. */
static void test_vec2_bf16_mixed(void **st)
{
	(void)st;
	const char *src = BF16
		"__global__ void k(const __nv_bfloat16 *__restrict__ a, float *acc, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i >= n) return;\n"
		"\tacc[i] += 2.0f * __bfloat162float(a[i]);\n}\n"
		"void h(const __nv_bfloat16 *a, float *acc, int n, cudaStream_t s)\n{\n"
		"\tk<<<(n + 127) / 128, 128, 0, s>>>(a, acc, n);\n}\n";
	static const char *const want[] = {"uint4 ka_a[1];",
					   "uint4 ka_acc[2];",
					   "ka_acc[1] = reinterpret_cast<const uint4 *>(acc)[2 * ka_v + 1];",
					   "float *ka_acc_e = reinterpret_cast<float *>(ka_acc);",
					   "__nv_bfloat16 *ka_a_e = reinterpret_cast<__nv_bfloat16 *>(ka_a);",
					   "ka_acc_e[ka_l] += 2.0f * __bfloat162float(ka_a_e[ka_l]);",
					   "reinterpret_cast<uint4 *>(acc)[2 * ka_v + 1] = ka_acc[1];",
					   NULL};
	free(applies("vectorize-2byte", src, want, NULL));
}

/* A bound that is a product of parameters: the count is the product in
 * 64 bits, for the vector loop, the tail and the launch. */
static void test_vec2_product_bound(void **st)
{
	(void)st;
	const char *src = BF16
		"__global__ void k(const __nv_bfloat16 *x, __nv_bfloat16 *y, int rows, int cols)\n{\n"
		"\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
		"\tif (i >= rows * cols) return;\n"
		"\ty[i] = __float2bfloat16(__bfloat162float(x[i]) * 0.5f);\n}\n"
		"void h(const __nv_bfloat16 *x, __nv_bfloat16 *y, int rows, int cols, cudaStream_t s)\n{\n"
		"\tk<<<(unsigned)(((long long)rows * cols + 255) / 256), 256, 0, s>>>(x, y, rows, cols);\n}\n";
	static const char *const want[] = {"(long long)((long long)", "uint4 ka_x[1];", "uint4 ka_y[1];",
					   NULL};
	free(applies("vectorize-2byte", src, want, NULL));
}

/* An atomic on an element's address keeps that pointer scalar (the copy in
 * registers has no global address); the other pointer still moves as
 * vectors and the element index is declared for the scalar access. */
static void test_vec2_atomic_stays_scalar(void **st)
{
	(void)st;
	const char *src = FP16 "__global__ void k(const __half *x, __half *y, long long n)\n{\n"
			       "\tconst long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
			       "\tif (i >= n) return;\n\tatomicAdd(&y[i], x[i]);\n}\n"
			       "void h(const __half *x, __half *y, long long n, cudaStream_t s)\n{\n"
			       "\tk<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(x, y, n);\n}\n";
	static const char *const want[] = {"uint4 ka_x[1];", "const long long i = 8 * ka_v + ka_l;",
					   "atomicAdd(&y[i], ka_x_e[ka_l]);", NULL};
	static const char *const unwanted[] = {"ka_y", NULL};
	free(applies("vectorize-2byte", src, want, unwanted));
}

/* Near misses: a 4-byte kernel is vectorize's, and a 2-byte pointer read at
 * a neighbour (x[i + 1]) cannot move as vectors. */
static void test_vec2_declines(void **st)
{
	(void)st;
	declines(
		"vectorize-2byte",
		"__global__ void k(const float *x, float *y, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = 2.0f * x[i];\n}\n"
		"void h(const float *x, float *y, int n, cudaStream_t s)\n{\n\tk<<<(n + 255) / 256, 256, 0, s>>>(x, y, n);\n}\n",
		"no __half or __nv_bfloat16 pointer");
	declines("vectorize-2byte",
		 FP16 "__global__ void k(const __half *x, float *y, int n)\n{\n"
		      "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		      "\tif (i < n) y[i] = __half2float(x[i]) + __half2float(x[i + 1]);\n}\n"
		      "void h(const __half *x, float *y, int n, cudaStream_t s)\n{\n"
		      "\tk<<<(n + 255) / 256, 256, 0, s>>>(x, y, n);\n}\n",
		 "no __half or __nv_bfloat16 pointer");
}

/* warp-per-row on bf16 rows: the row pointers and the conversions run on
 * every lane, the fp32 accumulators are reduced across the warp, lane 0
 * stores the bf16 result. */
static void test_rowwarp_bf16(void **st)
{
	(void)st;
	const char *gemv = BF16
		"__global__ void k(const __nv_bfloat16 *A, const __nv_bfloat16 *x, __nv_bfloat16 *y, long long m, "
		"long long n)\n{\n"
		"\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (i >= m) return;\n"
		"\tconst __nv_bfloat16 *row = A + i * n;\n\tfloat s = 0.0f;\n"
		"\tfor (long long j = 0; j < n; j++) s += __bfloat162float(row[j]) * __bfloat162float(x[j]);\n"
		"\ty[i] = __float2bfloat16(s);\n}\n"
		"void h(const __nv_bfloat16 *A, const __nv_bfloat16 *x, __nv_bfloat16 *y, long long m, long long "
		"n, cudaStream_t st)\n{\n"
		"\tk<<<(unsigned)((m + 255) / 256), 256, 0, st>>>(A, x, y, m, n);\n}\n";
	static const char *const want_gemv[] = {
		"const int ka_lane = threadIdx.x & 31;", "for (long long j = (0) + ka_lane; j < n; j += 32)",
		"s = ka_warp_sum(s);", "if (ka_lane == 0) { y[i] = __float2bfloat16(s); }", NULL};
	free(applies("warp-per-row", gemv, want_gemv, NULL));
}

/* A 16-bit accumulator is not reduced across lanes: the rewrite would sum
 * 32 partials in bf16. */
static void test_rowwarp_bf16_accumulator_declines(void **st)
{
	(void)st;
	declines(
		"warp-per-row",
		BF16
		"__global__ void k(const __nv_bfloat16 *A, __nv_bfloat16 *y, long long m, long long n)\n{\n"
		"\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (i >= m) return;\n"
		"\t__nv_bfloat16 s = __float2bfloat16(0.0f);\n"
		"\tfor (long long j = 0; j < n; j++) s += A[i * n + j];\n\ty[i] = s;\n}\n"
		"void h(const __nv_bfloat16 *A, __nv_bfloat16 *y, long long m, long long n, cudaStream_t st)\n{\n"
		"\tk<<<(unsigned)((m + 255) / 256), 256, 0, st>>>(A, y, m, n);\n}\n",
		"accumulator s is a 16-bit type");
}

/* A bf16 RMSNorm as commonly written: a block per row, its threads
 * striding the row by blockDim.x, the sum of squares in fp32 through a
 * shared-memory tree.  Both row loops walk 8-element chunks as 16-byte
 * words; the partial sum each thread carries into the tree covers other
 * elements now, and the tree sums them all. */
#define RMSNORM_KERNEL \
	BF16 "__global__ void k(const __nv_bfloat16 *x, const __nv_bfloat16 *w, __nv_bfloat16 *y, long long " \
	     "cols, float eps)\n{\n" \
	     "\t__shared__ float part[256];\n" \
	     "\tconst __nv_bfloat16 *xr = x + blockIdx.x * cols;\n" \
	     "\t__nv_bfloat16 *yr = y + blockIdx.x * cols;\n" \
	     "\tfloat ss = 0.0f;\n" \
	     "\tfor (long long j = threadIdx.x; j < cols; j += blockDim.x) {\n" \
	     "\t\tfloat v = __bfloat162float(xr[j]);\n\t\tss += v * v;\n\t}\n" \
	     "\tpart[threadIdx.x] = ss;\n\t__syncthreads();\n" \
	     "\tfor (int o = blockDim.x / 2; o > 0; o >>= 1) {\n" \
	     "\t\tif (threadIdx.x < o) part[threadIdx.x] += part[threadIdx.x + o];\n" \
	     "\t\t__syncthreads();\n\t}\n" \
	     "\tfloat rstd = rsqrtf(part[0] / (float)cols + eps);\n" \
	     "\tfor (long long j = threadIdx.x; j < cols; j += blockDim.x)\n" \
	     "\t\tyr[j] = __float2bfloat16(__bfloat162float(xr[j]) * rstd * __bfloat162float(w[j]));\n}\n"
#define RMSNORM_HOST \
	"void h(const __nv_bfloat16 *x, const __nv_bfloat16 *w, __nv_bfloat16 *y, long long rows, long long " \
	"cols, cudaStream_t s)\n{\n\tk<<<(unsigned)rows, 256, 0, s>>>(x, w, y, cols, 1e-6f);\n}\n"

static void test_lanevec_bf16_block_rows(void **st)
{
	(void)st;
	static const char *const want[] = {
		"const unsigned long long ka_al = 0 | (unsigned long long)(xr + ka_s);",
		"for (long long ka_c = threadIdx.x; ka_c < ka_n8; ka_c += blockDim.x)",
		"ka_xr[0] = reinterpret_cast<const uint4 *>(xr + ka_s)[1 * ka_c + 0];",
		"float v = __bfloat162float(ka_xr_e[ka_l]);",
		"for (int ka_l = 0; ka_l < 8; ka_l++)",
		"ka_yr_e[ka_l] = __float2bfloat16(__bfloat162float(ka_xr_e[ka_l]) * rstd * "
		"__bfloat162float(ka_w_e[ka_l]));",
		"reinterpret_cast<uint4 *>(yr + ka_s)[1 * ka_c + 0] = ka_yr[0];",
		"for (long long j = ka_s + 8 * ka_n8 + threadIdx.x; j < cols; j += blockDim.x)",
		"part[threadIdx.x] = ss;",
		NULL};
	/* the output row is stored whole: never loaded */
	static const char *const unwanted[] = {"reinterpret_cast<const uint4 *>(yr", NULL};
	free(applies("vectorize-2byte", RMSNORM_KERNEL RMSNORM_HOST, want, unwanted));
	/* the launch stays as written: one candidate, not one per block size */
	declines_with("vectorize-2byte", RMSNORM_KERNEL RMSNORM_HOST, "block=512 cap=2112",
		      "the lane loops keep the kernel's launch");
}

/* After seq-reduction (the tree's last steps as shuffles in warp 0, for
 * the launch's 256 threads) the row loops still vectorize; and the other
 * way round, seq-reduction applies to the vectorized kernel. */
static void test_lanevec_bf16_composes_with_seq_reduction(void **st)
{
	(void)st;
	const char *src = RMSNORM_KERNEL RMSNORM_HOST;
	char why[256], *a = NULL, *b = NULL;
	size_t n;
	if (ka_recipe_apply("seq-reduction", src, strlen(src), "k", NULL, &a, &n, why, sizeof why) != KA_OK)
		fail_msg("seq-reduction declined: %s", why);
	static const char *const want[] = {"__shfl_down_sync", "uint4 ka_xr[1];", "ka_n8", NULL};
	free(applies("vectorize-2byte", a, want, NULL));
	free(a);
	if (ka_recipe_apply("vectorize-2byte", src, strlen(src), "k", NULL, &b, &n, why, sizeof why) != KA_OK)
		fail_msg("vectorize-2byte declined: %s", why);
	free(applies("seq-reduction", b, want, NULL));
	free(b);
}

/* Near misses on a block's lanes: the partial leaves the loop for a store
 * that is no sum over the block, is updated otherwise than `+=`, or feeds a
 * tree of maxima; the chunk loop would change what each lane holds. */
static void test_lanevec_bf16_block_declines(void **st)
{
	(void)st;
	static const char *const head = BF16
		"__global__ void k(const __nv_bfloat16 *x, float *out, long long cols)\n{\n"
		"\t__shared__ float part[256];\n"
		"\tconst __nv_bfloat16 *xr = x + blockIdx.x * cols;\n\tfloat ss = 0.0f;\n"
		"\tfor (long long j = threadIdx.x; j < cols; j += blockDim.x) ";
	static const char *const tail =
		"void h(const __nv_bfloat16 *x, float *out, long long rows, long long cols, cudaStream_t s)\n{\n"
		"\tk<<<(unsigned)rows, 256, 0, s>>>(x, out, cols);\n}\n";
	static const char *const cases[][2] = {
		/* each thread's partial stored as its own result */
		{"ss += __bfloat162float(xr[j]);\n\tout[blockIdx.x * 256 + threadIdx.x] = ss;\n}\n", ""},
		/* a running scaled sum: its order matters */
		{"ss = 0.5f * ss + __bfloat162float(xr[j]);\n\tpart[threadIdx.x] = ss;\n\t__syncthreads();\n"
		 "\tfor (int k = blockDim.x / 2; k > 0; k >>= 1) {\n"
		 "\t\tif (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];\n\t\t__syncthreads();\n\t}\n"
		 "\tif (threadIdx.x == 0) out[blockIdx.x] = part[0];\n}\n",
		 ""},
		/* a tree of maxima over partial sums */
		{"ss += __bfloat162float(xr[j]);\n\tpart[threadIdx.x] = ss;\n\t__syncthreads();\n"
		 "\tfor (int k = blockDim.x / 2; k > 0; k >>= 1) {\n"
		 "\t\tif (threadIdx.x < k) part[threadIdx.x] = fmaxf(part[threadIdx.x], part[threadIdx.x + k]);\n"
		 "\t\t__syncthreads();\n\t}\n\tif (threadIdx.x == 0) out[blockIdx.x] = part[0];\n}\n",
		 ""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char src[4096];
		snprintf(src, sizeof src, "%s%s%s", head, cases[i][0], tail);
		declines("vectorize-2byte", src, "ss carries a lane's own elements past the lane loop");
	}
}

/* warp-per-row on a bf16 GEMV, then vectorize-2byte on its lane loop: the
 * row and the vector x move as 16-byte words, the warp sum stays. */
static void test_rowwarp_then_vec2_bf16(void **st)
{
	(void)st;
	const char *gemv = BF16
		"__global__ void k(const __nv_bfloat16 *A, const __nv_bfloat16 *x, __nv_bfloat16 *y, long long m, "
		"long long n)\n{\n"
		"\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (i >= m) return;\n"
		"\tconst __nv_bfloat16 *row = A + i * n;\n\tfloat s = 0.0f;\n"
		"\tfor (long long j = 0; j < n; j++) s += __bfloat162float(row[j]) * __bfloat162float(x[j]);\n"
		"\ty[i] = __float2bfloat16(s);\n}\n"
		"void h(const __nv_bfloat16 *A, const __nv_bfloat16 *x, __nv_bfloat16 *y, long long m, long long "
		"n, cudaStream_t st)\n{\n"
		"\tk<<<(unsigned)((m + 255) / 256), 256, 0, st>>>(A, x, y, m, n);\n}\n";
	char why[256], *a = NULL;
	size_t n;
	if (ka_recipe_apply("warp-per-row", gemv, strlen(gemv), "k", NULL, &a, &n, why, sizeof why) != KA_OK)
		fail_msg("warp-per-row declined: %s", why);
	static const char *const want[] = {
		"for (long long ka_c = ka_lane; ka_c < ka_n8; ka_c += 32)",
		"ka_row[0] = reinterpret_cast<const uint4 *>(row + ka_s)[1 * ka_c + 0];",
		"ka_x[0] = reinterpret_cast<const uint4 *>(x + ka_s)[1 * ka_c + 0];",
		"s += __bfloat162float(ka_row_e[ka_l]) * __bfloat162float(ka_x_e[ka_l]);",
		"s = ka_warp_sum(s);",
		NULL};
	free(applies("vectorize-2byte", a, want, NULL));
	/* vectorize (float4) leaves bf16 rows to vectorize-2byte */
	declines("vectorize", a, "no float pointer is used only as p[j]");
	free(a);
}

/* A dot product summed in __half (__hadd of a product), then scaled and
 * stored: the sum becomes a float from zero, each update adds the product
 * converted, and the reads after the loop see the sum rounded once. */
static void test_fp32_accumulate_half(void **st)
{
	(void)st;
	const char *src = FP16 "__global__ void k(const __half *A, const __half *x, __half *y, int m, int n, "
			       "__half scale)\n{\n"
			       "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i >= m) return;\n"
			       "\t__half sum = __float2half(0.0f);\n"
			       "\tfor (int j = 0; j < n; j++) {\n"
			       "\t\tsum = __hadd(sum, __hmul(A[i * n + j], x[j]));\n\t}\n"
			       "\tsum = __hmul(sum, scale);\n\ty[i] = sum;\n}\n";
	static const char *const want[] = {"float sum = 0.0f;", "sum += __half2float(__hmul(A[i*n+j],x[j]));",
					   "sum = __half2float(__hmul(__float2half(sum),scale));",
					   "y[i] = __float2half(sum);", NULL};
	static const char *const unwanted[] = {"__half sum", "__hadd", NULL};
	free(applies("fp32-accumulate", src, want, unwanted));
}

/* bf16 with __hfma into the sum, the sum read by a shuffle: fmaf on the
 * converted pair, the shuffle sees the bf16 value. */
static void test_fp32_accumulate_bf16_fma(void **st)
{
	(void)st;
	const char *src = BF16 "__global__ void k(const __nv_bfloat16 *a, const __nv_bfloat16 *b, "
			       "__nv_bfloat16 *out, int n)\n{\n"
			       "\t__nv_bfloat16 s = __float2bfloat16(0.0f);\n"
			       "\tfor (int i = threadIdx.x; i < n; i += blockDim.x)\n"
			       "\t\ts = __hfma(a[i], b[i], s);\n"
			       "\ts = __hadd(s, __shfl_down_sync(0xffffffffu, s, 16));\n"
			       "\tout[threadIdx.x] = s;\n}\n";
	static const char *const want[] = {
		"float s = 0.0f;", "s = fmaf(__bfloat162float(a[i]), __bfloat162float(b[i]), s);",
		"s += __bfloat162float(__shfl_down_sync(0xffffffffu,__float2bfloat16(s),16));",
		"out[threadIdx.x] = __float2bfloat16(s);", NULL};
	free(applies("fp32-accumulate", src, want, NULL));
}

/* Near misses: the sum's address taken (an atomic), an increment, no
 * update inside a loop. */
static void test_fp32_accumulate_declines(void **st)
{
	(void)st;
	declines("fp32-accumulate",
		 FP16 "__global__ void k(const __half *x, __half *y, int n)\n{\n"
		      "\t__half s = __float2half(0.0f);\n"
		      "\tfor (int i = threadIdx.x; i < n; i += blockDim.x) s = __hadd(s, x[i]);\n"
		      "\tatomicAdd(&s, x[0]);\n\ty[threadIdx.x] = s;\n}\n",
		 "s is written otherwise");
	declines("fp32-accumulate",
		 FP16 "__global__ void k(const __half *x, __half *y, int n)\n{\n"
		      "\t__half s = 0;\n"
		      "\tfor (int i = threadIdx.x; i < n; i += blockDim.x) { s = __hadd(s, x[i]); s++; }\n"
		      "\ty[threadIdx.x] = s;\n}\n",
		 "s is written otherwise");
	declines("fp32-accumulate",
		 BF16 "__global__ void k(const __nv_bfloat16 *x, __nv_bfloat16 *y)\n{\n"
		      "\t__nv_bfloat16 s = __float2bfloat16(0.0f);\n\ts = __hadd(s, x[threadIdx.x]);\n"
		      "\ty[threadIdx.x] = s;\n}\n",
		 "s is not summed into inside a loop");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vec2_f16_gelu),
		cmocka_unit_test(test_vec2_bf16_mixed),
		cmocka_unit_test(test_vec2_product_bound),
		cmocka_unit_test(test_vec2_atomic_stays_scalar),
		cmocka_unit_test(test_vec2_declines),
		cmocka_unit_test(test_rowwarp_bf16),
		cmocka_unit_test(test_rowwarp_bf16_accumulator_declines),
		cmocka_unit_test(test_lanevec_bf16_block_rows),
		cmocka_unit_test(test_lanevec_bf16_composes_with_seq_reduction),
		cmocka_unit_test(test_lanevec_bf16_block_declines),
		cmocka_unit_test(test_rowwarp_then_vec2_bf16),
		cmocka_unit_test(test_fp32_accumulate_half),
		cmocka_unit_test(test_fp32_accumulate_bf16_fma),
		cmocka_unit_test(test_fp32_accumulate_declines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
