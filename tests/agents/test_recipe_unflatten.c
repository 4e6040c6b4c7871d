/* tests/agents/test_recipe_unflatten.c: unflatten-rows on flattened 2-D
 * kernels: the bf16 embedding add and the fp32 encoder of the bench (the
 * flat index split as i / C and i % C, row-uniform gathers, a local pointer
 * per tensor), a hand-written one with the divisor passed as the count,
 * each rewrite's key lines, and that it compiles for sm_90 when nvcc is
 * there; near misses decline naming the construct. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agents/optimize_int.h"
#include "recipes/recipe.h"
#include "tests/agents/recipe_nvcc.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/proc.h"
#include <unistd.h>

#ifndef KA_SOURCE_DIR
#error "KA_SOURCE_DIR must be defined"
#endif

/* Applies unflatten-rows to kernel k (NULL: every one) of src: the rewrite
 * (caller frees) after checking that it holds every line of want and none
 * of unwanted, and that it compiles. */
static char *applies(const char *src, const char *kernel, const char *const *want,
		     const char *const *unwanted)
{
	char why[256], err[8192];
	char *out = NULL;
	size_t n;
	if (ka_recipe_apply("unflatten-rows", src, strlen(src), kernel, NULL, &out, &n, why, sizeof why) !=
	    KA_OK)
		fail_msg("unflatten-rows declined:\n%s\nwhy: %s", src, why);
	if (getenv("KA_TEST_DUMP"))
		fprintf(stderr, "%s\n", out);
	for (; want && *want; want++)
		if (!strstr(out, *want))
			fail_msg("the rewrite lacks '%s':\n%s", *want, out);
	for (; unwanted && *unwanted; unwanted++)
		if (strstr(out, *unwanted))
			fail_msg("the rewrite has '%s':\n%s", *unwanted, out);
	if (nvcc_compiles(out, err, sizeof err) == 0)
		fail_msg("the rewrite does not compile:\n%s\n%s", out, err);
	return out;
}

static void declines(const char *src, const char *reason)
{
	char why[256];
	char *out = NULL;
	size_t n;
	int rc = ka_recipe_apply("unflatten-rows", src, strlen(src), "k", NULL, &out, &n, why, sizeof why);
	free(out);
	if (rc != KA_RECIPE_DECLINED)
		fail_msg("unflatten-rows applied to:\n%s", src);
	if (!strstr(why, reason))
		fail_msg("the reason '%s' does not say '%s'", why, reason);
}

/* Runs the rewrite on the host with driver main_cpp (recipe_nvcc.h's
 * host_run); skips, saying so, without a C++ compiler. */
static void emulate(const char *text, const char *main_cpp)
{
	char log[8192];
	int rc = host_run(text, main_cpp, log, sizeof log);
	if (rc < 0)
		fprintf(stderr,
			"SKIP: no C++ compiler (c++ or $CXX): the host run of the rewrite is not checked\n");
	else if (rc == 0)
		fail_msg("the rewrite fails on the host:\n%s", log);
}

/* The bench's bf16 embedding add: ids[t] and t % seq once per row, both
 * tables and the output as uint4 words of 8 bf16, no division per element. */
static void test_embedding_bf16(void **st)
{
	(void)st;
	char *src = read_task_baseline("embedding_add_bf16", NULL, 0);
	const char *want[] = {
		"for (long long ka_it = ka_i0; ka_it < ka_rows * ka_nseg; ka_it += ka_istep)",
		"long long t = ka_r;", "const __nv_bfloat16 *const ka_p0 = wte + ((ids[t]*dim));",
		"const __nv_bfloat16 *const ka_p1 = wpe + (((t%seq)*dim));",
		"__nv_bfloat16 *const ka_p2 = out + ((ka_r * dim));",
		"uint4 ka_w0 = reinterpret_cast<const uint4 *>(ka_p0)[ka_v];",
		"float v = __bfloat162float(ka_a0[ka_k])+__bfloat162float(ka_a1[ka_k]);",
		"ka_a2[ka_k]=__float2bfloat16(v);", "reinterpret_cast<uint4 *>(ka_p2)[ka_v] = ka_w2;",
		"ka_p2[ka_c]=__float2bfloat16(v);",
		/* the launch: rows / 8 blocks, or a block per 2048-element segment of
			       * long rows, capped at 2112 */
		"(long long)(a->p[2]) >= 8192 ? ((long long)(long long)(tokens)) * (((long long)(long long)(a->p[2]) + 2047) / 2048) : (((long long)(long long)(tokens)) + 7) / 8)) < 2112",
		NULL};
	const char *unwanted[] = {"i / dim", "i % dim", "uint4 ka_w2 = ", NULL};
	char *out = applies(src, NULL, want, unwanted);
	emulate(out, "embedding_main.cpp"); /* every element of nine shapes, bit for bit */
	free(out);
	free(src);
}

