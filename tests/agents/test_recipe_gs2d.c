/* tests/agents/test_recipe_gs2d.c: grid-stride's 2-D form.  A kernel whose
 * first statements are the x and y global thread indices, guarded by
 * `x < W && y < H` (or `x >= W || y >= H` returning) or not guarded at all,
 * gets nested stride loops over y and x; its launches keep their blocks and
 * cap their grids along x and y, and an unguarded kernel gets the launch's
 * threads along x and y as two new parameters.  Each rewrite's key lines
 * are checked, it is compiled for sm_90 when nvcc is there and run on the
 * host (tests/agents/emu/gs2d_main.cpp: every point done exactly once per
 * launched z layer and nothing past the bounds, grids below and above the
 * cap); near misses decline naming the construct. */
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

/* each point (x, y) below (w, h) adds 1 to its count */
#define COUNT2D_HEAD \
	"__global__ void count2d(int *c, int w, int h)\n{\n" \
	"\tconst unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;\n" \
	"\tint y = threadIdx.y + blockIdx.y * blockDim.y;\n"
#define COUNT2D_RUN \
	"void run(int *c, int w, int h, int gx, int gy)\n{\n\tdim3 block(16, 8);\n\tdim3 grid(gx, gy);\n" \
	"\tcount2d<<<grid, block>>>(c, w, h);\n}\n"
#define COUNT2D \
	COUNT2D_HEAD "\tif (x < w && y < h) {\n\t\tint k = y * w + x;\n\t\tc[k] += 1;\n\t}\n}\n\n" COUNT2D_RUN
#define COUNT2D_TAIL \
	COUNT2D_HEAD "\tif (x < w && y < h)\n\t\tc[y * w + x] += 1;\n\treturn;\n}\n\n" COUNT2D_RUN
/* a third of the points return early, having counted themselves: the
 * return must end that point alone (the inner loop's continue) */
#define COUNT2D_SKIP \
	COUNT2D_HEAD "\tif (x < w && y < h) {\n\t\tif ((x + y) % 3 == 0) {\n\t\t\tc[y * w + x] += 1;\n" \
		     "\t\t\treturn;\n\t\t}\n\t\tc[y * w + x] += 1;\n\t}\n}\n\n" COUNT2D_RUN
#define COUNT2D_RET \
	COUNT2D_HEAD "\tif (y >= h || x >= w)\n\t\treturn;\n\tc[y * w + x] += 1;\n}\n\n" COUNT2D_RUN

/* no guard: every launched thread adds v to its point (pitch the launch's
 * threads along x); a grid 2 deep adds it twice */
#define BUMP \
	"__global__ void bump(int *c, int pitch, int v);\n\n" \
	"__global__ void bump(int *c, int pitch, int v)\n{\n" \
	"\tint x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n" \
	"\tc[y * pitch + x] += v;\n}\n\n" \
	"void run(int *c, int gx, int gy, int v)\n{\n" \
	"\tbump<<<dim3(gx, gy, 2), dim3(16, 4)>>>(c, gx * 16, v);\n}\n"

static void host_check(const char *text, int unguarded)
{
	static char err[1 << 16];
	static const char *const defs[] = {"-DGS2D_UNGUARDED"};
	int rc = host_run_defs(text, "gs2d_main.cpp", defs, unguarded, err, sizeof err);
	if (rc < 0)
		fprintf(stderr,
			"SKIP: no C++ compiler (c++ or $CXX): the host run of the rewrite is not checked\n");
	else if (rc == 0)
		fail_msg("%s", err);
}

/* the driver's counts hold for the originals over grids that cover them */
static void test_originals_run(void **st)
{
	(void)st;
	host_check(BUMP, 1);
}

static void test_guarded(void **st)
{
	(void)st;
	static const char *const want[] = {
		"const long long ka_sx = (long long)gridDim.x * blockDim.x, ka_sy = (long long)gridDim.y * "
		"blockDim.y;",
		"for (long long ka_ey = blockIdx.y * (long long)blockDim.y + threadIdx.y; ka_ey < h; ka_ey += ka_sy)",
		"ka_ex < w; ka_ex += ka_sx) {",
		"unsigned int x = ka_ex;",
		"int y = ka_ey;",
		"count2d<<< dim3((dim3(grid).x < 2112u ? dim3(grid).x : 2112u), dim3(grid).y < 2112u / "
		"((dim3(grid).x < 2112u ? dim3(grid).x : 2112u) > 1u ? (dim3(grid).x < 2112u ? dim3(grid).x : 2112u) "
		": 1u) ? dim3(grid).y : 2112u / ",
		", dim3(grid).z), block>>>(c, w, h);"};
	char *out = recipe_applies("grid-stride", NULL, COUNT2D, "count2d", want,
				   sizeof want / sizeof want[0]);
	assert_null(strstr(out, "__launch_bounds__"));
	assert_null(strstr(out, "if (x < w"));
	host_check(out, 0);
	free(out);
	/* the early return: the rest of the body is the loops' */
	static const char *const want_ret[] = {"ka_ey < h;", "ka_ex < w;", "c[y * w + x] += 1;"};
	out = recipe_applies("grid-stride", NULL, COUNT2D_RET, "count2d", want_ret,
			     sizeof want_ret / sizeof want_ret[0]);
	assert_null(strstr(out, "return"));
	host_check(out, 0);
	free(out);
	/* a bare return after the guarded statement does nothing */
	out = recipe_applies("grid-stride", NULL, COUNT2D_TAIL, "count2d", want_ret,
			     sizeof want_ret / sizeof want_ret[0]);
	host_check(out, 0);
	free(out);
	/* a return in the body: the inner loop's continue */
	static const char *const want_skip[] = {"ka_ex < w;", "\t\t\tc[y * w + x] += 1;\n\t\t\tcontinue;\n"};
	out = recipe_applies("grid-stride", NULL, COUNT2D_SKIP, "count2d", want_skip,
			     sizeof want_skip / sizeof want_skip[0]);
	host_check(out, 0);
	free(out);
}

