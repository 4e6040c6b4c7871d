/* tests/agents/test_recipes.c: golden tests of the offline expert's recipes.
 * Each case applies one recipe (with fixed parameters) to a bench task's
 * baseline and compares the result with tests/agents/recipes/TASK.RECIPE.cu
 * byte for byte; when nvcc is there, the result must also compile for
 * sm_90 (nvcc -arch=sm_90 -c, the task ABI header on the include path).
 * Decline cases assert the recipe refuses a kernel whose preconditions do
 * not hold, with the reason.  KA_UPDATE_GOLDEN=1 rewrites the golden files
 * (review the diff before committing). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agents/coder.h"
#include "recipes/csrc.h"
#include "recipes/recipe.h"
#include "tests/agents/recipe_nvcc.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/proc.h"

#ifndef KA_SOURCE_DIR
#error "KA_SOURCE_DIR must be defined"
#endif

typedef struct golden {
	const char *task, *recipe, *params;
} golden;

static const golden cases[] = {
	{"saxpy", "vectorize", "block=256 vec=4 cap=2112"},
	{"saxpy", "grid-stride", "block=256 cap=2112"},
	{"gelu", "vectorize", "block=256 vec=4 cap=2112"},
	{"bias_gelu_scale", "vectorize", "block=256 vec=4 cap=2112"},
	{"softmax", "warp-per-row", "block=256"},
	{"layernorm", "warp-per-row", "block=128"},
	{"gemv", "warp-per-row", "block=256"},
	{"histogram", "smem-histogram", "block=512 cap=528"},
	{"gelu", "launch-tune", "block=512"},
	{"transpose", "smem-tile-transpose", "tile=32 rows=8"},
	{"bias_gelu_scale", "fuse-elementwise", ""},
	{"sgemm", "smem-tile-gemm", "tile=64"},
	{"gemm_bf16", "wmma-gemm", "bm=128 bn=128"},
	{"reduce_interleaved", "seq-reduction", ""},
	/* already sequential: only the last five steps become shuffles */
	{"reduce_sum", "seq-reduction", ""},
	{"stencil2d", "stencil-column", "bx=128 by=1 rows=16"},
	{"stencil2d", "launch-tune-2d", "bx=32 by=8"},
	/* the 2-D launch shape applies to any one-thread-per-point kernel */
	{"sgemm", "launch-tune-2d", "bx=32 by=8"},
	{"transpose", "launch-tune-2d", "bx=64 by=4"},
	{"scan", "parallel-scan", "block=1024"},
	{"scan", "shuffle-block-scan", ""},
	{"scan", "parallel-scan+shuffle-block-scan", ""},
	/* recipes compose: the fused kernel keeps the element-wise shape */
	{"bias_gelu_scale", "fuse-elementwise+vectorize", "block=256 vec=4 cap=2112"},
	/* a bound that is a product of parameters; float4 along a row of a split index */
	{"crossentropy_forward", "grid-stride", "block=256 cap=2112"},
	{"encoder_forward", "grid-stride", "block=256 cap=2112"},
	{"encoder_forward", "vectorize", "block=256 vec=4 cap=2112"},
};

static char *slurp(const char *path)
{
	char *s = NULL;
	size_t n;
	return ka_fs_read(path, 0, &s, &n) == KA_OK ? s : NULL;
}

static void test_golden(void **st)
{
	(void)st;
	int update = getenv("KA_UPDATE_GOLDEN") != NULL;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const golden *g = &cases[i];
		char in[512], exp[512], why[256], err[4096];
		snprintf(in, sizeof in, "%s/bench/tasks/%s/baseline.cu", KA_SOURCE_DIR, g->task);
		snprintf(exp, sizeof exp, "%s/tests/agents/recipes/%s.%s.cu", KA_SOURCE_DIR, g->task,
			 g->recipe);
		char *src = slurp(in), *out = NULL;
		size_t n;
		assert_non_null(src);
		char first[64];
		const char *plus = strchr(g->recipe, '+');
		snprintf(first, sizeof first, "%.*s", plus ? (int)(plus - g->recipe) : 63, g->recipe);
		int rc = ka_recipe_apply(first, src, strlen(src), NULL, plus ? "" : g->params, &out, &n, why,
					 sizeof why);
		if (rc == KA_OK && plus) {
			free(src);
			src = out;
			rc = ka_recipe_apply(plus + 1, src, n, NULL, g->params, &out, &n, why, sizeof why);
		}
		if (rc != KA_OK)
			fail_msg("%s on %s: rc %d: %s %s", g->recipe, g->task, rc, why, ka_error_last());
		assert_int_equal(strlen(out), n);
		if (update)
			assert_int_equal(ka_fs_write_atomic(exp, out, n), KA_OK);
		char *want = slurp(exp);
		if (!want)
			fail_msg("missing golden file %s (KA_UPDATE_GOLDEN=1 writes it)", exp);
		if (strcmp(want, out))
			fail_msg("%s on %s differs from %s", g->recipe, g->task, exp);
		int c = nvcc_compiles(out, err, sizeof err);
		if (c == 0)
			fail_msg("%s on %s does not compile:\n%s", g->recipe, g->task, err);
		free(want);
		free(out);
		free(src);
	}
}

typedef struct decline {
	const char *recipe, *src, *reason;
} decline;

/* a Hillis-Steele block scan over __shared__ T sh[256], elements of type T */
#define HS_LOOP(T) \
	"\tfor (int d = 1; d < 256; d <<= 1) {\n\t\t" T " v = threadIdx.x >= d ? sh[threadIdx.x - d] : 0;\n" \
	"\t\t__syncthreads();\n\t\tsh[threadIdx.x] += v;\n\t\t__syncthreads();\n\t}\n"
/* warp-per-row sources: a row sum, then what follows it */
#define ROW_HEAD \
	"__global__ void k(const float *x, float *y, float *total, int rows, int cols)\n{\n" \
	"\tint r = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (r >= rows) return;\n\tfloat s = 0.0f;\n"
#define ROW_GO \
	"void h(const float *x, float *y, float *t, int rows, int cols) { k<<<rows, 32>>>(x, y, t, rows, cols); }\n"
#define ROW_LOOP "\tfor (int j = 0; j < cols; j++) s += x[r * cols + j];\n"

