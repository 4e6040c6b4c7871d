/* tests/agents/test_recipe_shapes.c: recipes that must read what a kernel
 * does through the ways it is spelled.  Each test gives one pattern in
 * several spellings (casts, helper variables, index order, guard forms),
 * asserts the rewrite's key lines and that it compiles for sm_90 when nvcc
 * is there, and gives near misses that must decline naming the construct. */
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

/* Apply recipe to kernel k of src: the text (caller frees), or NULL with
 * the reason in why. */
static char *apply(const char *recipe, const char *src, const char *params, char *why, size_t cap)
{
	char *out = NULL;
	size_t n;
	int rc = ka_recipe_apply(recipe, src, strlen(src), "k", params, &out, &n, why, cap);
	if (rc != KA_OK) {
		free(out);
		return NULL;
	}
	return out;
}

static void expect_applies(const char *recipe, const char *src, const char *params, const char *const *want,
			   size_t nwant)
{
	char why[256], err[8192];
	char *out = apply(recipe, src, params, why, sizeof why);
	if (!out)
		fail_msg("%s declined:\n%s\nwhy: %s", recipe, src, why);
	for (size_t i = 0; i < nwant; i++)
		if (!strstr(out, want[i]))
			fail_msg("%s: the rewrite lacks '%s':\n%s", recipe, want[i], out);
	if (nvcc_compiles(out, err, sizeof err) == 0)
		fail_msg("%s: the rewrite does not compile:\n%s\n%s", recipe, out, err);
	free(out);
}

static void expect_declines(const char *recipe, const char *src, const char *reason)
{
	char why[256];
	char *out = apply(recipe, src, NULL, why, sizeof why);
	if (out)
		fail_msg("%s applied to:\n%s\nas:\n%s", recipe, src, out);
	if (!strstr(why, reason))
		fail_msg("%s: the reason '%s' does not say '%s'", recipe, why, reason);
}

#define HOST2(args) "void h(const float *x, float *y, " args ", cudaStream_t s)\n"