static void test_unguarded(void **st)
{
	(void)st;
	static const char *const want[] = {
		"__global__ void bump(int *c, int pitch, int v, long long ka_nx, long long ka_ny);",
		"__global__ void bump(int *c, int pitch, int v, long long ka_nx, long long ka_ny)\n{",
		"ka_ey < ka_ny;",
		"ka_ex < ka_nx;",
		"(c, gx * 16, v, (long long)dim3(dim3(gx,gy,2)).x * dim3(dim3(16,4)).x, (long long)dim3(dim3(gx,gy,2)).y "
		"* dim3(dim3(16,4)).y);",
		", dim3(dim3(gx,gy,2)).z), dim3(16, 4)>>>"};
	char *out = recipe_applies("grid-stride", NULL, BUMP, "bump", want, sizeof want / sizeof want[0]);
	host_check(out, 1);
	free(out);
}

/* BUMP with the point in a struct whose members are named x and y: storing
 * them assigns no index (cuda-samples' oceanFFT writes `slope.x = ...`) */
#define BUMP_MEMBERS \
	"struct pt {\n\tint x, y;\n};\n\n" \
	"__global__ void bump(int *c, int pitch, int v)\n{\n" \
	"\tint x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n" \
	"\tpt p;\n\tpt *q = &p;\n\tp.x = x;\n\tq->y = y;\n\tc[p.y * pitch + p.x] += v;\n}\n\n" \
	"void run(int *c, int gx, int gy, int v)\n{\n" \
	"\tbump<<<dim3(gx, gy, 2), dim3(16, 4)>>>(c, gx * 16, v);\n}\n"

static void test_members(void **st)
{
	(void)st;
	static const char *const want[] = {"ka_ey < ka_ny;", "ka_ex < ka_nx;", "\tp.x = x;\n",
					   "\tq->y = y;\n"};
	host_check(BUMP_MEMBERS, 1);
	char *out = recipe_applies("grid-stride", NULL, BUMP_MEMBERS, "bump", want,
				   sizeof want / sizeof want[0]);
	host_check(out, 1);
	free(out);
}

#define RUN_T "void h(float *o, int w, int n)\n{\n\tt<<<dim3(w / 16, n / 16), dim3(16, 16)>>>(o, w, n);\n}\n"
#define T_HEAD \
	"__global__ void t(float *o, int w, int n)\n{\n" \
	"\tint x = blockIdx.x * blockDim.x + threadIdx.x;\n\tint y = blockIdx.y * blockDim.y + threadIdx.y;\n"
