/* tests/agents/test_recipe_coarsen.c: reduce-coarsen on reduce_interleaved
 * (a block tree per 256 elements, pass after pass): each thread sums K
 * chunks of 256 before the tree and the host's block count is divided by
 * K; it composes with seq-reduction in either order.  Each rewrite's key
 * lines, nvcc -arch=sm_90 when nvcc is there, and a host run
 * (tests/agents/emu, a block's threads at once) over lengths from 1 to
 * three passes that must sum every row; near misses decline naming the
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

#ifndef KA_SOURCE_DIR
#error "KA_SOURCE_DIR must be defined"
#endif

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

static void declines(const char *src, const char *want)
{
	char why[256], *out = NULL;
	size_t n;
	int rc = ka_recipe_apply("reduce-coarsen", src, strlen(src), NULL, NULL, &out, &n, why, sizeof why);
	free(out);
	if (rc != KA_RECIPE_DECLINED || !strstr(why, want))
		fail_msg("want a decline with '%s', got %d '%s'", want, rc,
			 rc == KA_RECIPE_DECLINED ? why : "");
}

/* src with its first `from` overwritten by `to` (as many bytes as from
 * has) declines with want. */
static void declines_edited(const char *src, const char *from, const char *to, const char *want)
{
	char *e = strdup(src), *at = strstr(e, from);
	assert_non_null(at);
	memcpy(at, to, strlen(from));
	declines(e, want);
	free(e);
}

static void has(const char *text, const char *const *want)
{
	for (; *want; want++)
		if (!strstr(text, *want))
			fail_msg("the rewrite lacks '%s':\n%s", *want, text);
}

static void builds_and_sums(const char *text)
{
	char err[8192];
	static char log[1 << 16];
	if (nvcc_compiles(text, err, sizeof err) == 0)
		fail_msg("the rewrite does not compile:\n%s\n%s", text, err);
	int r = host_run(text, "coarsen_main.cpp", log, sizeof log);
	if (r < 0) {
		fprintf(stderr,
			"SKIP: no C++ compiler (c++ or $CXX): the host run of the rewrite is not checked\n");
		return;
	}
	if (r != 1)
		fail_msg("the rewrite sums wrong on the host:\n%s\n%s", log, text);
}

static void test_interleaved(void **st)
{
	(void)st;
	char *src = read_task_baseline("reduce_interleaved", NULL, 0);
	builds_and_sums(src); /* the driver itself: the baseline passes it */
	for (int k = 2; k <= 8; k *= 2) {
		char params[16], loop[64], grid[128];
		snprintf(params, sizeof params, "k=%d", k);
		char *c = apply("reduce-coarsen", src, params);
		snprintf(loop, sizeof loop, "for (int ka_k = 0; ka_k < %d; ka_k++) {", k);
		snprintf(grid, sizeof grid,
			 "long long blocks = (n + (long long)(256) * %d - 1) / ((long long)(256) * %d);", k,
			 k);
		const char *want[] = {"float ka_acc = 0;",
				      loop,
				      "long long j = (long long)((long long)blockIdx.y * ",
				      "ka_acc += j < n ? in[",
				      "sh[tid] = ka_acc;",
				      grid,
				      NULL};
		has(c, want);
		builds_and_sums(c);
		/* composes: seq-reduction on it, and the other order */
		char *cs = apply("seq-reduction", c, NULL), *s = apply("seq-reduction", src, NULL),
		     *sc = apply("reduce-coarsen", s, params);
		builds_and_sums(cs);
		builds_and_sums(sc);
		free(cs);
		free(s);
		free(sc);
		free(c);
	}
	free(src);
}

/* the 1-D form with blockDim.x and a block count in a variable */
static const char harris[] = "#include \"ka_task.h\"\n"
			     "__global__ void r0(const float *in, float *out, unsigned n) {\n"
			     "  extern __shared__ float sd[];\n"
			     "  unsigned tid = threadIdx.x;\n"
			     "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			     "  sd[tid] = (i < n) ? in[i] : 0;\n"
			     "  __syncthreads();\n"
			     "  for (unsigned s = 1; s < blockDim.x; s *= 2) {\n"
			     "    if (tid % (2 * s) == 0) sd[tid] += sd[tid + s];\n"
			     "    __syncthreads();\n"
			     "  }\n"
			     "  if (tid == 0) out[blockIdx.x] = sd[0];\n"
			     "}\n"
			     "void run(const float *in, float *out, unsigned n, int threads) {\n"
			     "  int blocks = (n + threads - 1) / threads;\n"
			     "  r0<<<blocks, threads, threads * sizeof(float)>>>(in, out, n);\n"
			     "}\n";

static void test_harris(void **st)
{
	(void)st;
	char *c = apply("reduce-coarsen", harris, "k=4");
	const char *want[] = {"unsigned i = ((long long)blockIdx.x * 4 + ka_k) * blockDim.x + threadIdx.x;",
			      "ka_acc += (i < n) ? in[i] : 0;",
			      "int blocks = (n + (long long)(threads) * 4 - 1) / ((long long)(threads) * 4);",
			      NULL};
	has(c, want);
	free(c);
}

static void test_declines(void **st)
{
	(void)st;
	char *src = read_task_baseline("reduce_interleaved", NULL, 0);
	/* the grid written inline: the host's count of partial sums is not known */
	char *p = strstr(src, "(unsigned)blocks)");
	char *inl = malloc(strlen(src) + 64);
	snprintf(inl, strlen(src) + 64, "%.*s(unsigned)((n + 255) / 256))%s", (int)(p - src), src,
		 p + strlen("(unsigned)blocks)"));
	declines(inl, "is not a variable");
	free(inl);
	/* a maximum, not a sum */
	declines_edited(src, "sh[tid] += sh[tid + s]", "sh[tid] = max(sh[tid], 0)", "not a sum");
	/* already several a thread: reduce_sum's strided loop */
	char *rs = read_task_baseline("reduce_sum", NULL, 0);
	declines(rs, "is not `sh[threadIdx.x] = j < n ? LOAD : 0;`");
	free(rs);
	/* the index read elsewhere */
	declines_edited(harris, "if (tid == 0) out[blockIdx.x] = sd[0];",
			"if (i == 0) out[blockIdx.x] = sd[0];  ", "is read outside the store");
	char *bad = NULL, why[256];
	size_t n;
	assert_int_equal(
		ka_recipe_apply("reduce-coarsen", src, strlen(src), NULL, "k=3", &bad, &n, why, sizeof why),
		KA_RECIPE_DECLINED);
	assert_non_null(strstr(why, "bad parameters"));
	free(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_harris),
		cmocka_unit_test(test_declines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
