/* tests/agents/test_recipe_rowdisp.c: warp-per-row's size dispatch
 * (dispatch=size): a warp-per-row kernel and a block-per-row copy of it,
 * the launch choosing from the row count at run time.  On the bench's row
 * kernels the rewrite holds both kernels and the choice, compiles for
 * sm_90 when nvcc is there, and takes vectorize afterwards on both
 * kernels; on the host (tests/agents/emu, the threads of a block run
 * together) both branches compute every reduction kind the recipe knows
 * (sum, max, min, argmax and argmin with the lowest index on a tie, count,
 * mean) as a sequential loop does; and vectorize-2byte after it (the
 * planner's order on a row-starved bf16 task) on softmax_bf16 and on a
 * bf16 mean, max and argmax, run on the host in both branches.  On a
 * kernel warp-per-row already wrote (vectorized or not) dispatch=size
 * derives the block twin from it: the same kernels as the other order,
 * run on the host too, and declines where it cannot. */
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

/* recipe with params on every kernel of src: the rewrite (caller frees),
 * checked to compile when compile is set (nvcc is slow: the texts a later
 * step rewrites again are compiled in that form). */
static char *applies(const char *recipe, const char *params, const char *src, const char *what, int compile)
{
	char why[256], err[8192];
	char *out = NULL;
	size_t n;
	if (ka_recipe_apply(recipe, src, strlen(src), NULL, params, &out, &n, why, sizeof why) != KA_OK)
		fail_msg("%s: %s %s declined: %s", what, recipe, params, why);
	if (getenv("KA_TEST_DUMP"))
		fprintf(stderr, "==== %s: %s %s\n%s\n", what, recipe, params, out);
	if (compile && nvcc_compiles(out, err, sizeof err) == 0)
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

static const char *const row_tasks[] = {"row_mean",  "argmax_rows", "softmax",
					"layernorm", "gemv",        "attn_softmax_causal"};

/* The bench's row kernels: both kernels, the choice at every launch, and
 * vectorize after it rewrites both kernels' column loops; the vectorized
 * texts compile, and the dispatched ones of row_mean and argmax_rows. */
static void test_bench_tasks(void **st)
{
	(void)st;
	for (size_t i = 0; i < sizeof row_tasks / sizeof row_tasks[0]; i++) {
		char *src = read_task_baseline(row_tasks[i], NULL, 0);
		char *out = applies("warp-per-row", "block=256 dispatch=size", src, row_tasks[i], i < 2);
		if (count(out, "_ka_block(") != 1 || count(out, "_ka_block<<<") != 1 ||
		    !strstr(out, "if (ka_rows_by_block((long long)(") ||
		    !strstr(out, "cudaDevAttrMultiProcessorCount") || !strstr(out, "= blockIdx.x;") ||
		    !strstr(out, "ka_lane = threadIdx.x & 31;") || !strstr(out, "ka_block_") ||
		    !strstr(out, "ka_warp_"))
			fail_msg("%s: the dispatched rewrite lacks a kernel or the choice:\n%s", row_tasks[i],
				 out);
		/* vectorize afterwards: both kernels' column loops in 16-byte chunks */
		char *vec = applies("vectorize", NULL, out, row_tasks[i], 1);
		const char *blk = strstr(vec, "_ka_block("),
			   *warp = blk ? strstr(blk + 1, "__global__") : NULL;
		if (!warp || !strstr(blk, "float4") || !strstr(warp, "float4") ||
		    strstr(blk, "float4") > warp)
			fail_msg("%s: vectorize did not take both kernels:\n%s", row_tasks[i], vec);
		free(vec);
		free(out);
		free(src);
	}
}

/* Every reduction kind in one row loop: a sum (the mean), a max, a min, an
 * argmax and an argmin (a strict compare: the first index on a tie), and a
 * count. */
static const char all_kinds[] =
	"#include \"ka_task.h\"\n"
	"__global__ void rows_all(const float *x, float *mean, float *mx, float *mn, int *amax, int *amin,\n"
	"\t\t\t int *cnt, long long rows, long long cols)\n{\n"
	"\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	"\tif (r >= rows)\n\t\treturn;\n"
	"\tconst float *xr = x + r * cols;\n"
	"\tfloat s = 0.0f, hi = -INFINITY, lo = INFINITY, best = -INFINITY, worst = INFINITY;\n"
	"\tint at = 0, wat = 0, c = 0;\n"
	"\tfor (long long j = 0; j < cols; j++) {\n"
	"\t\tfloat v = xr[j];\n"
	"\t\ts += v;\n"
	"\t\thi = fmaxf(hi, v);\n"
	"\t\tlo = fminf(v, lo);\n"
	"\t\tif (v > best) {\n\t\t\tbest = v;\n\t\t\tat = (int)j;\n\t\t}\n"
	"\t\tif (v < worst) {\n\t\t\tworst = v;\n\t\t\twat = (int)j;\n\t\t}\n"
	"\t\tif (v > 0.5f)\n\t\t\tc += 1;\n"
	"\t}\n"
	"\tmean[r] = s / (float)cols;\n"
	"\tmx[r] = hi;\n\tmn[r] = lo;\n\tamax[r] = at;\n\tamin[r] = wat;\n\tcnt[r] = c;\n}\n\n"
	"extern \"C\" int ka_task_run(const ka_task_args *a, cudaStream_t st)\n{\n"
	"\tlong long rows = a->p[0], cols = a->p[1];\n"
	"\trows_all<<<(unsigned)((rows + 255) / 256), 256, 0, st>>>((const float *)a->t[0], (float *)a->t[1],\n"
	"\t\t(float *)a->t[2], (float *)a->t[3], (int *)a->t[4], (int *)a->t[5], (int *)a->t[6], rows, cols);\n"
	"\treturn 0;\n}\n";

static void runs_on_host(const char *text, const char *what)
{
	char log[8192];
	int rc = host_run(text, "rowdisp_main.cpp", log, sizeof log);
	if (rc < 0)
		fprintf(stderr, "SKIP: no C++ compiler (c++ or $CXX): %s is not run on the host\n", what);
	else if (rc == 0)
		fail_msg("%s fails on the host:\n%s", what, log);
}

/* Both branches compute every reduction kind as a sequential loop does,
 * as written and after vectorize; rowblock sets the block per row's
 * block. */
static void test_all_kinds(void **st)
{
	(void)st;
	char *out = applies("warp-per-row", "block=256 dispatch=size", all_kinds, "all kinds", 1);
	static const char *const want[] = {"ka_block_argmax_first(best, at);",
					   "ka_block_argmin_first(worst, wat);",
					   "ka_warp_argmax_first(best, at);",
					   "c = ka_block_sum(c);",
					   "hi = ka_warp_max(hi);",
					   "lo = ka_block_min(lo);",
					   NULL};
	for (const char *const *w = want; *w; w++)
		if (!strstr(out, *w))
			fail_msg("the rewrite lacks '%s':\n%s", *w, out);
	runs_on_host(out, "the dispatched rewrite");
	char *vec = applies("vectorize", NULL, out, "all kinds", 1);
	if (count(vec, "float4 ka_xr = ") != 2)
		fail_msg("vectorize did not take both kernels:\n%s", vec);
	runs_on_host(vec, "the dispatched rewrite, vectorized");
	free(vec);
	free(out);
	out = applies("warp-per-row", "block=256 dispatch=size rowblock=512", all_kinds, "all kinds", 0);
	if (!strstr(out, "rows_all_ka_block<<<(unsigned)((long long)(rows)), 512, 0, st>>>"))
		fail_msg("the block per row is not launched in blocks of 512:\n%s", out);
	free(out);
}

/* The bf16 rows of vectorize-2byte: the bench's softmax_bf16 and a kernel
 * with a sum (the mean), a max and an argmax of bf16 values. */
static const char bf16_kinds[] =
	"#include \"ka_task.h\"\n#include <cuda_bf16.h>\n"
	"__global__ void rows_bf16(const __nv_bfloat16 *x, float *mean, float *mx, int *amax, long long rows,\n"
	"\t\t\t  long long cols)\n{\n"
	"\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	"\tif (r >= rows)\n\t\treturn;\n"
	"\tconst __nv_bfloat16 *xr = x + r * cols;\n"
	"\tfloat s = 0.0f, hi = -INFINITY, best = -INFINITY;\n"
	"\tint at = 0;\n"
	"\tfor (long long j = 0; j < cols; j++) {\n"
	"\t\tfloat v = __bfloat162float(xr[j]);\n"
	"\t\ts += v;\n"
	"\t\thi = fmaxf(hi, v);\n"
	"\t\tif (v > best) {\n\t\t\tbest = v;\n\t\t\tat = (int)j;\n\t\t}\n"
	"\t}\n"
	"\tmean[r] = s / (float)cols;\n\tmx[r] = hi;\n\tamax[r] = at;\n}\n\n"
	"extern \"C\" int ka_task_run(const ka_task_args *a, cudaStream_t st)\n{\n"
	"\tlong long rows = a->p[0], cols = a->p[1];\n"
	"\trows_bf16<<<(unsigned)((rows + 255) / 256), 256, 0, st>>>((const __nv_bfloat16 *)a->t[0],\n"
	"\t\t(float *)a->t[1], (float *)a->t[2], (int *)a->t[3], rows, cols);\n"
	"\treturn 0;\n}\n";

/* The path the planner takes on a row-starved bf16 task (softmax_bf16:
 * dispatch=size before vectorize-2byte): vectorize-2byte after
 * dispatch=size moves both kernels' column loops as 16-byte words (8
 * bf16), the text compiles, and on the host both branches give what a
 * sequential loop gives. */
static void test_bf16_vectorized(void **st)
{
	(void)st;
	char *sm = read_task_baseline("softmax_bf16", NULL, 0);
	const char *const texts[2] = {sm, bf16_kinds}, *const names[2] = {"softmax_bf16", "bf16 kinds"};
	static const char *const defs[2] = {"-DKA_EMU_TASK=1", "-DKA_EMU_TASK=2"};
	for (int i = 0; i < 2; i++) {
		char *out = applies("warp-per-row", "block=256 dispatch=size", texts[i], names[i], 0);
		char *vec = applies("vectorize-2byte", NULL, out, names[i], 1);
		const char *blk = strstr(vec, "_ka_block("),
			   *warp = blk ? strstr(blk + 1, "__global__") : NULL;
		if (!warp || !strstr(blk, "uint4") || !strstr(warp, "uint4") || strstr(blk, "uint4") > warp ||
		    !strstr(blk, "+= blockDim.x)") || !strstr(warp, "+= 32)"))
			fail_msg("%s: vectorize-2byte did not take both kernels:\n%s", names[i], vec);
		char log[8192];
		int rc = host_run_defs(vec, "rowdisp_bf16_main.cpp", &defs[i], 1, log, sizeof log);
		if (rc < 0)
			fprintf(stderr, "SKIP: no C++ compiler (c++ or $CXX): %s is not run on the host\n",
				names[i]);
		else if (rc == 0)
			fail_msg("%s, dispatched and vectorized, fails on the host:\n%s\n%s", names[i], log,
				 vec);
		else if (getenv("KA_TEST_DUMP"))
			fprintf(stderr, "==== %s on the host:\n%s\n", names[i], log);
		free(vec);
		free(out);
	}
	free(sm);
}

/* The text of kernel name in src (from `__global__` to its closing brace),
 * and everything after the file's last kernel (the host side); the
 * caller frees both. */
static void parts(const char *src, const char *name, char **kernel, char **host)
{
	ka_csrc *m = calloc(1, sizeof *m);
	assert_non_null(m);
	assert_int_equal(ka_csrc_scan(m, src, strlen(src)), KA_OK);
	const ka_csrc_kernel *k = ka_csrc_kernel_find(m, name);
	if (!k)
		fail_msg("no kernel %s in:\n%s", name, src);
	*kernel = strndup(src + k->start, k->body_close + 1 - k->start);
	size_t last = 0;
	for (int i = 0; i < m->nkernels; i++)
		if (m->k[i].body_close > last)
			last = m->k[i].body_close;
	*host = strdup(src + last + 1);
	free(m);
}

/* dispatch=size on what warp-per-row wrote, vectorized first or not:
 * the same kernels and host side as dispatch=size first, vectorize after
 * (the order the planner takes on a row-starved task); compiled. */
static void test_on_warp_per_row(void **st)
{
	(void)st;
	const char *tasks[8];
	size_t nt = 0;
	for (size_t i = 0; i < sizeof row_tasks / sizeof row_tasks[0]; i++)
		tasks[nt++] = row_tasks[i];
	tasks[nt++] = "softmax_bf16";
	for (size_t i = 0; i < nt; i++) {
		char path[1200], *src = read_task_baseline(tasks[i], path, sizeof path);
		const char *vec = strcmp(tasks[i], "softmax_bf16") ? "vectorize" : "vectorize-2byte";
		int compile = !strcmp(tasks[i], "row_mean") || !strcmp(tasks[i], "softmax_bf16");
		ka_csrc *m = calloc(1, sizeof *m);
		assert_non_null(m);
		assert_int_equal(ka_csrc_scan(m, src, strlen(src)), KA_OK);
		char name[KA_CSRC_NAME], bname[KA_CSRC_NAME + 16];
		snprintf(name, sizeof name, "%s", m->k[0].name);
		snprintf(bname, sizeof bname, "%s_ka_block", name);
		free(m);
		char *w = applies("warp-per-row", "block=256", src, tasks[i], 0);
		char *d = applies("warp-per-row", "block=256 dispatch=size", src, tasks[i], 0);
		char *wd = applies("warp-per-row", "block=256 dispatch=size", w, tasks[i], 0);
		char *dv = applies(vec, NULL, d, tasks[i], 0);
		char *wv = applies(vec, NULL, w, tasks[i], 0);
		char *wvd = applies("warp-per-row", "block=256 dispatch=size", wv, tasks[i], compile);
		const char *pairs[2][2] = {{d, wd}, {dv, wvd}};
		for (int p = 0; p < 2; p++) {
			char *k1, *h1, *k2, *h2, *b1, *x1, *b2, *x2;
			parts(pairs[p][0], name, &k1, &h1);
			parts(pairs[p][1], name, &k2, &h2);
			parts(pairs[p][0], bname, &b1, &x1);
			parts(pairs[p][1], bname, &b2, &x2);
			if (strcmp(k1, k2) || strcmp(b1, b2) || strcmp(h1, h2))
				fail_msg(
					"%s: dispatch=size on warp-per-row%s differs from dispatch=size%s:\n%s\n"
					"==== against\n%s",
					tasks[i], p ? " then vectorized" : "", p ? " then vectorize" : "",
					pairs[p][1], pairs[p][0]);
			free(k1), free(h1), free(k2), free(h2), free(b1), free(x1), free(b2), free(x2);
		}
		free(w), free(d), free(wd), free(dv), free(wv), free(wvd), free(src);
	}
}

/* On the host: every reduction kind, warp-per-row then vectorize then
 * dispatch=size (and without vectorize); the bf16 kernels, warp-per-row
 * then vectorize-2byte then dispatch=size; both branches as a sequential
 * loop. */
static void test_on_warp_per_row_runs(void **st)
{
	(void)st;
	char *w = applies("warp-per-row", "block=256", all_kinds, "all kinds", 0);
	char *wd = applies("warp-per-row", "block=256 dispatch=size", w, "all kinds", 0);
	runs_on_host(wd, "warp-per-row, then dispatch=size");
	char *wv = applies("vectorize", NULL, w, "all kinds", 0);
	char *wvd = applies("warp-per-row", "block=256 dispatch=size", wv, "all kinds", 0);
	if (count(wvd, "float4 ka_xr = ") != 2 || count(wvd, "ka_block_argmax_first(") != 1)
		fail_msg("the block twin of the vectorized kernel is not vectorized:\n%s", wvd);
	runs_on_host(wvd, "warp-per-row, vectorize, then dispatch=size");
	free(w), free(wd), free(wv), free(wvd);
	char *sm = read_task_baseline("softmax_bf16", NULL, 0);
	const char *const texts[2] = {sm, bf16_kinds}, *const names[2] = {"softmax_bf16", "bf16 kinds"};
	static const char *const defs[2] = {"-DKA_EMU_TASK=1", "-DKA_EMU_TASK=2"};
	for (int i = 0; i < 2; i++) {
		w = applies("warp-per-row", "block=256", texts[i], names[i], 0);
		wv = applies("vectorize-2byte", NULL, w, names[i], 0);
		wvd = applies("warp-per-row", "block=256 dispatch=size", wv, names[i], 0);
		char log[8192];
		int rc = host_run_defs(wvd, "rowdisp_bf16_main.cpp", &defs[i], 1, log, sizeof log);
		if (rc < 0)
			fprintf(stderr, "SKIP: no C++ compiler (c++ or $CXX): %s is not run on the host\n",
				names[i]);
		else if (rc == 0)
			fail_msg("%s, vectorized then dispatched, fails on the host:\n%s\n%s", names[i], log,
				 wvd);
		free(w), free(wv), free(wvd);
	}
	free(sm);
}

/* What the block twin cannot be derived from declines, with the reason:
 * several rows a warp, a block per row, a grid-stride row loop, row-cache's
 * registers indexed by the lane, a kernel already dispatched (its block
 * twin is no warp kernel; the warp kernel names a twin already). */
static void test_on_warp_per_row_declines(void **st)
{
	(void)st;
	char *rm = read_task_baseline("row_mean", NULL, 0), *sm = read_task_baseline("softmax", NULL, 0);
	struct {
		const char *task_src, *steps[2], *why;
	} cases[] = {
		{rm, {"block=256 lanes=8", NULL}, "ka_mask"},
		{rm, {"block=512 lanes=block", NULL}, "row and lane declarations"},
		{rm, {"block=256 dispatch=size", NULL}, "row_mean_kernel_ka_block: not warp-per-row"},
		{sm, {"block=256", "row-cache"}, "ka_lane is used other than"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *x = applies("warp-per-row", cases[i].steps[0], cases[i].task_src, "decline case", 0);
		if (cases[i].steps[1]) {
			char *y = applies(cases[i].steps[1], NULL, x, "decline case", 0);
			free(x);
			x = y;
		}
		char why[256], *out = NULL;
		size_t n;
		int rc = ka_recipe_apply("warp-per-row", x, strlen(x), NULL, "block=256 dispatch=size", &out,
					 &n, why, sizeof why);
		if (rc != KA_RECIPE_DECLINED || !strstr(why, cases[i].why))
			fail_msg("dispatch=size after %s did not decline for '%s': %s", cases[i].steps[0],
				 cases[i].why, rc == KA_OK ? out : why);
		free(out);
		free(x);
	}
	/* a grid-stride row loop made warp-strided: declines (gridDim) */
	char *g = applies("grid-stride", NULL, rm, "grid-stride", 0);
	char *gw = applies("warp-per-row", "block=256", g, "grid-stride", 0);
	char why[256], *out = NULL;
	size_t n;
	if (ka_recipe_apply("warp-per-row", gw, strlen(gw), NULL, "block=256 dispatch=size", &out, &n, why,
			    sizeof why) != KA_RECIPE_DECLINED ||
	    !strstr(why, "gridDim"))
		fail_msg("dispatch=size on a warp-strided grid-stride loop did not decline for gridDim: %s",
			 why);
	free(out);
	free(g);
	free(gw);
	free(rm);
	free(sm);
}

/* Parameter sets that do not go together decline. */
static void test_bad_params(void **st)
{
	(void)st;
	static const char *const bad[] = {"block=256 dispatch=rows", "block=256 dispatch=size lanes=8",
					  "block=256 dispatch=size lanes=block",
					  "block=256 dispatch=size rowblock=48", NULL};
	for (const char *const *p = bad; *p; p++) {
		char why[256], *out = NULL;
		size_t n;
		if (ka_recipe_apply("warp-per-row", all_kinds, strlen(all_kinds), NULL, *p, &out, &n, why,
				    sizeof why) != KA_RECIPE_DECLINED ||
		    !strstr(why, "bad parameters"))
			fail_msg("'%s' did not decline as bad parameters: %s", *p, why);
		free(out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_tasks),          cmocka_unit_test(test_all_kinds),
		cmocka_unit_test(test_bf16_vectorized),      cmocka_unit_test(test_on_warp_per_row),
		cmocka_unit_test(test_on_warp_per_row_runs), cmocka_unit_test(test_on_warp_per_row_declines),
		cmocka_unit_test(test_bad_params),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
