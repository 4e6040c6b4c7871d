/* tests/agents/test_recipe_query.c: a kernel whose name is an argument of
 * a runtime query (cudaOccupancyMaxPotentialBlockSize,
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor, cudaFuncGetAttributes)
 * besides its launches.  The kernel model shows the call and its callee,
 * so the recipes that must see every launch (grid-stride through the
 * thread relaunch, launch-tune through ka_recipe_launches_known) know the
 * name launches nothing there.  Each rewrite's key lines are checked, it
 * is compiled for sm_90 when nvcc is there and run on the host against
 * the original (tests/agents/emu/spread_main.cpp: out[j] = 2 in[j] + 1
 * for counts below, at and across the blocks, the words past the output
 * untouched; the emulated query suggests 192 threads).  Near misses: a
 * setter of the kernel's attributes (cudaFuncSetAttribute), a function of
 * the file with a query's name, and the kernel's address handed to
 * cudaLaunchKernel still decline, naming the line.  launch-bounds, which
 * the query no longer stops either, declines a dim3 block assigned after
 * its declaration (the occupancy calculator's suggestion), whose value the
 * analyzer's facts do not fold. */
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
	"__global__ void twice(float *out, const float *in, int n)\n{\n" \
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n" \
	"\tif (i < n)\n\t\tout[i] = 2.0f * in[i] + 1.0f;\n}\n\n"

/* every launched thread does its element: the launches cover the count */
#define UNGUARDED \
	"__global__ void twice(float *out, const float *in)\n{\n" \
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tout[i] = 2.0f * in[i] + 1.0f;\n}\n\n"

/* the block size the occupancy calculator suggests, the grid rounded up */
#define BY_OCCUPANCY(QUERY) \
	KERNEL "void spread_run(float *out, const float *in, int n)\n{\n" \
	       "\tint min_grid = 0, block = 0;\n" QUERY \
	       "\ttwice<<<(n + block - 1) / block, block>>>(out, in, n);\n}\n"

static void test_grid_stride_occupancy(void **st)
{
	(void)st;
	const char *src = BY_OCCUPANCY("\tcudaOccupancyMaxPotentialBlockSize(&min_grid, &block, twice);\n");
	static const char *const want[] = {
		"for (long long ka_e = blockIdx.x * (long long)blockDim.x + threadIdx.x; ka_e < n;",
		"cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, twice);", "twice<<<(unsigned)("};
	char *out = recipe_applies("grid-stride", NULL, src, "twice", want, 3);
	host_runs_exact("spread_main.cpp", src, out);
	free(out);
	/* the same through a cast, inside an error-checking macro, with the
	 * attributes read first */
	const char *src2 = BY_OCCUPANCY(
		"#define CHECK(x) do { if ((x) != cudaSuccess) return; } while (0)\n"
		"\tcudaFuncAttributes attr;\n\tCHECK(cudaFuncGetAttributes(&attr, twice));\n"
		"\tCHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, (void *)twice, 0, "
		"attr.maxThreadsPerBlock));\n");
	out = recipe_applies("grid-stride", NULL, src2, "twice", want, 1);
	host_runs_exact("spread_main.cpp", src2, out);
	free(out);
}

/* launch-tune: a literal block, the attributes and the blocks an SM can
 * hold read beside the launch */
static void test_launch_tune_queried(void **st)
{
	(void)st;
	const char *src = KERNEL "void spread_run(float *out, const float *in, int n)\n{\n"
				 "\tcudaFuncAttributes attr;\n\tcudaFuncGetAttributes(&attr, twice);\n"
				 "\tint per_sm = 0;\n"
				 "\tcudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, twice, 256, 0);\n"
				 "\ttwice<<<(n + 255) / 256, 256>>>(out, in, n);\n}\n";
	static const char *const want[] = {"twice<<<(n+127)/128, 128>>>(out, in, n);",
					   "cudaFuncGetAttributes(&attr, twice);"};
	char *out = recipe_applies("launch-tune", NULL, src, "twice", want, 2);
	host_runs_exact("spread_main.cpp", src, out);
	free(out);
}

