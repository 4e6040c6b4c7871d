/* tests/agents/test_recipe_launchvar.c: launch-tune on a block size held
 * in a variable, read from the analyzer's model of the file rather than
 * from the launch's text: a local whose initializer folds (`1 << 10`), a
 * const or constexpr of the file or of an outer block, a grid variable that
 * rounds by it.  The recipe sets the value where it is defined, so each
 * rewrite is checked for the new definition and compiled for sm_90 when
 * nvcc is there; near misses (the variable read elsewhere, a parameter, a
 * grid rounded by a literal, a variable the body reads) must decline
 * naming the construct. */
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

#define KERNEL \
	"__global__ void k(float *y, const float *x, int n)\n{\n" \
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\ty[i] = 2.0f * x[i];\n}\n"
#define KERNEL2 \
	"__global__ void k2(float *y, int n)\n{\n" \
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\ty[i] = 0.0f;\n}\n"

static void expect_applies(const char *src, const char *const *want, size_t nwant, const char *const *gone,
			   size_t ngone)
{
	char why[256], err[8192];
	char *out = NULL;
	size_t n;
	if (ka_recipe_apply("launch-tune", src, strlen(src), "k", "block=128", &out, &n, why, sizeof why) !=
	    KA_OK)
		fail_msg("launch-tune declined:\n%s\nwhy: %s", src, why);
	for (size_t i = 0; i < nwant; i++)
		if (!strstr(out, want[i]))
			fail_msg("the rewrite lacks '%s':\n%s", want[i], out);
	for (size_t i = 0; i < ngone; i++)
		if (strstr(out, gone[i]))
			fail_msg("the rewrite still has '%s':\n%s", gone[i], out);
	if (nvcc_compiles(out, err, sizeof err) == 0)
		fail_msg("the rewrite does not compile:\n%s\n%s", out, err);
	free(out);
}

static void expect_declines(const char *src, const char *reason)
{
	char why[256];
	char *out = NULL;
	size_t n;
	int rc = ka_recipe_apply("launch-tune", src, strlen(src), "k", "block=128", &out, &n, why,
				 sizeof why);
	if (rc == KA_OK)
		fail_msg("launch-tune applied to:\n%s\nas:\n%s", src, out);
	assert_int_equal(rc, KA_RECIPE_DECLINED);
	if (!strstr(why, reason))
		fail_msg("the reason '%s' does not say '%s'", why, reason);
}

/* a local whose initializer is no literal, the grid in a variable */
static void test_folded_local(void **st)
{
	(void)st;
	static const char *const want[] = {"int threads = 128;", "int blocks = (n + threads - 1) / threads;",
					   "k<<<blocks, threads>>>(y, x, n);"};
	static const char *const gone[] = {"1 << 10"};
	expect_applies(KERNEL
		       "void h(float *y, const float *x, int n)\n{\n\tint threads = 1 << 10;\n"
		       "\tint blocks = (n + threads - 1) / threads;\n\tk<<<blocks, threads>>>(y, x, n);\n}\n",
		       want, 3, gone, 1);
}

/* a constexpr of the file, read by two launches of the kernel */
static void test_file_constexpr(void **st)
{
	(void)st;
	static const char *const want[] = {"constexpr int kBlock = 128;",
					   "k<<<(n + kBlock - 1) / kBlock, kBlock>>>(y, x, n);",
					   "k<<<(m + kBlock - 1) / kBlock, kBlock, 0, s>>>(y, x, m);"};
	expect_applies("constexpr int kBlock = 256;\n" KERNEL
		       "void h(float *y, const float *x, int n, int m, cudaStream_t s)\n{\n"
		       "\tk<<<(n + kBlock - 1) / kBlock, kBlock>>>(y, x, n);\n"
		       "\tk<<<(m + kBlock - 1) / kBlock, kBlock, 0, s>>>(y, x, m);\n}\n",
		       want, 3, NULL, 0);
}

/* a const of an outer block, the launch in a nested one */
static void test_outer_const(void **st)
{
	(void)st;
	static const char *const want[] = {"const int bs = 128;"};
	expect_applies(KERNEL "void h(float *y, const float *x, int n)\n{\n\tconst int bs = 2 * 256;\n"
			      "\tif (n > 0) {\n\t\tk<<<(n + bs - 1) / bs, bs>>>(y, x, n);\n\t}\n}\n",
		       want, 1, NULL, 0);
}

/* a #define read only by the kernel's launch and its grid variable */
static void test_define(void **st)
{
	(void)st;
	static const char *const want[] = {"#define BS 128\n", "k<<<g, BS>>>(y, x, n);"};
	expect_applies("#define BS 1024\n" KERNEL "void h(float *y, const float *x, int n)\n{\n"
		       "\tint g = (n + BS - 1) / BS;\n\tk<<<g, BS>>>(y, x, n);\n}\n",
		       want, 2, NULL, 0);
	/* read elsewhere: declines */
	expect_declines("#define BS 1024\n" KERNEL "void h(float *y, const float *x, int n)\n{\n"
			"\tint g = (n + BS - 1) / BS;\n\tk<<<g, BS>>>(y, x, n);\n\tprintf(\"%d\", BS);\n}\n",
			"'BS' is used past the launches of k");
}

