/* tests/agents/test_recipe_unguarded.c: grid-stride and vectorize on a
 * one-element-per-thread kernel without a guard, whose element count is
 * the launch's threads along x.  The kernel gets that count as a new last
 * parameter, each launch passes `dim3(G).x * dim3(B).x` and caps its grid
 * along x (its block and the grid's y and z stay), and a file-level
 * declaration of the kernel follows.  Each rewrite's key lines are checked,
 * it is compiled for sm_90 when nvcc is there and run on the host
 * (tests/agents/emu/unguarded_main.cpp: every element, grids below and
 * above the cap, aligned and not); near misses decline naming the
 * construct. */
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

/* every launched thread adds v to its element; a 2-high grid adds it twice */
#define ADD_CONST \
	"__global__ void add_const(int *a, int v);\n\n" \
	"__global__ void add_const(int *a, int v)\n{\n" \
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\ta[i] = a[i] + v;\n}\n\n" \
	"void run(int *a, int blocks_x, int v)\n{\n\tdim3 threads(30);\n\tdim3 blocks(blocks_x, 2);\n" \
	"\tadd_const<<<blocks, threads>>>(a, v);\n}\n"

static void host_check(const char *text)
{
	static char err[1 << 16];
	int rc = host_run(text, "unguarded_main.cpp", err, sizeof err);
	if (rc < 0)
		fprintf(stderr,
			"SKIP: no C++ compiler (c++ or $CXX): the host run of the rewrite is not checked\n");
	else if (rc == 0)
		fail_msg("%s", err);
}

/* the original itself passes the host driver: the driver checks what the
 * kernel computes, not what the rewrite writes */
static void test_original_runs(void **st)
{
	(void)st;
	host_check(ADD_CONST);
}

static void test_grid_stride(void **st)
{
	(void)st;
	static const char *const want[] = {
		"__global__ void add_const(int *a, int v, long long ka_n);",
		"__global__ void add_const(int *a, int v, long long ka_n)\n{", "ka_e < ka_n; ka_e += ka_step",
		"\t\tint i = ka_e;",
		"add_const<<< dim3(dim3(blocks).x < 2112u ? dim3(blocks).x : 2112u, dim3(blocks).y, dim3(blocks).z), "
		"threads>>>(a, v, (long long)dim3(blocks).x * dim3(threads).x);"};
	char *out = recipe_applies("grid-stride", NULL, ADD_CONST, "add_const", want,
				   sizeof want / sizeof want[0]);
	/* the block stays the launch's, so no bounds are declared for it */
	assert_null(strstr(out, "__launch_bounds__"));
	host_check(out);
	free(out);
}

static void test_vectorize(void **st)
{
	(void)st;
	static const char *const want[] = {
		"int4 ka_a = reinterpret_cast<const int4 *>(a)[ka_v];", "(long long)ka_n / 4",
		"dim3((unsigned)((dim3(blocks).x + 3) / 4 < 2112 ? (dim3(blocks).x + 3) / 4 : 2112)"};
	char *out = recipe_applies("vectorize", NULL, ADD_CONST, "add_const", want,
				   sizeof want / sizeof want[0]);
	host_check(out);
	free(out);
	/* a scalar grid and block, written inline */
	static const char *const want2[] = {
		"float4 ka_y;", "scale(float *y, const float *x, long long ka_n)",
		"scale<<< dim3((unsigned)((dim3(n/256).x + 3) / 4 < 2112 ? (dim3(n/256).x + 3) / 4 : 2112), "
		"dim3(n/256).y, dim3(n/256).z), 256>>>(y, x, (long long)dim3(n/256).x * dim3(256).x);"};
	out = recipe_applies(
		"vectorize", NULL,
		"__global__ void scale(float *y, const float *x)\n{\n"
		"\tconst int i = threadIdx.x + blockDim.x * blockIdx.x;\n\ty[i] = 2.0f * x[i];\n}\n"
		"void h(float *y, const float *x, int n)\n{\n\tscale<<<n / 256, 256>>>(y, x);\n}\n",
		"scale", want2, sizeof want2 / sizeof want2[0]);
	free(out);
}

/* a pointer named v: its vector ka_v would be the loop's variable too,
 * which nvcc refuses ("declared in for-loop initialization, may not be
 * redeclared"); the loop steps ka_vi instead (llm.c's permute_kernel) */
