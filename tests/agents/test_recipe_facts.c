/* tests/agents/test_recipe_facts.c: the recipes that decide from the
 * analyzer's facts of the file (recipes/recipe_facts.c).
 *
 * smem-pad: a __shared__ tile walked by column is padded by one element
 * (`[TILE]` -> `[TILE + 1]`, `[32]` -> `[33]`, the innermost of three
 * dimensions too); each rewrite is compiled for sm_90 and run on the host
 * (tests/agents/emu/smempad_main.cpp, a block's threads together) over
 * sizes that cross the tiles' edges, where the transposes must come out
 * exact, as the originals do.  Near misses decline naming the construct:
 * a row walk (no conflict), a one-dimensional array, an address, a row
 * used as a pointer, sizeof, a macro that names the array, a size from a
 * template parameter, dynamic shared memory, 48 KiB passed, a macro whose
 * precedence would not pad.
 *
 * launch-bounds: a kernel every launch starts with one constant block
 * (a literal, a dim3 variable, a #define) gets `__launch_bounds__(N)`, or
 * `(N, M)` with the grid's min=M sets, compiled for sm_90; M blocks past
 * an SM's threads, two blocks, a block read at run time, a function
 * pointer, bounds already there, a header, no launch, a block past the
 * rule's 256 decline. */
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

/* The original and the rewrite on the host: both must transpose exactly. */
static void host_runs(const char *before, const char *after, const char *task)
{
	char log[8192];
	const char *defs[] = {task};
	int rb = host_run_defs(before, "smempad_main.cpp", defs, 1, log, sizeof log);
	if (rb < 0)
		skip();
	if (rb == 0)
		fail_msg("the original fails on the host:\n%s", log);
	if (host_run_defs(after, "smempad_main.cpp", defs, 1, log, sizeof log) != 1)
		fail_msg("the rewrite fails on the host:\n%s\n%s", after, log);
}

/* ---- smem-pad ---------------------------------------------------------- */

#define TRANSPOSE_HEAD \
	"#define TILE 32\n#define ROWS 8\n" \
	"__global__ void transpose(float *out, const float *in, int w, int h)\n{\n"
#define TRANSPOSE_BODY(DECL, READ) \
	"\t" DECL "\n" \
	"\tint x = blockIdx.x * TILE + threadIdx.x;\n\tint y = blockIdx.y * TILE + threadIdx.y;\n" \
	"\tfor (int j = 0; j < TILE; j += ROWS)\n\t\tif (x < w && y + j < h)\n" \
	"\t\t\ttile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];\n\t__syncthreads();\n" \
	"\tx = blockIdx.y * TILE + threadIdx.x;\n\ty = blockIdx.x * TILE + threadIdx.y;\n" \
	"\tfor (int j = 0; j < TILE; j += ROWS)\n\t\tif (x < h && y + j < w)\n" \
	"\t\t\tout[(y + j) * h + x] = " READ ";\n}\n"
#define TRANSPOSE_RUN \
	"void transpose_run(float *out, const float *in, int w, int h)\n{\n" \
	"\tdim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), block(TILE, ROWS);\n" \
	"\ttranspose<<<grid, block>>>(out, in, w, h);\n}\n"
#define TRANSPOSE \
	TRANSPOSE_HEAD TRANSPOSE_BODY("__shared__ float tile[TILE][TILE];", \
				      "tile[threadIdx.x][threadIdx.y + j]") TRANSPOSE_RUN

/* the classic tiled transpose: its read walks a column of the tile */
static void test_pad_transpose(void **st)
{
	(void)st;
	static const char *const want[] = {"__shared__ float tile[TILE][TILE + 1];",
					   "out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];"};
	char *out = recipe_applies("smem-pad", NULL, TRANSPOSE, "transpose", want, 2);
	host_runs(TRANSPOSE, out, "-DKA_EMU_TASK=1");
	free(out);
}

/* literal sizes and a third dimension: two planes a block, the innermost
 * dimension padded ([32] -> [33]); the kernel's other arrays stay */