/* col-reduce: one thread per column, several spellings of the same sum */
static void test_colreduce_forms(void **st)
{
	(void)st;
	static const char *const src[] = {
		/* size_t, early return, ++r, r * cols + c */
		"__global__ void k(const float *x, float *y, size_t rows, size_t cols)\n{\n"
		"\tsize_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n\tif (c >= cols)\n\t\treturn;\n"
		"\tfloat acc = 0.0f;\n\tfor (size_t r = 0; r < rows; ++r)\n\t\tacc += x[r * cols + c];\n"
		"\ty[c] = acc;\n}\n" HOST2(
			"size_t rows, size_t cols") "{\n\tint threads = 128;\n"
						    "\tint blocks = (int)((cols + threads - 1) / threads);\n"
						    "\tk<<<blocks, threads, 0, s>>>(x, y, rows, cols);\n}\n",
		/* int, the guard holding the rest, r++, c + cols * r, acc = acc + ..., a mean */
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tint col = threadIdx.x + blockIdx.x * blockDim.x;\n\tif (cols > col) {\n"
		"\t\tdouble sum = 0;\n\t\tfor (int r = 0; r < rows; r++) {\n"
		"\t\t\tsum = sum + x[col + cols * (long long)r];\n\t\t}\n\t\ty[col] = (float)(sum / rows);\n\t}\n}\n" HOST2(
			"int rows, int cols") "{\n\tk<<<(cols + 255) / 256, 256, 0, s>>>(x, y, rows, cols);\n}\n",
		/* helper variables: the row offset and a column pointer */
		"__global__ void k(const float *x, float *y, long n_rows, long n_cols)\n{\n"
		"\tconst long j = blockIdx.x * (long)blockDim.x + threadIdx.x;\n\tif (j >= n_cols) return;\n"
		"\tconst float *colp = x + j;\n\tfloat s = 0.f;\n"
		"\tfor (long i = 0; i < n_rows; i += 1) {\n\t\tconst long off = i * n_cols;\n"
		"\t\tfloat v = colp[off];\n\t\ts += v * v;\n\t}\n\ty[j] = sqrtf(s);\n}\n" HOST2(
			"long n_rows, long n_cols") "{\n\tk<<<(unsigned)((n_cols + 127) / 128), 128, 0, s>>>(x, y, "
						    "n_rows, n_cols);\n}\n",
		/* a max from -INFINITY, fmaxf with the accumulator second */
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tunsigned int c = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (c >= cols) return;\n"
		"\tfloat m = -INFINITY;\n\tfor (int r = 0; r < rows; ++r)\n\t\tm = fmaxf(x[r * cols + c], m);\n"
		"\ty[c] = m;\n}\n" HOST2(
			"int rows, int cols") "{\n\tk<<<(cols + 63) / 64, 64, 0, s>>>(x, y, rows, "
					      "cols);\n}\n",
	};
	static const char *const want[][3] = {
		/* a float sum: no split over blocks (atomics would round differently each run) */
		{"for (size_t r = threadIdx.y; r < rows; r += 8)", "\t\ty[c] = acc;\n\t}\n}",
		 "k<<<(unsigned)(((long long)(cols) + 31) / 32), dim3(32, 8), 0, s>>>(x, y, rows, cols);"},
		{"const bool ka_in = col < cols;", "sum += ka_part[ka_k][threadIdx.x];",
		 "\t\ty[col] = (float)(sum / rows);"},
		{"for (long i = threadIdx.y; i < n_rows; i += 8)", "__shared__ float ka_part[8][32];",
		 "y[j] = sqrtf(s);"},
		{"m = fmaxf(m, ka_part[ka_k][threadIdx.x]);", "__launch_bounds__(256) k(",
		 "if (ka_in && threadIdx.y == 0)"},
	};
	for (size_t i = 0; i < sizeof src / sizeof src[0]; i++)
		expect_applies("col-reduce", src[i], "warps=8", want[i], 3);
	static const char *const w16[] = {"__launch_bounds__(512) k(", "r += 16)", "dim3(32, 16)"};
	expect_applies("col-reduce", src[0], "warps=16", w16, 3);
	/* split=0: one block per strip, the store as written */
	static const char *const w0[] = {
		"for (size_t r = threadIdx.y; r < rows; r += 8)",
		"k<<<(unsigned)(((long long)(cols) + 31) / 32), dim3(32, 8), 0, s>>>",
		"\t\ty[c] = acc;\n\t}\n}"};
	expect_applies("col-reduce", src[0], "warps=8 split=0", w0, 3);
	/* a float sum and the epilogues (a mean, sqrtf of a sum, a max) keep one block per strip: no
	 * atomicAdd, no split */
	for (size_t i = 0; i < sizeof src / sizeof src[0]; i++) {
		char why[256];
		char *out = apply("col-reduce", src[i], "warps=8", why, sizeof why);
		assert_non_null(out);
		assert_null(strstr(out, "atomicAdd"));
		assert_null(strstr(out, "gridDim.y"));
		assert_null(strstr(out, "cudaMemsetAsync"));
		free(out);
	}
}

/* col-reduce's split of the rows over gridDim.y: an unsigned column sum
 * shaped as the bench's (size_t sizes, the stream passed), an int sum
 * without a stream, and an output of another element type (declined to one
 * block per strip) */
static void test_colreduce_split(void **st)
{
	(void)st;
	static const char *const sum =
		"__global__ void k(const unsigned *x, unsigned *y, size_t rows, size_t cols)\n{\n"
		"\tsize_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n\tif (c >= cols)\n\t\treturn;\n"
		"\tunsigned acc = 0u;\n\tfor (size_t r = 0; r < rows; ++r)\n\t\tacc += x[r * cols + c];\n"
		"\ty[c] = acc;\n}\n"
		"void h(const unsigned *x, unsigned *y, size_t rows, size_t cols, cudaStream_t s)\n"
		"{\n\tint threads = 128;\n"
		"\tint blocks = (int)((cols + threads - 1) / threads);\n"
		"\tk<<<blocks, threads, 0, s>>>(x, y, rows, cols);\n}\n";
	static const char *const want[] = {
		/* the SM count read once, the split only when the strips leave the GPU short */
		"static unsigned ka_col_split(long long rows, long long cols, void *out, size_t elem, cudaStream_t "
		"stream)",
		"cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)",
		"want = (long long)sms * 4;\n\tif (strips < 1 || strips >= want)\n\t\treturn 1;",
		"if (split > rows / 64)\n\t\tsplit = rows / 64;",
		/* zeroed on the launch's stream, only past one block */
		"if (split <= 1)\n\t\treturn 1;\n\tcudaMemsetAsync(out, 0, (size_t)cols * elem, stream);",
		"__shared__ unsigned ka_part[8][32];",
		"if (gridDim.y > 1)\n\t\t\tatomicAdd(&y[c], acc);\n\t\telse\n\t\t\ty[c] = acc;",
	};
	expect_applies("col-reduce", sum, "warps=8", want, sizeof want / sizeof want[0]);
	static const char *const w32[] = {"want = (long long)sms * 2;", "split = rows / 256;",
					  "r += 32 * gridDim.y"};
	expect_applies("col-reduce", sum, "warps=32", w32, 3);
	/* an int sum launched on the default stream, the guard holding the rest */
	static const char *const isum =
		"__global__ void k(const int *x, int *y, int rows, int cols)\n{\n"
		"\tint c = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (c < cols) {\n"
		"\t\tint acc = 0;\n\t\tfor (int r = 0; r < rows; r++)\n\t\t\tacc = acc + x[c + r * cols];\n"
		"\t\ty[c] = acc;\n\t}\n}\n"
		"void h(const int *x, int *y, int rows, int cols)\n"
		"{\n\tk<<<(cols + 255) / 256, 256>>>(x, y, rows, cols);\n}\n";
	static const char *const iw[] = {
		"atomicAdd(&y[c], acc);", "(void *)(y), sizeof(*(y)), 0))",
		"for (int r = blockIdx.y * 8 + threadIdx.y; r < rows; r += 8 * gridDim.y)"};
	expect_applies("col-reduce", isum, "warps=8", iw, 3);
	/* a double sum stored into a float output: per-block roundings would differ, no split */
	static const char *const dsum =
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tint c = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (c >= cols) return;\n"
		"\tdouble acc = 0;\n\tfor (int r = 0; r < rows; ++r) acc += x[r * cols + c];\n"
		"\ty[c] = acc;\n}\n" HOST2(
			"int rows, int cols") "{ k<<<cols, 1, 0, s>>>(x, y, rows, cols); }\n";
	char why[256];
	char *out = apply("col-reduce", dsum, "warps=8", why, sizeof why);
	assert_non_null(out);
	assert_null(strstr(out, "atomicAdd"));
	free(out);
	/* a rows bound that is no parameter: no split */
	static const char *const hsum =
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tint c = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (c >= cols) return;\n"
		"\tfloat acc = 0;\n\tfor (int r = 0; r < rows / 2; ++r) acc += x[r * cols + c];\n"
		"\ty[c] = acc;\n}\n" HOST2(
			"int rows, int cols") "{ k<<<cols, 1, 0, s>>>(x, y, rows, cols); }\n";
	out = apply("col-reduce", hsum, "warps=8", why, sizeof why);
	assert_non_null(out);
	assert_null(strstr(out, "atomicAdd"));
	free(out);
}

static void test_colreduce_declines(void **st)
{
	(void)st;
	/* a row sum: the thread's index is the row, the contiguous dimension is walked */
	expect_declines("col-reduce",
			"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
			"\tint c = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (c >= rows) return;\n"
			"\tfloat acc = 0.0f;\n\tfor (int r = 0; r < cols; ++r) acc += x[c * cols + r];\n"
			"\ty[c] = acc;\n}\n" HOST2(
				"int rows, int cols") "{ k<<<rows, 1, 0, s>>>(x, y, rows, cols); }\n",
			"is not along the contiguous dimension");
	/* a sum that does not start at zero would be counted once per warp */
	expect_declines("col-reduce",
			"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
			"\tint c = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (c >= cols) return;\n"
			"\tfloat acc = 1.0f;\n\tfor (int r = 0; r < rows; ++r) acc += x[r * cols + c];\n"
			"\ty[c] = acc;\n}\n" HOST2(
				"int rows, int cols") "{ k<<<cols, 1, 0, s>>>(x, y, rows, cols); }\n",
			"starts at '1.0f', not at 0");
	/* the loop stores: its iterations are not independent partials */
	expect_declines("col-reduce",
			"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
			"\tint c = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (c >= cols) return;\n"
			"\tfloat acc = 0.0f;\n\tfor (int r = 0; r < rows; ++r) { acc += x[r * cols + c]; "
			"y[r * cols + c] = acc; }\n}\n" HOST2(
				"int rows, int cols") "{ k<<<cols, 1, 0, s>>>(x, y, rows, "
						      "cols); }\n",
			"cannot prove 'y[r*cols+c]=acc' is a local declaration or the one accumulation");
	/* a second thread dimension */
	expect_declines(
		"col-reduce",
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tint c = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (c >= cols) return;\n"
		"\tfloat acc = 0.0f;\n\tfor (int r = threadIdx.y; r < rows; ++r) acc += x[r * cols + c];\n"
		"\ty[c] = acc;\n}\n" HOST2(
			"int rows, int cols") "{ k<<<cols, 1, 0, s>>>(x, y, rows, cols); }\n",
		"the kernel uses threadIdx past its column index");
	/* an index that is not a sum of products */
	expect_declines(
		"col-reduce",
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tint c = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (c >= cols) return;\n"
		"\tfloat acc = 0.0f;\n\tfor (int r = 0; r < rows; ++r) acc += x[(r * cols + c) % 7];\n"
		"\ty[c] = acc;\n}\n" HOST2(
			"int rows, int cols") "{ k<<<cols, 1, 0, s>>>(x, y, rows, cols); }\n",
		"cannot read the index '(r*cols+c)%7' of x as a sum of products");
	/* a guard on two conditions */
	expect_declines(
		"col-reduce",
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tint c = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (c >= cols || rows == 0) return;\n"
		"\tfloat acc = 0.0f;\n\tfor (int r = 0; r < rows; ++r) acc += x[r * cols + c];\n"
		"\ty[c] = acc;\n}\n" HOST2(
			"int rows, int cols") "{ k<<<cols, 1, 0, s>>>(x, y, rows, cols); }\n",
		"the column guard 'c>=cols||rows==0' is not one comparison");
}

#define HOSTN "void h(const float *x, const int *m, float *y, long n, cudaStream_t s)\n"

/* a grid-stride loop is the element-wise shape too: vectorize and
 * grid-stride read its start and step through casts and helpers */
static void test_stride_loop_forms(void **st)
{
	(void)st;
	static const char *const src[] = {
		"__global__ void k(const float *x, const int *m, float *y, long n)\n{\n"
		"\tfor (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)blockDim.x * "
		"gridDim.x) {\n\t\tif (m[i]) {\n\t\t\ty[i] = 0.0f;\n\t\t} else {\n\t\t\ty[i] = x[i];\n\t\t}\n"
		"\t}\n}\n" HOSTN "{\n\tk<<<(n + 255) / 256, 256, 0, s>>>(x, m, y, n);\n}\n",
		"__global__ void k(const float *x, const int *m, float *y, long n)\n{\n"
		"\tint idx = threadIdx.x + blockIdx.x * blockDim.x;\n\tint stride = gridDim.x * blockDim.x;\n"
		"\tfor (int i = idx; i < n; i += stride)\n\t\ty[i] = m[i] ? x[i] : 1.0f;\n}\n" HOSTN
		"{\n\tk<<<1024, 128, 0, s>>>(x, m, y, n);\n}\n",
		"__global__ void k(const float *x, const int *m, float *y, long n)\n{\n"
		"\tfor (size_t i = static_cast<size_t>(blockDim.x) * blockIdx.x + threadIdx.x; i < (size_t)n;\n"
		"\t     i += static_cast<size_t>(gridDim.x) * blockDim.x)\n\t\tif (x[i] > 0.0f) y[i] = x[i] * m[i];\n}\n" HOSTN
		"{\n\tk<<<(n + 511) / 512, 512, 0, s>>>(x, m, y, n);\n}\n",
	};
	/* every path stores y: not loaded; a path that does not: loaded first */
	static const char *const want[][3] = {
		{"int4 ka_m = reinterpret_cast<const int4 *>(m)[ka_v];", "\t\tfloat4 ka_y;\n",
		 "ka_y.w = ka_x.w;"},
		{"reinterpret_cast<float4 *>(y)[ka_v] = ka_y;", "int i = ka_e;",
		 "ka_y.z = ka_m.z ? ka_x.z : 1.0f;"},
		{"float4 ka_y = reinterpret_cast<const float4 *>(y)[ka_v];", "size_t i = ka_e;",
		 "if (ka_x.x > 0.0f) ka_y.x = ka_x.x * ka_m.x;"},
	};
	for (size_t i = 0; i < sizeof src / sizeof src[0]; i++) {
		expect_applies("vectorize", src[i], "block=256 vec=4 cap=2112", want[i], 3);
		static const char *const gs[] = {
			"for (long long ka_e = blockIdx.x * (long long)blockDim.x + threadIdx.x; "
			"ka_e < n; ka_e += ka_step)"};
		expect_applies("grid-stride", src[i], "block=256 cap=2112", gs, 1);
	}
	/* a block-stride loop is not the grid's */
	expect_declines(
		"vectorize",
		"__global__ void k(const float *x, const int *m, float *y, long n)\n{\n"
		"\tfor (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x) y[i] = x[i];\n}\n" HOSTN
		"{ k<<<1, 256, 0, s>>>(x, m, y, n); }\n",
		"a grid-stride loop: the loop step 'i+=blockDim.x' is not the grid");
	/* the body reads a helper the rewrite would drop */
	expect_declines(
		"grid-stride",
		"__global__ void k(const float *x, const int *m, float *y, long n)\n{\n"
		"\tint stride = gridDim.x * blockDim.x;\n\tfor (int i = blockIdx.x * blockDim.x + threadIdx.x; "
		"i < n; i += stride) y[i] = x[i] * stride;\n}\n" HOSTN
		"{ k<<<1, 256, 0, s>>>(x, m, y, n); }\n",
		"the loop body reads stride, declared before the loop");
	/* a value carried from one element to the next of a thread (a
	 * counter declared before the loop): redeclared per element it would
	 * start again each time */
	static const char *const carry =
		"__global__ void k(const float *x, const int *m, float *y, long n)\n{\n"
		"\tint t = blockIdx.x * blockDim.x + threadIdx.x;\n\tint c = 0;\n"
		"\tfor (int i = t; i < n; i += blockDim.x * gridDim.x) {\n\t\ty[i] = x[i] + c;\n\t\tc++;\n\t}\n}\n" HOSTN
		"{ k<<<(n + 255) / 256, 256, 0, s>>>(x, m, y, n); }\n";
	expect_declines("grid-stride", carry,
			"a grid-stride loop whose body writes c, declared before the loop");
	expect_declines("vectorize", carry,
			"a grid-stride loop whose body writes c, declared before the loop");
	/* a start that is not the global index */
	expect_declines(
		"vectorize",
		"__global__ void k(const float *x, const int *m, float *y, long n)\n{\n"
		"\tfor (long i = threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = x[i];\n}\n" HOSTN
		"{ k<<<1, 256, 0, s>>>(x, m, y, n); }\n",
		"the loop starts at 'threadIdx.x', not at the global thread index");
}

#define HOSTB "void h(const float *x, float *y, float lo, int n, cudaStream_t s)\n"
#define HOST2D "void h(const float *x, float *y, int h, int w, cudaStream_t s)\n"

/* a guard whose return is braced, `if (i >= n) { return; }`, is the early
 * return: the element-wise recipes and launch-tune-2d take it, and decline
 * a braced guard that does anything else */
static void test_braced_return_guard(void **st)
{
	(void)st;
	static const char *const src =
		"__global__ void k(const float *x, float *y, const float lo, const int n)\n{\n"
		"\tconst int i = blockDim.x * blockIdx.x + threadIdx.x;\n\tif (i >= n) {\n\t\treturn;\n\t}\n"
		"\ty[i] = x[i] < lo ? lo : x[i];\n}\n" HOSTB
		"{\n\tk<<<(n + 255) / 256, 256, 0, s>>>(x, y, lo, n);\n}\n";
	static const char *const gs[] = {
		"for (long long ka_e = blockIdx.x * (long long)blockDim.x + threadIdx.x; ka_e < n; ka_e += ka_step)",
		"const int i = ka_e;", "y[i] = x[i] < lo ? lo : x[i];"};
	expect_applies("grid-stride", src, "block=256 cap=2112", gs, 3);
	static const char *const vec[] = {"float4 ka_x = reinterpret_cast<const float4 *>(x)[ka_v];",
					  "ka_y.w = ka_x.w < lo ? lo : ka_x.w;",
					  "reinterpret_cast<float4 *>(y)[ka_v] = ka_y;"};
	expect_applies("vectorize", src, "block=256 vec=4 cap=2112", vec, 3);
	/* `__restrict`, the short spelling of `__restrict__`, qualifies the pointer alone */
	static const char *const restr[] = {"int4 ka_a = reinterpret_cast<const int4 *>(a)[ka_v];",
					    "ka_c.y = ka_a.y + ka_b.y;",
					    "reinterpret_cast<int4 *>(c)[ka_v] = ka_c;"};
	expect_applies(
		"vectorize",
		"__global__ void k(const int *__restrict a, const int *__restrict b, int *__restrict c, int n)\n"
		"{\n\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i >= n) { return; }\n"
		"\tc[i] = a[i] + b[i];\n}\n"
		"void h(const int *a, const int *b, int *c, int n)\n{\n\tk<<<(n + 127) / 128, 128>>>(a, b, c, n);\n}\n",
		"block=256 vec=4 cap=2112", restr, 3);
	static const char *const src2d =
		"__global__ void k(const float *x, float *y, int h, int w)\n{\n"
		"\tint j = blockIdx.x * blockDim.x + threadIdx.x;\n\tint i = blockIdx.y * blockDim.y + threadIdx.y;\n"
		"\tif (i >= h || j >= w) { return; }\n\ty[i * w + j] = 2.0f * x[i * w + j];\n}\n" HOST2D
		"{\n\tdim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);\n"
		"\tk<<<grid, block, 0, s>>>(x, y, h, w);\n}\n";
	static const char *const l2d[] = {"if (i >= h || j >= w) { return; }", "dim3 block(32, 8)"};
	expect_applies("launch-tune-2d", src2d, NULL, l2d, 2);
	/* a braced guard that stores before it returns is no bound check:
	 * grid-stride reads the kernel unguarded (one element per launched
	 * thread) and its return as the loop's continue; vectorize declines */
	static const char *const stores =
		"__global__ void k(const float *x, float *y, const float lo, const int n)\n{\n"
		"\tconst int i = blockDim.x * blockIdx.x + threadIdx.x;\n"
		"\tif (i >= n) {\n\t\ty[0] = lo;\n\t\treturn;\n\t}\n\ty[i] = x[i];\n}\n" HOSTB
		"{\n\tk<<<(n + 255) / 256, 256, 0, s>>>(x, y, lo, n);\n}\n";
	static const char *const gs_st[] = {
		"ka_e < ka_n; ka_e += ka_step",
		"\tif (i >= n) {\n\t\ty[0] = lo;\n\t\tcontinue;\n\t}\n\ty[i] = x[i];",
		"(x, y, lo, n, (long long)dim3((n+255)/256).x * dim3(256).x);"};
	expect_applies("grid-stride", stores, "block=256 cap=2112", gs_st, 3);
	expect_declines("vectorize", stores, "the bound check does more than return");
	/* near miss: a return inside a loop of the body (continue would be
	 * that loop's) */
	expect_declines("grid-stride",
			"__global__ void k(const float *x, float *y, const float lo, const int n)\n{\n"
			"\tconst int i = blockDim.x * blockIdx.x + threadIdx.x;\n"
			"\tif (i >= n) return;\n\tfor (int j = 0; j < 4; j++) {\n\t\tif (x[i] < lo) return;\n"
			"\t\ty[i] += x[i];\n\t}\n}\n" HOSTB
			"{\n\tk<<<(n + 255) / 256, 256, 0, s>>>(x, y, lo, n);\n}\n",
			"the body uses return");
	expect_declines(
		"launch-tune-2d",
		"__global__ void k(const float *x, float *y, int h, int w)\n{\n"
		"\tint j = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tint i = blockIdx.y * blockDim.y + threadIdx.y;\n"
		"\tif (i >= h || j >= w) { y[0] = 0.0f; return; }\n\ty[i * w + j] = x[i * w + j];\n}\n" HOST2D
		"{\n\tdim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);\n"
		"\tk<<<grid, block, 0, s>>>(x, y, h, w);\n}\n",
		"the bound check does more than return");
}

#define HOSTR "void h(const float *x, float *y, Size sz, cudaStream_t s)\n"
#define SIZE_T "struct Size {\n\tint x, y;\n};\n"

/* grid-stride on three spellings the public-code sweep found declined: a
 * `return;` in the body (HSOpticalFlow, Direct3D texture kernels), a bound
 * that is a member of a by-value parameter (`idx < size.y`: CUDA-aware
 * MPI's halo kernels, `x >= extent.width`), and a kernel whose name a use
 * the recipe cannot read as a launch also names (cudaLaunchKernel, a
 * benchmark helper given the kernel, an occupancy query) */
static void test_grid_stride_widened(void **st)
{
	(void)st;
	/* a return in the guarded body: the loop's continue */
	static const char *const ret[] = {"ka_e < n; ka_e += ka_step",
					  "\t\tif (x[i] < lo)\n\t\t\tcontinue;\n\t\ty[i] = x[i];",
					  "__launch_bounds__(256)"};
	expect_applies(
		"grid-stride",
		"__global__ void k(const float *x, float *y, const float lo, const int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) {\n\t\tif (x[i] < lo)\n"
		"\t\t\treturn;\n\t\ty[i] = x[i];\n\t}\n}\n" HOSTB
		"{\n\tk<<<(n + 255) / 256, 256, 0, s>>>(x, y, lo, n);\n}\n",
		"block=256 cap=2112", ret, 3);
	/* a return before a loop of the body (llm.c's attention_query_key_kernel1) */
	static const char *const before[] = {"\t\t\ty[i] = lo;\n\t\t\tcontinue;\n",
					     "for (int j = 0; j < 4; j++)"};
	expect_applies(
		"grid-stride",
		"__global__ void k(const float *x, float *y, const float lo, const int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) {\n\t\tif (x[i] < lo) {\n"
		"\t\t\ty[i] = lo;\n\t\t\treturn;\n\t\t}\n\t\tfor (int j = 0; j < 4; j++)\n\t\t\ty[i] += x[i];\n\t}\n}\n" HOSTB
		"{\n\tk<<<(n + 255) / 256, 256, 0, s>>>(x, y, lo, n);\n}\n",
		"block=256 cap=2112", before, 2);
	/* break and continue of the body's own loop and switch (ggml's pool
	 * and transposed-convolution kernels), and a continue of the
	 * grid-stride loop the kernel has, which the new loop stands for */
	static const char *const inner[] = {"\t\t\tif (x[i * 4 + j] < lo)\n\t\t\t\tcontinue;\n",
					    "\t\tcase 1: y[i] = 0.f; break;"};
	expect_applies("grid-stride",
		       "__global__ void k(const float *x, float *y, const float lo, const int n)\n{\n"
		       "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i >= n)\n\t\treturn;\n"
		       "\tfor (int j = 0; j < 4; j++) {\n\t\t\tif (x[i * 4 + j] < lo)\n\t\t\t\tcontinue;\n"
		       "\t\ty[i] += x[i * 4 + j];\n\t}\n\tswitch (i % 2) {\n\t\tcase 1: y[i] = 0.f; break;\n"
		       "\t\tdefault: break;\n\t}\n}\n" HOSTB
		       "{\n\tk<<<(n + 255) / 256, 256, 0, s>>>(x, y, lo, n);\n}\n",
		       "block=256 cap=2112", inner, 2);
	static const char *const skip[] = {"\t\tif (x[i] < lo)\n\t\t\tcontinue;\n",
					   "ka_e < n; ka_e += ka_step"};
	expect_applies(
		"grid-stride",
		"__global__ void k(const float *x, float *y, const float lo, const int n)\n{\n"
		"\tfor (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {\n"
		"\t\tif (x[i] < lo)\n\t\t\tcontinue;\n\t\ty[i] = x[i];\n\t}\n}\n" HOSTB
		"{\n\tk<<<(n + 255) / 256, 256, 0, s>>>(x, y, lo, n);\n}\n",
		"block=256 cap=2112", skip, 2);
	/* vectorize repeats the body per lane, with no loop to continue */
	expect_declines(
		"vectorize",
		"__global__ void k(const float *x, float *y, const float lo, const int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) {\n\t\tif (x[i] < lo)\n"
		"\t\t\treturn;\n\t\ty[i] = x[i];\n\t}\n}\n" HOSTB
		"{\n\tk<<<(n + 255) / 256, 256, 0, s>>>(x, y, lo, n);\n}\n",
		"the body uses return");
	/* a loop the kernel has already: its return ends every later element */
	expect_declines(
		"grid-stride",
		"__global__ void k(const float *x, float *y, const float lo, const int n)\n{\n"
		"\tfor (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {\n"
		"\t\tif (x[i] < lo)\n\t\t\treturn;\n\t\ty[i] = x[i];\n\t}\n}\n" HOSTB
		"{\n\tk<<<(n + 255) / 256, 256, 0, s>>>(x, y, lo, n);\n}\n",
		"the body uses return");
	/* a bound read through a member: the launch reads the same member */
	static const char *const mem[] = {"ka_e < (sz.y); ka_e += ka_step",
					  "k<<<(unsigned)(((((long long)((sz).y))) / 1 + 256) / 256 < 2112"};
	expect_applies(
		"grid-stride",
		SIZE_T
		"__global__ void k(const float *x, float *y, Size sz)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < sz.y)\n\t\ty[i] = x[i] * sz.x;\n}\n" HOSTR
		"{\n\tk<<<(sz.y + 127) / 128, 128, 0, s>>>(x, y, sz);\n}\n",
		"block=256 cap=2112", mem, 2);
	/* the early return, a const parameter passed whole to a helper */
	static const char *const memc[] = {"ka_e < (sz.x); ka_e += ka_step", "(long long)((sz).x)"};
	expect_applies("grid-stride",
		       SIZE_T
		       "__device__ float f(const Size s, int i) { return (float)(s.y * i); }\n"
		       "__global__ void k(const float *x, float *y, const Size sz)\n{\n"
		       "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i >= sz.x)\n\t\treturn;\n"
		       "\ty[i] = x[i] + f(sz, i);\n}\n" HOSTR
		       "{\n\tk<<<(sz.x + 127) / 128, 128, 0, s>>>(x, y, sz);\n}\n",
		       "block=256 cap=2112", memc, 2);
	/* near misses: the body assigns the member, passes a non-const
	 * parameter whole (a reference could change it), or the parameter is
	 * a pointer (the host cannot read its member) */
	expect_declines(
		"grid-stride",
		SIZE_T
		"__global__ void k(const float *x, float *y, Size sz)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < sz.y) {\n\t\ty[i] = x[i];\n"
		"\t\tsz.y = 0;\n\t}\n}\n" HOSTR "{\n\tk<<<(sz.y + 127) / 128, 128, 0, s>>>(x, y, sz);\n}\n",
		"the bound 'i<sz.y' is not a product or sum of parameters");
	expect_declines("grid-stride",
			SIZE_T
			"__device__ void g(Size &s) { s.y = 0; }\n"
			"__global__ void k(const float *x, float *y, Size sz)\n{\n"
			"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < sz.y) {\n\t\tg(sz);\n"
			"\t\ty[i] = x[i];\n\t}\n}\n" HOSTR
			"{\n\tk<<<(sz.y + 127) / 128, 128, 0, s>>>(x, y, sz);\n}\n",
			"the bound 'i<sz.y' is not a product or sum of parameters");
	expect_declines(
		"grid-stride",
		SIZE_T
		"__global__ void k(const float *x, float *y, const Size *sz)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < sz->y)\n\t\ty[i] = x[i];\n}\n"
		"void h(const float *x, float *y, const Size *sz, int n, cudaStream_t s)\n"
		"{\n\tk<<<(n + 127) / 128, 128, 0, s>>>(x, y, sz);\n}\n",
		"is not a product or sum of parameters");
	/* a use of the name no launch: that launch keeps its grid and block,
	 * so no launch bounds; the launch it reads keeps its block too */
	static const char *const unread[] = {
		"ka_e < n; ka_e += ka_step",
		"k<<< dim3(dim3((n+127)/128).x < 2112u ? dim3((n+127)/128).x : 2112u, dim3((n+127)/128).y, "
		"dim3((n+127)/128).z), 128, 0, s>>>(x, y, lo, n);",
		"void *args[] = {&x, &y, &lo, &n};\n\tcudaLaunchKernel((const void *)k, dim3(4096), dim3(1024), args, 0, s);"};
	static const char *const unread_src =
		"__global__ void k(const float *x, float *y, float lo, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\ty[i] = x[i] + lo;\n}\n" HOSTB
		"{\n\tk<<<(n + 127) / 128, 128, 0, s>>>(x, y, lo, n);\n"
		"\tvoid *args[] = {&x, &y, &lo, &n};\n\tcudaLaunchKernel((const void *)k, dim3(4096), dim3(1024), args, 0, s);\n}\n";
	expect_applies("grid-stride", unread_src, "block=256 cap=2112", unread, 3);
	char why[256];
	char *out = apply("grid-stride", unread_src, "block=256 cap=2112", why, sizeof why);
	assert_non_null(out);
	assert_null(strstr(out, "__launch_bounds__"));
	free(out);
	/* near misses: the same with the kernel's loop already over the grid
	 * (only a cap would change), no launch it reads, or an unguarded
	 * kernel (the count it adds would not reach that launch) */
	expect_declines(
		"grid-stride",
		"__global__ void k(const float *x, float *y, float lo, int n)\n{\n"
		"\tfor (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
		"\t\ty[i] = x[i] + lo;\n}\n" HOSTB "{\n\tk<<<(n + 127) / 128, 128, 0, s>>>(x, y, lo, n);\n"
		"\tvoid *args[] = {&x, &y, &lo, &n};\n\tcudaLaunchKernel((const void *)k, dim3(4096), dim3(1024), args, 0, s);\n}\n",
		"names k outside a launch this recipe can read");
	expect_declines(
		"grid-stride",
		"__global__ void k(const float *x, float *y, float lo, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\ty[i] = x[i] + lo;\n}\n" HOSTB
		"{\n\tvoid *args[] = {&x, &y, &lo, &n};\n\tcudaLaunchKernel((const void *)k, dim3(4096), dim3(1024), args, 0, s);\n}\n",
		"no launch of k in this file to rewrite");
	expect_declines(
		"grid-stride",
		"__global__ void k(const float *x, float *y, float lo, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\ty[i] = x[i] + lo;\n}\n" HOSTB
		"{\n\tk<<<(n + 127) / 128, 128, 0, s>>>(x, y, lo, n);\n"
		"\tvoid *args[] = {&x, &y, &lo, &n};\n\tcudaLaunchKernel((const void *)k, dim3(4096), dim3(1024), args, 0, s);\n}\n",
		"the parameter it adds would not reach it");
}

/* grid-stride on a kernel whose launch gives a batch or a row along y
 * (llm.c's init_from_master_kernel, ggml's pad and argsort kernels): the
 * loop along x leaves blockIdx.y as it was, so the launch keeps its block
 * and its grid's y and z and caps x; an id along x in the body declines */
#define BATCH_HEAD \
	"__global__ void k(const float *x, float *y, int n)\n{\n\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
#define BATCH_RUN \
	"void h(const float *x, float *y, int n, int nb, cudaStream_t s)\n{\n" \
	"\tk<<<dim3((n + 127) / 128, nb), 128, 0, s>>>(x, y, n);\n}\n"
static void test_grid_stride_yz(void **st)
{
	(void)st;
	static const char *const want[] = {
		"ka_e < n; ka_e += ka_step) {\n\t\tint i = ka_e;\n\t\tconst int b = blockIdx.y;\n",
		"k<<< dim3(dim3(dim3((n+127)/128,nb)).x < 2112u ? dim3(dim3((n+127)/128,nb)).x : 2112u, "
		"dim3(dim3((n+127)/128,nb)).y, dim3(dim3((n+127)/128,nb)).z), 128, 0, s>>>(x, y, n);"};
	static const char *const src = BATCH_HEAD
		"\tconst int b = blockIdx.y;\n\tif (i < n)\n\t\ty[b * n + i] = 2.0f * x[b * n + i];\n}\n" BATCH_RUN;
	expect_applies("grid-stride", src, "block=256 cap=2112", want, 2);
	char why[256];
	char *out = apply("grid-stride", src, "block=256 cap=2112", why, sizeof why);
	assert_non_null(out);
	assert_null(strstr(out, "__launch_bounds__"));
	free(out);
	/* read in the body, with blockDim.y and gridDim.z */
	static const char *const body[] = {"y[(blockIdx.y * blockDim.y + threadIdx.y) * n + i] = gridDim.z;",
					   "dim3(dim3((n+127)/128,nb)).y"};
	expect_applies("grid-stride",
		       BATCH_HEAD
		       "\tif (i >= n)\n\t\treturn;\n\ty[(blockIdx.y * blockDim.y + threadIdx.y) * n + i] = "
		       "gridDim.z;\n}\n" BATCH_RUN,
		       "block=256 cap=2112", body, 2);
	/* near misses: an id along x in the body, a declaration reading one,
	 * and vectorize, which repeats the body per lane */
	expect_declines("grid-stride",
			BATCH_HEAD
			"\tif (i < n)\n\t\ty[blockIdx.y * n + i] = x[i] * blockIdx.x;\n}\n" BATCH_RUN,
			"the body uses blockIdx");
	expect_declines(
		"grid-stride",
		BATCH_HEAD
		"\tconst int b = blockIdx.y + threadIdx.x;\n\tif (i < n)\n\t\ty[b * n + i] = x[i];\n}\n" BATCH_RUN,
		"the body reads b, which depends on the thread apart from the index i");
	expect_declines("vectorize", src,
			"the body reads b, which depends on the thread apart from the index i");
}

/* grid-stride with declarations before the guard that have no value
 * (`int p; cData a, b;`: fluidsGL's kernels) or a call with several
 * arguments: each is declared again per element (a fresh one per element
 * is the fresh one per thread it was), a statement of several names once;
 * a bound read through a member while the body writes another member */
static void test_grid_stride_decls(void **st)
{
	(void)st;
	static const char *const want[] = {
		"\t\tint i = ka_e;\n\t\tint r = blockIdx.y * lb + threadIdx.y;\n\t\tint p;\n\t\tfloat a, b;\n\t\t{",
		"dim3(128, 2), 0, s>>>(x, y, n, lb);"};
	expect_applies(
		"grid-stride",
		"__global__ void k(const float *x, float *y, int n, int lb)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tint r = blockIdx.y * lb + threadIdx.y;\n"
		"\tint p;\n\tfloat a, b;\n\tif (i < n) {\n\t\tfor (p = 0; p < lb; p++) {\n"
		"\t\t\ta = x[(r + p) * n + i];\n\t\t\tb = a * a;\n\t\t\ty[(r + p) * n + i] = b;\n\t\t}\n\t}\n}\n"
		"void h(const float *x, float *y, int n, int lb, cudaStream_t s)\n{\n"
		"\tk<<<dim3((n + 127) / 128, 4), dim3(128, 2), 0, s>>>(x, y, n, lb);\n}\n",
		"block=256 cap=2112", want, 2);
	/* only b of `float a, b;` is read: the statement once, as written */
	static const char *const one[] = {"\t\tint i = ka_e;\n\t\tfloat a, b;\n\t\t{"};
	expect_applies("grid-stride",
		       "__global__ void k(const float *x, float *y, int n)\n{\n"
		       "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tfloat a, b;\n"
		       "\tif (i < n) {\n\t\tb = x[i];\n\t\ty[i] = b;\n\t}\n}\n"
		       "void h(const float *x, float *y, int n, cudaStream_t s)\n{\n"
		       "\tk<<<(n + 127) / 128, 128, 0, s>>>(x, y, n);\n}\n",
		       "block=256 cap=2112", one, 1);
	/* the bound is one member, the body writes through another */
	static const char *const mem[] = {"ka_e < (a.n); ka_e += ka_step", "a.data[i] = x[i];"};
	expect_applies(
		"grid-stride",
		"struct Arr {\n\tfloat *data;\n\tint n;\n};\n"
		"__global__ void k(const float *x, Arr a)\n{\n\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tfloat v;\n\tif (i < a.n) {\n\t\tv = x[i];\n\t\ta.data[i] = x[i];\n\t\t(void)v;\n\t}\n}\n"
		"void h(const float *x, Arr a, cudaStream_t s)\n{\n\tk<<<(a.n + 127) / 128, 128, 0, s>>>(x, a);\n}\n",
		"block=256 cap=2112", mem, 2);
	/* near misses: an array declared without a value, a declaration of
	 * several names that reads a thread id along x */
	expect_declines("grid-stride",
			"__global__ void k(const float *x, float *y, int n)\n{\n"
			"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tfloat a[4];\n"
			"\tif (i < n) {\n\t\ta[0] = x[i];\n\t\ty[i] = a[0];\n\t}\n}\n"
			"void h(const float *x, float *y, int n, cudaStream_t s)\n{\n"
			"\tk<<<(n + 127) / 128, 128, 0, s>>>(x, y, n);\n}\n",
			"'float a[4];' before the guard is no declaration");
	expect_declines(
		"grid-stride",
		"__global__ void k(const float *x, float *y, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tint l = threadIdx.x % 32, w = 0;\n"
		"\tif (i < n)\n\t\ty[i] = x[i] * l;\n}\n"
		"void h(const float *x, float *y, int n, cudaStream_t s)\n{\n"
		"\tk<<<(n + 127) / 128, 128, 0, s>>>(x, y, n);\n}\n",
		"before the guard is not one name declared with a value");
}

/* launch-tune changes how many threads run past the count: sound only when
 * the kernel guards its index by the count the grid rounds up (found in
 * the public-code sweep: an unguarded float2half kernel retuned from 512 to
 * 128 threads no longer wrote the elements its launch padded to) */
static void test_launch_tune_guard(void **st)
{
	(void)st;
	expect_declines(
		"launch-tune",
		"__global__ void k(float *y, const float *x)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\ty[i] = 2.0f * x[i];\n}\n"
		"void h(float *y, const float *x, int n)\n{\n\tk<<<(n + 511) / 512, 512>>>(y, x);\n}\n",
		"no guard of the index by the launch's count");
	expect_declines("launch-tune",
			"__global__ void k(float *y, const float *x, int n, int m)\n{\n"
			"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < m) y[i] = x[i];\n}\n"
			"void h(float *y, const float *x, int n, int m)\n{\n"
			"\tk<<<(n + 255) / 256, 256>>>(y, x, n, m);\n}\n",
			"the grid covers 'n', not the guard's bound m");
	static const char *const want[] = {"k<<<(rows*cols+127)/128, 128>>>(y, x, rows * cols);"};
	expect_applies("launch-tune",
		       "__global__ void k(float *y, const float *x, long n)\n{\n"
		       "\tlong i = blockIdx.x * (long)blockDim.x + threadIdx.x;\n\tif (i >= n) { return; }\n"
		       "\ty[i] = 2.0f * x[i];\n}\n"
		       "void h(float *y, const float *x, int rows, int cols)\n{\n"
		       "\tk<<<(rows * cols + 255) / 256, 256>>>(y, x, rows * cols);\n}\n",
		       "block=128", want, 1);
}

/* fuse-elementwise writes one element a thread: a grid-stride loop's
 * launch need not cover the count (here 32 blocks for any n), so fusing it
 * would leave elements undone; two one-element kernels still fuse */
static void test_fuse_stride_loop(void **st)
{
	(void)st;
	static const char *const kern =
		"__global__ void k(int n, float *x, float *y)\n{\n"
		"\tint index = threadIdx.x + blockIdx.x * blockDim.x;\n\tint stride = blockDim.x * gridDim.x;\n"
		"\tfor (int i = index; i < n; i += stride) {\n\t\tx[i] = 1.0f;\n\t\ty[i] = 2.0f;\n\t}\n}\n"
		"__global__ void k2(int n, float *x, float *y)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = x[i] + y[i];\n}\n";
	char src[2048];
	snprintf(src, sizeof src,
		 "%svoid h(int n, float *x, float *y)\n{\n\tk<<<32, 256>>>(n, x, y);\n"
		 "\tk2<<<32, 256>>>(n, x, y);\n}\n",
		 kern);
	expect_declines("fuse-elementwise", src, "k loops over the grid");
	static const char *const want[] = {"k_fused<<<(n + 255) / 256, 256>>>(n, x, y);"};
	expect_applies(
		"fuse-elementwise",
		"__global__ void k(int n, float *x, float *y)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) { x[i] = 1.0f; y[i] = 2.0f; }\n}\n"
		"__global__ void k2(int n, float *x, float *y)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = x[i] + y[i];\n}\n"
		"void h(int n, float *x, float *y)\n{\n\tk<<<(n + 255) / 256, 256>>>(n, x, y);\n"
		"\tk2<<<(n + 255) / 256, 256>>>(n, x, y);\n}\n",
		NULL, want, 1);
}

#define HOSTT "void h(const float *in, float *out, int B, int M, int N, cudaStream_t s)\n"

/* smem-tile-transpose: indices in either order, a batch along z, helper
 * variables, either guard form */
static void test_transpose_forms(void **st)
{
	(void)st;
	static const char *const src[] = {
		"__global__ void k(const float *in, float *out, int B, int M, int N)\n{\n"
		"\tint col = blockIdx.x * blockDim.x + threadIdx.x;\n\tint row = blockIdx.y * blockDim.y + threadIdx.y;\n"
		"\tint b = blockIdx.z;\n\tif (b < B && row < M && col < N) {\n\t\tsize_t matrix = (size_t)M * N;\n"
		"\t\tout[b * matrix + (size_t)col * M + row] = in[b * matrix + (size_t)row * N + col];\n\t}\n}\n" HOSTT
		"{\n\tdim3 t(16, 16), g((N + 15) / 16, (M + 15) / 16, B);\n\tk<<<g, t, 0, s>>>(in, out, B, M, N);\n}\n",
		"__global__ void k(const float *in, float *out, int B, int M, int N)\n{\n"
		"\tconst int y = threadIdx.y + blockIdx.y * blockDim.y;\n\tconst int x = blockDim.x * blockIdx.x + threadIdx.x;\n"
		"\tconst int z = (int)blockIdx.z;\n\tif (x >= N || y >= M || z >= B)\n\t\treturn;\n"
		"\tconst long long base = (long long)z * M * N;\n\tout[base + y + x * M] = 2.0f * in[base + N * y + x];\n}\n" HOSTT
		"{\n\tk<<<dim3((N + 31) / 32, (M + 7) / 8, B), dim3(32, 8), 0, s>>>(in, out, B, M, N);\n}\n",
		/* no batch, an index through a helper */
		"__global__ void k(const float *in, float *out, int B, int M, int N)\n{\n"
		"\tunsigned int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;\n"
		"\tif (r < M && c < N) {\n\t\tunsigned int src = r * N + c;\n\t\tout[c * M + r] = in[src];\n\t}\n}\n" HOSTT
		"{\n\tk<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16), 0, s>>>(in, out, B, M, N);\n}\n",
	};
	static const char *const want[][3] = {
		{"\tint b = blockIdx.z;\n\tif (b >= B)\n\t\treturn;\n",
		 "ka_tile[ka_k][threadIdx.x] = in[(long long)M * N * b + row * N + col];",
		 "(unsigned)(((long long)(M) + 31) / 32), (unsigned)((long long)(B))), dim3(32, 8), 0, s>>>"},
		{"if (z >= B)", "out[(long long)M * N * z + x * M + y] = 2.0f*ka_tile[threadIdx.x][ka_k];",
		 "const long long y = ka_row0 + ka_k, x = ka_col0 + threadIdx.x;"},
		{"ka_tile[ka_k][threadIdx.x] = in[r * N + c];",
		 "out[c * M + r] = ka_tile[threadIdx.x][ka_k];", "__launch_bounds__(256) k("},
	};
	for (size_t i = 0; i < sizeof src / sizeof src[0]; i++)
		expect_applies("smem-tile-transpose", src[i], "tile=32 rows=8", want[i], 3);
	/* a copy is not a transpose */
	expect_declines(
		"smem-tile-transpose",
		"__global__ void k(const float *in, float *out, int B, int M, int N)\n{\n"
		"\tint col = blockIdx.x * blockDim.x + threadIdx.x;\n\tint row = blockIdx.y * blockDim.y + threadIdx.y;\n"
		"\tif (row < M && col < N) out[row * N + col] = in[row * N + col];\n}\n" HOSTT
		"{ k<<<dim3(N, M), dim3(1, 1), 0, s>>>(in, out, B, M, N); }\n",
		"the index 'row*N+col' is not OFFSET + col * M + row");
	/* a batch index with no bound */
	expect_declines(
		"smem-tile-transpose",
		"__global__ void k(const float *in, float *out, int B, int M, int N)\n{\n"
		"\tint col = blockIdx.x * blockDim.x + threadIdx.x;\n\tint row = blockIdx.y * blockDim.y + threadIdx.y;\n"
		"\tint b = blockIdx.z;\n\tif (row < M && col < N) out[b * M * N + col * M + row] = in[b * M * N + row * N + col];\n}\n" HOSTT
		"{ k<<<dim3(N, M, B), dim3(1, 1), 0, s>>>(in, out, B, M, N); }\n",
		"the batch index b has no bound check");
}

/* row-scan: one thread running along its row, several spellings */
static void test_rowscan_forms(void **st)
{
	(void)st;
	static const char *const src[] = {
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tint row = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (row < rows) {\n"
		"\t\tlong offset = (long)row * cols;\n\t\tfloat acc = 0.0f;\n\t\tfor (int j = 0; j < cols; j++) {\n"
		"\t\t\tacc += x[offset + j];\n\t\t\ty[offset + j] = acc;\n\t\t}\n\t}\n}\n" HOST2(
			"int rows, int cols") "{\n\tconst int tpb = 256;\n\tint bpg = (rows + tpb - 1) / tpb;\n\tk<<<bpg, tpb, 0, s>>>(x, y, rows, cols);\n}\n",
		/* exclusive, early return, size_t, acc = acc + ..., a scale */
		"__global__ void k(const float *x, float *y, size_t rows, size_t cols)\n{\n"
		"\tconst size_t r = threadIdx.x + (size_t)blockDim.x * blockIdx.x;\n\tif (r >= rows) return;\n"
		"\tdouble run = 0;\n\tfor (size_t c = 0; c < cols; ++c) {\n\t\ty[c + r * cols] = run;\n"
		"\t\trun = run + 0.5f * x[r * cols + c];\n\t}\n}\n" HOST2(
			"size_t rows, size_t cols") "{\n\tk<<<(unsigned)((rows + 127) / 128), 128, 0, s>>>(x, y, rows, cols);\n}\n",
	};
	static const char *const want[][3] = {
		{"\tint row = ka_w;\n", "y[offset + j] = acc + ka_v;",
		 "k<<<(unsigned)(((long long)(rows) * 32 + 255) / 256), 256, 0, s>>>(x, y, rows, cols);"},
		{"const size_t r = ka_w;", "ka_x = __shfl_up_sync(0xffffffffu, ka_v, 1);",
		 "y[c + r * cols] = run + ka_x;"},
	};
	for (size_t i = 0; i < sizeof src / sizeof src[0]; i++)
		expect_applies("row-scan", src[i], "block=256", want[i], 3);
	/* four columns per lane a step: a register scan, the lanes' totals
	 * scanned by shuffles, the element's own value off when exclusive */
	static const char *const chunked[][3] = {
		{"for (long long ka_j0 = 0;; ka_j0 += 128)", "const int ka_base = ka_j0 + 4 * ka_l;",
		 "y[offset + j] = acc + (ka_o - ka_p[3]) + ka_p[ka_q];"},
		{"const size_t ka_base = ka_j0 + 4 * ka_l;", "ka_v[ka_q] = 0.5f*x[r*cols+c];",
		 "y[c + r * cols] = run + (ka_o - ka_p[3]) + ka_p[ka_q] - ka_v[ka_q];"},
	};
	for (size_t i = 0; i < sizeof src / sizeof src[0]; i++)
		expect_applies("row-scan", src[i], "block=256 chunk=4", chunked[i], 3);
	/* a product is no running sum */
	expect_declines(
		"row-scan",
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tint row = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (row >= rows) return;\n"
		"\tfloat p = 1.0f;\n\tfor (int j = 0; j < cols; j++) { p *= x[row * cols + j]; y[row * cols + j] = p; }\n}\n" HOST2(
			"int rows, int cols") "{ k<<<rows, 1, 0, s>>>(x, y, rows, cols); }\n",
		"only a running sum is scanned");
	/* the loop walks a column: the row's elements are not contiguous */
	expect_declines(
		"row-scan",
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tint row = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (row >= rows) return;\n"
		"\tfloat a = 0.0f;\n\tfor (int j = 0; j < cols; j++) { a += x[j * rows + row]; y[j * rows + row] = a; }\n}\n" HOST2(
			"int rows, int cols") "{ k<<<rows, 1, 0, s>>>(x, y, rows, cols); }\n",
		"is not along the contiguous dimension");
	/* a store of something else than the running value */
	expect_declines(
		"row-scan",
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tint row = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (row >= rows) return;\n"
		"\tfloat a = 0.0f;\n\tfor (int j = 0; j < cols; j++) { a += x[row * cols + j]; y[row * cols + j] = 2 * a; }\n}\n" HOST2(
			"int rows, int cols") "{ k<<<rows, 1, 0, s>>>(x, y, rows, cols); }\n",
		"the loop stores '2*a', not the running value a");
}

/* the sum-of-products reading itself */
static const char *env_lookup(void *ctx, const char *name)
{
	(void)ctx;
	return !strcmp(name, "off") ? "r*cols" : !strcmp(name, "matrix") ? "(size_t)M*N" : NULL;
}

static void test_poly(void **st)
{
	(void)st;
	ka_recipe_poly_env env = {env_lookup, NULL};
	static const char *const same[][2] = {
		{"r*cols+c", "c+cols*r"},
		{"(size_t)r*cols+c", "off+c"},
		{"static_cast<long long>(r)*cols+(int)c", "c+r*cols"},
		{"b*matrix+(size_t)col*M+row", "row+M*col+b*N*M"},
		{"2*(a+b)-b", "a+a+b"},
	};
	char p1[300], p2[300];
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		ka_recipe_poly a, b;
		assert_int_equal(ka_recipe_poly_read(same[i][0], &env, &a), 1);
		assert_int_equal(ka_recipe_poly_read(same[i][1], &env, &b), 1);
		ka_recipe_poly_print(&a, p1, sizeof p1);
		ka_recipe_poly_print(&b, p2, sizeof p2);
		/* same terms, perhaps in another order */
		assert_int_equal(a.n, b.n);
		for (int t = 0; t < a.n; t++) {
			int found = 0;
			for (int u = 0; u < b.n && !found; u++)
				found = a.t[t].coef == b.t[u].coef && a.t[t].nf == b.t[u].nf &&
					!memcmp(a.t[t].f, b.t[u].f, sizeof a.t[t].f[0] * (size_t)a.t[t].nf);
			if (!found)
				fail_msg("'%s' (%s) and '%s' (%s) differ", same[i][0], p1, same[i][1], p2);
		}
	}
	static const char *const not_poly[] = {"r/2", "x[r]", "f(r)", "r%cols", "1.5*r"};
	for (size_t i = 0; i < sizeof not_poly / sizeof not_poly[0]; i++) {
		ka_recipe_poly a;
		assert_int_equal(ka_recipe_poly_read(not_poly[i], &env, &a), 0);
	}
}

#define HOSTM "void h(const float *x, float *y, int n, cudaStream_t s)\n"
#define GOM "{\n\tk<<<(n + 255) / 256, 256, 0, s>>>(x, y, n);\n}\n"

/* the element index as the kernel model reads it: helper variables,
 * declarations before it or between it and the guard (replayed per
 * element when the body reads them), a product bound; near misses that
 * read the thread apart from the index decline naming it */
static void test_model_index_forms(void **st)
{
	(void)st;
	/* helpers for the ids, a constant declared first, the guard holding the rest */
	static const char *const helpers =
		"__global__ void k(const float *x, float *y, int n)\n{\n"
		"\tint tx = threadIdx.x;\n\tint bx = blockIdx.x;\n\tconst float scale = 2.0f;\n"
		"\tint i = bx * blockDim.x + tx;\n\tif (i < n) {\n\t\ty[i] = scale * x[i];\n\t}\n}\n" HOSTM
			GOM;
	static const char *const gs1[] = {"\t\tint i = ka_e;\n\t\tconst float scale = 2.0f;\n",
					  "y[i] = scale * x[i];"};
	expect_applies("grid-stride", helpers, "block=256 cap=2112", gs1, 2);
	static const char *const v1[] = {"const float scale = 2.0f;", "ka_y.w = scale * ka_x.w;",
					 "reinterpret_cast<float4 *>(y)[ka_v] = ka_y;"};
	expect_applies("vectorize", helpers, "block=256 vec=4 cap=2112", v1, 3);
	/* the split of the index before a product guard, `n > i` order */
	static const char *const split =
		"__global__ void k(const float *x, float *y, int rows, int cols)\n{\n"
		"\tsize_t idx = threadIdx.x + (size_t)blockDim.x * blockIdx.x;\n\tconst int r = idx / cols;\n"
		"\tconst int c = idx % cols;\n\tif ((size_t)rows * cols <= idx) { return; }\n"
		"\ty[idx] = x[r * cols + c] + 1.0f;\n}\n"
		"void h(const float *x, float *y, int rows, int cols)\n{\n"
		"\tk<<<(rows * cols + 127) / 128, 128>>>(x, y, rows, cols);\n}\n";
	static const char *const gs2[] = {"ka_e < ((long long)cols * rows)", "size_t idx = ka_e;",
					  "const int r = idx / cols;", "const int c = idx % cols;"};
	expect_applies("grid-stride", split, "block=256 cap=2112", gs2, 4);
	static const char *const v2[] = {"size_t idx = 4 * ka_v + 3;", "ka_y.w = x[r * cols + c] + 1.0f;"};
	expect_applies("vectorize", split, "block=256 vec=4 cap=2112", v2, 2);
	/* a grid-stride loop whose body reads a constant declared before it */
	static const char *const loop =
		"__global__ void k(float *x, float *y, int n)\n{\n"
		"\tint tid = blockIdx.x * blockDim.x + threadIdx.x;\n\tint nt = blockDim.x * gridDim.x;\n"
		"\tfloat rcp = 1.0f / (float)n;\n"
		"\tfor (int p = tid; p < n; p += nt)\n\t\tx[p] *= y[p] * rcp;\n}\n"
		"void h(float *x, float *y, int n)\n{\n\tk<<<128, 256>>>(x, y, n);\n}\n";
	static const char *const gs3[] = {"\t\tint p = ka_e;\n\t\tfloat rcp = 1.0f / (float)n;\n",
					  "x[p] *= y[p] * rcp;"};
	expect_applies("grid-stride", loop, "block=256 cap=2112", gs3, 2);
	/* a histogram whose index is computed after a constant */
	static const char *const hist =
		"__global__ void k(const int *v, unsigned *hist, int nbins, int n)\n{\n"
		"\tconst int off = 1;\n\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
		"\tif (i < n) atomicAdd(&hist[(v[i] + off) % nbins], 1u);\n}\n"
		"void h(const int *v, unsigned *hist, int nbins, int n)\n{\n"
		"\tk<<<(n + 255) / 256, 256, nbins>>>(v, hist, nbins, n);\n}\n";
	static const char *const h1[] = {
		"long long i = ka_e;\n\t\tconst int off = 1;",
		"ka_priv_add(hist, ka_bins, ka_nb, (long long)((v[i]+off)%nbins), 1u);"};
	expect_applies("smem-histogram", hist, "block=512 cap=528", h1, 2);
	/* near misses: the body reads a thread id apart from the index */
	expect_declines(
		"grid-stride",
		"__global__ void k(const float *x, float *y, int n)\n{\n\tint t = threadIdx.x;\n"
		"\tint i = blockIdx.x * blockDim.x + t;\n\tif (i < n) y[i] = x[i] + t;\n}\n" HOSTM GOM,
		"the body reads t, which depends on the thread apart from the index i");
	/* a 2-D index */
	expect_declines("vectorize",
			"__global__ void k(const float *x, float *y, int n)\n{\n"
			"\tint j = blockIdx.y * blockDim.y + threadIdx.y;\n"
			"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			"\tif (i < n && j < n) y[j * n + i] = x[i];\n}\n" HOSTM GOM,
			"a 2-D index ('i' along x, 'j' along y)");
	/* a statement with an effect before the guard */
	expect_declines(
		"grid-stride",
		"__global__ void k(const float *x, float *y, int n)\n{\n\tif (n == 0) y[0] = 1.0f;\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = x[i];\n}\n" HOSTM GOM,
		"before the guard is no declaration");
	/* a name that is no parameter, local or macro of the file (one from a
	 * header could read the thread): not replayed */
	expect_declines(
		"grid-stride",
		"__constant__ int c_w;\n"
		"__global__ void k(const float *x, float *y, int n)\n{\n\tint w = c_w;\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) y[i] = x[i] * w;\n}\n" HOSTM
			GOM,
		"the body reads w, which depends on the thread apart from the index i (or on a name");
	/* an index with an offset is not the thread's element */
	expect_declines(
		"grid-stride",
		"__global__ void k(const float *x, float *y, int n)\n{\n\tint z = 0;\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x + 1;\n\tif (i < n) y[i] = x[i];\n}\n" HOSTM
			GOM,
		"the guarded index 'i' is");
}

