/* tests/agents/test_recipe_rowcache.c: row-cache on the row kernels the
 * planner makes: warp-per-row's softmax, layernorm, softmax_bf16 and
 * attn_softmax_causal, a block per row (rmsnorm_bf16's baseline, softmax
 * with lanes=block), and vectorize after it.  Each rewrite's key lines,
 * nvcc -arch=sm_90 -c when nvcc is there, and a host run (tests/agents/emu,
 * a block's threads at once) that must print the very bits the kernel it
 * rewrote prints, on rows the cache holds and rows longer than it; near
 * misses decline naming the construct. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recipes/recipe.h"
#include "tests/agents/recipe_nvcc.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"

#ifndef KA_SOURCE_DIR
#error "KA_SOURCE_DIR must be defined"
#endif

static char *slurp_task(const char *task)
{
	char path[512];
	char *s = read_task_baseline(task, path, sizeof path);
	ka_recipe_set_source_path(path);
	return s;
}

static char *apply(const char *recipe, const char *src, const char *params)
{
	char why[256], *out = NULL;
	size_t n;
	if (ka_recipe_apply(recipe, src, strlen(src), NULL, params, &out, &n, why, sizeof why) != KA_OK)
		fail_msg("%s %s declined: %s\n%s", recipe, params ? params : "", why, src);
	if (getenv("KA_TEST_DUMP"))
		fprintf(stderr, "%s\n", out);
	return out;
}

static void has(const char *text, const char *const *want)
{
	for (; want && *want; want++)
		if (!strstr(text, *want))
			fail_msg("the rewrite lacks '%s':\n%s", *want, text);
}

static void compiles(const char *text)
{
	char err[8192];
	if (nvcc_compiles(text, err, sizeof err) == 0)
		fail_msg("the rewrite does not compile:\n%s\n%s", text, err);
}

/* The host runs of before and after each within the reference's
 * tolerance, and, exact set, printing the same lines (the same output bits
 * on every shape). */
static void host_runs(const char *before, const char *after, int task, int exact)
{
	char def[32];
	snprintf(def, sizeof def, "-DKA_EMU_TASK=%d", task);
	const char *defs[] = {def};
	static char a[1 << 16], b[1 << 16];
	int ra = exact ? host_run_defs(before, "rowcache_main.cpp", defs, 1, a, sizeof a) : 1;
	if (ra < 0) {
		fprintf(stderr,
			"SKIP: no C++ compiler (c++ or $CXX): the host run of the rewrite is not checked\n");
		return;
	}
	int rb = host_run_defs(after, "rowcache_main.cpp", defs, 1, b, sizeof b);
	if (exact && ra != 1)
		fail_msg("the kernel before the rewrite fails on the host:\n%s", a);
	if (rb != 1)
		fail_msg("the rewrite fails on the host:\n%s\n%s", b, after);
	if (getenv("KA_TEST_DUMP"))
		fprintf(stderr, "before:\n%safter:\n%s", exact ? a : "", b);
	if (exact && strcmp(a, b))
		fail_msg("the rewrite computes other bits:\nbefore:\n%safter:\n%s", a, b);
}

/* softmax after warp-per-row: three passes, the middle one in 1024-element
 * chunks (a pass from the chunk's start, its lanes checked per slot) */
static void test_softmax(void **st)
{
	(void)st;
	char *src = slurp_task("softmax"), *wpr = apply("warp-per-row", src, "block=256"),
	     *rc = apply("row-cache", wpr, "cache=regs k=8");
	const char *want[] = {
		"const bool ka_rc = (long long)(cols) - (long long)(0) <= 32 * 8;",
		"float ka_c[8];",
		"ka_c[ka_i] = xr[ka_j];",
		"if (j<cols) {m = fmaxf(m, ka_c[ka_i]);}",
		"if (j >= (j0) + ka_lane && ((long long)j - (long long)(j0) - ka_lane) % 32 == 0 && j<cols&&j<j0+1024) "
		"{part += expf(ka_c[ka_i] - m);}",
		"if (j<cols) {yr[j] = expf(ka_c[ka_i] - m) / s;}",
		"} else for (long long j = (0) + ka_lane; j < cols; j += 32) yr[j] = expf(xr[j] - m) / s;",
		NULL};
	has(rc, want);
	compiles(rc);
	host_runs(wpr, rc, 1, 1);
	/* vectorize still applies: to the passes of rows longer than the cache */
	char *v = apply("vectorize", rc, NULL);
	const char *want2[] = {"float4 ka_xr = reinterpret_cast<const float4 *>(xr + ka_s)[ka_v];",
			       "if (j<cols) {yr[j] = expf(ka_c[ka_i] - m) / s;}", NULL};
	has(v, want2);
	compiles(v);
	host_runs(wpr, v, 1, 0); /* vectorize reorders a lane's sum: the tolerance */
	free(v);
	free(rc);
	free(wpr);
	free(src);
}