#define PLANES \
	"__global__ void transpose2(float *out, const float *in, int w, int h)\n{\n" \
	"\t__shared__ float tile[2][32][32];\n\t__shared__ int flag[8];\n" \
	"\tif (threadIdx.x == 0 && threadIdx.y == 0)\n\t\tflag[0] = 1;\n" \
	"\tfor (int p = 0; p < 2; p++) {\n" \
	"\t\tint x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;\n" \
	"\t\tfor (int j = 0; j < 32; j += 8)\n\t\t\tif (x < w && y + j < h)\n" \
	"\t\t\t\ttile[p][threadIdx.y + j][threadIdx.x] = in[(p * h + y + j) * w + x];\n\t}\n" \
	"\t__syncthreads();\n" \
	"\tfor (int p = 0; p < 2; p++) {\n" \
	"\t\tint x = blockIdx.y * 32 + threadIdx.x, y = blockIdx.x * 32 + threadIdx.y;\n" \
	"\t\tfor (int j = 0; j < 32; j += 8)\n\t\t\tif (x < h && y + j < w && flag[0])\n" \
	"\t\t\t\tout[(p * w + y + j) * h + x] = tile[p][threadIdx.x][threadIdx.y + j];\n\t}\n}\n" \
	"void transpose_run(float *out, const float *in, int w, int h)\n{\n" \
	"\ttranspose2<<<dim3((w + 31) / 32, (h + 31) / 32), dim3(32, 8)>>>(out, in, w, h);\n}\n"

static void test_pad_planes(void **st)
{
	(void)st;
	static const char *const want[] = {"__shared__ float tile[2][32][33];", "__shared__ int flag[8];"};
	char *out = recipe_applies("smem-pad", NULL, PLANES, "transpose2", want, 2);
	host_runs(PLANES, out, "-DKA_EMU_TASK=2");
	free(out);
}

/* an element's address as an atomic's first argument is still an element */
static void test_pad_atomic_element(void **st)
{
	(void)st;
	static const char *const want[] = {"__shared__ int cnt[32][33];"};
	const char *src = "__global__ void bins(int *out, const int *in, int n)\n{\n"
			  "\t__shared__ int cnt[32][32];\n"
			  "\tfor (int j = threadIdx.y; j < 32; j += 8)\n\t\tcnt[j][threadIdx.x] = 0;\n"
			  "\t__syncthreads();\n"
			  "\tint i = blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x;\n"
			  "\tif (i < n)\n\t\tatomicAdd(&cnt[threadIdx.x][in[i] & 31], 1);\n"
			  "\t__syncthreads();\n"
			  "\tfor (int j = threadIdx.y; j < 32; j += 8)\n"
			  "\t\tatomicAdd(&out[j * 32 + threadIdx.x], cnt[threadIdx.x][j]);\n}\n"
			  "void run(int *out, const int *in, int n)\n{\n"
			  "\tbins<<<(n + 255) / 256, dim3(32, 8)>>>(out, in, n);\n}\n";
	free(recipe_applies("smem-pad", NULL, src, "bins", want, 1));
}