/* A body that moves a parameter (cuda-samples' recursiveGaussian:
 * `id += x;` and then a walk down the column) carries the moved pointer
 * into the thread's next element in any loop over several elements:
 * grid-stride and vectorize decline, naming it.  launch-tune keeps one
 * element a thread and still takes it; a subscript store `id[x] = ...`
 * or a store through it `*bad = true` assigns no parameter. */
static void test_param_assigned(void **st)
{
	(void)st;
	const char *moved =
		"__global__ void k(unsigned *id, unsigned *od, int w, int h)\n{\n"
		"\tunsigned int x = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (x >= w)\n\t\treturn;\n"
		"\tid += x;\n\tod += x;\n\tfor (int y = 0; y < h; y++) {\n\t\t*od = *id;\n"
		"\t\tid += w;\n\t\tod += w;\n\t}\n}\n"
		"void run(unsigned *a, unsigned *b, int w, int h) { k<<<(w + 255) / 256, 256>>>(a, b, w, h); }\n";
	recipe_declines("grid-stride", NULL, moved, "k", "the body assigns the parameter id");
	recipe_declines("vectorize", NULL, moved, "k", "the body assigns the parameter id");
	static const char *const tune[] = {"k<<<(w+127)/128, 128>>>"};
	free(recipe_applies("launch-tune", NULL, moved, "k", tune, 1));
	const char *stored =
		"__global__ void k(unsigned *id, const unsigned *od, int w)\n{\n"
		"\tunsigned int x = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (x < w)\n"
		"\t\tid[x] = od[x] + 1;\n}\n"
		"void run(unsigned *a, const unsigned *b, int w) { k<<<(w + 255) / 256, 256>>>(a, b, w); }\n";
	static const char *const loop[] = {"for (long long ka_e = "};
	free(recipe_applies("grid-stride", NULL, stored, "k", loop, 1));
	/* a store through a parameter moves nothing (cuda-samples' validateGPU) */
	const char *flag =
		"__global__ void k(const float *a, int n, bool *bad)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n) {\n"
		"\t\tif (a[i] < 0.0f)\n\t\t\t*bad = true;\n\t}\n}\n"
		"void run(const float *a, int n, bool *b) { k<<<(n + 255) / 256, 256>>>(a, n, b); }\n";
	free(recipe_applies("grid-stride", NULL, flag, "k", loop, 1));
	/* a member named as the parameter is another object: `a.id = x` moves nothing */
	const char *member =
		"struct tag {\n\tunsigned id;\n};\n\n"
		"__global__ void k(unsigned *id, tag *t, int w)\n{\n"
		"\tunsigned int x = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (x < w) {\n"
		"\t\ttag a;\n\t\ta.id = x;\n\t\tt[x].id = id[x];\n\t\tt[x] = a;\n\t}\n}\n"
		"void run(unsigned *a, tag *t, int w) { k<<<(w + 255) / 256, 256>>>(a, t, w); }\n";
	free(recipe_applies("grid-stride", NULL, member, "k", loop, 1));
	/* `*p++ = v` moves p */
	const char *post = "__global__ void k(unsigned *id, int w)\n{\n"
			   "\tunsigned int x = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (x < w) {\n"
			   "\t\tid += x;\n\t\t*id++ = 1;\n\t}\n}\n"
			   "void run(unsigned *a, int w) { k<<<(w + 255) / 256, 256>>>(a, w); }\n";
	recipe_declines("grid-stride", NULL, post, "k", "the body assigns the parameter id");
}