static const decline declines[] = {
	/* a barrier: a warp-per-row rewrite could not keep it uniform */
	{"warp-per-row",
	 "__global__ void k(const float *x, float *y, long long rows, long long cols)\n{\n"
	 "\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (r >= rows) return;\n"
	 "\t__syncthreads();\n\tfloat s = 0.0f;\n\tfor (long long j = 0; j < cols; j++) s += x[r * cols + j];\n"
	 "\ty[r] = s;\n}\n",
	 "the kernel uses __syncthreads"},
	/* a sum that starts at 1 would be counted once per lane */
	{"warp-per-row",
	 "__global__ void k(const float *x, float *y, long long rows, long long cols)\n{\n"
	 "\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (r >= rows) return;\n"
	 "\tfloat s = 1.0f;\n\tfor (long long j = 0; j < cols; j++) s += x[r * cols + j];\n\ty[r] = s;\n}\n"
	 "void h(const float *x, float *y, long long rows, long long cols) { k<<<rows, 32>>>(x, y, rows, cols); }\n",
	 "a non-zero start"},
	/* a loop-carried dependence through something that is not an accumulator */
	{"warp-per-row",
	 "__global__ void k(float *y, long long rows, long long cols)\n{\n"
	 "\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (r >= rows) return;\n"
	 "\tfor (long long j = 1; j < cols; j++) y[r * cols + j] = y[r * cols + j - 1] * 2.0f + 1.0f;\n}\n"
	 "void h(float *y, long long rows, long long cols) { k<<<rows, 32>>>(y, rows, cols); }\n",
	 NULL},
	/* warp-per-row: a read-modify-write outside the loops would run on 32
	 * lanes; neither every lane nor lane 0 alone is provably right */
	{"warp-per-row", ROW_HEAD ROW_LOOP "\tatomicAdd(&total[0], s);\n}\n" ROW_GO,
	 "may run on every lane or on lane 0"},
	{"warp-per-row", ROW_HEAD ROW_LOOP "\ty[r]++;\n}\n" ROW_GO, "may run on every lane or on lane 0"},
	/* an argmax pair whose index is also read in the loop */
	{"warp-per-row",
	 ROW_HEAD "\tint at = 0;\n\tfor (int j = 0; j < cols; j++) {\n\t\tif (x[r * cols + j] > s) {\n"
		  "\t\t\ts = x[r * cols + j];\n\t\t\tat = j;\n\t\t}\n\t\ty[at] = 1.0f;\n\t}\n}\n" ROW_GO,
	 "the index at of the argmax pair is used elsewhere in the loop"},
	/* two stores to one array at different columns race between lanes */
	{"warp-per-row",
	 ROW_HEAD "\tfor (int j = 0; j < cols; j++) {\n\t\tif (j > 2)\n\t\t\ty[r * cols + j] = 1.0f;\n"
		  "\t\telse\n\t\t\ty[r * cols + j + 1] = 2.0f;\n\t}\n}\n" ROW_GO,
	 "y is stored and read in one loop"},
	/* a row count that is neither a parameter nor a product of two */
	{"warp-per-row",
	 "__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
	 "\tint r = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (r >= rows - 1) return;\n\tfloat s = 0.0f;\n" ROW_LOOP
	 "\ty[r] = s;\n}\n"
	 "void h(const float *x, float *y, int rows, int cols) { k<<<rows, 32>>>(x, y, rows, cols); }\n",
	 "the row bound rows - 1 is not a parameter nor a product of two"},
	{"warp-per-row", ROW_HEAD ROW_LOOP "\tatomicAdd(y + r, s);\n}\n" ROW_GO,
	 "may run on every lane or on lane 0"},
	{"warp-per-row",
	 ROW_HEAD ROW_LOOP "\tfloat old = atomicAdd(&total[r], s);\n\ty[r] = old;\n}\n" ROW_GO,
	 "may run on every lane or on lane 0"},
	{"warp-per-row", ROW_HEAD ROW_LOOP "\ts = y[r]++;\n}\n" ROW_GO, "writes more than a local"},
	/* lane 0 stores y[r]; the other lanes would read the old value */
	{"warp-per-row", ROW_HEAD ROW_LOOP "\ty[r] = s;\n\ttotal[r] = y[r] * 2.0f;\n}\n" ROW_GO,
	 "y is stored by lane 0 and used after"},
	/* a side effect inside the column loop, on one row's element */
	{"warp-per-row",
	 ROW_HEAD "\tfor (int j = 0; j < cols; j++) s += x[r * cols + j] * y[r]++;\n\ty[r] = s;\n}\n" ROW_GO,
	 "writes more than s"},
	/* fmaxf(...) * k is no max accumulator, in either argument order */
	{"warp-per-row",
	 ROW_HEAD
	 "\tfor (int j = 0; j < cols; j++) s = fmaxf(s, x[r * cols + j]) * 0.5f;\n\ty[r] = s;\n}\n" ROW_GO,
	 "lane-independent"},
	{"warp-per-row",
	 ROW_HEAD "\tfor (int j = 0; j < cols; j++) s = fmaxf(x[r * cols + j], 0.0f) + fmaxf(1.0f, s);\n"
		  "\ty[r] = s;\n}\n" ROW_GO,
	 "lane-independent"},
	/* the index is reassigned: not one element per thread */
	{"vectorize",
	 "__global__ void k(const float *x, float *y, long long n)\n{\n"
	 "\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (i < n) { i = n - 1 - i; y[i] = x[i]; }\n}\n",
	 "assigns the index"},
	/* inline asm may read %laneid or %ctaid, which a loop over the elements changes */
	{"grid-stride",
	 "__global__ void k(float *y, int n)\n{\n\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	 "\tif (i < n) {\n\t\tunsigned l;\n\t\tasm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l));\n\t\ty[i] = l;\n\t}\n}\n"
	 "void go(float *y, int n) { k<<<(n + 255) / 256, 256>>>(y, n); }\n",
	 "the body uses asm"},
	{"vectorize",
	 "__global__ void k(float *y, int n)\n{\n\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	 "\tif (i < n) {\n\t\tunsigned c;\n\t\tasm volatile(\"mov.u32 %0, %%ctaid.x;\" : \"=r\"(c));\n\t\ty[i] = c;\n\t}\n}\n"
	 "void go(float *y, int n) { k<<<(n + 255) / 256, 256>>>(y, n); }\n",
	 "the body uses asm"},
	/* no element-wise float pointer: y[i + 1] */
	{"vectorize",
	 "__global__ void k(const float *x, float *y, long long n)\n{\n"
	 "\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (i < n) y[i + 1] = x[i + 1];\n}\n",
	 "no float pointer is accessed only as p[i]"},
	/* the bins are not a parameter's modulus */
	{"smem-histogram",
	 "__global__ void k(const int *x, unsigned *h, long long n)\n{\n"
	 "\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (i < n) atomicAdd(&h[x[i]], 1u);\n}\n",
	 "does not end in % PARAM"},
	/* a transpose whose stored value reads a second element */
	{"smem-tile-transpose",
	 "__global__ void k(const float *x, float *y, long long rows, long long cols)\n{\n"
	 "\tlong long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	 "\tlong long r = blockIdx.y * (long long)blockDim.y + threadIdx.y;\n"
	 "\tif (r < rows && c < cols) y[c * rows + r] = x[r * cols + c] + x[c];\n}\n",
	 "more than one"},
	/* a kernel that depends on its block size */
	{"launch-tune",
	 "__global__ void k(float *y, long long n)\n{\n\t__shared__ float t[256];\n"
	 "\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (i < n) { t[threadIdx.x] = y[i]; y[i] = t[255 - threadIdx.x]; }\n}\n"
	 "void h(float *y, long long n) { k<<<(n + 255) / 256, 256>>>(y, n); }\n",
	 "the kernel uses __shared__"},
	/* seq-reduction: a tree over blockDim.x and no launch in the file to prove it */
	{"seq-reduction",
	 "__global__ void k(const float *x, float *y)\n{\n\t__shared__ float sh[256];\n\tint tid = threadIdx.x;\n"
	 "\tsh[tid] = x[blockIdx.x * 256 + tid];\n\t__syncthreads();\n"
	 "\tfor (int s = 1; s < blockDim.x; s *= 2) {\n\t\tif (tid % (2 * s) == 0) sh[tid] += sh[tid + s];\n"
	 "\t\t__syncthreads();\n\t}\n\tif (tid == 0) y[blockIdx.x] = sh[0];\n}\n",
	 "blockDim.x is not provable: no launch of k in this file"},
	/* a tree as wide as a parameter the kernel changes (a block the caller
	 * chooses is checked at run time: test_recipe_shapes) */
	{"seq-reduction",
	 "__global__ void k(const float *x, float *y, int w)\n{\n\t__shared__ float sh[1024];\n\tint tid = threadIdx.x;\n"
	 "\tsh[tid] = x[blockIdx.x * 1024 + tid];\n\t__syncthreads();\n\tw = w / 2 * 2;\n"
	 "\tfor (int s = 1; s < w; s *= 2) {\n\t\tif (tid % (2 * s) == 0) sh[tid] += sh[tid + s];\n"
	 "\t\t__syncthreads();\n\t}\n\tif (tid == 0) y[blockIdx.x] = sh[0];\n}\n"
	 "void h(const float *x, float *y, int n, int b) { k<<<n, b>>>(x, y, b); }\n",
	 "the tree's width 'w' is neither a literal, blockDim.x, an integer parameter"},
	/* the partial sums in sh[1..] are read after the tree: they change */
	{"seq-reduction",
	 "__global__ void k(const float *x, float *y)\n{\n\t__shared__ float sh[256];\n\tint tid = threadIdx.x;\n"
	 "\tsh[tid] = x[blockIdx.x * 256 + tid];\n\t__syncthreads();\n"
	 "\tfor (int s = 1; s < 256; s *= 2) {\n\t\tif (tid % (2 * s) == 0) sh[tid] += sh[tid + s];\n"
	 "\t\t__syncthreads();\n\t}\n\tif (tid < 2) y[blockIdx.x * 2 + tid] = sh[tid * 128];\n}\n",
	 "uses sh other than as sh[0]"},
	/* a max tree: only sums are rewritten */
	{"seq-reduction",
	 "__global__ void k(const float *x, float *y)\n{\n\t__shared__ float sh[256];\n\tint tid = threadIdx.x;\n"
	 "\tsh[tid] = x[blockIdx.x * 256 + tid];\n\t__syncthreads();\n"
	 "\tfor (int s = 1; s < 256; s *= 2) {\n\t\tif (tid % (2 * s) == 0) sh[tid] = fmaxf(sh[tid], sh[tid + s]);\n"
	 "\t\t__syncthreads();\n\t}\n\tif (tid == 0) y[blockIdx.x] = sh[0];\n}\n",
	 "does not add sh[i + s] into sh[i]"},
	/* one warp's tree: nothing above 64 values to rewrite */
	{"seq-reduction",
	 "__global__ void k(const float *x, float *y)\n{\n\t__shared__ float sh[32];\n\tint tid = threadIdx.x;\n"
	 "\tsh[tid] = x[blockIdx.x * 32 + tid];\n\t__syncthreads();\n"
	 "\tfor (int s = 1; s < 32; s *= 2) {\n\t\tif (tid % (2 * s) == 0) sh[tid] += sh[tid + s];\n"
	 "\t\t__syncthreads();\n\t}\n\tif (tid == 0) y[blockIdx.x] = sh[0];\n}\n",
	 "a tree of 32 values"},
	/* the tree's thread index is not threadIdx.x */
	{"seq-reduction",
	 "__global__ void k(const float *x, float *y)\n{\n\t__shared__ float sh[256];\n\tint tid = threadIdx.y;\n"
	 "\tsh[tid] = x[blockIdx.x * 256 + tid];\n\t__syncthreads();\n"
	 "\tfor (int s = 1; s < 256; s *= 2) {\n\t\tif (tid % (2 * s) == 0) sh[tid] += sh[tid + s];\n"
	 "\t\t__syncthreads();\n\t}\n\tif (tid == 0) y[blockIdx.x] = sh[0];\n}\n",
	 "tid is not threadIdx.x"},
	/* threads may leave before the tree: warp 0 could be partial */
	{"seq-reduction",
	 "__global__ void k(const float *x, float *y)\n{\n\t__shared__ float sh[256];\n\tint tid = threadIdx.x;\n\tif (x[blockIdx.x * 256] > 0.0f) return;\n"
	 "\tsh[tid] = x[blockIdx.x * 256 + tid];\n\t__syncthreads();\n"
	 "\tfor (int s = 1; s < 256; s *= 2) {\n\t\tif (tid % (2 * s) == 0) sh[tid] += sh[tid + s];\n"
	 "\t\t__syncthreads();\n\t}\n\tif (tid == 0) y[blockIdx.x] = sh[0];\n}\n",
	 "a return before the tree"},
	/* no shared-memory tree at all */
	{"seq-reduction",
	 "__global__ void k(const float *x, float *y, long long n)\n{\n"
	 "\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = 2.0f * x[i];\n}\n",
	 "no top-level loop with a barrier"},
	/* 2-D: shared memory, so threads talk to each other */
	{"launch-tune-2d",
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\t__shared__ float t[16][17];\n"
	 "\tt[threadIdx.y][threadIdx.x] = x[i * w + j];\n\t__syncthreads();\n"
	 "\ty[i * w + j] = t[threadIdx.x][threadIdx.y];\n}\n",
	 "the kernel uses __shared__ past its indices"},
	/* a thread id past the indices: the work depends on the block shape */
	{"launch-tune-2d",
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\ty[i * w + j] = x[i * w + j] * threadIdx.x;\n}\n",
	 "uses threadIdx"},
	/* ... or one a device helper reads */
	{"launch-tune-2d",
	 "__device__ float lane(void) { return (float)threadIdx.x; }\n"
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\ty[i * w + j] = x[i * w + j] + lane();\n}\n",
	 "threadIdx is used outside the kernels' bodies"},
	/* no bound check: threads past the edges would work */
	{"launch-tune-2d",
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\ty[i * w + j] = x[i * w + j];\n}\n",
	 "no bound check after the indices"},
	/* the block's literal in the body */
	{"launch-tune-2d",
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\ty[i * w + j] = x[i * w + (j / 16) * 16];\n}\n"
	 "void run(const float *x, float *y, int h, int w)\n"
	 "{\n\tk<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(x, y, h, w);\n}\n",
	 "the body uses the literal 16"},
	/* a grid that is not the ceiling of the bound over the block */
	{"launch-tune-2d",
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\ty[i * w + j] = x[i * w + j];\n}\n"
	 "void run(const float *x, float *y, int h, int w)\n"
	 "{\n\tk<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(x, y, h, w);\n}\n",
	 "the grid's 'w/16' is not (w + 16 - 1) / 16"},
	/* a block that is not two literals */
	{"launch-tune-2d",
	 "enum { BX = 16, BY = 16 };\n"
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\ty[i * w + j] = x[i * w + j];\n}\n"
	 "void run(const float *x, float *y, int h, int w)\n"
	 "{\n\tk<<<dim3((w + BX - 1) / BX, (h + BY - 1) / BY), dim3(BX, BY)>>>(x, y, h, w);\n}\n",
	 "not dim3 of two integer literals"},
	/* the dim3 variables serve another kernel's launch too */
	{"launch-tune-2d",
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\ty[i * w + j] = x[i * w + j];\n}\n"
	 "void run(const float *x, float *y, int h, int w)\n{\n"
	 "\tdim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);\n"
	 "\tk<<<grid, block>>>(x, y, h, w);\n\tother<<<grid, block>>>(y, h, w);\n}\n",
	 "'grid' is used by more than the launches of k"},
	{"launch-tune-2d",
	 "__global__ void __launch_bounds__(256) k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\ty[i * w + j] = x[i * w + j];\n}\n",
	 "it has __launch_bounds__"},
	/* the grid's first shape, 32 x 8, is the launch's: a parameter decline */
	{"launch-tune-2d",
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\ty[i * w + j] = x[i * w + j];\n}\n"
	 "void run(const float *x, float *y, int h, int w)\n"
	 "{\n\tk<<<dim3((w + 31) / 32, (h + 7) / 8), dim3(32, 8)>>>(x, y, h, w);\n}\n",
	 "bad parameters 'bx=32 by=8': the block is 32x8 already"},
	/* stencils: a missing edge would read past the last row */
	{"stencil-column",
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\tlong long k = (long long)i * w + j;\n"
	 "\tif (i == 0 || j == 0 || j == w - 1) y[k] = x[k];\n"
	 "\telse y[k] = 0.2f * (x[k] + x[k - w] + x[k + w] + x[k - 1] + x[k + 1]);\n}\n",
	 "is not the four edges"},
	/* a second input array */
	{"stencil-column",
	 "__global__ void k(const float *x, const float *c, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\tlong long k = (long long)i * w + j;\n"
	 "\tif (i == 0 || j == 0 || i == h - 1 || j == w - 1) y[k] = x[k];\n"
	 "\telse y[k] = c[k] * (x[k] + x[k - w] + x[k + w] + x[k - 1] + x[k + 1]);\n}\n",
	 "c[k] is not one of the five points of x"},
	/* a wider stencil */
	{"stencil-column",
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\tlong long k = (long long)i * w + j;\n"
	 "\tif (i == 0 || j == 0 || i == h - 1 || j == w - 1) y[k] = x[k];\n"
	 "\telse y[k] = 0.2f * (x[k] + x[k - 2 * w] + x[k + w] + x[k - 1] + x[k + 1]);\n}\n",
	 "x[k-2*w] is not one of the five points of x"},
	/* the edge branch must copy */
	{"stencil-column",
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\tlong long k = (long long)i * w + j;\n"
	 "\tif (i == 0 || j == 0 || i == h - 1 || j == w - 1) y[k] = 0.0f;\n"
	 "\telse y[k] = 0.2f * (x[k] + x[k - w] + x[k + w] + x[k - 1] + x[k + 1]);\n}\n",
	 "the edge branch is not the copy"},
	/* in place: later rows would read updated values */
	{"stencil-column",
	 "__global__ void k(float *x, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\tlong long k = (long long)i * w + j;\n"
	 "\tif (i == 0 || j == 0 || i == h - 1 || j == w - 1) x[k] = x[k];\n"
	 "\telse x[k] = 0.2f * (x[k] + x[k - w] + x[k + w] + x[k - 1] + x[k + 1]);\n}\n",
	 "reads and writes the same array x"},
	/* four points only */
	{"stencil-column",
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\tlong long k = (long long)i * w + j;\n"
	 "\tif (i == 0 || j == 0 || i == h - 1 || j == w - 1) y[k] = x[k];\n"
	 "\telse y[k] = 0.25f * (x[k - w] + x[k + w] + x[k - 1] + x[k + 1]);\n}\n",
	 "does not read all five points of x"},
	/* a product, not a sum */
	{"parallel-scan",
	 "__global__ void k(unsigned *a, long long m)\n{\n\tunsigned s = 0;\n"
	 "\tfor (long long b = 0; b < m; b++) { unsigned t = a[b]; a[b] = s; s *= t; }\n}\n"
	 "void h(unsigned *a, long long m) { k<<<1, 1>>>(a, m); }\n",
	 "'s*=t' is not"},
	/* a reduction: nothing is stored per element */
	{"parallel-scan",
	 "__global__ void k(unsigned *a, long long m)\n{\n\tunsigned s = 0;\n"
	 "\tfor (long long b = 0; b < m; b++) { s += a[b]; }\n}\n"
	 "void h(unsigned *a, long long m) { k<<<1, 1>>>(a, m); }\n",
	 "not a read, a store of s and an addition"},
	/* each element gets twice the sum before it: not a scan */
	{"parallel-scan",
	 "__global__ void k(unsigned *a, long long m)\n{\n\tunsigned s = 0;\n"
	 "\tfor (long long b = 0; b < m; b++) { a[b] = s; s += a[b]; }\n}\n"
	 "void h(unsigned *a, long long m) { k<<<1, 1>>>(a, m); }\n",
	 "after storing to it"},
	/* a float sum would be reassociated */
	{"parallel-scan",
	 "__global__ void k(const float *x, float *y, long long m)\n{\n\tfloat s = 0.0f;\n"
	 "\tfor (long long b = 0; b < m; b++) { s += x[b]; y[b] = s; }\n}\n"
	 "void h(const float *x, float *y, long long m) { k<<<1, 1>>>(x, y, m); }\n",
	 "round differently"},
	/* every one of 32 threads walks the whole loop */
	{"parallel-scan",
	 "__global__ void k(unsigned *a, long long m)\n{\n\tunsigned s = 0;\n"
	 "\tfor (long long b = 0; b < m; b++) { unsigned t = a[b]; a[b] = s; s += t; }\n}\n"
	 "void h(unsigned *a, long long m) { k<<<1, 32>>>(a, m); }\n",
	 "is <<<1, 32>>>, not <<<1, 1>>>"},
	/* a start other than zero */
	{"parallel-scan",
	 "__global__ void k(unsigned *a, long long m)\n{\n\tunsigned s = 1;\n"
	 "\tfor (long long b = 0; b < m; b++) { unsigned t = a[b]; a[b] = s; s += t; }\n}\n"
	 "void h(unsigned *a, long long m) { k<<<1, 1>>>(a, m); }\n",
	 "not at zero"},
	/* the elements are wider than the sum */
	{"parallel-scan",
	 "__global__ void k(unsigned long long *a, long long m)\n{\n\tunsigned s = 0;\n"
	 "\tfor (long long b = 0; b < m; b++) { s += a[b]; a[b] = s; }\n}\n"
	 "void h(unsigned long long *a, long long m) { k<<<1, 1>>>(a, m); }\n",
	 "holds 'unsigned long long', the sum is 'unsigned'"},
	/* shuffle-block-scan: a float scan would add in another order */
	{"shuffle-block-scan",
	 "typedef float T;\n__global__ void k(T *y)\n{\n\t__shared__ float sh[256];\n"
	 "\tsh[threadIdx.x] = y[threadIdx.x];\n\t__syncthreads();\n" HS_LOOP(
		 "float") "\ty[threadIdx.x] = sh[threadIdx.x];\n}\n"
			  "void h(T *y) { k<<<1, 256>>>(y); }\n",
	 "sh holds 'float', not integers"},
	/* 128 threads would leave half of sh to no thread */
	{"shuffle-block-scan",
	 "typedef unsigned T;\n__global__ void k(T *y)\n{\n\t__shared__ unsigned sh[256];\n"
	 "\tsh[threadIdx.x] = y[threadIdx.x];\n\t__syncthreads();\n" HS_LOOP(
		 "unsigned") "\ty[threadIdx.x] = sh[threadIdx.x];\n}\n"
			     "void h(T *y) { k<<<1, 128>>>(y); }\n",
	 "does not have 256 threads per block"},
	/* a thread that returned would miss the helper's barriers */
	{"shuffle-block-scan",
	 "typedef unsigned T;\n__global__ void k(T *y, int n)\n{\n\t__shared__ unsigned sh[256];\n"
	 "\tif (n == 0) return;\n\tsh[threadIdx.x] = y[threadIdx.x];\n\t__syncthreads();\n" HS_LOOP(
		 "unsigned") "\ty[threadIdx.x] = sh[threadIdx.x];\n}\n"
			     "void h(T *y, int n) { k<<<1, 256>>>(y, n); }\n",
	 "a return before the scan loop"},
	/* the elements may not be written yet */
	{"shuffle-block-scan",
	 "typedef unsigned T;\n__global__ void k(T *y)\n{\n\t__shared__ unsigned sh[256];\n"
	 "\tsh[255 - threadIdx.x] = y[threadIdx.x];\n" HS_LOOP(
		 "unsigned") "\ty[threadIdx.x] = sh[threadIdx.x];\n}\n"
			     "void h(T *y) { k<<<1, 256>>>(y); }\n",
	 "no __syncthreads() right before"},
};