static void test_layernorm(void **st)
{
	(void)st;
	char *src = slurp_task("layernorm"), *wpr = apply("warp-per-row", src, "block=256"),
	     *rc = apply("row-cache", wpr, "cache=regs k=8");
	const char *want[] = {"if (j<cols) {var += (ka_c[ka_i] - mean) * (ka_c[ka_i] - mean);}",
			      "if (j<cols) {yr[j] = (ka_c[ka_i] - mean) * inv * g[j] + b[j];}", NULL};
	has(rc, want);
	compiles(rc);
	host_runs(wpr, rc, 2, 1);
	free(rc);
	free(wpr);
	free(src);
}

/* bf16 rows: the cache holds the converted float */
static void test_softmax_bf16(void **st)
{
	(void)st;
	char *src = slurp_task("softmax_bf16"), *wpr = apply("warp-per-row", src, "block=256"),
	     *rc = apply("row-cache", wpr, "cache=regs k=8");
	const char *want[] = {"float ka_c[8];", "ka_c[ka_i] = __bfloat162float(xr[ka_j]);",
			      "if (j<cols) {m = fmaxf(m, ka_c[ka_i]);}",
			      "yr[j] = __float2bfloat16(expf(ka_c[ka_i] - m) / s);", NULL};
	has(rc, want);
	compiles(rc);
	host_runs(wpr, rc, 3, 1);
	char *v = apply("vectorize-2byte", rc, NULL);
	compiles(v);
	free(v);
	free(rc);
	free(wpr);
	free(src);
}

/* a block per row, the lanes threadIdx.x by blockDim.x, a shared-memory
 * tree between the passes (no global store: the cache stays valid) */
static void test_rmsnorm_bf16_block(void **st)
{
	(void)st;
	char *src = slurp_task("rmsnorm_bf16"), *rc = apply("row-cache", src, "cache=regs k=8");
	const char *want[] = {
		"const bool ka_rc = (long long)(cols) - (long long)(0) <= (long long)blockDim.x * 8;",
		"const long long ka_j = (long long)(0) + threadIdx.x + (long long)blockDim.x * ka_i;",
		"ka_c[ka_i] = __bfloat162float(xr[ka_j]);",
		"__nv_bfloat16 n = __float2bfloat16(ka_c[ka_i] * rstd);", NULL};
	has(rc, want);
	compiles(rc);
	host_runs(src, rc, 4, 1);
	free(rc);
	free(src);
}

/* the causal row: the write pass runs to T, past the cached row (own_pos +
 * 1): the cache below it, the row above, the rest of the pass as written */
static void test_attn_causal(void **st)
{
	(void)st;
	char *src = slurp_task("attn_softmax_causal"), *wpr = apply("warp-per-row", src, "block=256"),
	     *rc = apply("row-cache", wpr, "cache=regs k=8");
	const char *want[] = {
		"y[t2] = expf((t2 < ((own_pos) + 1) ? ka_c[ka_i] : x[t2]) - maxval) * expsum_inv;",
		"for (int t2 = (int)((0) + ka_lane + 32 * 8);  t2 < T; t2 += 32) {", NULL};
	has(rc, want);
	compiles(rc);
	host_runs(wpr, rc, 5, 1);
	free(rc);
	free(wpr);
	free(src);
}

/* warp-per-row's block-per-row set on softmax (run on the host: rmsnorm's) */
static void test_softmax_lanes_block(void **st)
{
	(void)st;
	char *src = slurp_task("softmax"), *wpr = apply("warp-per-row", src, "block=512 lanes=block"),
	     *rc = apply("row-cache", wpr, "cache=regs k=4");
	compiles(rc);
	free(rc);
	free(wpr);
	/* the size dispatch's two kernels (a warp and a block per row): each cached */
	wpr = apply("warp-per-row", src, "block=256 dispatch=size");
	rc = apply("row-cache", wpr, "cache=regs k=8");
	const char *want[] = {
		"const bool ka_rc = (long long)(cols) - (long long)(0) <= (long long)blockDim.x * 8;",
		"const bool ka_rc = (long long)(cols) - (long long)(0) <= 32 * 8;", NULL};
	has(rc, want);
	compiles(rc);
	free(rc);
	free(wpr);
	free(src);
}

