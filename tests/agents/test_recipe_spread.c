/* tests/agents/test_recipe_spread.c: spread-threads (recipes/recipe_spread.c).
 *
 * A kernel launched one thread a block (`<<<N, 1>>>`, indexed by
 * blockIdx.x) or as one block (`<<<1, N>>>`, indexed by threadIdx.x) does
 * one element a thread over blocks of 256: the index becomes
 * `blockIdx.x * blockDim.x + threadIdx.x`, a guard against the count is
 * added, the count is the parameter every launch passes it to or a new
 * `int ka_n`, and every launch becomes `<<<(COUNT + 255) / 256, 256>>>`
 * with its shared memory and stream kept.  Each rewrite is compiled for
 * sm_90 and run on the host (tests/agents/emu/spread_main.cpp) over counts
 * across the blocks, where it must match the original exactly.  Near
 * misses decline naming the construct. */
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

#define R "spread-threads"

#define BODY "\tout[i] = 2.0f * in[i] + 1.0f;\n"

/* <<<N, 1>>> without a guard: the count becomes a new parameter */
#define BLOCKS \
	"__global__ void twice(float *out, const float *in)\n{\n\tint i = blockIdx.x;\n" BODY "}\n" \
	"void spread_run(float *out, const float *in, int n)\n{\n\ttwice<<<n, 1>>>(out, in);\n}\n"

static void test_blocks_new_param(void **st)
{
	(void)st;
	static const char *const want[] = {"__global__ void twice(float *out, const float *in, int ka_n)",
					   "const int ka_i = blockIdx.x * blockDim.x + threadIdx.x;",
					   "if (ka_i >= ka_n)", "int i = ka_i;",
					   "twice<<<((long long)(n) + 255) / 256, 256>>>(out, in, n);"};
	char *out = recipe_applies(R, NULL, BLOCKS, "twice", want, sizeof want / sizeof want[0]);
	host_runs_exact("spread_main.cpp", BLOCKS, out);
	free(out);
}

/* <<<N, 1>>> with its guard against a parameter every launch passes the
 * grid to: that parameter is the count; stream and shared memory stay */
#define GUARDED \
	"__global__ void twice(float *out, const float *in, int n)\n{\n\tint i = blockIdx.x;\n" \
	"\tif (i < n)\n\t" BODY "}\n" \
	"void spread_run(float *out, const float *in, int n)\n{\n\ttwice<<<n, 1, 0, 0>>>(out, in, n);\n}\n"

static void test_blocks_guarded(void **st)
{
	(void)st;
	static const char *const want[] = {"__global__ void twice(float *out, const float *in, int n)\n{",
					   "if (ka_i >= n)", "if (i < n)",
					   "twice<<<((long long)(n) + 255) / 256, 256, 0, 0>>>(out, in, n);"};
	char *out = recipe_applies(R, NULL, GUARDED, "twice", want, sizeof want / sizeof want[0]);
	host_runs_exact("spread_main.cpp", GUARDED, out);
	free(out);
}

/* <<<1, N>>> indexed by threadIdx.x written inline */
#define ONE_BLOCK \
	"__global__ void twice(float *out, const float *in)\n{\n" \
	"\tout[threadIdx.x] = 2.0f * in[threadIdx.x] + 1.0f;\n}\n" \
	"void spread_run(float *out, const float *in, int n)\n{\n\ttwice<<<1, n>>>(out, in);\n}\n"

static void test_one_block(void **st)
{
	(void)st;
	static const char *const want[] = {"out[ka_i] = 2.0f * in[ka_i] + 1.0f;",
					   "twice<<<((long long)(n) + 255) / 256, 256>>>(out, in, n);"};
	char *out = recipe_applies(R, NULL, ONE_BLOCK, "twice", want, sizeof want / sizeof want[0]);
	host_runs_exact("spread_main.cpp", ONE_BLOCK, out);
	free(out);
}

/* a count expression (not a parameter) becomes the new parameter's
 * argument, at every launch */
#define EXPR \
	"__global__ void twice(float *out, const float *in)\n{\n\tconst unsigned i = blockIdx.x;\n" BODY \
	"}\n" \
	"void spread_run(float *out, const float *in, int n)\n{\n" \
	"\ttwice<<<n / 2, 1>>>(out, in);\n\ttwice<<<n - n / 2, 1>>>(out + n / 2, in + n / 2);\n}\n"

static void test_count_expression(void **st)
{
	(void)st;
	static const char *const want[] = {
		"twice<<<((long long)(n/2) + 255) / 256, 256>>>(out, in, n/2);",
		"twice<<<((long long)(n-n/2) + 255) / 256, 256>>>(out + n / 2, in + n / 2, n-n/2);"};
	char *out = recipe_applies(R, NULL, EXPR, "twice", want, sizeof want / sizeof want[0]);
	host_runs_exact("spread_main.cpp", EXPR, out);
	free(out);
}

#define RUN1(K) "void run(float *out, const float *in, int n)\n{\n\t" K "\n}\n"
#define KB(B) "__global__ void k(float *out, const float *in, int n)\n{\n\tint i = blockIdx.x;\n" B "}\n"