static void test_pad_near_misses(void **st)
{
	(void)st;
	/* a copy through the tile: rows both ways, no conflict */
	recipe_declines("smem-pad", NULL,
			TRANSPOSE_HEAD TRANSPOSE_BODY("__shared__ float tile[TILE][TILE];",
						      "tile[threadIdx.y + j][threadIdx.x]") TRANSPOSE_RUN,
			"transpose", "has a bank conflict");
	/* one dimension, indexed by a stride: padding would change the index */
	recipe_declines("smem-pad", NULL,
			"__global__ void k(float *out)\n{\n\t__shared__ float s[32 * 33];\n"
			"\ts[threadIdx.x * 32] = 1.0f;\n\t__syncthreads();\n"
			"\tout[threadIdx.x] = s[threadIdx.x * 32];\n}\n"
			"void run(float *o)\n{\n\tk<<<1, 32>>>(o);\n}\n",
			"k", "one-dimensional");
	/* a pointer into the tile walks the old rows */
	recipe_declines("smem-pad", NULL,
			TRANSPOSE_HEAD TRANSPOSE_BODY("__shared__ float tile[TILE][TILE];\n"
						      "\tfloat *flat = &tile[0][0];",
						      "tile[threadIdx.x][threadIdx.y + j] + flat[0]")
				TRANSPOSE_RUN,
			"transpose", "takes the address of tile");
	/* a row as a pointer */
	recipe_declines("smem-pad", NULL,
			TRANSPOSE_HEAD TRANSPOSE_BODY("__shared__ float tile[TILE][TILE];",
						      "tile[threadIdx.x][threadIdx.y + j] + "
						      "*(tile[threadIdx.x] + 1)") TRANSPOSE_RUN,
			"transpose", "uses tile with 1 of its 2 subscripts");
	/* its size read */
	recipe_declines("smem-pad", NULL,
			TRANSPOSE_HEAD TRANSPOSE_BODY(
				"__shared__ float tile[TILE][TILE];",
				"tile[threadIdx.x][threadIdx.y + j] * (float)sizeof(tile)") TRANSPOSE_RUN,
			"transpose", "sizeof");
	/* a macro the kernel uses names it */
	recipe_declines("smem-pad", NULL,
			"#define AT(r, c) tile[r][c]\n" TRANSPOSE_HEAD TRANSPOSE_BODY(
				"__shared__ float tile[TILE][TILE];",
				"tile[threadIdx.x][threadIdx.y + j] + AT(threadIdx.x, 0)") TRANSPOSE_RUN,
			"transpose", "macro AT");
	/* dynamic shared memory beside it */
	recipe_declines(
		"smem-pad", NULL,
		TRANSPOSE_HEAD TRANSPOSE_BODY("__shared__ float tile[TILE][TILE];\n"
					      "\textern __shared__ float extra[];\n\textra[0] = 0.0f;",
					      "tile[threadIdx.x][threadIdx.y + j]") TRANSPOSE_RUN,
		"transpose", "dynamic shared memory");
	/* 96 x 128 floats is 48 KiB: a column more passes the static limit */
	recipe_declines("smem-pad", NULL,
			"__global__ void big(float *out)\n{\n\t__shared__ float t[96][128];\n"
			"\tt[threadIdx.y][threadIdx.x] = 1.0f;\n\t__syncthreads();\n"
			"\tout[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];\n}\n"
			"void run(float *o)\n{\n\tbig<<<1, dim3(32, 8)>>>(o);\n}\n",
			"big", "static shared memory");
	/* a macro whose expansion `1 << 5 + 1` would not be 33 */
	recipe_declines("smem-pad", NULL,
			"#define TW 1 << 5\n" TRANSPOSE_HEAD TRANSPOSE_BODY(
				"__shared__ float tile[TILE][TW];", "tile[threadIdx.x][threadIdx.y + j]")
				TRANSPOSE_RUN,
			"transpose", "reads 64, not 33");
}

/* the tile's size from a template parameter: each instantiation another
 * (the analyzer models no conflict on a dependent tile; the recipe's own
 * check of the template's parameters stands behind it) */
static void test_pad_template(void **st)
{
	(void)st;
	recipe_declines("smem-pad", NULL,
			"template <int R>\n__global__ void tt(float *out, const float *in)\n{\n"
			"\t__shared__ float tile[R][32];\n"
			"\ttile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];\n"
			"\t__syncthreads();\n"
			"\tout[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n}\n"
			"void run(float *o, const float *i)\n{\n\ttt<32><<<1, dim3(32, 32)>>>(o, i);\n}\n",
			"tt", "tt: ");
}

/* ---- launch-bounds ------------------------------------------------------ */

#define SCALE \
	"__global__ void scale(float *y, const float *x, float a, int n)\n{\n" \
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\ty[i] = a * x[i];\n}\n"