static void test_declines(void **st)
{
	(void)st;
	for (size_t i = 0; i < sizeof declines / sizeof declines[0]; i++) {
		const decline *d = &declines[i];
		char why[256], *out = NULL;
		size_t n;
		int rc = ka_recipe_apply(d->recipe, d->src, strlen(d->src), NULL, NULL, &out, &n, why,
					 sizeof why);
		if (rc != KA_RECIPE_DECLINED)
			fail_msg("case %zu (%s): expected a decline, got rc %d", i, d->recipe, rc);
		assert_null(out);
		if (d->reason && !strstr(why, d->reason))
			fail_msg("case %zu: reason '%s' lacks '%s'", i, why, d->reason);
	}
}

/* A file the source model cannot hold (more kernels or launches than its
 * tables) makes every recipe decline: none may rewrite a kernel whose
 * launches it did not all see. */
static void test_model_limits(void **st)
{
	(void)st;
	static const char ew[] =
		"__global__ void k0(float *y, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = 1.0f;\n}\n";
	ka_buf b;
	char why[256], *out = NULL;
	size_t n;
	/* one kernel past the table: it used to land on the launch table */
	char past_k[64], past_l[64];
	snprintf(past_k, sizeof past_k, "more than %d kernels", KA_CSRC_MAX_KERNELS);
	snprintf(past_l, sizeof past_l, "more than %d launches", KA_CSRC_MAX_LAUNCHES);
	ka_buf_init(&b, 1 << 20);
	ka_buf_adds(&b, ew);
	ka_buf_adds(&b, "void go(float *y, int n) { k0<<<(n + 255) / 256, 256>>>(y, n); }\n");
	for (int i = 1; i <= KA_CSRC_MAX_KERNELS; i++)
		ka_buf_printf(&b, "__global__ void k%d(float *y) { y[0] = %d; }\n", i, i);
	assert_non_null(b.data);
	assert_int_equal(ka_recipe_apply("grid-stride", b.data, b.len, "k0", NULL, &out, &n, why, sizeof why),
			 KA_RECIPE_DECLINED);
	assert_null(out);
	assert_non_null(strstr(why, past_k));
	assert_int_equal(ka_recipe_apply("grid-stride", b.data, b.len, NULL, NULL, &out, &n, why, sizeof why),
			 KA_RECIPE_DECLINED);
	assert_non_null(strstr(why, past_k));
	ka_buf_free(&b);
	/* one launch past the table: the last one, of k0, used to keep its old block */
	ka_buf_init(&b, 1 << 20);
	ka_buf_adds(&b, ew);
	ka_buf_adds(&b, "__global__ void o(float *y) { y[0] = 0; }\nvoid go(float *y, int n)\n{\n");
	ka_buf_adds(&b, "\tk0<<<(n + 255) / 256, 256>>>(y, n);\n");
	for (int i = 0; i < KA_CSRC_MAX_LAUNCHES - 1; i++)
		ka_buf_adds(&b, "\to<<<1, 1>>>(y);\n");
	ka_buf_adds(&b, "\tk0<<<(n + 255) / 256, 256>>>(y, n);\n}\n");
	assert_non_null(b.data);
	assert_int_equal(ka_recipe_apply("grid-stride", b.data, b.len, "k0", "block=128 cap=4224", &out, &n,
					 why, sizeof why),
			 KA_RECIPE_DECLINED);
	assert_null(out);
	assert_non_null(strstr(why, past_l));
	ka_buf_free(&b);
	/* an unnamed parameter (a tag type, llm.c's matmul_backward_bias) no
	 * longer makes the whole file unreadable; an array one still does */
	static const char tag[] =
		"template <bool A>\n__global__ void bias(float *d, std::bool_constant<A>, int n) "
		"{ if (threadIdx.x < n) d[threadIdx.x] = 0; }\n"
		"__global__ void un(float *, int n) {}\n";
	ka_buf_init(&b, 1 << 16);
	ka_buf_adds(&b, tag);
	ka_buf_adds(&b, ew);
	ka_buf_adds(&b, "void go(float *y, int n) { k0<<<(n + 255) / 256, 256>>>(y, n); }\n");
	assert_non_null(b.data);
	if (ka_recipe_apply("grid-stride", b.data, b.len, "k0", NULL, &out, &n, why, sizeof why) != KA_OK)
		fail_msg("declined: %s", why);
	assert_non_null(strstr(out, "k0<<<(unsigned)("));
	free(out);
	ka_buf_reset(&b);
	ka_buf_adds(&b, "__global__ void arr(float x[4]) { x[0] = 1; }\n");
	ka_buf_adds(&b, ew);
	ka_buf_adds(&b, "void go(float *y, int n) { k0<<<(n + 255) / 256, 256>>>(y, n); }\n");
	assert_int_equal(ka_recipe_apply("grid-stride", b.data, b.len, "k0", NULL, &out, &n, why, sizeof why),
			 KA_RECIPE_DECLINED);
	assert_non_null(strstr(why, "cannot read parameter 1"));
	ka_buf_free(&b);
}

/* A launch the source model cannot read keeps its config when a recipe
 * rewrites the others: every recipe that changes (or proves something from)
 * a kernel's launches declines unless each mention of its name is its
 * definition, a declaration or a launch it read. */
