/* tests/agents/test_recipe_rowdisp.c: warp-per-row's size dispatch
 * (dispatch=size): a warp-per-row kernel and a block-per-row copy of it,
 * the launch choosing from the row count at run time.  On the bench's row
 * kernels the rewrite holds both kernels and the choice, compiles for
 * sm_90 when nvcc is there, and takes vectorize afterwards on both
 * kernels; on the host (tests/agents/emu, the threads of a block run
 * together) both branches compute every reduction kind the recipe knows
 * (sum, max, min, argmax and argmin with the lowest index on a tie, count,
 * mean) as a sequential loop does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recipes/recipe.h"
#include "tests/agents/recipe_nvcc.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/proc.h"
#include <unistd.h>

#ifndef KA_SOURCE_DIR
#error "KA_SOURCE_DIR must be defined"
#endif

static char *slurp_task(const char *task)
{
	char path[512];
	char *s = NULL;
	size_t n;
	snprintf(path, sizeof path, "%s/bench/tasks/%s/baseline.cu", KA_SOURCE_DIR, task);
	if (ka_fs_read(path, 0, &s, &n) != KA_OK)
		fail_msg("cannot read %s", path);
	return s;
}

/* recipe with params on every kernel of src: the rewrite (caller frees),
 * checked to compile. */
static char *applies(const char *recipe, const char *params, const char *src, const char *what)
{
	char why[256], err[8192];
	char *out = NULL;
	size_t n;
	if (ka_recipe_apply(recipe, src, strlen(src), NULL, params, &out, &n, why, sizeof why) != KA_OK)
		fail_msg("%s: %s %s declined: %s", what, recipe, params, why);
	if (getenv("KA_TEST_DUMP"))
		fprintf(stderr, "==== %s: %s %s\n%s\n", what, recipe, params, out);
	if (nvcc_compiles(out, err, sizeof err) == 0)
		fail_msg("%s: the %s rewrite does not compile:\n%s\n%s", what, recipe, out, err);
	return out;
}

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

static const char *const row_tasks[] = {"row_mean", "argmax_rows", "softmax",
					"layernorm", "gemv", "attn_softmax_causal"};

/* The bench's row kernels: both kernels, the choice at every launch, and
 * vectorize after it rewrites both kernels' column loops. */
static void test_bench_tasks(void **st)
{
	(void)st;
	for (size_t i = 0; i < sizeof row_tasks / sizeof row_tasks[0]; i++) {
		char *src = slurp_task(row_tasks[i]);
		char *out = applies("warp-per-row", "block=256 dispatch=size", src, row_tasks[i]);
		if (count(out, "_ka_block(") != 1 || count(out, "_ka_block<<<") != 1 ||
		    !strstr(out, "if (ka_rows_by_block((long long)(") ||
		    !strstr(out, "cudaDevAttrMultiProcessorCount") || !strstr(out, "= blockIdx.x;") ||
		    !strstr(out, "ka_lane = threadIdx.x & 31;") || !strstr(out, "ka_block_") ||
		    !strstr(out, "ka_warp_"))
			fail_msg("%s: the dispatched rewrite lacks a kernel or the choice:\n%s", row_tasks[i], out);
		/* vectorize afterwards: both kernels' column loops in 16-byte chunks */
		char *vec = applies("vectorize", NULL, out, row_tasks[i]);
		const char *blk = strstr(vec, "_ka_block("), *warp = blk ? strstr(blk + 1, "__global__") : NULL;
		if (!warp || !strstr(blk, "float4") || !strstr(warp, "float4") ||
		    strstr(blk, "float4") > warp)
			fail_msg("%s: vectorize did not take both kernels:\n%s", row_tasks[i], vec);
		free(vec);
		free(out);
		free(src);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_tasks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