/* The bench's fp32 encoder: (b, t) from the row, the token id once per row,
 * the three local pointers become row pointers and float4-wide words. */
static void test_encoder_f32(void **st)
{
	(void)st;
	char *src = read_task_baseline("encoder_forward", NULL, 0);
	const char *want[] = {"int bt = ka_r;",
			      "int ix = inp[b*T+t];",
			      "const float *const ka_p1 = wte + ((ix*C));",
			      "float *const ka_p0 = out + ((b*T*C)+(t*C));",
			      "ka_a0[ka_k]=ka_a1[ka_k]+ka_a2[ka_k];",
			      "ka_cols % 4 == 0",
			      NULL};
	const char *unwanted[] = {"idx % C", "idx / C", "int c =", NULL};
	free(applies(src, NULL, want, unwanted));
	free(src);
}

/* A bound passed as one count (rows need not be whole): the last row is
 * short and walks the scalar loop; f16 in, float out (4 elements a lane). */
static void test_passed_count(void **st)
{
	(void)st;
	const char *src =
		"#include <cuda_fp16.h>\n"
		"__global__ void k(const __half *x, const float *bias, float *y, int n, int cols)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i < n) {\n\t\tint r = i / cols;\n\t\tint c = i % cols;\n"
		"\t\ty[r * cols + c] = __half2float(x[i]) * 2.0f + bias[r];\n\t}\n}\n"
		"void run(const __half *x, const float *b, float *y, int n, int cols)\n{\n"
		"\tk<<<(n + 255) / 256, 256>>>(x, b, y, n, cols);\n}\n";
	const char *want[] = {"const long long ka_n = (long long)n, ka_cols = (long long)cols;",
			      "uint2 ka_w1 = reinterpret_cast<const uint2 *>(ka_p1)[ka_v];",
			      "for (int ka_k = 0; ka_k < 4; ka_k++)",
			      "ka_len == ka_cols",
			      "ka_a0[ka_k]=__half2float(ka_a1[ka_k])*2.0f+bias[r];",
			      "int r = ka_r;",
			      NULL};
	free(applies(src, "k", want, NULL));
}

/* An element type the recipe cannot size (a typedef): the width is
 * 16 / sizeof(T) at compile time, every access a uint4; a cast before a
 * dereference (`(float)*q`) reads as one. */
static void test_typedef_cast(void **st)
{
	(void)st;
	const char *src =
		"#include <cuda_bf16.h>\ntypedef __nv_bfloat16 floatX;\n"
		"__global__ void k(floatX *out, const int *inp, const floatX *wte, const floatX *wpe, int B,"
		" int T, int C)\n{\n"
		"\tint idx = blockIdx.x * blockDim.x + threadIdx.x;\n\tint N = B * T * C;\n"
		"\tif (idx < N) {\n\t\tint bt = idx / C;\n\t\tint b = bt / T;\n\t\tint t = bt % T;\n"
		"\t\tint c = idx % C;\n\t\tint ix = inp[b * T + t];\n"
		"\t\tfloatX *out_btc = out + b * T * C + t * C + c;\n"
		"\t\tconst floatX *wte_ix = wte + ix * C + c;\n\t\tconst floatX *wpe_tc = wpe + t * C + c;\n"
		"\t\t*out_btc = (floatX)((float)*wte_ix + (float)*wpe_tc);\n\t}\n}\n"
		"void run(floatX *o, const int *i, const floatX *a, const floatX *p, int B, int T, int C)\n{\n"
		"\tk<<<(B * T * C + 255) / 256, 256>>>(o, i, a, p, B, T, C);\n}\n";
	const char *want[] = {"constexpr int ka_V = sizeof(floatX) <= 16",
			      "for (int ka_k = 0; ka_k < ka_V; ka_k++)",
			      "ka_a0[ka_k]=(floatX)((float)ka_a1[ka_k]+(float)ka_a2[ka_k]);",
			      "ka_p0[ka_c]=(floatX)((float)ka_p1[ka_c]+(float)ka_p2[ka_c]);", NULL};
	free(applies(src, "k", want, NULL));
}

#define HEAD \
	"__global__ void k(const int *ids, const float *w, float *out, long long rows, long long dim)\n{\n" \
	"\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n" \
	"\tif (i >= rows * dim) return;\n\tlong long t = i / dim, j = i % dim;\n"
#define TAIL \
	"}\nvoid run(const int *ids, const float *w, float *out, long long r, long long d)\n{\n" \
	"\tk<<<(unsigned)((r * d + 255) / 256), 256>>>(ids, w, out, r, d);\n}\n"