/* seq-reduction on a halving tree whose loop takes its barrier before each
 * step (`{ __syncthreads(); if (tid < s) sh[tid] += sh[tid + s]; }`), the
 * block a file-scope const the launch reads: the rewrite keeps the first
 * barrier before its tree; a block that is no constant still declines */
#define TREE_HEAD "const int BS = 256;\n\n"
#define TREE_KERNEL \
	"#define SH 256\n\n__global__ void blocksum(const float *x, float *y)\n{\n\t__shared__ float sh[SH];\n" \
	"\tint tid = threadIdx.x;\n\tsh[tid] = x[blockIdx.x * 256 + tid];\n" \
	"\tfor (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {\n\t\t__syncthreads();\n" \
	"\t\tif (tid < s)\n\t\t\tsh[tid] += sh[tid + s];\n\t}\n\tif (tid == 0)\n\t\ty[blockIdx.x] = sh[0];\n}\n\n"
#define TREE_RUN "void run(const float *x, float *y, int nblocks)\n{\n\tblocksum<<<nblocks, BS>>>(x, y);\n}\n"
static void test_tree_barrier_first(void **st)
{
	(void)st;
	static const char *const want[] = {
		"\t__syncthreads(); /* the barrier the loop took before its first step */\n"
		"\tfor (unsigned int s = 128; s > 32; s >>= 1) {\n\t\tif (tid < s) sh[tid] += sh[tid + s];\n"
		"\t\t__syncthreads();\n\t}",
		"if (tid == 0) sh[0] = ka_v;"};
	char *out = recipe_applies("seq-reduction", NULL, TREE_HEAD TREE_KERNEL TREE_RUN, "blocksum", want,
				   2);
	host_runs_exact("treesum_main.cpp", TREE_HEAD TREE_KERNEL TREE_RUN, out);
	free(out);
	/* constexpr, and a local const in the launching function */
	free(recipe_applies("seq-reduction", NULL, "constexpr int BS = 256;\n\n" TREE_KERNEL TREE_RUN,
			    "blocksum", want, 2));
	/* a local initialized from a #define */
	free(recipe_applies("seq-reduction", NULL,
			    "#define BS 256\n\n" TREE_KERNEL
			    "void run(const float *x, float *y, int nblocks)\n{\n\tint threads = BS;\n"
			    "\tblocksum<<<nblocks, threads>>>(x, y);\n}\n",
			    "blocksum", want, 2));
	/* a block the caller chooses: the rewrite runs for a power of two from 64 to 1024 (the host
	 * run takes it with 256), the loop as written otherwise */
	static const char *const want_dyn[] = {
		"\tif (blockDim.x >= 64 && blockDim.x <= 1024 && (blockDim.x & (blockDim.x - 1)) == 0) {\n"
		"\t\t__syncthreads();",
		"\t\tfor (unsigned int s = (blockDim.x) / 2; s > 32; s >>= 1) {",
		"\t} else {\n\t\tfor (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {\n\t\t__syncthreads();"};
	const char *dyn = TREE_HEAD TREE_KERNEL
		"static void launch(const float *x, float *y, int nblocks, int threads)\n{\n"
		"\tblocksum<<<nblocks, threads>>>(x, y);\n}\n\n"
		"void run(const float *x, float *y, int nblocks)\n{\n\tlaunch(x, y, nblocks, BS);\n}\n";
	out = recipe_applies("seq-reduction", NULL, dyn, "blocksum", want_dyn, 3);
	host_runs_exact("treesum_main.cpp", dyn, out);
	free(out);
	/* what is no constant gets that run-time form, not the constant's: the local changed
	 * before the launch, a global that is not const, a parameter that shadows the const */
	static const char *const not_const[] = {
		"#define BS 256\n\n" TREE_KERNEL
		"void run(const float *x, float *y, int nblocks)\n{\n\tint threads = BS;\n\tthreads *= 2;\n"
		"\tblocksum<<<nblocks, threads>>>(x, y);\n}\n",
		"int BS = 256;\n\n" TREE_KERNEL TREE_RUN,
		TREE_HEAD TREE_KERNEL
		"void run(const float *x, float *y, int nblocks, int BS)\n{\n\tblocksum<<<nblocks, BS>>>(x, y);\n}\n"};
	for (size_t i = 0; i < sizeof not_const / sizeof not_const[0]; i++) {
		out = recipe_applies("seq-reduction", NULL, not_const[i], "blocksum", want_dyn, 1);
		assert_null(strstr(out, "s = 128;"));
		free(out);
	}
	/* a tree as wide as an integer parameter: also no more than the block */
	static const char *const want_w[] = {
		"if (w >= 64 && w <= 1024 && (w & (w - 1)) == 0 && blockDim.x >= (unsigned)w) {",
		"for (unsigned int s = (w) / 2; s > 32; s >>= 1) {"};
	const char *wide = TREE_HEAD
		"__global__ void blocksum(const float *x, float *y, int w)\n{\n\t__shared__ float sh[BS];\n"
		"\tint tid = threadIdx.x;\n\tsh[tid] = x[blockIdx.x * 256 + tid];\n"
		"\tfor (unsigned int s = w / 2; s > 0; s >>= 1) {\n\t\t__syncthreads();\n"
		"\t\tif (tid < s)\n\t\t\tsh[tid] += sh[tid + s];\n\t}\n\tif (tid == 0)\n\t\ty[blockIdx.x] = sh[0];\n}\n\n"
		"void run(const float *x, float *y, int nblocks)\n{\n\tblocksum<<<nblocks, BS>>>(x, y, BS);\n}\n";
	out = recipe_applies("seq-reduction", NULL, wide, "blocksum", want_w, 2);
	host_runs_exact("treesum_main.cpp", wide, out);
	free(out);
	/* a local copy of blockDim.x is as good a width; one assigned again is not */
	static const char *const want_copy[] = {
		"if (bs >= 64 && bs <= 1024 && (bs & (bs - 1)) == 0 && blockDim.x >= (unsigned)bs) {"};
#define COPY_KERNEL(extra) \
	"#define SH 256\n\n__global__ void blocksum(const float *x, float *y)\n{\n\t__shared__ float sh[SH];\n" \
	"\tint tid = threadIdx.x;\n\tint bs = blockDim.x;\n" extra \
	"\tsh[tid] = x[blockIdx.x * 256 + tid];\n" \
	"\tfor (int s = bs / 2; s >= 1; s /= 2) {\n\t\t__syncthreads();\n" \
	"\t\tif (tid < s)\n\t\t\tsh[tid] += sh[tid + s];\n\t}\n\tif (tid == 0)\n\t\ty[blockIdx.x] = sh[0];\n}\n\n"
	out = recipe_applies("seq-reduction", NULL, TREE_HEAD COPY_KERNEL("") TREE_RUN, "blocksum", want_copy,
			     1);
	host_runs_exact("treesum_main.cpp", TREE_HEAD COPY_KERNEL("") TREE_RUN, out);
	free(out);
	recipe_declines(
		"seq-reduction", NULL, TREE_HEAD COPY_KERNEL("\tbs = bs / 2 * 2;\n") TREE_RUN, "blocksum",
		"the tree's width 'bs' is neither a literal, blockDim.x, an integer parameter nor a local copy "
		"of blockDim.x");
#undef COPY_KERNEL
	/* a literal array smaller than the widest tree the test allows: the test says so too */
	static const char *const want_sz[] = {"(blockDim.x & (blockDim.x - 1)) == 0 && blockDim.x <= 512) {"};
	free(recipe_applies(
		"seq-reduction", NULL,
		"__global__ void blocksum(const float *x, float *y)\n{\n\t__shared__ float sh[512];\n"
		"\tint tid = threadIdx.x;\n\tsh[tid] = x[blockIdx.x * 256 + tid];\n\t__syncthreads();\n"
		"\tfor (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
		"\t\tif (tid < s)\n\t\t\tsh[tid] += sh[tid + s];\n\t\t__syncthreads();\n\t}\n"
		"\tif (tid == 0)\n\t\ty[blockIdx.x] = sh[0];\n}\n\n"
		"void run(const float *x, float *y, int nblocks, int b)\n{\n\tblocksum<<<nblocks, b>>>(x, y);\n}\n",
		"blocksum", want_sz, 1));
	/* a statement after the step: not the tree's body */
	recipe_declines("seq-reduction", NULL,
			TREE_HEAD
			"__global__ void blocksum(const float *x, float *y)\n{\n\t__shared__ float sh[BS];\n"
			"\tint tid = threadIdx.x;\n\tsh[tid] = x[blockIdx.x * 256 + tid];\n"
			"\tfor (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {\n\t\t__syncthreads();\n"
			"\t\tif (tid < s)\n\t\t\tsh[tid] += sh[tid + s];\n\t\ty[0] = 0.0f;\n\t}\n"
			"\tif (tid == 0)\n\t\ty[blockIdx.x] = sh[0];\n}\n\n" TREE_RUN,
			"blocksum", "the tree loop's body is not");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_poly),
		cmocka_unit_test(test_colreduce_forms),
		cmocka_unit_test(test_colreduce_declines),
		cmocka_unit_test(test_colreduce_split),
		cmocka_unit_test(test_stride_loop_forms),
		cmocka_unit_test(test_braced_return_guard),
		cmocka_unit_test(test_grid_stride_widened),
		cmocka_unit_test(test_grid_stride_yz),
		cmocka_unit_test(test_grid_stride_decls),
		cmocka_unit_test(test_launch_tune_guard),
		cmocka_unit_test(test_fuse_stride_loop),
		cmocka_unit_test(test_transpose_forms),
		cmocka_unit_test(test_rowscan_forms),
		cmocka_unit_test(test_model_index_forms),
		cmocka_unit_test(test_param_assigned),
		cmocka_unit_test(test_tree_barrier_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