#define EW_K \
	"__global__ void k(float *y, const float *x, int n)\n{\n" \
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = 2.0f * x[i];\n}\n"
#define EW_GO "void go(float *y, const float *x, int n) { k<<<(n + 255) / 256, 256>>>(y, x, n); }\n"
static void test_unseen_launches(void **st)
{
	(void)st;
	static const struct {
		const char *recipe, *src;
	} cases[] = {
		/* a launch in a macro's body */
		{"warp-per-row",
		 "#define LAUNCH_K(x, y, r, c) k<<<((r) + 255) / 256, 256>>>(x, y, r, c)\n"
		 "__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		 "\tint r = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (r >= rows) return;\n\tfloat s = 0.0f;\n"
		 "\tfor (int j = 0; j < cols; j++) s += x[r * cols + j];\n\ty[r] = s;\n}\n"
		 "void go(const float *x, float *y, int rows, int cols) { k<<<(rows + 255) / 256, 256>>>(x, y, "
		 "rows, cols); }\n"
		 "void go2(const float *x, float *y, int rows, int cols) { LAUNCH_K(x, y, rows, cols); }\n"},
		/* cudaLaunchKernel through the kernel's address */
		{"vectorize", EW_K EW_GO
		 "void go2(float *y, const float *x, int n)\n{\n\tvoid *a[] = {&y, &x, &n};\n"
		 "\tcudaLaunchKernel((const void *)k, dim3((n + 255) / 256), dim3(256), a, 0, 0);\n}\n"},
		/* a function pointer launched elsewhere (grid-stride takes this one:
		 * its loop covers n whatever grid the unseen launch has, and only
		 * the launches it reads get a capped grid; below) */
		{"vectorize", EW_K EW_GO "void (*kp)(float *, const float *, int) = k;\n"},
		/* template arguments before <<< */
		{"grid-stride",
		 "template <typename T> __global__ void k(T *y, const T *x, int n)\n{\n"
		 "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = x[i];\n}\n"
		 "void go(float *y, const float *x, int n) { k<float><<<(n + 255) / 256, 256>>>(y, x, n); }\n"},
		{"launch-tune", EW_K EW_GO "#define GO2(y, x, n) k<<<((n) + 255) / 256, 256>>>(y, x, n)\n"},
		/* the block that proves blockDim.x from the launches */
		{"seq-reduction",
		 "__global__ void k(const float *x, float *y)\n{\n\t__shared__ float sh[256];\n\tint tid = "
		 "threadIdx.x;\n\tsh[tid] = x[blockIdx.x * 256 + tid];\n\t__syncthreads();\n"
		 "\tfor (int s = 1; s < blockDim.x; s *= 2) {\n\t\tif (tid % (2 * s) == 0) sh[tid] += sh[tid + s];\n"
		 "\t\t__syncthreads();\n\t}\n\tif (tid == 0) y[blockIdx.x] = sh[0];\n}\n"
		 "void h(const float *x, float *y, int n) { k<<<n, 256>>>(x, y); }\n"
		 "#define H2(x, y, n) k<<<(n), 512>>>(x, y)\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char why[256], *out = NULL;
		size_t n;
		int rc = ka_recipe_apply(cases[i].recipe, cases[i].src, strlen(cases[i].src), "k", NULL, &out,
					 &n, why, sizeof why);
		if (rc != KA_RECIPE_DECLINED)
			fail_msg("case %zu (%s): expected a decline, got rc %d:\n%s", i, cases[i].recipe, rc,
				 out ? out : "");
		/* grid-stride rewrites a kernel whatever its unseen launches; with
		 * no launch it can read, nothing would change but a grid cap */
		if (!strstr(why, "outside a launch this recipe can read") &&
		    !(!strcmp(cases[i].recipe, "grid-stride") && strstr(why, "no launch of k in this file")))
			fail_msg("case %zu: reason '%s'", i, why);
	}
	/* grid-stride through a function pointer: the kernel still covers n, the
	 * pointer keeps naming it, the readable launch's grid is capped */
	static const char viap[] = EW_K EW_GO "void (*kp)(float *, const float *, int) = k;\n";
	{
		char pwhy[256], *pout = NULL;
		size_t pn;
		if (ka_recipe_apply("grid-stride", viap, strlen(viap), "k", NULL, &pout, &pn, pwhy,
				    sizeof pwhy) != KA_OK)
			fail_msg("grid-stride via a function pointer declined: %s", pwhy);
		assert_non_null(strstr(pout, "ka_e += ka_step"));
		assert_non_null(strstr(pout, "= k;"));
		assert_non_null(strstr(pout, "2112u"));
		free(pout);
	}
	/* a forward declaration, a comment and a string naming k are no launches */
	static const char ok[] = "__global__ void k(float *y, const float *x, int n);\n"
				 "/* k<<<g, b>>> below */\nconst char *name = \"k\";\n" EW_K EW_GO;
	char why[256], *out = NULL;
	size_t n;
	if (ka_recipe_apply("grid-stride", ok, strlen(ok), "k", NULL, &out, &n, why, sizeof why) != KA_OK)
		fail_msg("declined: %s", why);
	assert_non_null(strstr(out, "k<<<(unsigned)("));
	free(out);
	/* a host launcher of the same name, defined and called (llm.c's dev/cuda) */
	static const char host[] = EW_K "void k(float *y, const float *x, int n, int bs)\n"
					"{\n\tk<<<(n + 255) / 256, 256>>>(y, x, n);\n}\n"
					"void run(float *y, const float *x) { k(y, x, 1000, 256); }\n";
	if (ka_recipe_apply("grid-stride", host, strlen(host), "k", NULL, &out, &n, why, sizeof why) != KA_OK)
		fail_msg("declined: %s", why);
	assert_non_null(strstr(out, "k<<<(unsigned)("));
	assert_non_null(strstr(out, "k(y, x, 1000, 256);"));
	free(out);
	/* "<< <" and ">> >", as clang-format before version 6 wrote launches
	 * (cuda-samples, older CUTLASS): launches all the same */
	static const char spaced[] = EW_K
		"void go(float *y, const float *x, int n)\n{\n"
		"\tk<< <(n + 255) / 256, 256>> >(y, x, n);\n\tk<<< n, 128 >>>(y, x, n);\n}\n";
	if (ka_recipe_apply("grid-stride", spaced, strlen(spaced), "k", NULL, &out, &n, why, sizeof why) !=
	    KA_OK)
		fail_msg("declined: %s", why);
	assert_non_null(strstr(out, "k<< <(unsigned)("));
	assert_null(strstr(out, "(n + 255) / 256"));
	assert_null(strstr(out, ", 128 >>>"));
	free(out);
}

/* A grid held in a variable that only the rewritten launches read loses
 * its declaration (it would be dead: nvcc's warning #177); anything else
 * keeps it. */
static void test_dead_grid_variable(void **st)
{
	(void)st;
	static const struct {
		const char *host;
		int dropped;
	} cases[] = {
		{"#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))\n"
		 "void go(float *y, const float *x, int n)\n{\n\tconst int grid_size = CEIL_DIV(n, 256);\n"
		 "\tk<<<grid_size, 256>>>(y, x, n);\n}\n",
		 1},
		/* two launches read it: dropped once */
		{"void go(float *y, const float *x, int n)\n{\n\tunsigned blocks = (unsigned)((n + 255) / 256);\n"
		 "\tk<<<blocks, 256>>>(y, x, n);\n\tk<<<blocks, 256>>>(x == y ? y : y, x, n);\n}\n",
		 1},
		/* read by something else */
		{"void go(float *y, const float *x, int n)\n{\n\tint blocks = (n + 255) / 256;\n"
		 "\tk<<<blocks, 256>>>(y, x, n);\n\tprintf(\"%d\\n\", blocks);\n}\n",
		 0},
		/* an initializer that calls a function could have an effect */
		{"int pick(int);\nvoid go(float *y, const float *x, int n)\n{\n\tint blocks = pick(n);\n"
		 "\tk<<<blocks, 256>>>(y, x, n);\n}\n",
		 0},
		/* declared in an outer block */
		{"void go(float *y, const float *x, int n)\n{\n\tint blocks = (n + 255) / 256;\n"
		 "\tif (n > 0) {\n\t\tk<<<blocks, 256>>>(y, x, n);\n\t}\n}\n",
		 0},
		/* a macro of the block reads it */
		{"void go(float *y, const float *x, int n)\n{\n\tint blocks = (n + 255) / 256;\n"
		 "#define SHOW_GRID printf(\"%d\\n\", blocks)\n\tk<<<blocks, 256>>>(y, x, n);\n}\n",
		 0},
		/* two declarators */
		{"void go(float *y, const float *x, int n)\n{\n\tint blocks = (n + 255) / 256, other = 2;\n"
		 "\tk<<<blocks, 256>>>(y, x, n);\n}\n",
		 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char src[2048], why[256], *out = NULL;
		size_t n;
		snprintf(src, sizeof src, "%s%s", EW_K, cases[i].host);
		if (ka_recipe_apply("grid-stride", src, strlen(src), "k", NULL, &out, &n, why, sizeof why) !=
		    KA_OK)
			fail_msg("case %zu declined: %s", i, why);
		const char *decl = strstr(cases[i].host, "\tconst int grid_size") ? "grid_size ="
										  : "blocks =";
		if ((strstr(out, decl) == NULL) != cases[i].dropped)
			fail_msg("case %zu: the declaration was %s:\n%s", i,
				 cases[i].dropped ? "kept" : "dropped", out);
		assert_null(strstr(out, "<<<blocks"));
		assert_null(strstr(out, "<<<grid_size"));
		free(out);
	}
	/* llm.c's launchers: the block size goes too once the grid no longer
	 * reads it; a block size something else reads stays */
	static const char llmc[] = EW_K
		"#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))\n"
		"void go(float *y, const float *x, int n)\n{\n\tconst int block_size = 128;\n"
		"\tconst int grid_size = CEIL_DIV(n, block_size);\n"
		"\tk<<<grid_size, block_size>>>(y, x, n);\n}\n"
		"void go2(float *y, const float *x, int n)\n{\n\tconst int block_size = 128;\n"
		"\tconst int grid_size = CEIL_DIV(n, block_size);\n"
		"\tk<<<grid_size, block_size>>>(y, x, n);\n\tprintf(\"%d\", block_size);\n}\n";
	char why[256], *out = NULL;
	size_t n;
	if (ka_recipe_apply("grid-stride", llmc, strlen(llmc), "k", NULL, &out, &n, why, sizeof why) != KA_OK)
		fail_msg("declined: %s", why);
	const char *go2 = strstr(out, "void go2");
	assert_non_null(go2);
	assert_null(strstr(out, "grid_size ="));
	const char *bs = strstr(out, "block_size = 128");
	assert_true(bs && bs > go2 && !strstr(bs + 1, "block_size = 128"));
	free(out);
}

/* `if (i >= n) return; { a; } b;`: the loop a recipe writes around the
 * body must hold b too, not only the block (b ran once, past n). */
static void test_body_after_block(void **st)
{
	(void)st;
	static const char src[] = "__global__ void k(float *y, const float *x, int n)\n{\n"
				  "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i >= n) return;\n"
				  "\t{ y[i] = x[i]; }\n\ty[i] *= 2.0f;\n}\n" EW_GO;
	static const char *const recipes[] = {"grid-stride", "vectorize"};
	for (size_t r = 0; r < 2; r++) {
		char why[256], *out = NULL;
		size_t n;
		if (ka_recipe_apply(recipes[r], src, strlen(src), "k", NULL, &out, &n, why, sizeof why) !=
		    KA_OK)
			fail_msg("%s declined: %s", recipes[r], why);
		/* the scalar loop: its one statement holds both */
		const char *f = strstr(out, "ka_e += ka_step)");
		assert_non_null(f);
		size_t s = (size_t)(f - out) + strlen("ka_e += ka_step)"), e = ka_csrc_stmt_end(out, n, s);
		assert_true(e != (size_t)-1);
		if (!ka_csrc_has_word(out, s, e, "y") || !strstr(out + s, "*= 2.0f") ||
		    (size_t)(strstr(out + s, "*= 2.0f") - out) > e)
			fail_msg("%s leaves a statement after its loop:\n%s", recipes[r], out);
		free(out);
	}
	/* the histogram takes one atomic statement, not a block and more */
	static const char hist[] = "__global__ void k(const int *x, unsigned *h, int nb, int n)\n{\n"
				   "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i >= n) return;\n"
				   "\t{ atomicAdd(&h[x[i] % nb], 1u); }\n\th[0] = 0;\n}\n"
				   "void go(const int *x, unsigned *h, int nb, int n) { k<<<(n + 255) / 256, "
				   "256>>>(x, h, nb, n); }\n";
	char why[256], *out = NULL;
	size_t n;
	assert_int_equal(
		ka_recipe_apply("smem-histogram", hist, strlen(hist), "k", NULL, &out, &n, why, sizeof why),
		KA_RECIPE_DECLINED);
	assert_non_null(strstr(why, "more than one statement"));
}

/* vectorize: an element is written by more than `p[i] = E` (++, op=, an
 * out-parameter, an atomic); a float4 copy stands only for loads, stores
 * and read-modify-writes, and every copy that changed is stored. */
static void test_vectorize_writes(void **st)
{
	(void)st;
	static const char src[] =
		"__global__ void k(float *out, const float *in, float *s, float *c, float *y, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i < n) { out[i]++; sincosf(in[i], &s[i], &c[i]); y[i] = y[i] * 2.0f; }\n}\n"
		"void go(float *o, const float *in, float *s, float *c, float *y, int n) { k<<<(n + 255) / 256, "
		"256>>>(o, in, s, c, y, n); }\n";
	char why[256], *out = NULL;
	size_t n;
	if (ka_recipe_apply("vectorize", src, strlen(src), "k", NULL, &out, &n, why, sizeof why) != KA_OK)
		fail_msg("declined: %s", why);
	static const char *const want[] = {
		"float4 ka_out = reinterpret_cast<const float4 *>(out)[ka_v];", /* ++ reads it */
		"float4 ka_y = reinterpret_cast<const float4 *>(y)[ka_v];",     /* y[i] * 2 reads it */
		"reinterpret_cast<float4 *>(out)[ka_v] = ka_out;",
		"reinterpret_cast<float4 *>(y)[ka_v] = ka_y;",
		"sincosf(ka_in.x, &s[i], &c[i]);", /* out-parameters stay scalar */
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!strstr(out, want[i]))
			fail_msg("lacks '%s':\n%s", want[i], out);
	assert_null(strstr(out, "float4 ka_s "));
	assert_null(strstr(out, "float4 ka_c "));
	free(out);
	/* nothing left to vectorize: an atomic, and a writable element passed
	 * where a reference parameter could change it */
	static const char *const no[] = {
		"__global__ void k(float *y, float *x, int n)\n{\n\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i < n) atomicAdd(&y[i], x[i]);\n}\n",
		"__device__ void bump(float &v) { v += 1.0f; }\n"
		"__global__ void k(float *y, int n)\n{\n\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i < n) bump(y[i]);\n}\n",
		"__global__ void k(float *y, int n)\n{\n\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i < n) { float &r = y[i]; r *= 2.0f; }\n}\n",
	};
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
		int rc = ka_recipe_apply("vectorize", no[i], strlen(no[i]), "k", NULL, &out, &n, why,
					 sizeof why);
		if (rc != KA_RECIPE_DECLINED)
			fail_msg("case %zu: rc %d:\n%s", i, rc, rc == KA_OK ? out : "");
		assert_non_null(strstr(why, "no float pointer is accessed only as p[i]"));
	}
}

/* fuse-elementwise: a buffer one kernel could write must be touched only at
 * the thread's own element in every kernel, or a later body reads an
 * element that another thread has not written yet. */
static void test_fuse_writes(void **st)
{
	(void)st;
	static const char *const first[] = {
		"if (i < n) t[n - 1 - i] = x[i];",         /* a scatter */
		"if (i < n) *(t + i) = x[i];",             /* pointer arithmetic */
		"if (i < n) { t[i] = x[i]; t[i + 1]++; }", /* ++ on another element */
		"if (i < n) atomicAdd(&t[i], x[i]);",      /* an atomic */
		"if (i < n) t[i] %= 3;",                   /* op= is a write, and t read below at i + 1 */
	};
	static const char *const second[] = {
		"if (i < n) y[i] = 2.0f * t[i];",
		"if (i < n) y[i] = 2.0f * t[i];",
		"if (i < n) y[i] = 2.0f * t[i];",
		"if (i < n) y[i] = 2.0f * t[i];",
		"if (i < n) y[i] = t[i] + t[i + 1 < n ? i + 1 : i];",
	};
	for (size_t i = 0; i < sizeof first / sizeof first[0]; i++) {
		char src[2048], why[256], *out = NULL;
		size_t n;
		snprintf(
			src, sizeof src,
			"__global__ void a(const float *x, float *t, int n)\n{\n"
			"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\t%s\n}\n"
			"__global__ void b(float *t, float *y, int n)\n{\n"
			"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\t%s\n}\n"
			"void go(const float *x, float *t, float *y, int n)\n{\n"
			"\ta<<<(n + 255) / 256, 256>>>(x, t, n);\n\tb<<<(n + 255) / 256, 256>>>(t, y, n);\n}\n",
			first[i], second[i]);
		int rc = ka_recipe_apply("fuse-elementwise", src, strlen(src), "a", NULL, &out, &n, why,
					 sizeof why);
		if (rc != KA_RECIPE_DECLINED)
			fail_msg("case %zu: rc %d:\n%s", i, rc, rc == KA_OK ? out : "");
		if (!strstr(why, "t is writable and used other than as its own element"))
			fail_msg("case %zu: reason '%s'", i, why);
	}
}

/* The global thread index's declaration: the whole type is matched (so
 * `unsigned int i` is not `unsigned` and a name `int i`), const anywhere in
 * it, integer types of 32 bits or more only. */
static void test_index_types(void **st)
{
	(void)st;
	static const struct {
		const char *decl, *var, *type, *base;
	} ok[] = {
		{"int i = blockIdx.x * blockDim.x + threadIdx.x;", "i", "int", "int"},
		{"unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;", "idx", "unsigned int",
		 "unsigned int"},
		{"unsigned i = blockIdx.x * blockDim.x + threadIdx.x;", "i", "unsigned", "unsigned"},
		{"uint tid = threadIdx.x + blockIdx.x * blockDim.x;", "tid", "uint", "uint"},
		{"const int i = blockDim.x * blockIdx.x + threadIdx.x;", "i", "const int", "int"},
		{"const unsigned int gid = blockIdx.x * blockDim.x + threadIdx.x;", "gid",
		 "const unsigned int", "unsigned int"},
		{"const  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;", "i", "const int64_t",
		 "int64_t"},
		{"int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;", "i", "int64_t", "int64_t"},
		{"size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;", "i", "size_t", "size_t"},
		{"unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;", "i",
		 "unsigned long long", "unsigned long long"},
		{"long long int i = blockIdx.x * (long long)blockDim.x + threadIdx.x;", "i", "long long int",
		 "long long int"},
		{"int const i = blockIdx.x * blockDim.x + threadIdx.x;", "i", "int const", "int"},
		{"std::size_t i = blockIdx.x * blockDim.x + threadIdx.x;", "i", "std::size_t", "std::size_t"},
		/* functional casts, and the product in parentheses */
		{"const int64_t i = int64_t(blockDim.x)*blockIdx.x + threadIdx.x;", "i", "const int64_t",
		 "int64_t"},
		{"size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;", "i", "size_t",
		 "size_t"},
		{"int i = (blockIdx.x * blockDim.x) + threadIdx.x;", "i", "int", "int"},
		{"int i = threadIdx.x + (blockDim.x * blockIdx.x);", "i", "int", "int"},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		ka_recipe_tid d;
		char var[64];
		if (!ka_recipe_tid_decl(ok[i].decl, 0, strlen(ok[i].decl), 'x', &d))
			fail_msg("'%s' is not taken", ok[i].decl);
		assert_string_equal(d.var, ok[i].var);
		assert_string_equal(d.type, ok[i].type);
		assert_string_equal(d.base, ok[i].base);
		assert_true(ka_recipe_is_tid_decl(ok[i].decl, 0, strlen(ok[i].decl), var, sizeof var));
		assert_string_equal(var, ok[i].var);
	}
	static const char *const no[] = {
		"short i = blockIdx.x * blockDim.x + threadIdx.x;",
		"unsigned char i = blockIdx.x * blockDim.x + threadIdx.x;",
		"float i = blockIdx.x * blockDim.x + threadIdx.x;",
		"auto i = blockIdx.x * blockDim.x + threadIdx.x;",
		"int *i = blockIdx.x * blockDim.x + threadIdx.x;",
		"unsigned int = blockIdx.x * blockDim.x + threadIdx.x;",
		"const i = blockIdx.x * blockDim.x + threadIdx.x;",
		"int i = blockIdx.x * blockDim.x + threadIdx.y;",
		"i = blockIdx.x * blockDim.x + threadIdx.x;",
		"int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;",
		"int i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;",
		"int i = uint8_t(blockIdx.x) * blockDim.x + threadIdx.x;",
		"int i = myint(blockIdx.x) * blockDim.x + threadIdx.x;",
	};
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
		ka_recipe_tid d;
		if (ka_recipe_tid_decl(no[i], 0, strlen(no[i]), 'x', &d))
			fail_msg("'%s' is taken", no[i]);
	}
	static const char y[] = "const uint row = blockIdx.y * blockDim.y + threadIdx.y;";
	ka_recipe_tid d;
	assert_true(ka_recipe_tid_decl(y, 0, strlen(y), 'y', &d));
	assert_string_equal(d.base, "uint");
	assert_false(ka_recipe_tid_decl(y, 0, strlen(y), 'x', &d));
}

