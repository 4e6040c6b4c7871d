/* tests/agents/test_recipe_pre.c: statements before an element-wise
 * kernel's guard that only the compiler reads, and lambdas in its body.  A using-declaration (ggml's
 * `using bicubic_interpolation::bicubic;`), a using-directive, a typedef and
 * a static_assert run nothing and write nothing: grid-stride and vectorize
 * (recipes/recipe_elementwise.c) take the kernel and replay each of them
 * where they put the body, so that the body's names still resolve.  Each
 * rewrite's key lines are checked, it is compiled for sm_90 when nvcc is
 * there and run on the host against the original
 * (tests/agents/emu/spread_main.cpp: out[j] = 2 in[j] + 1 for counts below,
 * at and across the blocks, the words past the output untouched).  A call
 * before the guard still declines: it may write.  The same kernels with
 * lambdas in the body: a `return` inside a lambda ends the lambda's call,
 * not the thread, so the body may hold one (ggml's bicubic and antialiased
 * upscale kernels); a return of the thread beside it still declines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/agents/recipe_nvcc.h"

#define HELPERS \
	"namespace ka_ops {\n__device__ inline float twice_of(float v) { return 2.0f * v; }\n}\n" \
	"namespace ka_more {\n__device__ inline float plus_one(float v) { return v + 1.0f; }\n}\n" \
	"__device__ int ka_touched;\n__device__ inline void touch() { ka_touched = 1; }\n\n"

#define KERNEL(PRE) \
	HELPERS "__global__ void twice(float *out, const float *in, int n)\n{\n" PRE \
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n" \
		"\tif (i < n)\n\t\tout[i] = plus_one(twice_of((real)in[i]));\n}\n\n" \
		"void spread_run(float *out, const float *in, int n)\n{\n" \
		"\ttwice<<<(n + 255) / 256, 256>>>(out, in, n);\n}\n"

#define COMPILE_TIME \
	"\tusing ka_ops::twice_of;\n\tusing namespace ka_more;\n\ttypedef float real;\n" \
	"\tstatic_assert(sizeof(real) == 4, \"a float of four bytes\");\n"

static void test_grid_stride(void **st)
{
	(void)st;
	const char *src = KERNEL(COMPILE_TIME);
	static const char *const want[] = {
		"for (long long ka_e = blockIdx.x * (long long)blockDim.x + threadIdx.x; ka_e < n;",
		"using ka_ops::twice_of;", "using namespace ka_more;", "typedef float real;",
		"static_assert(sizeof(real) == 4, \"a float of four bytes\");"};
	char *out = recipe_applies("grid-stride", NULL, src, "twice", want, 5);
	host_runs_exact("spread_main.cpp", src, out);
	free(out);
}

static void test_vectorize(void **st)
{
	(void)st;
	const char *src = KERNEL(COMPILE_TIME);
	static const char *const want[] = {"float4", "using ka_ops::twice_of;", "typedef float real;"};
	char *out = recipe_applies("vectorize", NULL, src, "twice", want, 3);
	host_runs_exact("spread_main.cpp", src, out);
	free(out);
}

/* a lambda of the body: its `return` is its own (ggml's upscale kernels) */
#define LAMBDAS(EXTRA) \
	HELPERS "__global__ void twice(float *out, const float *in, int n)\n{\n" \
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i >= n)\n\t\treturn;\n" \
		"\tauto scale = [](float v) -> float { return 2.0f * v; };\n" \
		"\tauto plus = [=](float v) { /* [ */ return v + 1.0f; };\n" EXTRA \
		"\tout[i] = plus(scale(in[i]));\n}\n\n" \
		"void spread_run(float *out, const float *in, int n)\n{\n" \
		"\ttwice<<<(n + 255) / 256, 256>>>(out, in, n);\n}\n"

static void test_lambda_return(void **st)
{
	(void)st;
	const char *src = LAMBDAS("");
	static const char *const want[] = {
		"for (long long ka_e = blockIdx.x * (long long)blockDim.x + threadIdx.x; ka_e < n;",
		"auto scale = [](float v) -> float { return 2.0f * v; };"};
	char *out = recipe_applies("grid-stride", NULL, src, "twice", want, 2);
	host_runs_exact("spread_main.cpp", src, out);
	free(out);
	static const char *const want4[] = {"float4",
					    "auto plus = [=](float v) { /* [ */ return v + 1.0f; };"};
	out = recipe_applies("vectorize", NULL, src, "twice", want4, 2);
	host_runs_exact("spread_main.cpp", src, out);
	free(out);
}

/* a return of the thread beside a lambda's, and a subscript that is no
 * lambda's introducer, still decline */
static void test_thread_return_declines(void **st)
{
	(void)st;
	const char *src = LAMBDAS("\tif (in[i] < 0.0f)\n\t\treturn;\n");
	recipe_declines("grid-stride", NULL, src, "twice", "the body uses return");
	const char *src2 = LAMBDAS("\tfloat w[2] = {in[i], 0.0f};\n\tif (w [0] < 0.0f) { return; }\n");
	recipe_declines("grid-stride", NULL, src2, "twice", "the body uses return");
}

/* a call before the guard runs on every thread, and may write */
static void test_call_declines(void **st)
{
	(void)st;
	const char *src = KERNEL(COMPILE_TIME "\ttouch();\n");
	recipe_declines("grid-stride", NULL, src, "twice", "'touch();' before the guard is no declaration");
	recipe_declines("vectorize", NULL, src, "twice", "'touch();' before the guard is no declaration");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid_stride),
		cmocka_unit_test(test_vectorize),
		cmocka_unit_test(test_call_declines),
		cmocka_unit_test(test_lambda_return),
		cmocka_unit_test(test_thread_return_declines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