static void test_near_misses(void **st)
{
	(void)st;
	recipe_declines(R, NULL,
			KB("\t__shared__ float s[1];\n\ts[0] = in[i];\n\tout[i] = s[0];\n")
				RUN1("k<<<n, 1>>>(out, in, n);"),
			"k", "__shared__");
	recipe_declines(R, NULL,
			KB("\tout[i] = in[i];\n\t__syncthreads();\n") RUN1("k<<<n, 1>>>(out, in, n);"), "k",
			"__syncthreads");
	recipe_declines(R, NULL,
			KB("\tout[i] = __shfl_sync(0xffffffffu, in[i], 0);\n")
				RUN1("k<<<n, 1>>>(out, in, n);"),
			"k", "warp intrinsic");
	recipe_declines(R, NULL, KB("\tout[i] = in[i] * blockDim.x;\n") RUN1("k<<<n, 1>>>(out, in, n);"), "k",
			"blockDim");
	recipe_declines(R, NULL, KB("\tout[i] = in[i] + gridDim.x;\n") RUN1("k<<<n, 1>>>(out, in, n);"), "k",
			"gridDim");
	recipe_declines(R, NULL, KB("\tout[i + threadIdx.x] = in[i];\n") RUN1("k<<<n, 1>>>(out, in, n);"),
			"k", "reads threadIdx beside blockIdx.x");
	recipe_declines(R, NULL,
			KB("\tout[i * 2 + blockIdx.y] = in[i];\n") RUN1("k<<<dim3(n, 2), 1>>>(out, in, n);"),
			"k", "dim3");
	recipe_declines(R, NULL, KB("\tout[i * 2 + blockIdx.y] = in[i];\n") RUN1("k<<<n, 1>>>(out, in, n);"),
			"k", "blockIdx.y");
	recipe_declines(R, NULL,
			KB("\tout[i] = in[i];\n")
				RUN1("k<<<n, 1>>>(out, in, n);\n\tk<<<1, n>>>(out, in, n);"),
			"k", "different shapes");
	recipe_declines(R, NULL, KB("\tout[i] = in[i];\n") RUN1("k<<<n, 2>>>(out, in, n);"), "k",
			"neither one thread a block");
	recipe_declines(R, NULL, KB("\tout[i] = in[i];\n") RUN1("k<<<1, 1>>>(out, in, n);"), "k",
			"<<<1, 1>>>");
	recipe_declines(R, NULL,
			KB("\tout[i] = in[i];\n") RUN1("void (*f)(float *, const float *, int) = k;\n"
						       "\tk<<<n, 1>>>(out, in, n);\n\t(void)f;"),
			"k", "outside a launch");
	recipe_declines(R, NULL,
			"__global__ void k(float *out, const float *in, int n);\n" KB("\tout[i] = in[i];\n")
				RUN1("k<<<n, 1>>>(out, in, n);"),
			"k", "apart from its definition");
	recipe_declines(R, NULL, KB("\tout[0] += in[i];\n") RUN1("k<<<n, 1>>>(out, in, n);"), "k",
			"does not depend on blockIdx.x");
	recipe_declines(
		R, NULL,
		"#include <cstdio>\n__global__ void hello(int n)\n{\n\tprintf(\"hello from block %d\\n\", "
		"blockIdx.x);\n}\n" RUN1("hello<<<n, 1>>>(n);"),
		"hello", "prints its index: the output order is its behaviour");
	recipe_declines(R, NULL,
			"#include <cstdio>\n__global__ void hello(int n)\n{\n\tint t = threadIdx.x;\n"
			"\tprintf(\"thread %d\\n\", t);\n}\n" RUN1("hello<<<1, n>>>(n);"),
			"hello", "prints its index");
	recipe_declines(R, NULL,
			"__global__ void k(float *out)\n{\n\tout[threadIdx.x] = blockIdx.x;\n}\n" RUN1(
				"k<<<1, n>>>(out);"),
			"k", "reads blockIdx beside threadIdx.x");
	recipe_declines(R, NULL,
			"__device__ int lane() { return threadIdx.x & 31; }\n"
			"__global__ void k(float *out)\n{\n\tout[blockIdx.x] = lane();\n}\n" RUN1(
				"k<<<n, 1>>>(out);"),
			"k", "calls lane, which reads threadIdx");
	recipe_declines(R, NULL, KB("\tout[i] = in[i];\n") RUN1("k<<<n++, 1>>>(out, in, n);"), "k",
			"side effects");
	recipe_declines(
		R, NULL,
		"__global__ void k(float *out, const float *in, int n)\n{\n\tout[0] = in[0];\n}\n" RUN1(
			"k<<<n, 1>>>(out, in, n);"),
		"k", "does not read blockIdx.x");
	recipe_declines(R, NULL,
			"#define LANE (threadIdx.x & 31)\n" KB("\tout[i] = in[i] + LANE;\n")
				RUN1("k<<<n, 1>>>(out, in, n);"),
			"k", "uses the macro LANE, which names threadIdx");
	ka_recipe_set_source_path("include/k.cuh");
	recipe_declines(R, NULL, KB("\tout[i] = in[i];\n") RUN1("k<<<n, 1>>>(out, in, n);"), "k",
			"defined in a header");
	ka_recipe_set_source_path(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks_new_param), cmocka_unit_test(test_blocks_guarded),
		cmocka_unit_test(test_one_block),        cmocka_unit_test(test_count_expression),
		cmocka_unit_test(test_near_misses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