/* An index declared const (or unsigned, or 64-bit) is taken by every
 * recipe that reads it, and none steps it: the loops run on a variable of
 * their own and declare the index inside as it was written.  Each output
 * compiles. */
static void test_const_index(void **st)
{
	(void)st;
#define CI_EW(DECL, GUARD) \
	"__global__ void k(float *y, const float *x, int n)\n{\n\t" DECL \
	" = blockIdx.x * blockDim.x + threadIdx.x;\n\t" GUARD " y[i] = 2.0f * x[i] + i;\n}\n" EW_GO
	static const struct {
		const char *recipe, *params, *src;
		const char *want[3];
	} cases[] = {
		{"grid-stride", NULL, CI_EW("const int i", "if (i < n)"), {"\t\tconst int i = ka_e;", NULL}},
		{"grid-stride",
		 NULL,
		 CI_EW("const unsigned int i", "if (i >= n) return;"),
		 {"\t\tconst unsigned int i = ka_e;", NULL}},
		{"grid-stride",
		 NULL,
		 CI_EW("const int64_t i", "if (i < n)"),
		 {"const int64_t i = ka_e;", NULL}},
		{"vectorize",
		 NULL,
		 CI_EW("const int i", "if (i < n)"),
		 {"const int i = 4 * ka_v + 3;", "\t\tconst int i = ka_e;", NULL}},
		{"vectorize",
		 NULL,
		 CI_EW("uint i", "if (i >= n) return;"),
		 {"uint i = 4 * ka_v + 0;", "uint i = ka_e;", NULL}},
		{"launch-tune",
		 "block=128",
		 CI_EW("const unsigned int i", "if (i < n)"),
		 {"k<<<(n+127)/128, 128>>>", NULL}},
		{"smem-histogram",
		 NULL,
		 "__global__ void k(const int *x, unsigned *h, int nb, int n)\n{\n"
		 "\tconst unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		 "\tif (i < n) atomicAdd(&h[x[i] % nb], 1u);\n}\n"
		 "void go(const int *x, unsigned *h, int nb, int n) { k<<<(n + 255) / 256, 256>>>(x, h, nb, n); }\n",
		 {"\t\tconst unsigned int i = ka_e;", NULL}},
		/* the fused index has the kernels' type, const or not */
		{"fuse-elementwise",
		 NULL,
		 "__global__ void a(const float *x, float *t, int n)\n{\n"
		 "\tconst unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) t[i] = x[i] + 1.0f;\n}\n"
		 "__global__ void b(float *t, int n)\n{\n"
		 "\tunsigned int j = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (j < n) t[j] *= 2.0f;\n}\n"
		 "void go(const float *x, float *t, int n)\n{\n"
		 "\ta<<<(n + 255) / 256, 256>>>(x, t, n);\n\tb<<<(n + 255) / 256, 256>>>(t, n);\n}\n",
		 {"\tunsigned int ka_i = blockIdx.x * (long long)blockDim.x + threadIdx.x;",
		  "t[ka_i] *= 2.0f;", NULL}},
		{"warp-per-row",
		 NULL,
		 "__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		 "\tconst unsigned int r = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (r >= rows) return;\n"
		 "\tfloat s = 0.0f;\n" ROW_LOOP "\ty[r] = s;\n}\n"
		 "void h(const float *x, float *y, int rows, int cols) { k<<<rows, 32>>>(x, y, rows, cols); }\n",
		 {"const unsigned int r = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;", NULL}},
		{"stencil-column",
		 "bx=32 by=4 rows=4",
		 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
		 "\tconst unsigned int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + "
		 "threadIdx.y;\n"
		 "\tif (i >= h || j >= w) return;\n\tlong long k = (long long)i * w + j;\n"
		 "\tif (i == 0 || j == 0 || i == h - 1 || j == w - 1) y[k] = x[k];\n"
		 "\telse y[k] = 0.2f * (x[k] + x[k - w] + x[k + w] + x[k - 1] + x[k + 1]);\n}\n"
		 "void run(const float *x, float *y, int h, int w)\n"
		 "{\n\tk<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(x, y, h, w);\n}\n",
		 {"const unsigned int j = blockIdx.x * blockDim.x + threadIdx.x;",
		  "const unsigned int i = ka_i0 + ka_r;", NULL}},
	};
#undef CI_EW
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char why[256], err[4096], *out = NULL;
		size_t n;
		int rc = ka_recipe_apply(cases[i].recipe, cases[i].src, strlen(cases[i].src), NULL,
					 cases[i].params, &out, &n, why, sizeof why);
		if (rc != KA_OK)
			fail_msg("case %zu (%s): rc %d: %s", i, cases[i].recipe, rc, why);
		for (int w = 0; w < 3 && cases[i].want[w]; w++)
			if (!strstr(out, cases[i].want[w]))
				fail_msg("case %zu (%s): no '%s' in\n%s", i, cases[i].recipe,
					 cases[i].want[w], out);
		if (strstr(out, "i += ka_step") || strstr(out, "for (;"))
			fail_msg("case %zu (%s) steps the kernel's index:\n%s", i, cases[i].recipe, out);
		if (nvcc_compiles(out, err, sizeof err) == 0)
			fail_msg("case %zu (%s) does not compile:\n%s\n%s", i, cases[i].recipe, err, out);
		free(out);
	}
	/* kernels whose indices differ in type are not fused */
	static const char mixed[] =
		"__global__ void a(const float *x, float *t, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) t[i] = x[i] + 1.0f;\n}\n"
		"__global__ void b(float *t, int n)\n{\n"
		"\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (i < n) t[i] *= 2.0f;\n}\n"
		"void go(const float *x, float *t, int n)\n{\n"
		"\ta<<<(n + 255) / 256, 256>>>(x, t, n);\n\tb<<<(n + 255) / 256, 256>>>(t, n);\n}\n";
	char why[256], *out = NULL;
	size_t n;
	assert_int_equal(ka_recipe_apply("fuse-elementwise", mixed, strlen(mixed), "a", NULL, &out, &n, why,
					 sizeof why),
			 KA_RECIPE_DECLINED);
	assert_non_null(strstr(why, "the index of a is 'int', that of b 'long long'"));
}