static void test_bounds_applies(void **st)
{
	(void)st;
	static const char *const lit[] = {"__global__ __launch_bounds__(256) void scale("};
	free(recipe_applies("launch-bounds", NULL,
			    SCALE "void run(float *y, const float *x, int n)\n{\n"
				  "\tscale<<<(n + 255) / 256, 256>>>(y, x, 2.0f, n);\n"
				  "\tscale<<<(n + 255) / 256, 256>>>(y, y, 0.5f, n);\n}\n",
			    "scale", lit, 1));
	/* a dim3 variable: the block's threads along all axes */
	static const char *const d3[] = {"__global__ __launch_bounds__(128) void scale("};
	free(recipe_applies("launch-bounds", NULL,
			    SCALE
			    "void run(float *y, const float *x, int n)\n{\n"
			    "\tdim3 block(32, 4);\n\tscale<<<(n + 127) / 128, block>>>(y, x, 2.0f, n);\n}\n",
			    "scale", d3, 1));
	static const char *const def[] = {"__global__ __launch_bounds__(64) void scale("};
	free(recipe_applies("launch-bounds", NULL,
			    "#define BLOCK 64\n" SCALE "void run(float *y, const float *x, int n)\n{\n"
			    "\tscale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(y, x, 2.0f, n);\n}\n",
			    "scale", def, 1));
}

/* the grid's other sets: a minimum of resident blocks an SM */
static void test_bounds_min_blocks(void **st)
{
	(void)st;
	const char *src = SCALE "void run(float *y, const float *x, int n)\n{\n"
				"\tscale<<<(n + 255) / 256, 256>>>(y, x, 2.0f, n);\n}\n";
	static const char *const two[] = {"__global__ __launch_bounds__(256, 2) void scale("};
	free(recipe_applies("launch-bounds", "min=2", src, "scale", two, 1));
	static const char *const four[] = {"__global__ __launch_bounds__(256, 4) void scale("};
	free(recipe_applies("launch-bounds", "min=4", src, "scale", four, 1));
	/* 16 blocks of 256 threads: 4096, past an SM's 2048 */
	recipe_declines("launch-bounds", "min=16", src, "scale", "do not fit an SM's 2048 threads");
}

static void test_bounds_near_misses(void **st)
{
	(void)st;
	recipe_declines("launch-bounds", NULL,
			SCALE "void run(float *y, const float *x, int n)\n{\n"
			      "\tscale<<<(n + 255) / 256, 256>>>(y, x, 2.0f, n);\n"
			      "\tscale<<<(n + 127) / 128, 128>>>(y, y, 0.5f, n);\n}\n",
			"scale", "one constant block");
	recipe_declines("launch-bounds", NULL,
			SCALE "void run(float *y, const float *x, int n, int b)\n{\n"
			      "\tscale<<<(n + b - 1) / b, b>>>(y, x, 2.0f, n);\n}\n",
			"scale", "one constant block");
	recipe_declines("launch-bounds", NULL,
			SCALE "void run(float *y, const float *x, int n)\n{\n"
			      "\tvoid (*f)(float *, const float *, float, int) = scale;\n"
			      "\tscale<<<(n + 255) / 256, 256>>>(y, x, 2.0f, n);\n\t(void)f;\n}\n",
			"scale", "outside a launch");
	recipe_declines(
		"launch-bounds", NULL,
		"__global__ void __launch_bounds__(256) scale(float *y, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\ty[i] = 0.0f;\n}\n"
		"void run(float *y, int n)\n{\n\tscale<<<(n + 255) / 256, 256>>>(y, n);\n}\n",
		"scale", "__launch_bounds__ already");
	recipe_declines("launch-bounds", NULL, SCALE, "scale", "no launch of scale");
	recipe_declines("launch-bounds", NULL,
			SCALE "void run(float *y, const float *x, int n)\n{\n"
			      "\tscale<<<(n + 511) / 512, 512>>>(y, x, 2.0f, n);\n}\n",
			"scale", "asks for 1 to 256");
	ka_recipe_set_source_path("include/scale.cuh");
	recipe_declines("launch-bounds", NULL,
			SCALE "void run(float *y, const float *x, int n)\n{\n"
			      "\tscale<<<(n + 255) / 256, 256>>>(y, x, 2.0f, n);\n}\n",
			"scale", "defined in a header");
	ka_recipe_set_source_path(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pad_transpose),      cmocka_unit_test(test_pad_planes),
		cmocka_unit_test(test_pad_atomic_element), cmocka_unit_test(test_pad_near_misses),
		cmocka_unit_test(test_pad_template),       cmocka_unit_test(test_bounds_applies),
		cmocka_unit_test(test_bounds_min_blocks),  cmocka_unit_test(test_bounds_near_misses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
