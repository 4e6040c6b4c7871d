/* tests/agents/test_recipe_scaled.c: grid-stride on a kernel whose thread
 * owns K consecutive elements, its index K times the global thread index
 * (`int i = (blockIdx.x * blockDim.x + threadIdx.x) * Pack::size;`, the
 * guard `if (i < n)` keeping only the start below n, the body reading the
 * K elements from i: llm.c's packed 128-bit kernels are written so).  The
 * loop starts at K times the thread's global index and steps by K times
 * the grid's threads, with the factor as the code writes it (a build that
 * folds Pack::size to another value steps by that value); the launch's
 * grid is capped.  The rewrite's key lines are checked, it is compiled for
 * sm_90 when nvcc is there and run on the host against the original
 * (tests/agents/emu/scaled_main.cpp); near misses decline naming the
 * construct, and the recipes that keep one element a thread (vectorize,
 * launch-tune) decline as before. */
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

#define PACK "struct Pack {\n\tstatic constexpr int size = 4;\n};\n\n"
#define KERNEL(index) \
	"__global__ void pack_affine(const float *x, float *y, int n)\n{\n" \
	"\t" index "\n\tif (i < n) {\n" \
	"\t\tfor (int k = 0; k < Pack::size && i + k < n; k++)\n" \
	"\t\t\ty[i + k] += x[i + k] + 1.0f;\n\t}\n}\n\n"
#define RUN \
	"void run(const float *x, float *y, int n)\n{\n\tconst int block = 128;\n" \
	"\tpack_affine<<<(n / Pack::size + block) / block, block>>>(x, y, n);\n}\n"

static const char *const scaled_src[] = {
	PACK KERNEL("int i = (blockIdx.x * blockDim.x + threadIdx.x) * Pack::size;") RUN,
	/* the factor first, the terms in another order, a cast */
	PACK KERNEL("int i = Pack::size * (threadIdx.x + blockDim.x * (int)blockIdx.x);") RUN,
	/* a #define */
	"#define PACK_N 4\n" PACK KERNEL("const int i = PACK_N * (blockIdx.x * blockDim.x + threadIdx.x);")
		RUN,
};

static void test_scaled_applies(void **st)
{
	(void)st;
	static const char *const factor[] = {"Pack::size", "Pack::size", "PACK_N"};
	for (size_t i = 0; i < sizeof scaled_src / sizeof scaled_src[0]; i++) {
		char loop[200], step[120];
		snprintf(loop, sizeof loop,
			 "for (long long ka_e = (blockIdx.x * (long long)blockDim.x + threadIdx.x) * (long "
			 "long)(%s); ka_e < n;",
			 factor[i]);
		snprintf(step, sizeof step, "ka_e += ka_step * (long long)(%s)", factor[i]);
		const char *want[] = {
			loop, step, i == 2 ? "const int i = ka_e;" : "\t\tint i = ka_e;",
			"__launch_bounds__(256) pack_affine(",
			"pack_affine<<<(unsigned)(((long long)(n) / 4 + 256) / 256 < 2112 ? ((long "
			"long)(n) / 4 + 256) / 256 : 2112), 256>>>(x, y, n);"};
		char *out = recipe_applies("grid-stride", NULL, scaled_src[i], "pack_affine", want,
					   sizeof want / sizeof want[0]);
		host_runs_exact("scaled_main.cpp", scaled_src[i], out);
		free(out);
	}
}

static void test_scaled_declines(void **st)
{
	(void)st;
	/* K times the index, but spelled as a sum of scaled terms: the loop
	 * could not repeat the factor as written */
	recipe_declines(
		"grid-stride", NULL,
		PACK KERNEL("int i = blockIdx.x * blockDim.x * 4 + threadIdx.x * 4;") RUN, "pack_affine",
		"the index i is 4 times the global thread index, but 'blockIdx.x*blockDim.x*4+threadIdx.x*4' "
		"is not (global index) * FACTOR");
	/* K times the index plus one: no scaled index */
	recipe_declines("grid-stride", NULL,
			PACK KERNEL("int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4 + 1;") RUN,
			"pack_affine", "(no global index), not the global thread index along x");
	/* a factor that is a parameter is no constant */
	recipe_declines(
		"grid-stride", NULL,
		"__global__ void pack_affine(const float *x, float *y, int n, int s)\n{\n"
		"\tint i = (blockIdx.x * blockDim.x + threadIdx.x) * s;\n\tif (i < n)\n\t\ty[i] = x[i];\n}\n"
		"void run(const float *x, float *y, int n) { pack_affine<<<(n + 255) / 256, 256>>>(x, y, n, 2); }\n",
		"pack_affine", "(no global index), not the global thread index along x");
	/* a body that moves a parameter still declines */
	recipe_declines("grid-stride", NULL,
			PACK "__global__ void pack_affine(const float *x, float *y, int n)\n{\n"
			     "\tint i = (blockIdx.x * blockDim.x + threadIdx.x) * Pack::size;\n"
			     "\tif (i < n) {\n\t\ty += i;\n\t\ty[0] = x[i];\n\t}\n}\n\n" RUN,
			"pack_affine", "the body assigns the parameter y");
	/* the recipes that keep one element a thread, or vectorize it, read
	 * the index as before */
	recipe_declines(
		"vectorize", NULL, scaled_src[0], "pack_affine",
		"the guarded index 'i' is '(blockIdx.x*blockDim.x + threadIdx.x)*4' (no global index)");
	recipe_declines("launch-tune", "block=256", scaled_src[0], "pack_affine",
			"the first statement is not a global thread index along x");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scaled_applies),
		cmocka_unit_test(test_scaled_declines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