static void declines(const char *src, const char *params, const char *reason)
{
	char why[256], *out = NULL;
	size_t n;
	ka_recipe_set_source_path(NULL);
	int rc = ka_recipe_apply("row-cache", src, strlen(src), "k", params, &out, &n, why, sizeof why);
	free(out);
	if (rc != KA_RECIPE_DECLINED)
		fail_msg("row-cache applied to:\n%s", src);
	if (!strstr(why, reason))
		fail_msg("the reason '%s' does not say '%s'", why, reason);
}

#define HEAD \
	"__global__ void k(%sfloat *x, float *y, long long rows, long long cols)\n{\n" \
	"\tconst long long r = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;\n" \
	"\tconst int lane = threadIdx.x & 31;\n\tif (r >= rows) return;\n"

static void test_declines(void **st)
{
	(void)st;
	char src[2048];
	/* the kernel writes its input (in place) */
	snprintf(src, sizeof src,
		 HEAD "\tfloat *xr = x + r * cols;\n\tfloat m = 0.0f;\n"
		      "\tfor (long long j = lane; j < cols; j += 32) m = fmaxf(m, xr[j]);\n"
		      "\tfor (long long j = lane; j < cols; j += 32) xr[j] = xr[j] - m;\n}\n",
		 "");
	declines(src, NULL, "the kernel writes its input x");
	/* the second pass reads the next row */
	snprintf(src, sizeof src,
		 HEAD "\tconst float *xr = x + r * cols;\n\tconst float *xn = x + (r + 1) * cols;\n"
		      "\tfloat *yr = y + r * cols;\n\tfloat m = 0.0f;\n"
		      "\tfor (long long j = lane; j < cols; j += 32) m = fmaxf(m, xr[j]);\n"
		      "\tfor (long long j = lane; j < cols; j += 32) yr[j] = xr[j] - m + xn[j];\n}\n",
		 "const ");
	declines(src, NULL, "the passes read different rows of x: xr and xn");
	/* a store between two passes may alias the row */
	snprintf(src, sizeof src,
		 HEAD "\tconst float *xr = x + r * cols;\n\tfloat *yr = y + r * cols;\n\tfloat m = 0.0f;\n"
		      "\tfor (long long j = lane; j < cols; j += 32) { yr[j] = 0.0f; m = fmaxf(m, xr[j]); }\n"
		      "\tfor (long long j = lane; j < cols; j += 32) yr[j] += xr[j] - m;\n}\n",
		 "const ");
	declines(src, NULL, "yr[...] is stored between the passes over xr");
	/* one pass: nothing to cache */
	snprintf(src, sizeof src,
		 HEAD "\tconst float *xr = x + r * cols;\n\tfloat *yr = y + r * cols;\n"
		      "\tfor (long long j = lane; j < cols; j += 32) yr[j] = 2.0f * xr[j];\n}\n",
		 "const ");
	declines(src, NULL, "fewer than two lane-strided passes");
	/* the second pass starts elsewhere in the row */
	snprintf(src, sizeof src,
		 HEAD "\tconst float *xr = x + r * cols;\n\tfloat *yr = y + r * cols;\n\tfloat m = 0.0f;\n"
		      "\tfor (long long j = lane; j < cols; j += 32) m = fmaxf(m, xr[j]);\n"
		      "\tfor (long long j = (cols / 2) + lane; j < cols; j += 32) yr[j] = xr[j] - m;\n}\n",
		 "const ");
	declines(src, NULL, "may start before the row's first element");
	/* the shared-memory cache is not built */
	snprintf(src, sizeof src,
		 HEAD "\tconst float *xr = x + r * cols;\n\tfloat *yr = y + r * cols;\n\tfloat m = 0.0f;\n"
		      "\tfor (long long j = lane; j < cols; j += 32) m = fmaxf(m, xr[j]);\n"
		      "\tfor (long long j = lane; j < cols; j += 32) yr[j] = xr[j] - m;\n}\n",
		 "const ");
	declines(src, "cache=smem", "cache=smem is not built");
	declines(src, "cache=regs k=0", "bad parameters");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_softmax),      cmocka_unit_test(test_layernorm),
		cmocka_unit_test(test_softmax_bf16), cmocka_unit_test(test_rmsnorm_bf16_block),
		cmocka_unit_test(test_attn_causal),  cmocka_unit_test(test_softmax_lanes_block),
		cmocka_unit_test(test_declines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