static void test_declines(void **st)
{
	(void)st;
	/* the column as a value, not an index */
	declines(HEAD "\tout[i] = w[ids[t] * dim + j] * (float)j;\n" TAIL,
		 "the column j is used other than as the contiguous index");
	/* a transposed read: the row is the fast index */
	declines(HEAD "\tout[i] = w[j * dim + t];\n" TAIL,
		 "w[j*dim+t]: the index is neither <row> * dim + <column>");
	/* a guarded gather: a vector load would read what the branch guards */
	declines(HEAD "\tout[i] = ids[t] >= 0 ? w[ids[t] * dim + j] : 0.0f;\n" TAIL,
		 "a branch in the element body");
	/* no split of the index into rows */
	declines("__global__ void k(const float *x, float *y, int n)\n{\n"
		 "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = 2.0f * x[i];\n}\n"
		 "void run(const float *x, float *y, int n) { k<<<(n + 255) / 256, 256>>>(x, y, n); }\n",
		 "no i / C and i % C");
	/* the output written at another row than the one read */
	declines(HEAD "\tout[i] = out[(t + 1) * dim + j] + w[j];\n" TAIL,
		 "out is written and accessed at two row bases");
}

/* Over every bench baseline: it applies to the flattened 2-D ones (the
 * embedding add, the encoder) and declines on the rest with a reason. */
static void test_bench(void **st)
{
	(void)st;
	static const char *const tasks[] = {"argmax_rows",
					    "attn_softmax_causal",
					    "batched_transpose",
					    "bias_gelu_scale",
					    "col_sum",
					    "crossentropy_forward",
					    "cumsum_rows",
					    "embedding_add_bf16",
					    "encoder_forward",
					    "gelu",
					    "gelu_f16",
					    "gemm_bf16",
					    "gemv",
					    "gemv_bf16",
					    "histogram",
					    "layernorm",
					    "masked_fill",
					    "reduce_interleaved",
					    "reduce_sum",
					    "residual_forward",
					    "rmsnorm_bf16",
					    "row_mean",
					    "saxpy",
					    "scan",
					    "sgemm",
					    "softmax",
					    "softmax_bf16",
					    "stencil2d",
					    "transpose"};
	for (size_t i = 0; i < sizeof tasks / sizeof tasks[0]; i++) {
		char *src = read_task_baseline(tasks[i], NULL, 0), why[256] = "";
		char *out = NULL;
		size_t n;
		int rc = ka_recipe_apply("unflatten-rows", src, strlen(src), NULL, NULL, &out, &n, why,
					 sizeof why);
		if (getenv("KA_TEST_DUMP"))
			fprintf(stderr, "%s: %d %s\n", tasks[i], rc, why);
		int flat = !strcmp(tasks[i], "embedding_add_bf16") || !strcmp(tasks[i], "encoder_forward") ||
			   !strcmp(tasks[i], "bias_gelu_scale");
		if (flat ? rc != KA_OK : rc != KA_RECIPE_DECLINED || !why[0])
			fail_msg("%s: rc %d (%s)", tasks[i], rc, why);
		free(out);
		free(src);
	}
}

/* The planner on the embedding add's findings (the 2-byte unit-stride
 * warning and the gather note, as kcheck reports them) tries unflatten-rows
 * before vectorize-2byte, its three parameter sets within the first six
 * strategies: the step budget of 6 reaches it. */
static void test_plan(void **st)
{
	(void)st;
	static ka_opt_plan plan;
	ka_finding v[2] = {
		{.rule = (char *)"gmem-unpacked-2byte", .kernel = (char *)"embed_naive", .estimate = 2.6},
		{.rule = (char *)"gmem-indirect-gather", .kernel = (char *)"embed_naive", .estimate = 0}};
	ka_findings f = {v, 2, 2};
	char *src = read_task_baseline("embedding_add_bf16", NULL, 0);
	assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &f, NULL, NULL, &plan), KA_OK);
	ka_opt_plan_sequences(&plan, src, strlen(src));
	int first_unflatten = -1, first_vec2 = -1, sets = 0;
	for (int i = 0; i < plan.n; i++) {
		const char *nm = plan.c[i].recipe->name;
		if (!strcmp(nm, "unflatten-rows")) {
			first_unflatten = first_unflatten < 0 ? i : first_unflatten;
			sets += i < 6;
		}
		if (!strcmp(nm, "vectorize-2byte") && first_vec2 < 0)
			first_vec2 = i;
	}
	assert_int_equal(first_unflatten, 0);
	assert_true(first_vec2 > first_unflatten);
	assert_int_equal(sets, 3);
	free(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_embedding_bf16), cmocka_unit_test(test_encoder_f32),
		cmocka_unit_test(test_passed_count),   cmocka_unit_test(test_typedef_cast),
		cmocka_unit_test(test_declines),       cmocka_unit_test(test_bench),
		cmocka_unit_test(test_plan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
