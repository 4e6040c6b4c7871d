/* tests/agents/test_recipe_compose.c: recipes compose.  A recipe applies to
 * another's result: warp-per-row to a grid-stride row loop (the
 * grid-stride recipe's, or one written so), vectorize to the lane-strided
 * column loops warp-per-row writes.  Chains of two or three recipes on a
 * bench task's baseline, each result compiled with nvcc -arch=sm_90 -c
 * when nvcc is there; what a composition cannot prove declines with the
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
#include "util/fs.h"

#ifndef KA_SOURCE_DIR
#error "KA_SOURCE_DIR must be defined"
#endif

/* recipes[0], then recipes[1] on its result, ...; NULL-terminated.
 * KA_OK with *out, or the first decline's rc with why. */
static int chain(const char *src, const char *const *recipes, const char *const *params, char **out,
		 char *why, size_t cap)
{
	char *cur = strdup(src);
	size_t n = strlen(cur);
	int rc = KA_OK;
	for (int i = 0; recipes[i] && rc == KA_OK; i++) {
		char *next = NULL;
		size_t nn;
		rc = ka_recipe_apply(recipes[i], cur, n, NULL, params[i], &next, &nn, why, cap);
		if (rc == KA_OK) {
			assert_int_equal(strlen(next), nn);
			free(cur);
			cur = next;
			n = nn;
		}
	}
	*out = rc == KA_OK ? cur : NULL;
	if (rc != KA_OK)
		free(cur);
	return rc;
}

typedef struct seq {
	const char *task;
	const char *recipes[4], *params[4];
	const char *want[3]; /* strings the result holds */
} seq;

static const seq seqs[] = {
	/* a grid-stride result can still become warp-per-row: the row loop is
	 * warp-strided, the grid-stride helper goes */
	{"row_mean",
	 {"grid-stride", "warp-per-row", NULL},
	 {"block=256 cap=2112", "block=256", NULL},
	 {"for (long long ka_e = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32; ka_e < rows; "
	  "ka_e += (long long)gridDim.x * (blockDim.x / 32))",
	  "sum = ka_warp_sum(sum);", "__launch_bounds__(256) row_mean_kernel"}},
	/* ... or a block per row */
	{"argmax_rows",
	 {"grid-stride", "warp-per-row", NULL},
	 {"block=256 cap=2112", "block=512 lanes=block", NULL},
	 {"for (long long ka_e = blockIdx.x; ka_e < rows; ka_e += gridDim.x)",
	  "ka_block_argmax_first(best, best_idx);", "__launch_bounds__(512) argmax_kernel"}},
	/* a warp-per-row kernel can still be vectorized: its column loops walk
	 * float4 chunks, a store-only row is not loaded first */
	{"softmax",
	 {"warp-per-row", "vectorize", NULL},
	 {"block=256", "block=256 vec=4 cap=2112", NULL},
	 {"float4 ka_xr = reinterpret_cast<const float4 *>(xr + ka_s)[ka_v];",
	  "reinterpret_cast<float4 *>(yr + ka_s)[ka_v] = ka_yr;",
	  "for (long long j = ka_s + 4 * ka_n4 + ka_lane; j < cols; j += 32) yr[j] = expf(xr[j] - m) / s;"}},
	{"layernorm",
	 {"warp-per-row", "vectorize", NULL},
	 {"block=128", "block=256 vec=4 cap=2112", NULL},
	 {"| (unsigned long long)(g + ka_s)", "ka_yr.w = (ka_xr.w - mean) * inv * ka_g.w + ka_b.w;",
	  "mean = ka_warp_sum(mean);"}},
	/* a bound `t2 <= own_pos` (the causal row): the chunks end past own_pos */
	{"attn_softmax_causal",
	 {"warp-per-row", "vectorize", NULL},
	 {"block=256", "block=256 vec=4 cap=2112", NULL},
	 {"(long long)((own_pos) + 1) <= ka_s ? 0 : ((long long)((own_pos) + 1) - ka_s) / 4;",
	  "if (ka_x.w > maxval) {", "for (int t2 = ka_s + 4 * ka_n4 + ka_lane; t2 <= own_pos; t2 += 32)"}},
	/* softmax's chunked sum (`j < cols && j < j0 + 1024`, a partial added
	 * into the row's sum): float4 chunks up to the lesser bound */
	{"softmax",
	 {"warp-per-row", "vectorize", NULL},
	 {"block=256", "block=256 vec=4 cap=2112", NULL},
	 {"const long long ka_b = (long long)(cols) < (long long)(j0+1024) ? (long long)(cols) : (long long)(j0+1024);",
	  "part += expf(ka_xr.w - m);",
	  "for (long long j = ka_s + 4 * ka_n4 + ka_lane; j < cols && j < j0 + 1024; j += 32) part += expf(xr[j] - m);"}},
	/* all three: grid-stride, warp per row, float4 columns */
	{"argmax_rows",
	 {"grid-stride", "warp-per-row", "vectorize", NULL},
	 {"block=256 cap=2112", "block=256", "block=256 vec=4 cap=2112", NULL},
	 {"long long ka_e = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32",
	  "size_t j = ka_s + 4 * ka_v + 3;", "ka_warp_argmax_first(best, best_idx);"}},
};