/* a grid variable through a function-like macro, `CEIL_DIV(n, block_size)`:
 * read from the expanded initializer, the block set where it is defined */
#define CEIL "#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))\n"
#define HOST(GRID) \
	"void h(float *y, const float *x, int n)\n{\n\tconst int block_size = 256;\n" \
	"\tconst int grid_size = " GRID ";\n\tk<<<grid_size, block_size>>>(y, x, n);\n}\n"
static void test_macro_grid(void **st)
{
	(void)st;
	static const char *const want[] = {"const int block_size = 128;",
					   "const int grid_size = CEIL_DIV(n, block_size);",
					   "k<<<grid_size, block_size>>>(y, x, n);"};
	expect_applies(CEIL KERNEL HOST("CEIL_DIV(n, block_size)"), want, 3, NULL, 0);
	/* the other spelling, COUNT + (B - 1) */
	static const char *const want2[] = {"const int block_size = 128;", "ROUND_UP(n, block_size)"};
	expect_applies("#define ROUND_UP(a, b) ((a + (b - 1)) / b)\n" KERNEL HOST("ROUND_UP(n, block_size)"),
		       want2, 2, NULL, 0);
	/* near misses: not a ceiling division, the count in the macro's body,
	 * a count other than the guard's bound, the block not the divisor */
	expect_declines("#define DIV(M, N) ((M) / (N))\n" KERNEL HOST("DIV(n, block_size)"),
			"is not (COUNT + block_size - 1) / block_size once expanded");
	expect_declines("#define GRID(N) (((n) + (N)-1) / (N))\n" KERNEL HOST("GRID(block_size)"),
			"is not (COUNT + block_size - 1) / block_size once expanded");
	expect_declines(CEIL KERNEL HOST("CEIL_DIV(2 * n, block_size)"), "the grid covers '2*n'");
	expect_declines(CEIL KERNEL HOST("CEIL_DIV(n, 64)"), "once expanded");
}

static void test_near_misses(void **st)
{
	(void)st;
	/* the block variable also sizes another kernel's launch */
	expect_declines(KERNEL KERNEL2
			"void h(float *y, const float *x, int n)\n{\n\tint t = 1 << 8;\n"
			"\tk<<<(n + t - 1) / t, t>>>(y, x, n);\n\tk2<<<(n + t - 1) / t, t>>>(y, n);\n}\n",
			"'t' is used past the launches of k");
	/* the grid variable also launches another kernel */
	expect_declines(KERNEL KERNEL2
			"void h(float *y, const float *x, int n)\n{\n\tint t = 1 << 8;\n"
			"\tint g = (n + t - 1) / t;\n\tk<<<g, t>>>(y, x, n);\n\tk2<<<g, 256>>>(y, n);\n}\n",
			"'g' is used past the launches of k");
	/* a variable written after its declaration */
	expect_declines(KERNEL "void h(float *y, const float *x, int n)\n{\n\tint t = 1 << 7;\n\tt *= 2;\n"
			       "\tk<<<(n + t - 1) / t, t>>>(y, x, n);\n}\n",
			"'t' is used past the launches of k");
	/* a grid variable that caps the rounding: another block covers other elements */
	expect_declines(KERNEL "void h(float *y, const float *x, int n)\n{\n\tint t = 1 << 8;\n"
			       "\tint g = min((n + t - 1) / t, 64);\n\tk<<<g, t>>>(y, x, n);\n}\n",
			"is not (COUNT + K - 1) / K");
	/* a parameter of the launching function: its callers set it */
	expect_declines(KERNEL "void h(float *y, const float *x, int n, int t)\n{\n"
			       "\tk<<<(n + t - 1) / t, t>>>(y, x, n);\n}\n",
			"a parameter of the function that launches");
	/* a grid rounded by a literal while the block is the variable */
	expect_declines(KERNEL "void h(float *y, const float *x, int n)\n{\n\tint t = 1 << 8;\n"
			       "\tk<<<(n + 255) / 256, t>>>(y, x, n);\n}\n",
			"is not (COUNT + K - 1) / K");
	/* the kernel reads the constant: it could depend on the block size */
	expect_declines(
		"constexpr int B = 1 << 8;\n__global__ void k(float *y, const float *x, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\ty[i] = x[i] * B;\n}\n"
		"void h(float *y, const float *x, int n)\n{\n\tk<<<(n + B - 1) / B, B>>>(y, x, n);\n}\n",
		"'B' is used past the launches of k (line 6)");
	/* a value the model cannot fold */
	expect_declines(KERNEL
			"int pick(void);\nvoid h(float *y, const float *x, int n)\n{\n\tint t = pick();\n"
			"\tk<<<(n + t - 1) / t, t>>>(y, x, n);\n}\n",
			"is not a constant");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folded_local), cmocka_unit_test(test_file_constexpr),
		cmocka_unit_test(test_outer_const),  cmocka_unit_test(test_define),
		cmocka_unit_test(test_near_misses),  cmocka_unit_test(test_macro_grid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