/* a setter is no query: a rewrite could outgrow what it set */
static void test_setter_declines(void **st)
{
	(void)st;
	const char *src = KERNEL
		"void spread_run(float *out, const float *in, int n)\n{\n"
		"\tcudaFuncSetAttribute(twice, cudaFuncAttributePreferredSharedMemoryCarveout, 0);\n"
		"\ttwice<<<(n + 255) / 256, 256>>>(out, in, n);\n}\n";
	recipe_declines("launch-tune", NULL, src, "twice",
			"line 10 names twice outside a launch this recipe can read");
	/* grid-stride leaves a guarded kernel's unread launches as they are (its
	 * loop covers the count whatever the grid); an unguarded one gets its
	 * count as a new parameter, which the setter's line would not pass */
	const char *ung = UNGUARDED
		"void spread_run(float *out, const float *in, int n)\n{\n"
		"\tcudaFuncSetAttribute(twice, cudaFuncAttributePreferredSharedMemoryCarveout, 0);\n"
		"\ttwice<<<n / 32, 32>>>(out, in);\n}\n";
	recipe_declines("grid-stride", NULL, ung, "twice",
			"line 9 names twice outside its definition, a declaration and a launch");
	/* the same kernel with an occupancy query applies */
	const char *ok = UNGUARDED "void spread_run(float *out, const float *in, int n)\n{\n"
				   "\tint per_sm = 0;\n"
				   "\tcudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, twice, 32, 0);\n"
				   "\ttwice<<<n / 32, 32>>>(out, in);\n}\n";
	static const char *const want[] = {"long long ka_n", "(long long)dim3(n/32).x * dim3(32).x);"};
	free(recipe_applies("grid-stride", NULL, ok, "twice", want, 2));
}

/* a function of the file with a query's name: the model resolves the
 * call to the file's own definition, which launches what it is given */
static void test_own_function_declines(void **st)
{
	(void)st;
	const char *src = KERNEL
		"namespace mine {\ntemplate <class F> int cudaFuncGetAttributes(float *o, F f)\n{\n"
		"\tf<<<1, 32>>>(o, o, 32);\n\treturn 0;\n}\n}\n"
		"void spread_run(float *out, const float *in, int n)\n{\n"
		"\tmine::cudaFuncGetAttributes(out, twice);\n"
		"\ttwice<<<(n + 255) / 256, 256>>>(out, in, n);\n}\n";
	recipe_declines("launch-tune", NULL, src, "twice",
			"line 17 names twice outside a launch this recipe can read");
}

/* the kernel's address handed to cudaLaunchKernel is a launch */
static void test_launch_kernel_declines(void **st)
{
	(void)st;
	const char *src = KERNEL
		"void spread_run(float *out, const float *in, int n)\n{\n"
		"\tvoid *args[] = {&out, &in, &n};\n"
		"\tcudaLaunchKernel((const void *)twice, dim3((n + 255) / 256), dim3(256), args, 0, 0);\n"
		"\ttwice<<<(n + 255) / 256, 256>>>(out, in, n);\n}\n";
	recipe_declines("launch-tune", NULL, src, "twice",
			"line 11 names twice outside a launch this recipe can read");
}

/* launch-bounds reads the block from the analyzer's facts, which fold a
 * dim3 from its declaration: one assigned after it (the occupancy
 * calculator's suggestion) declines, naming it; a block declared once with
 * its value applies, the query beside it */
static void test_bounds_assigned_block(void **st)
{
	(void)st;
	const char *src = KERNEL
		"void spread_run(float *out, const float *in, int n)\n{\n"
		"\tint min_grid = 0, size = 0;\n\tdim3 threads, blocks;\n"
		"\tcudaOccupancyMaxPotentialBlockSize(&min_grid, &size, twice);\n"
		"\tthreads = dim3(size, 1, 1);\n\tblocks = dim3((n + size - 1) / size, 1, 1);\n"
		"\ttwice<<<blocks, threads>>>(out, in, n);\n}\n";
	recipe_declines("launch-bounds", NULL, src, "twice",
			"the block 'threads' of the launch on line 15 is assigned after its declaration");
	const char *ok = KERNEL "void spread_run(float *out, const float *in, int n)\n{\n"
				"\tcudaFuncAttributes attr;\n\tcudaFuncGetAttributes(&attr, twice);\n"
				"\tdim3 threads(128);\n"
				"\ttwice<<<(n + 127) / 128, threads>>>(out, in, n);\n}\n";
	static const char *const want[] = {"__launch_bounds__(128) void twice("};
	char *out = recipe_applies("launch-bounds", NULL, ok, "twice", want, 1);
	host_runs_exact("spread_main.cpp", ok, out);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid_stride_occupancy),  cmocka_unit_test(test_launch_tune_queried),
		cmocka_unit_test(test_setter_declines),        cmocka_unit_test(test_own_function_declines),
		cmocka_unit_test(test_launch_kernel_declines), cmocka_unit_test(test_bounds_assigned_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