static void test_sequences(void **st)
{
	(void)st;
	for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
		const seq *q = &seqs[i];
		char path[512], why[256], err[4096], *src = NULL, *out = NULL;
		size_t n;
		snprintf(path, sizeof path, "%s/bench/tasks/%s/baseline.cu", KA_SOURCE_DIR, q->task);
		assert_int_equal(ka_fs_read(path, 0, &src, &n), KA_OK);
		ka_recipe_set_source_path(path);
		int rc = chain(src, q->recipes, q->params, &out, why, sizeof why);
		if (rc != KA_OK)
			fail_msg("sequence %zu on %s: rc %d: %s %s", i, q->task, rc, why, ka_error_last());
		for (int j = 0; j < 3; j++)
			if (!strstr(out, q->want[j]))
				fail_msg("sequence %zu on %s lacks '%s':\n%s", i, q->task, q->want[j], out);
		/* one __launch_bounds__: the last recipe's replaced the first's */
		const char *lb = strstr(out, "__launch_bounds__");
		assert_non_null(lb);
		assert_null(strstr(lb + 1, "__launch_bounds__"));
		if (nvcc_compiles(out, err, sizeof err) == 0)
			fail_msg("sequence %zu on %s does not compile:\n%s", i, q->task, err);
		free(out);
		free(src);
	}
	ka_recipe_set_source_path(NULL);
}

/* text[at..] holds a, then b after it; the place of b, or fails */
static const char *after(const char *text, const char *a, const char *b)
{
	const char *x = strstr(text, a);
	if (!x)
		fail_msg("lacks '%s':\n%s", a, text);
	const char *y = strstr(x + strlen(a), b);
	if (!y)
		fail_msg("lacks '%s' after '%s':\n%s", b, a, text);
	return y;
}

/* vectorize on a row that starts at 1 (argmax's `best = r[0]`, then
 * 1 + lane) or on a row of a cols % 4 != 0 matrix: the elements before the
 * next 16-byte boundary go first, one per lane, so the float4 chunks are
 * aligned and each lane still meets its elements in rising order (the
 * strict `>` keeps a lane's first index, the block's reduction the least
 * of the lanes'); the chunk loop is unrolled for several loads in flight */