/* launch-tune: a new block size is safe only for a body that is a function
 * of its global index; a name it cannot resolve may be the old block size. */
static void test_launch_tune_block_free(void **st)
{
	(void)st;
	static const struct {
		const char *pre, *body, *reason;
	} cases[] = {
		{"#define BS 256\n", "int i = blockIdx.x * BS + threadIdx.x;\n\tif (i < n) y[i] = 1.0f;",
		 "not a global thread index"},
		{"#define BS 256\n",
		 "int i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = i / BS;", "uses 'BS'"},
		{"constexpr int B = 256;\n",
		 "int i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = (float)(i % B);",
		 "uses 'B'"},
		{"__device__ float f(int i) { return (float)(i / 256); }\n",
		 "int i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = f(i);", "uses 'f'"},
		{"", "int i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = i % 0x100;",
		 "the literal 0x100"},
		{"", "int i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = 256.0f;",
		 "the literal 256.0f"},
		/* one count per block: a new block size changes it */
		{"",
		 "int i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (threadIdx.x == 0) atomicAdd(&y[0], 1.0f);",
		 "uses threadIdx past its index"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char src[1024], why[256], *out = NULL;
		size_t n;
		snprintf(src, sizeof src,
			 "%s__global__ void k(float *y, int n)\n{\n\t%s\n}\n"
			 "void go(float *y, int n) { k<<<(n + 255) / 256, 256>>>(y, n); }\n",
			 cases[i].pre, cases[i].body);
		int rc = ka_recipe_apply("launch-tune", src, strlen(src), "k", "block=128", &out, &n, why,
					 sizeof why);
		if (rc != KA_RECIPE_DECLINED)
			fail_msg("case %zu: rc %d:\n%s", i, rc, rc == KA_OK ? out : "");
		if (!strstr(why, cases[i].reason))
			fail_msg("case %zu: reason '%s' lacks '%s'", i, why, cases[i].reason);
	}
	/* locals, casts, math functions and members resolve */
	static const char ok[] =
		"__global__ void k(float2 *y, const float *x, int n)\n{\n"
		"\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
		"\tif (i < n) {\n\t\tconst float *p = x + i;\n\t\tfloat v = expf(*p), w = 2.0f;\n"
		"\t\ty[i].x = v * (float)n;\n\t\ty[i].y = -INFINITY;\n\t}\n}\n"
		"void go(float2 *y, const float *x, int n) { k<<<(n + 255) / 256, 256>>>(y, x, n); }\n";
	char why[256], *out = NULL;
	size_t n;
	if (ka_recipe_apply("launch-tune", ok, strlen(ok), "k", "block=128", &out, &n, why, sizeof why) !=
	    KA_OK)
		fail_msg("declined: %s", why);
	assert_non_null(strstr(out, "k<<<(n+127)/128, 128>>>"));
	free(out);
}

/* seq-reduction on shapes the bench baselines do not have: Harris' index
 * variant over blockDim.x (dynamic shared memory, a dim3 launch, every
 * thread reading the total: a barrier after the shuffles), and a 64-value
 * tree (no loop left, only the warp). */
static void test_seq_reduction_shapes(void **st)
{
	(void)st;
	static const char *const src[] = {
		"__global__ void k(const float *g_in, float *g_out, unsigned int n)\n{\n"
		"    extern __shared__ float sdata[];\n    unsigned int tid = threadIdx.x;\n"
		"    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"    sdata[tid] = (i < n) ? g_in[i] : 0;\n    __syncthreads();\n"
		"    for (unsigned int s = 1; s < blockDim.x; s *= 2) {\n        int index = 2 * s * tid;\n"
		"        if (index < blockDim.x) {\n            sdata[index] += sdata[index + s];\n        }\n"
		"        __syncthreads();\n    }\n    float total = sdata[0];\n"
		"    if (tid == 0) g_out[blockIdx.x] = total;\n}\n"
		"void h(const float *in, float *out, unsigned n)\n{\n"
		"    k<<<(n + 511) / 512, dim3(512), 512 * sizeof(float)>>>(in, out, n);\n}\n",
		"__global__ void k(const int *x, int *y)\n{\n\t__shared__ int t[64];\n"
		"\tt[threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];\n\t__syncthreads();\n"
		"\tfor (int s = 1; s < 64; s <<= 1) {\n\t\tif ((threadIdx.x & (2 * s - 1)) == 0) t[threadIdx.x] = "
		"t[threadIdx.x] + t[threadIdx.x + s];\n\t\t__syncthreads();\n\t}\n"
		"\tif (threadIdx.x == 0) y[blockIdx.x] = t[0];\n}\n",
		/* the halving loop's test casts the index: (int)threadIdx.x < s */
		"__global__ void k(const float *x, float *y)\n{\n\t__shared__ float t[128];\n"
		"\tt[threadIdx.x] = x[blockIdx.x * 128 + threadIdx.x];\n\t__syncthreads();\n"
		"\tfor (int s = 64; s > 0; s >>= 1) {\n\t\tif ((int)threadIdx.x < s) t[threadIdx.x] += "
		"t[threadIdx.x + s];\n\t\t__syncthreads();\n\t}\n"
		"\tif (threadIdx.x == 0) y[blockIdx.x] = t[0];\n}\n",
		/* blockDim.x proven from a block size held in a const variable */
		"__global__ void k(const float *x, float *y)\n{\n\t__shared__ float t[256];\n"
		"\tt[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];\n\t__syncthreads();\n"
		"\tfor (int s = blockDim.x / 2; s > 0; s >>= 1) {\n\t\tif (threadIdx.x < s) t[threadIdx.x] += "
		"t[threadIdx.x + s];\n\t\t__syncthreads();\n\t}\n"
		"\tif (threadIdx.x == 0) y[blockIdx.x] = t[0];\n}\n"
		"void h(const float *x, float *y, int n)\n{\n\tconst int block = 256;\n"
		"\tk<<<n / block, block>>>(x, y);\n}\n",
	};
	static const char *const want[][3] = {
		{"    for (unsigned int s = 256; s > 32; s >>= 1) {\n        if (tid < s) sdata[tid] += sdata[tid + s];\n",
		 "        float ka_v = sdata[tid] + sdata[tid + 32];\n",
		 "    }\n    __syncthreads(); /* every thread reads sdata[0] below */\n    float total = sdata[0];\n"},
		{"\tif (threadIdx.x < 32) {", "\t\tint ka_v = t[threadIdx.x] + t[threadIdx.x + 32];\n",
		 "\t\tif (threadIdx.x == 0) t[0] = ka_v;\n\t}\n\tif (threadIdx.x == 0) y[blockIdx.x] = t[0];\n}\n"},
		{"\tif (threadIdx.x < 32) {", "ka_v", "\tif (threadIdx.x == 0) y[blockIdx.x] = t[0];\n}\n"},
		{"for (int s = 128; s > 32; s >>= 1)", "ka_v", "\tk<<<n / block, block>>>(x, y);\n"},
	};
	for (size_t i = 0; i < sizeof src / sizeof src[0]; i++) {
		char why[256], err[4096], *out = NULL;
		size_t n;
		int rc = ka_recipe_apply("seq-reduction", src[i], strlen(src[i]), NULL, NULL, &out, &n, why,
					 sizeof why);
		if (rc != KA_OK)
			fail_msg("shape %zu: rc %d: %s", i, rc, why);
		for (int j = 0; j < 3; j++)
			if (!strstr(out, want[i][j]))
				fail_msg("shape %zu lacks '%s':\n%s", i, want[i][j], out);
		if (i == 1 && strstr(out, "for (int s"))
			fail_msg("a 64-value tree keeps a loop:\n%s", out);
		if (nvcc_compiles(out, err, sizeof err) == 0)
			fail_msg("shape %zu does not compile:\n%s", i, err);
		free(out);
	}
}

/* launch-tune on a block size held in a variable or a macro whose only
 * definition is a constant; one changed before the launch declines */
static void test_launch_block_var(void **st)
{
	(void)st;
	static const char kern[] = "__global__ void k(const float *x, float *y, int n)\n{\n"
				   "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
				   "\tif (i < n) y[i] = 2.0f * x[i];\n}\n";
	static const char *const host[] = {
		"void h(const float *x, float *y, int n)\n{\n\tint block = 256;\n"
		"\tk<<<(n + block - 1) / block, block>>>(x, y, n);\n}\n",
		"void h(const float *x, float *y, int n)\n{\n\tconst int threads = 256;\n"
		"\tk<<<(n + threads - 1) / threads, threads>>>(x, y, n);\n}\n",
		"void h(const float *x, float *y, int n)\n{\n\tconstexpr int BS = 256;\n"
		"\tk<<<(n + 255) / 256, BS>>>(x, y, n);\n}\n",
		"#define BLOCK 256\nvoid h(const float *x, float *y, int n)\n{\n"
		"\tk<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, y, n);\n}\n",
	};
	for (size_t i = 0; i < sizeof host / sizeof host[0]; i++) {
		char src[1024], why[256], err[4096], *out = NULL;
		size_t n;
		snprintf(src, sizeof src, "%s%s", kern, host[i]);
		int rc = ka_recipe_apply("launch-tune", src, strlen(src), NULL, "block=128", &out, &n, why,
					 sizeof why);
		if (rc != KA_OK)
			fail_msg("form %zu: rc %d: %s", i, rc, why);
		if (!strstr(out, "+127)/128, 128>>>(x, y, n);"))
			fail_msg("form %zu is not launched with 128 threads:\n%s", i, out);
		if (i < 3 && strstr(out, " = 256;"))
			fail_msg("form %zu keeps a dead block variable:\n%s", i, out);
		if (nvcc_compiles(out, err, sizeof err) == 0)
			fail_msg("form %zu does not compile:\n%s", i, err);
		free(out);
	}
	static const char *const changed[] = {
		"void h(const float *x, float *y, int n)\n{\n\tint block = 256;\n\tif (n < 4096) block = 64;\n"
		"\tk<<<(n + block - 1) / block, block>>>(x, y, n);\n}\n",
		"void h(const float *x, float *y, int n)\n{\n\tint block = 256;\n\tblock *= 2;\n"
		"\tk<<<(n + block - 1) / block, block>>>(x, y, n);\n}\n",
		"#define BLOCK 256\n#undef BLOCK\n#define BLOCK 512\nvoid h(const float *x, float *y, int n)\n{\n"
		"\tk<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, y, n);\n}\n",
	};
	for (size_t i = 0; i < sizeof changed / sizeof changed[0]; i++) {
		char src[1024], why[256], *out = NULL;
		size_t n;
		snprintf(src, sizeof src, "%s%s", kern, changed[i]);
		int rc = ka_recipe_apply("launch-tune", src, strlen(src), NULL, "block=128", &out, &n, why,
					 sizeof why);
		/* the text reader and the model (a name read past the launches, a macro defined twice) */
		if (rc != KA_RECIPE_DECLINED || !(strstr(why, "is not a literal") ||
						  strstr(why, "'block' is used past the launches of k") ||
						  strstr(why, "the block size 'BLOCK' is not a variable")))
			fail_msg("changed form %zu: rc %d: %s\n%s", i, rc, why, out ? out : "");
		free(out);
	}
}

/* warp-per-row on row kernels spelled in ways the recipe once declined */
static void test_rowwarp_shapes(void **st)
{
	(void)st;
	static const char *const src[] = {
		/* a chunk partial declared before its loop and reset inside it */
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tint r = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (r >= rows) return;\n"
		"\tfloat acc = 0.0f;\n\tfloat part;\n"
		"\tfor (int c0 = 0; c0 < cols; c0 += 64) {\n\t\tpart = 0.0f;\n"
		"\t\tfor (int j = c0; j < c0 + 64 && j < cols; j++)\n"
		"\t\t\tpart += x[(long long)r * cols + j];\n\t\tacc += part;\n\t}\n"
		"\ty[r] = acc / cols;\n}\n"
		"void h(const float *x, float *y, int rows, int cols)\n{\n"
		"\tk<<<(rows + 255) / 256, 256>>>(x, y, rows, cols);\n}\n",
		/* the kernel model: an `if (row < rows) {...}` guard, the index through
		 * helper variables, an argmax pair (strict: the first index wins) */
		"__global__ void k(const float *x, int *y, size_t rows, size_t cols)\n{\n"
		"\tconst size_t b = blockIdx.x, t = threadIdx.x;\n\tsize_t row = t + b * blockDim.x;\n"
		"\tif (row < rows) {\n\t\tconst float *p = x + row * cols;\n\t\tfloat best = p[0];\n\t\tint at = 0;\n"
		"\t\tfor (size_t j = 1; j < cols; ++j) {\n\t\t\tif (p[j] > best) {\n\t\t\t\tbest = p[j];\n"
		"\t\t\t\tat = (int)j;\n\t\t\t}\n\t\t}\n\t\ty[row] = at;\n\t}\n}\n"
		"void h(const float *x, int *y, size_t rows, size_t cols)\n{\n"
		"\tk<<<(rows + 255) / 256, 256>>>(x, y, rows, cols);\n}\n",
		/* rows counted by a product of two parameters; an if/else store per column;
		 * a compare-and-keep max; eight lanes per row */
		"__global__ void k(float *out, const float *inp, int N, int T)\n{\n"
		"\tint idx = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (idx < N * T) {\n"
		"\t\tint own = idx % T;\n\t\tconst float *x = inp + (size_t)idx * T;\n"
		"\t\tfloat *y = out + (size_t)idx * T;\n\t\tfloat m = -INFINITY;\n"
		"\t\tfor (int c = 0; c <= own; c++)\n\t\t\tif (x[c] > m)\n\t\t\t\tm = x[c];\n"
		"\t\tfor (int c = 0; c < T; c++) {\n\t\t\tif (c <= own)\n\t\t\t\ty[c] = x[c] - m;\n"
		"\t\t\telse\n\t\t\t\ty[c] = 0.0f;\n\t\t}\n\t}\n}\n"
		"void h(float *o, const float *i, int N, int T)\n{\n"
		"\tk<<<(N * T + 127) / 128, 128>>>(o, i, N, T);\n}\n",
		/* a block per row */
		"__global__ void k(const float *x, float *y, long long rows, long long cols)\n{\n"
		"\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (r >= rows) return;\n"
		"\tfloat s = 0.0f, mn = INFINITY;\n\tfor (long long j = 0; j < cols; j++) {\n"
		"\t\ts += x[r * cols + j];\n\t\tmn = fminf(mn, x[r * cols + j]);\n\t}\n"
		"\ty[r] = s - mn;\n}\n"
		"void h(const float *x, float *y, long long rows, long long cols)\n{\n"
		"\tk<<<(rows + 255) / 256, 256>>>(x, y, rows, cols);\n}\n",
	};
	static const char *const params[] = {"block=256", "block=256", "block=256 lanes=8",
					     "block=512 lanes=block"};
	static const char *const want[][3] = {
		{"for (int j = (c0) + ka_lane; j < c0 + 64 && j < cols; j += 32)", "acc = ka_warp_sum(acc);",
		 "if (ka_lane == 0) { y[r] = acc / cols; }"},
		{"const size_t row = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;",
		 "ka_warp_argmax_first(best, at);", "if (ka_lane == 0) { y[row] = at; }"},
		{"const unsigned ka_mask = __ballot_sync(0xffffffffu, idx < (N * T));",
		 "m = ka_group_max<8>(ka_mask, m);",
		 "k<<<(unsigned)(((long long)(N) * (long long)(T) * 8 + 255) / 256), 256>>>"},
		{"const long long r = blockIdx.x;", "s = ka_block_sum(s);", "mn = ka_block_min(mn);"},
	};
	for (size_t i = 0; i < sizeof src / sizeof src[0]; i++) {
		char why[256], err[4096], *out = NULL;
		size_t n;
		int rc = ka_recipe_apply("warp-per-row", src[i], strlen(src[i]), NULL, params[i], &out, &n,
					 why, sizeof why);
		if (rc != KA_OK)
			fail_msg("shape %zu: rc %d: %s", i, rc, why);
		for (int j = 0; j < 3; j++)
			if (!strstr(out, want[i][j]))
				fail_msg("shape %zu lacks '%s':\n%s", i, want[i][j], out);
		if (nvcc_compiles(out, err, sizeof err) == 0)
			fail_msg("shape %zu does not compile:\n%s", i, err);
		free(out);
	}
}

typedef struct form {
	const char *recipe, *params, *src;
	const char *want[3]; /* strings the output holds */
} form;

static const form forms[] = {
	/* an inline launch */
	{"launch-tune-2d",
	 "bx=64 by=4",
	 "__global__ void k(const float *x, float *y, int h, int w)\n{\n"
	 "\tint j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (i >= h || j >= w) return;\n\ty[i * w + j] = x[i * w + j];\n}\n"
	 "void run(const float *x, float *y, int h, int w)\n"
	 "{\n\tk<<<dim3((w + 7) / 8, (h + 31) / 32), dim3(8, 32)>>>(x, y, h, w);\n}\n",
	 {"k<<<dim3((w + 63) / 64, (h + 3) / 4), dim3(64, 4)>>>", NULL}},
	/* `dim3 v = dim3(...)`, (N + B - 1) / B, two index statements y first,
	 * a guarded body, two launches sharing the declarations */
	{"launch-tune-2d",
	 "bx=32 by=8",
	 "__global__ void k(const float *x, float *y, long long h, long long w)\n{\n"
	 "\tlong long i = blockIdx.y * (long long)blockDim.y + threadIdx.y;\n"
	 "\tlong long j = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	 "\tif (j < w && i < h) {\n\t\ty[i * w + j] = 2.0f * x[i * w + j];\n\t}\n}\n"
	 "void run(const float *x, float *y, float *z, long long h, long long w, cudaStream_t s)\n{\n"
	 "\tdim3 block = dim3(16, 4);\n"
	 "\tdim3 grid = dim3((unsigned)((w + 16 - 1) / 16), (unsigned)((h + 4 - 1) / 4));\n"
	 "\tk<<<grid, block, 0, s>>>(x, y, h, w);\n\tk<<<grid, block, 0, s>>>(y, z, h, w);\n}\n",
	 {"dim3 block = dim3(32, 8);", "dim3((unsigned)((w + 32 - 1) / 32), (unsigned)((h + 8 - 1) / 8));",
	  NULL}},
	/* a stencil with the index written out, a guarded body, doubles */
	{"stencil-column",
	 "bx=32 by=4 rows=4",
	 "__global__ void st(const double *in, double *out, int n, int m)\n{\n"
	 "\tint c = blockIdx.x * blockDim.x + threadIdx.x;\n"
	 "\tint r = blockIdx.y * blockDim.y + threadIdx.y;\n"
	 "\tif (r < n && c < m) {\n"
	 "\t\tif (r == 0 || r == n - 1 || c == 0 || c == m - 1) out[r * m + c] = in[r * m + c];\n"
	 "\t\telse out[r * m + c] = 0.25 * (in[r * m + c - m] + in[r * m + c + m] + in[r * m + c - 1] +\n"
	 "\t\t\t\t\t\tin[r * m + c + 1]) - in[r * m + c];\n\t}\n}\n"
	 "void run(const double *in, double *out, int n, int m)\n"
	 "{\n\tst<<<dim3((m + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(in, out, n, m);\n}\n",
	 {"ka_c = in[r * m + c];", "0.25 * (ka_n + ka_s + in[r * m + c - 1] +",
	  "st<<<dim3((m + 31) / 32, (n + 15) / 16), dim3(32, 4)>>>"}},
};