static void test_vector_named_v(void **st)
{
	(void)st;
	static const char *const want[] = {
		"for (long long ka_vi = ka_tid; ka_vi < ka_n4; ka_vi += ka_step) {", "float4 ka_v;",
		"reinterpret_cast<float4 *>(v)[ka_vi] = ka_v;"};
	char *out = recipe_applies(
		"vectorize", NULL,
		"__global__ void split3(float *q, float *v, const float *in, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i < n) {\n\t\tq[i] = in[2 * i];\n\t\tv[i] = in[2 * i + 1];\n\t}\n}\n"
		"void h(float *q, float *v, const float *in, int n)\n{\n"
		"\tsplit3<<<(n + 255) / 256, 256>>>(q, v, in, n);\n}\n",
		"split3", want, sizeof want / sizeof want[0]);
	free(out);
}

#define SCALE_K \
	"__global__ void scale(float *y, const float *x)\n{\n" \
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\ty[i] = 2.0f * x[i];\n}\n"
static void test_near_misses(void **st)
{
	(void)st;
	/* the kernel's address taken: a launch the rewrite would not reach */
	recipe_declines("grid-stride", NULL,
			SCALE_K
			"void h(float *y, const float *x, int n)\n{\n\tscale<<<n / 256, 256>>>(y, x);\n"
			"\tvoid *p = (void *)scale;\n\t(void)p;\n}\n",
			"scale", "names scale outside its definition, a declaration and a launch");
	/* a declaration with a default argument: the new parameter cannot follow it */
	recipe_declines("grid-stride", NULL,
			"__global__ void scale(float *y, const float *x = 0);\n" SCALE_K
			"void h(float *y, const float *x, int n)\n{\n\tscale<<<n / 256, 256>>>(y, x);\n}\n",
			"scale", "with a default argument");
	/* a grid that calls a function: it would be evaluated twice */
	recipe_declines("vectorize", NULL,
			SCALE_K "int grid_of(int n);\nvoid h(float *y, const float *x, int n)\n{\n"
				"\tscale<<<grid_of(n), 256>>>(y, x);\n}\n",
			"scale", "may have side effects");
	/* launched before the file declares it: a header declares it, with
	 * the parameters it had (Learn-CUDA's gaussian solver) */
	recipe_declines("grid-stride", NULL,
			"#include \"solver.h\"\nvoid h(float *y, const float *x, int n)\n{\n"
			"\tscale<<<n / 256, 256>>>(y, x);\n}\n" SCALE_K,
			"scale", "line 4 launches scale before this file declares it");
	/* no launch in the file: the count is unknown */
	recipe_declines("grid-stride", NULL, SCALE_K, "scale", "no launch of scale in this file");
	/* an index along y too: a 2-D kernel, not one element per thread along x
	 * (grid-stride's 2-D form takes it: test_recipe_gs2d.c) */
	recipe_declines(
		"vectorize", NULL,
		"__global__ void t(float *o, const float *in, int w)\n{\n"
		"\tint x = blockIdx.x * blockDim.x + threadIdx.x;\n\tint y = blockIdx.y * blockDim.y + threadIdx.y;\n"
		"\to[x * w + y] = in[y * w + x];\n}\n"
		"void h(float *o, const float *in, int w)\n{\n\tt<<<dim3(w / 16, w / 16), dim3(16, 16)>>>(o, in, w);\n}\n",
		"t", "a 2-D index");
	/* the body reads the thread ids again */
	recipe_declines(
		"grid-stride", NULL,
		"__global__ void s(float *y)\n{\n\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\ty[i] = threadIdx.x;\n}\nvoid h(float *y, int n)\n{\n\ts<<<n / 256, 256>>>(y);\n}\n",
		"s", "the body uses threadIdx");
	/* recipes that keep the launch's threads as they are do not take it */
	recipe_declines("unflatten-rows", NULL,
			SCALE_K
			"void h(float *y, const float *x, int n)\n{\n\tscale<<<n / 256, 256>>>(y, x);\n}\n",
			"scale", "no guard of the index 'i' by a count");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_original_runs), cmocka_unit_test(test_grid_stride),
		cmocka_unit_test(test_vectorize),     cmocka_unit_test(test_vector_named_v),
		cmocka_unit_test(test_near_misses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