static void test_near_misses(void **st)
{
	(void)st;
	/* the body reads a thread id: its value would change in the loop */
	recipe_declines("grid-stride", NULL,
			T_HEAD "\tif (x < w && y < n)\n\t\to[y * w + x] = threadIdx.x;\n}\n" RUN_T, "t",
			"the kernel uses threadIdx past its indices");
	/* a guard that stores before it returns is no bound check: read
	 * unguarded (the launch's points), its return the loop's continue */
	static const char *const stores[] = {"ka_ex < ka_nx;", "\t\to[0] = 1;\n\t\tcontinue;\n"};
	free(recipe_applies(
		"grid-stride", NULL,
		T_HEAD
		"\tif (x >= w || y >= n) {\n\t\to[0] = 1;\n\t\treturn;\n\t}\n\to[y * w + x] = 2;\n}\n" RUN_T,
		"t", stores, 2));
	/* a return before a loop of the body, and ids along z (a slice the
	 * loops over x and y leave as it was): the launch keeps its z (the
	 * guard after z's index is none the 2-D form reads: unguarded, the
	 * launch's threads along x and y passed in) */
	static const char *const slice[] = {
		"\t\tcontinue;\n", "int z = blockIdx.z * blockDim.z + threadIdx.z;",
		"dim3(dim3(w/16,n/16,4)).z), dim3(16, 16)>>>(o, w, n, (long long)"};
	free(recipe_applies(
		"grid-stride", NULL,
		T_HEAD
		"\tint z = blockIdx.z * blockDim.z + threadIdx.z;\n\tif (x >= w || y >= n)\n\t\treturn;\n"
		"\tfor (int k = 0; k < 3; k++)\n\t\to[(z * n + y) * w + x] += 1.f;\n}\n"
		"void h(float *o, int w, int n)\n{\n\tt<<<dim3(w / 16, n / 16, 4), dim3(16, 16)>>>(o, w, n);\n}\n",
		"t", slice, 3));
	/* a return in a loop of the body: continue would be that loop's */
	recipe_declines("grid-stride", NULL,
			T_HEAD
			"\tif (x < w && y < n) {\n\t\tfor (int k = 0; k < 3; k++) {\n\t\t\tif (o[k] < 0.f)\n"
			"\t\t\t\treturn;\n\t\t\to[y * w + x] += 1.f;\n\t\t}\n\t}\n}\n" RUN_T,
			"t", "a 2-D index: the body uses return");
	/* the body steps an index */
	recipe_declines(
		"grid-stride", NULL,
		T_HEAD
		"\tif (x < w && y < n) {\n\t\to[y * w + x] = 1;\n\t\tx += 1;\n\t\to[y * w + x] = 2;\n\t}\n}\n" RUN_T,
		"t", "the body assigns x, an index");
	/* the body changes a bound */
	recipe_declines("grid-stride", NULL,
			T_HEAD "\tif (x < w && y < n) {\n\t\to[y * w + x] = 1;\n\t\tn = 0;\n\t}\n}\n" RUN_T,
			"t", "the body assigns n, which a bound reads");
	/* shared memory */
	recipe_declines(
		"grid-stride", NULL,
		T_HEAD
		"\t__shared__ float s[4];\n\ts[0] = 1.f;\n\tif (x < w && y < n)\n\t\to[y * w + x] = s[0];\n}\n" RUN_T,
		"t", "the kernel uses __shared__ past its indices");
	/* the kernel's address taken: guarded, the loops cover the bounds
	 * whatever launches it there (that use stays); unguarded, the
	 * parameters it adds would not reach it */
	static const char *const addr[] = {"ka_ex < w;", "\tvoid *p = (void *)t;\n"};
	free(recipe_applies(
		"grid-stride", NULL,
		T_HEAD
		"\tif (x < w && y < n)\n\t\to[y * w + x] = 1;\n}\n"
		"void h(float *o, int w, int n)\n{\n\tt<<<dim3(w / 16, n / 16), dim3(16, 16)>>>(o, w, n);\n"
		"\tvoid *p = (void *)t;\n\t(void)p;\n}\n",
		"t", addr, 2));
	recipe_declines(
		"grid-stride", NULL,
		T_HEAD
		"\to[y * w + x] = 1;\n}\n"
		"void h(float *o, int w, int n)\n{\n\tt<<<dim3(w / 16, n / 16), dim3(16, 16)>>>(o, w, n);\n"
		"\tvoid *p = (void *)t;\n\t(void)p;\n}\n",
		"t", "names t outside its definition, a declaration and a launch");
	/* a grid from a call: written several times */
	recipe_declines("grid-stride", NULL,
			T_HEAD "\tif (x < w && y < n)\n\t\to[y * w + x] = 1;\n}\n"
			       "dim3 grid_of(int w, int n);\nvoid h(float *o, int w, int n)\n{\n"
			       "\tt<<<grid_of(w, n), dim3(16, 16)>>>(o, w, n);\n}\n",
			"t", "may have side effects");
	/* unguarded, launched before the file declares it: the header's
	 * declaration would keep the old parameters */
	recipe_declines(
		"grid-stride", NULL,
		"void h(float *o, int w, int n)\n{\n\tt<<<dim3(w / 16, n / 16), dim3(16, 16)>>>(o, w, n);\n}\n" T_HEAD
		"\to[y * w + x] = 1;\n}\n",
		"t", "line 3 launches t before this file declares it");
	/* no launch in the file */
	recipe_declines("grid-stride", NULL, T_HEAD "\tif (x < w && y < n)\n\t\to[y * w + x] = 1;\n}\n", "t",
			"no launch of t in this file");
	/* x and y, but not first: the 1-D reason stays */
	recipe_declines(
		"grid-stride", NULL,
		"__global__ void t(float *o, int w, int n)\n{\n\tint k = w * n;\n"
		"\tint x = blockIdx.x * blockDim.x + threadIdx.x;\n\tint y = blockIdx.y * blockDim.y + threadIdx.y;\n"
		"\tif (x < w && y < n)\n\t\to[y * w + x] = k;\n}\n" RUN_T,
		"t", "a 2-D index ('x' along x, 'y' along y)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_originals_run), cmocka_unit_test(test_guarded),
		cmocka_unit_test(test_unguarded),     cmocka_unit_test(test_members),
		cmocka_unit_test(test_near_misses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
