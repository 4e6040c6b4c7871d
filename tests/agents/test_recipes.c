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
#include "agents/recipe.h"
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
	{"scan", "parallel-scan", "block=1024"},
	{"scan", "shuffle-block-scan", ""},
	{"scan", "parallel-scan+shuffle-block-scan", ""},
	/* recipes compose: the fused kernel keeps the element-wise shape */
	{"bias_gelu_scale", "fuse-elementwise+vectorize", "block=256 vec=4 cap=2112"},
};

static char *slurp(const char *path)
{
	char *s = NULL;
	size_t n;
	return ka_fs_read(path, 0, &s, &n) == KA_OK ? s : NULL;
}

/* nvcc -arch=sm_90 -c on the candidate; 1 compiled, 0 not, -1 no nvcc. */
static int nvcc_compiles(const char *text, char *err, size_t cap)
{
	const char *nvcc = ka_proc_find_nvcc();
	if (!nvcc)
		return -1;
	char dir[] = "/tmp/ka_recipe_XXXXXX", src[64], obj[64], inc[600];
	if (!mkdtemp(dir))
		return 0;
	snprintf(src, sizeof src, "%s/k.cu", dir);
	snprintf(obj, sizeof obj, "%s/k.o", dir);
	snprintf(inc, sizeof inc, "-I%s/bench/harness", KA_SOURCE_DIR);
	FILE *f = fopen(src, "w");
	fputs(text, f);
	fclose(f);
	char *argv[] = {(char *)nvcc, "-arch=sm_90", "-c", inc, src, "-o", obj, NULL};
	ka_buf out;
	ka_buf_init(&out, 1 << 20);
	ka_proc_result r;
	int ok = ka_proc_run(argv, 300, &out, &r) == KA_OK && r.exited && r.status == 0;
	snprintf(err, cap, "%s", out.data ? out.data : "");
	ka_buf_free(&out);
	unlink(src);
	unlink(obj);
	rmdir(dir);
	return ok;
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
	/* the index is reassigned: not one element per thread */
	{"vectorize",
	 "__global__ void k(const float *x, float *y, long long n)\n{\n"
	 "\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (i < n) { i = n - 1 - i; y[i] = x[i]; }\n}\n",
	 "assigns the index"},
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_and_offline_coder),
		cmocka_unit_test(test_declines),
		cmocka_unit_test(test_scan_forms),
		cmocka_unit_test(test_golden),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
