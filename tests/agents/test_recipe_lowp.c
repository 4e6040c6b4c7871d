/* tests/agents/test_recipe_lowp.c: the recipes on 2-byte element types
 * (__half, __nv_bfloat16).  vectorize-2byte on element-wise kernels (f16
 * in and out, bf16 in and float out, a read-modify-write, an atomic that
 * must stay scalar) and warp-per-row on bf16 rows with fp32 accumulators:
 * each rewrite's key lines, and that it compiles for sm_90 when nvcc is
 * there; near misses decline naming the reason. */
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