static void test_lane_head(void **st)
{
	(void)st;
	static const struct {
		const char *task, *rp;
		const char *head, *hloop, *body, *tail;
	} cases[] = {
		{"argmax_rows", "block=512 lanes=block",
		 "long long ka_h = (long long)((16 - ((unsigned long long)(r + ka_s0) & 15)) & 15) / 4;",
		 "for (size_t j = ka_s0 + ka_lane; j < (size_t)(ka_s0 + ka_h); j += blockDim.x) {\n\t\tif (r[j] > best) {",
		 "size_t j = ka_s + 4 * ka_v + 3;\n\t\t\t\tif (ka_r.w > best) {",
		 "for (size_t j = ka_s + 4 * ka_n4 + ka_lane; j < cols; j += blockDim.x) {"},
		{"row_mean", "block=256",
		 "long long ka_h = (long long)((16 - ((unsigned long long)(p + ka_s0) & 15)) & 15) / 4;",
		 "for (long j = ka_s0 + ka_lane; j < (long)(ka_s0 + ka_h); j += 32) {\n\t\t\tsum += p[j];",
		 "sum += ka_p.w;", "for (long j = ka_s + 4 * ka_n4 + ka_lane; j < cols; j += 32) {"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[512], why[256], err[4096], *src = NULL, *out = NULL;
		size_t n;
		snprintf(path, sizeof path, "%s/bench/tasks/%s/baseline.cu", KA_SOURCE_DIR, cases[i].task);
		assert_int_equal(ka_fs_read(path, 0, &src, &n), KA_OK);
		ka_recipe_set_source_path(path);
		const char *const rs[] = {"warp-per-row", "vectorize", NULL};
		const char *const ps[] = {cases[i].rp, "block=256 vec=4 cap=2112", NULL};
		if (chain(src, rs, ps, &out, why, sizeof why) != KA_OK)
			fail_msg("%s: %s", cases[i].task, why);
		/* the head, clipped to the row, then its loop, the chunks from the
		 * boundary, the unrolled chunk loop, the tail after the chunks */
		const char *x = after(out, cases[i].head,
				      "ka_h = (long long)(cols) > ka_s0 ? (long long)(cols) - ka_s0 : 0;");
		x = after(x, "", cases[i].hloop);
		x = after(x, "", "const long long ka_s = ka_s0 + ka_h;");
		x = after(x, "", "const unsigned long long ka_al = 0 |");
		x = after(x, "", "#pragma unroll 4\n\t\tfor (long long ka_v = ka_lane; ka_v < ka_n4;");
		x = after(x, "", cases[i].body);
		after(x, "", cases[i].tail);
		if (nvcc_compiles(out, err, sizeof err) == 0)
			fail_msg("%s does not compile:\n%s", cases[i].task, err);
		free(out);
		free(src);
	}
	ka_recipe_set_source_path(NULL);
}

#define ROWS_GO \
	"void h(const float *x, float *y, long rows, long cols)\n{\n" \
	"\tk<<<(rows + 255) / 256, 256>>>(x, y, rows, cols);\n}\n"

/* warp-per-row on row loops written as grid-stride loops. */
static void test_rowwarp_stride_forms(void **st)
{
	(void)st;
	static const char *const ok[] = {
		/* the step through a helper, the terms in another order */
		"__global__ void k(const float *x, float *y, long rows, long cols)\n{\n"
		"\tconst long stride = (long)gridDim.x * blockDim.x;\n"
		"\tfor (long r = threadIdx.x + blockDim.x * blockIdx.x; r < rows; r += stride) {\n"
		"\t\tfloat s = 0.0f;\n\t\tfor (long j = 0; j < cols; j++)\n\t\t\ts += x[r * cols + j];\n"
		"\t\ty[r] = s;\n\t}\n}\n" ROWS_GO,
		/* a max per row */
		"__global__ void k(const float *x, float *y, long rows, long cols)\n{\n"
		"\tfor (long r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {\n"
		"\t\tfloat m = -INFINITY;\n\t\tfor (long j = 0; j < cols; j++)\n\t\t\tm = fmaxf(m, x[r * cols + j]);\n"
		"\t\ty[r] = m;\n\t}\n}\n" ROWS_GO,
	};
	static const char *const want[][2] = {
		{"for (long r = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32; r < rows; r += (long "
		 "long)gridDim.x * (blockDim.x / 32))",
		 "if (ka_lane == 0) { y[r] = s; }"},
		{"const int ka_lane = threadIdx.x & 31;\n\tfor (long r", "m = ka_warp_max(m);"},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char why[256], err[4096], *out = NULL;
		size_t n;
		int rc = ka_recipe_apply("warp-per-row", ok[i], strlen(ok[i]), NULL, "block=256", &out, &n,
					 why, sizeof why);
		if (rc != KA_OK)
			fail_msg("form %zu: rc %d: %s", i, rc, why);
		for (int j = 0; j < 2; j++)
			if (!strstr(out, want[i][j]))
				fail_msg("form %zu lacks '%s':\n%s", i, want[i][j], out);
		assert_null(strstr(out, "stride")); /* the helper only the header read is gone */
		if (nvcc_compiles(out, err, sizeof err) == 0)
			fail_msg("form %zu does not compile:\n%s", i, err);
		free(out);
	}
	/* what a grid-stride row loop cannot become, with the construct */
	static const struct {
		const char *src, *params, *reason;
	} no[] = {
		{"__global__ void k(const float *x, float *y, long rows, long cols)\n{\n"
		 "\tfor (long r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {\n"
		 "\t\tfloat s = 0.0f;\n\t\tfor (long j = 0; j < cols; j++)\n\t\t\ts += x[r * cols + j];\n"
		 "\t\ty[r] = s;\n\t}\n}\n" ROWS_GO,
		 "block=256 lanes=8", "a grid-stride row loop takes lanes=32 or lanes=block"},
		{"__global__ void k(const float *x, float *y, long rows, long cols)\n{\n"
		 "\tfor (long r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {\n"
		 "\t\tfloat s = 0.0f;\n\t\tfor (long j = 0; j < cols; j++)\n\t\t\ts += x[r * cols + j] * gridDim.x;\n"
		 "\t\ty[r] = s;\n\t}\n}\n" ROWS_GO,
		 "block=256", "the kernel uses gridDim in its row loop's body"},
		/* y read for a later row after lane 0 stored it */
		{"__global__ void k(const float *x, float *y, long rows, long cols)\n{\n"
		 "\tfor (long r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {\n"
		 "\t\tfloat b = y[0];\n\t\tfloat s = 0.0f;\n\t\tfor (long j = 0; j < cols; j++)\n\t\t\ts += x[r * cols + j];\n"
		 "\t\ty[r] = s + b;\n\t}\n}\n" ROWS_GO,
		 "block=256", "y is stored by lane 0 and used after"},
	};
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
		char why[256], *out = NULL;
		size_t n;
		int rc = ka_recipe_apply("warp-per-row", no[i].src, strlen(no[i].src), NULL, no[i].params,
					 &out, &n, why, sizeof why);
		assert_int_equal(rc, KA_RECIPE_DECLINED);
		if (!strstr(why, no[i].reason))
			fail_msg("decline %zu: '%s' lacks '%s'", i, why, no[i].reason);
		assert_null(out);
	}
}