/* Launch and index forms beyond the bench baselines; each output compiles. */
static void test_2d_forms(void **st)
{
	(void)st;
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		const form *f = &forms[i];
		char why[256], err[4096], *out = NULL;
		size_t n;
		int rc = ka_recipe_apply(f->recipe, f->src, strlen(f->src), NULL, f->params, &out, &n, why,
					 sizeof why);
		if (rc != KA_OK)
			fail_msg("form %zu (%s): rc %d: %s", i, f->recipe, rc, why);
		for (int w = 0; w < 3 && f->want[w]; w++)
			if (!strstr(out, f->want[w]))
				fail_msg("form %zu: no '%s' in\n%s", i, f->want[w], out);
		if (nvcc_compiles(out, err, sizeof err) == 0)
			fail_msg("form %zu does not compile:\n%s\n%s", i, err, out);
		free(out);
	}
}

/* The suite's other 2-D tasks: each 2-D recipe applies or says why not. */
static void test_2d_suite(void **st)
{
	(void)st;
	static const struct {
		const char *task, *recipe, *reason;
	} cases[] = {
		{"sgemm", "stencil-column",
		 "not a five-point stencil: after the bound check comes neither `T k = i*n+j;`"},
		{"transpose", "stencil-column",
		 "not a five-point stencil: after the bound check comes neither `T k = r*cols+c;`"},
		{"transpose", "launch-tune-2d", "bad parameters 'bx=32 by=8': the block is 32x8 already"},
		{"softmax", "launch-tune-2d", "not the x and y thread indices"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[512], why[256], *out = NULL;
		size_t n;
		snprintf(path, sizeof path, "%s/bench/tasks/%s/baseline.cu", KA_SOURCE_DIR, cases[i].task);
		char *src = slurp(path);
		assert_non_null(src);
		int rc = ka_recipe_apply(cases[i].recipe, src, strlen(src), NULL, NULL, &out, &n, why,
					 sizeof why);
		if (rc != KA_RECIPE_DECLINED || !strstr(why, cases[i].reason))
			fail_msg("%s on %s: rc %d, '%s' lacks '%s'", cases[i].recipe, cases[i].task, rc, why,
				 cases[i].reason);
		free(src);
	}
}

/* parallel-scan's other forms: inclusive into a second array (overlapping
 * buffers go to the serial loop), and `s = s + x` */
static void test_scan_forms(void **st)
{
	(void)st;
	static const char src[] =
		"__global__ void k(const int *x, int *y, int m)\n{\n\tint s = 0;\n"
		"\tfor (int b = 0; b < m; ++b) {\n\t\ts = s + x[b];\n\t\ty[b] = s;\n\t}\n}\n"
		"void h(const int *x, int *y, int m, cudaStream_t st) { k<<<1, 1, 0, st>>>(x, y, m); }\n";
	char why[256], err[4096], *out = NULL;
	size_t n;
	int rc = ka_recipe_apply("parallel-scan", src, strlen(src), "k", "block=512", &out, &n, why,
				 sizeof why);
	if (rc != KA_OK)
		fail_msg("rc %d: %s", rc, why);
	assert_non_null(strstr(out, "parallel-scan (inclusive, out of place)"));
	assert_non_null(strstr(out, "if (ka_scan_overlap(x, y, ka_n)) {"));
	assert_non_null(strstr(out, "\t\t\tfor (int b = 0; b < m; ++b) {\n\t\t\t\ts = s + x[b];"));
	assert_non_null(strstr(out, "int s = ka_block_exclusive_scan(ka_sum);"));
	assert_non_null(strstr(out, "__launch_bounds__(512) k("));
	assert_non_null(strstr(out, "k<<<1, 512, 0, st>>>(x, y, m);"));
	if (nvcc_compiles(out, err, sizeof err) == 0)
		fail_msg("the inclusive scan does not compile:\n%s", err);
	free(out);
}

static void test_registry_and_offline_coder(void **st)
{
	(void)st;
	assert_non_null(ka_recipe_find("warp-per-row"));
	assert_null(ka_recipe_find("nosuch"));
	assert_true(ka_recipe_serves(ka_recipe_find("warp-per-row"), "gmem-uncoalesced-access"));
	assert_false(ka_recipe_serves(ka_recipe_find("warp-per-row"), "gmem-uncoalesced"));
	/* the rule that fires on stencil2d calls for both 2-D recipes, the stencil first */
	assert_true(ka_recipe_serves(ka_recipe_find("stencil-column"), "gmem-narrow-blockdim-x"));
	assert_true(ka_recipe_serves(ka_recipe_find("launch-tune-2d"), "gmem-narrow-blockdim-x"));
	size_t at_col = 0, at_2d = 0;
	for (size_t i = 0; i < ka_recipe_count(); i++) {
		at_col = strcmp(ka_recipe_get(i)->name, "stencil-column") ? at_col : i;
		at_2d = strcmp(ka_recipe_get(i)->name, "launch-tune-2d") ? at_2d : i;
	}
	assert_true(at_col < at_2d);
	assert_false(ka_recipe_serves(ka_recipe_find("warp-per-row"), "")); /* used to loop forever */
	char why[64], *out;
	size_t n;
	assert_int_equal(ka_recipe_apply("nosuch", "x", 1, NULL, NULL, &out, &n, why, sizeof why),
			 KA_ENOTFOUND);
	assert_string_equal(ka_error_last(), "unknown recipe 'nosuch'");
	assert_int_equal(ka_recipe_param("block=256 vec=4", "vec", 1), 4);
	assert_int_equal(ka_recipe_param("block=256 vec=4", "cap", 7), 7);

	/* the offline coder: a named recipe, a decline as an error, no repair */
	ka_coder_opts o = KA_CODER_OPTS_INIT;
	ka_coder *c;
	assert_int_equal(ka_coder_new(&c, &o), KA_OK);
	assert_string_equal(ka_coder_name(c), "offline");
	char path[512];
	snprintf(path, sizeof path, "%s/bench/tasks/gemv/baseline.cu", KA_SOURCE_DIR);
	char *src = slurp(path);
	ka_coder_request req = {.path = path,
				.source = src,
				.source_len = strlen(src),
				.strategy = "warp-per-row",
				.params = "block=128"};
	ka_coder_reply rep;
	assert_int_equal(ka_coder_propose(c, &req, &rep), KA_OK);
	assert_non_null(strstr(rep.source, "ka_warp_sum(s)"));
	assert_non_null(strstr(rep.source, "<<<(unsigned)(((long long)(m) * 32 + 128) / 128), 128, 0, s>>>"));
	assert_string_equal(rep.note, "warp-per-row block=128");
	assert_int_equal(rep.llm_made, 0);
	ka_coder_reply_clear(&rep);
	req.strategy = "smem-histogram";
	assert_int_equal(ka_coder_propose(c, &req, &rep), KA_ENOTFOUND);
	assert_non_null(strstr(ka_error_last(), "recipe smem-histogram declined: gemv_naive: "));
	req.strategy = NULL; /* the first recipe that applies */
	assert_int_equal(ka_coder_propose(c, &req, &rep), KA_OK);
	assert_string_equal(rep.strategy, "warp-per-row");
	ka_coder_reply_clear(&rep);
	assert_int_equal(ka_coder_repair(c, &req, "x", 1, "error: y", &rep), KA_ENOTFOUND);
	ka_coder_free(c);
	free(src);
}

/* Guards bounded by a product or sum of parameters, directly or through a
 * local (the kernel model's guard.bound_value), and the vectorize recipe
 * along a row of a split index (c = i % C, pointer locals P + OFF): the
 * spellings of llm.c's crossentropy_forward and encoder_forward.  Each
 * rewrite must compile; what is not provably one element per thread, or
 * not one step along the row, declines. */
#define ENC_HEAD(IDX) \
	"__global__ void k(float *out, const int *inp, const float *wte, const float *wpe, int B, int T, int C)\n{\n" \
	"\t" IDX " idx = blockIdx.x * blockDim.x + threadIdx.x;\n"
#define ENC_GO \
	"void go(float *o, const int *i, const float *e, const float *p, int B, int T, int C)\n{\n" \
	"\tconst int n = B * T * C;\n\tk<<<(n + 255) / 256, 256>>>(o, i, e, p, B, T, C);\n}\n"
#define ENC_SPLIT "\t\tint bt = idx / C;\n\t\tint b = bt / T;\n\t\tint t = bt % T;\n\t\tint c = idx % C;\n"
static void test_product_bounds_and_rows(void **st)
{
	(void)st;
	static const struct {
		const char *recipe, *src, *want[3];
	} ok[] = {
		/* crossentropy_forward: i < B * T */
		{"grid-stride",
		 "__global__ void k(float *l, const float *p, const int *g, int B, int T, int V)\n{\n"
		 "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		 "\tif (i < B * T) {\n\t\tint b = i / T;\n\t\tint t = i % T;\n"
		 "\t\tconst float *pb = p + b * T * V + t * V;\n\t\tl[b * T + t] = -logf(pb[g[b * T + t]]);\n\t}\n}\n"
		 "void go(float *l, const float *p, const int *g, int B, int T, int V)\n{\n"
		 "\tk<<<(B * T + 127) / 128, 128>>>(l, p, g, B, T, V);\n}\n",
		 {"ka_e < ((long long)B * T)", "(long long)(B) * (long long)(T)", NULL}},
		/* the bound in a local the body reads too, and the early return */
		{"grid-stride",
		 ENC_HEAD("int") "\tconst int N = B * T * C;\n\tif (idx >= N) return;\n"
				 "\tout[idx] = wte[idx % C] + (float)N;\n}\n" ENC_GO,
		 {"\tconst int N = B * T * C;\n\tfor (long long ka_e", NULL}},
		/* a flat product bound: float4 on p[i] */
		{"vectorize",
		 "__global__ void k(float *y, const float *x, int B, int T)\n{\n"
		 "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < T * B) y[i] = 2.0f * x[i];\n}\n"
		 "void go(float *y, const float *x, int B, int T)\n{\n\tk<<<(B * T + 255) / 256, 256>>>(y, x, B, T);\n}\n",
		 {"(long long)((long long)B * T) / 4", "reinterpret_cast<float4 *>(y)[ka_v]", NULL}},
		/* encoder_forward: along the row of C, &P[OFF] and q[0] spellings */
		{"vectorize",
		 ENC_HEAD(
			 "int") "\tint N = B * T * C;\n\tif (idx < N) {\n" ENC_SPLIT
				"\t\tint ix = inp[b * T + t];\n\t\tfloat *o = out + b * T * C + t * C + c;\n"
				"\t\tconst float *e = &wte[ix * C + c];\n\t\tconst float *p = wpe + c + C * t;\n"
				"\t\to[0] = *e + p[0];\n\t}\n}\n" ENC_GO,
		 {"const long long ka_n4 = C % 4 == 0 ?", "ka_o.w = ka_e.w + ka_p.w;",
		  "o[3] = e[3] + p[3];"}},
		/* a read one element off the row's alignment: the run-time check
		 * sends it to the scalar lanes */
		{"vectorize",
		 ENC_HEAD(
			 "long long") "\tif (idx >= (long long)B * T * C) return;\n" ENC_SPLIT
				      "\tfloat *o = out + (b * T + t) * C + c;\n\tconst float *e = wpe + t * C + c + 1;\n"
				      "\t*o = *e;\n}\n" ENC_GO,
		 {"(unsigned long long)o | (unsigned long long)e) & 15) == 0", "ka_o.x = ka_e.x;",
		  "o[2] = e[2];"}},
		/* a lane's own local, declared from *q */
		{"vectorize",
		 ENC_HEAD("int") "\tif (idx < B * T * C) {\n" ENC_SPLIT "\t\tint ix = inp[bt];\n"
				 "\t\tconst float *e = wte + ix * C + c;\n\t\tfloat *o = out + bt * C + c;\n"
				 "\t\tfloat v = 2.0f * *e;\n\t\t*o = v + 1.0f;\n\t}\n}\n" ENC_GO,
		 {"float v = 2.0f * ka_e.z;", "ka_o.z = v + 1.0f;", "float v = 2.0f * e[1];"}},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char why[256], err[4096], *out = NULL;
		size_t n;
		int rc = ka_recipe_apply(ok[i].recipe, ok[i].src, strlen(ok[i].src), "k", NULL, &out, &n, why,
					 sizeof why);
		if (rc != KA_OK)
			fail_msg("case %zu (%s): rc %d: %s", i, ok[i].recipe, rc, why);
		for (int w = 0; w < 3 && ok[i].want[w]; w++)
			if (!strstr(out, ok[i].want[w]))
				fail_msg("case %zu (%s): no '%s' in\n%s", i, ok[i].recipe, ok[i].want[w],
					 out);
		if (nvcc_compiles(out, err, sizeof err) == 0)
			fail_msg("case %zu (%s) does not compile:\n%s\n%s", i, ok[i].recipe, err, out);
		free(out);
	}
	static const decline no[] = {
		/* the written pointer misses b: threads of two batches write one element */
		{"vectorize",
		 ENC_HEAD("int") "\tif (idx < B * T * C) {\n" ENC_SPLIT "\t\tfloat *o = out + t * C + c;\n"
				 "\t\t*o = wpe[t * C];\n\t}\n}\n" ENC_GO,
		 "not provably the thread's own element"},
		/* two elements per column step: not contiguous */
		{"vectorize",
		 ENC_HEAD("int") "\tif (idx < B * T * C) {\n" ENC_SPLIT "\t\tfloat *o = out + bt * C + c;\n"
				 "\t\tconst float *e = wte + 2 * c;\n\t\t*o = *e;\n\t}\n}\n" ENC_GO,
		 "does not step by one along the row"},
		/* the statement reads the column itself */
		{"vectorize",
		 ENC_HEAD("int") "\tif (idx < B * T * C) {\n" ENC_SPLIT "\t\tfloat *o = out + bt * C + c;\n"
				 "\t\t*o = (float)c;\n\t}\n}\n" ENC_GO,
		 "reads idx or c itself"},
		/* a row local that is not a function of idx / C */
		{"vectorize",
		 ENC_HEAD("int") "\tif (idx < B * T * C) {\n" ENC_SPLIT "\t\tint r = idx / T;\n"
				 "\t\tfloat *o = out + bt * C + c;\n\t\t*o = wpe[r];\n\t}\n}\n" ENC_GO,
		 "is not the same along a row"},
		/* a row local changed by a lane would be seen by the next lane */
		{"vectorize",
		 ENC_HEAD(
			 "int") "\tif (idx < B * T * C) {\n" ENC_SPLIT "\t\tint ix = inp[bt];\n"
				"\t\tfloat *o = out + bt * C + c;\n\t\tix++;\n\t\t*o = wte[ix];\n\t}\n}\n" ENC_GO,
		 "assigns ix, shared by the row's lanes"},
		/* a bound read from memory is no product of parameters */
		{"grid-stride",
		 ENC_HEAD("int") "\tint n = inp[0] * B;\n\tif (idx < n) out[idx] = 0.0f;\n}\n" ENC_GO,
		 "the bound 'n' of idx is not a parameter nor a product of them"},
		/* the body changes the bound's local: it cannot go before the loop */
		{"grid-stride",
		 ENC_HEAD(
			 "int") "\tint N = B * T;\n\tif (idx < N) {\n\t\tN = 0;\n\t\tout[idx] = (float)N;\n\t}\n}\n" ENC_GO,
		 "the body assigns N"},
	};
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
		char why[256], *out = NULL;
		size_t n;
		int rc = ka_recipe_apply(no[i].recipe, no[i].src, strlen(no[i].src), "k", NULL, &out, &n, why,
					 sizeof why);
		if (rc != KA_RECIPE_DECLINED)
			fail_msg("decline %zu (%s): rc %d, wanted a decline:\n%s", i, no[i].recipe, rc,
				 out ? out : "");
		if (!strstr(why, no[i].reason))
			fail_msg("decline %zu (%s): '%s' does not say '%s'", i, no[i].recipe, why,
				 no[i].reason);
	}
}
#undef ENC_HEAD
#undef ENC_GO
#undef ENC_SPLIT

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_and_offline_coder),
		cmocka_unit_test(test_declines),
		cmocka_unit_test(test_model_limits),
		cmocka_unit_test(test_unseen_launches),
		cmocka_unit_test(test_body_after_block),
		cmocka_unit_test(test_vectorize_writes),
		cmocka_unit_test(test_fuse_writes),
		cmocka_unit_test(test_index_types),
		cmocka_unit_test(test_const_index),
		cmocka_unit_test(test_launch_tune_block_free),
		cmocka_unit_test(test_seq_reduction_shapes),
		cmocka_unit_test(test_rowwarp_shapes),
		cmocka_unit_test(test_launch_block_var),
		cmocka_unit_test(test_2d_forms),
		cmocka_unit_test(test_2d_suite),
		cmocka_unit_test(test_scan_forms),
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_dead_grid_variable),
		cmocka_unit_test(test_product_bounds_and_rows),
	};
	/* KA_TEST_FILTER=test_rowwarp_shapes runs one test (a glob) */
	if (getenv("KA_TEST_FILTER"))
		cmocka_set_test_filter(getenv("KA_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