#define LANE_HEAD \
	"__global__ void k(const float *x, float *y, long rows, long cols)\n{\n" \
	"\tconst long r = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;\n" \
	"\tconst int lane = threadIdx.x & 31;\n\tif (r >= rows) return;\n\tfloat s = 0.0f;\n"
#define LANE_TAIL "\ts = ka_warp_sum(s);\n\tif (lane == 0) y[r] = s;\n}\n"
#define LANE_SUM \
	"template <typename T> __device__ T ka_warp_sum(T v)\n{\n" \
	"\tfor (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);\n\treturn v;\n}\n"

/* vectorize on lane-strided loops: what it proves, and the declines. */
static void test_lane_vectorize(void **st)
{
	(void)st;
	/* a row offset in the subscript, a lane named otherwise, an index the body reads */
	static const char ok[] = LANE_SUM LANE_HEAD
		"\tint at = 0;\n"
		"\tfor (long j = lane; j < cols; j += 32) {\n\t\ts += x[r * cols + j];\n\t\tat += (int)j;\n\t}\n"
		"\tat = ka_warp_sum(at);\n\ts += at;\n" LANE_TAIL ROWS_GO;
	char why[256], err[4096], *out = NULL;
	size_t n;
	int rc = ka_recipe_apply("vectorize", ok, strlen(ok), NULL, NULL, &out, &n, why, sizeof why);
	if (rc != KA_OK)
		fail_msg("rc %d: %s", rc, why);
	static const char *const want[] = {
		"float4 ka_x = reinterpret_cast<const float4 *>(x + r*cols + ka_s)[ka_v];",
		"long j = ka_s + 4 * ka_v + 2;", "s += ka_x.z;",
		"for (long j = ka_s + 4 * ka_n4 + lane; j < cols; j += 32)"};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!strstr(out, want[i]))
			fail_msg("lacks '%s':\n%s", want[i], out);
	if (nvcc_compiles(out, err, sizeof err) == 0)
		fail_msg("does not compile:\n%s", err);
	free(out);
	static const struct {
		const char *src, *reason;
	} no[] = {
		/* each lane its own start: the group's lanes do not share the range */
		{LANE_SUM LANE_HEAD
		 "\tconst long s0 = threadIdx.x / 2;\n"
		 "\tfor (long j = s0 + lane; j < cols; j += 32) s += x[r * cols + j];\n" LANE_TAIL,
		 "cannot prove the lane loop's range [s0, cols) the same on every lane of a row (threadIdx)"},
		/* a bound an earlier statement moves */
		{LANE_SUM LANE_HEAD "\tlong c = cols;\n\tif (lane == 3) c = 1;\n"
				    "\tfor (long j = lane; j < c; j += 32) s += x[r * cols + j];\n" LANE_TAIL,
		 "(c)"},
		/* a stride that is not the group's */
		{LANE_SUM LANE_HEAD
		 "\tfor (long j = lane; j < cols; j += 64) s += x[r * cols + j];\n" LANE_TAIL,
		 "steps by 'j+=64', not its group's width"},
		/* an element's address taken */
		{LANE_SUM LANE_HEAD
		 "\tfor (long j = lane; j < cols; j += 32) atomicAdd(&y[j], 1.0f);\n" LANE_TAIL,
		 "no float pointer is used only as p[j] or p[E + j]"},
		/* a lane's partial kept as it is: each lane now sees other elements */
		{LANE_SUM LANE_HEAD "\tfor (long j = lane; j < cols; j += 32) s += x[r * cols + j];\n"
				    "\ty[r * 32 + lane] = s;\n}\n",
		 "s carries a lane's own elements past the lane loop and is not reduced"},
		/* the body reads the lane */
		{LANE_SUM LANE_HEAD
		 "\tfor (long j = lane; j < cols; j += 32) s += x[r * cols + j] * lane;\n" LANE_TAIL,
		 "the lane loop's body reads the lane lane"},
		/* a store at a subscript j does not pick */
		{LANE_SUM LANE_HEAD
		 "\tfor (long j = lane; j < cols; j += 32) y[r] = x[r * cols + j];\n" LANE_TAIL,
		 "stores 'y[...]' at a subscript without j"},
		/* a test that is not one bound or two joined by && */
		{LANE_SUM LANE_HEAD
		 "\tfor (long j = lane; j < cols || j < 64; j += 32) s += x[j];\n" LANE_TAIL,
		 "is not one bound"},
		/* a chunk's partial (one chunk, so that its loop is the first)
		 * read again after it is added up */
		{LANE_SUM LANE_HEAD
		 "\t{\n\t\tconst long j0 = cols / 2;\n\t\tfloat part = 0.0f;\n"
		 "\t\tfor (long j = j0 + lane; j < cols && j < j0 + 256; j += 32) part += x[r * cols + j];\n"
		 "\t\ts += part;\n\t\ty[r] = part;\n\t}\n" LANE_TAIL,
		 "part carries a lane's own elements past the lane loop"},
		/* a chunk's partial that is no sum */
		{LANE_SUM LANE_HEAD
		 "\t{\n\t\tconst long j0 = cols / 2;\n\t\tfloat part = 0.0f;\n"
		 "\t\tfor (long j = j0 + lane; j < cols && j < j0 + 256; j += 32) part = fmaxf(part, x[r * cols + j]);\n"
		 "\t\ts += part;\n\t}\n" LANE_TAIL,
		 "part carries a lane's own elements past the lane loop"},
		/* a chunk's partial added into a row value that is reduced by no sum */
		{LANE_SUM LANE_HEAD
		 "\t{\n\t\tconst long j0 = cols / 2;\n\t\tfloat part = 0.0f;\n"
		 "\t\tfor (long j = j0 + lane; j < cols && j < j0 + 256; j += 32) part += x[r * cols + j];\n"
		 "\t\ts += part;\n\t}\n\tif (lane == 0) y[r] = s;\n}\n",
		 "part carries a lane's own elements past the lane loop"},
	};
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
		char *o2 = NULL;
		char src[2048];
		snprintf(src, sizeof src, "%s%s", no[i].src, ROWS_GO);
		rc = ka_recipe_apply("vectorize", src, strlen(src), NULL, NULL, &o2, &n, why, sizeof why);
		if (rc != KA_RECIPE_DECLINED)
			fail_msg("decline %zu: rc %d:\n%s", i, rc, o2 ? o2 : "");
		if (!strstr(why, no[i].reason))
			fail_msg("decline %zu: '%s' lacks '%s'", i, why, no[i].reason);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequences),
		cmocka_unit_test(test_lane_head),
		cmocka_unit_test(test_rowwarp_stride_forms),
		cmocka_unit_test(test_lane_vectorize),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
