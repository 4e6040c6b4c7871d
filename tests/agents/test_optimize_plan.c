/* tests/agents/test_optimize_plan.c: the planner over two-step sequences
 * (ka_opt_plan_sequences).  A strategy whose result opens a recipe a
 * finding calls for, and that the kernel as it is does not take, ranks by
 * both; what applies now gains nothing; the order is the same every time.
 * On a row-starved task (ka_opt_task_rows, ka_opt_row_starved)
 * warp-per-row's dispatch=size set ranks first: on the baseline, as a
 * tuning set after plain warp-per-row (ahead of what it opened), on the
 * vectorized warp-per-row kernel (ka_opt_plan_size). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agents/optimize_int.h"
#include "util/error.h"

/* one thread per row; the row's result is a double, so the element-wise
 * vectorize has no float pointer to widen: only after warp-per-row (its
 * column loop) does vectorize apply */
static const char src[] =
	"__global__ void k(const float *x, double *y, long long rows, long long cols)\n{\n"
	"\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (r >= rows) return;\n"
	"\tfloat s = 0.0f;\n\tfor (long long j = 0; j < cols; j++) s += x[r * cols + j];\n\ty[r] = s;\n}\n"
	"void h(const float *x, double *y, long long rows, long long cols)\n{\n"
	"\tk<<<(unsigned)((rows + 255) / 256), 256>>>(x, y, rows, cols);\n}\n";

/* 1 when name is a word of the space-separated list */
static int listed(const char *list, const char *name)
{
	size_t l = strlen(name);
	for (const char *p = list; (p = strstr(p, name)); p += l)
		if ((p == list || p[-1] == ' ') && (p[l] == ' ' || !p[l]))
			return 1;
	return 0;
}

static int first_of(const ka_opt_plan *p, const char *recipe)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->c[i].recipe->name, recipe))
			return i;
	return -1;
}

static void test_sequence_ranking(void **st)
{
	(void)st;
	static ka_opt_plan plan, again;
	ka_finding v[2] = {
		{.rule = (char *)"gmem-uncoalesced-access", .kernel = (char *)"k", .estimate = 1.8},
		{.rule = (char *)"gmem-scalar-not-vectorized", .kernel = (char *)"k", .estimate = 2.0}};
	ka_findings f = {v, 2, 2};
	assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &f, NULL, NULL, &plan), KA_OK);
	int wpr = first_of(&plan, "warp-per-row"), gs = first_of(&plan, "grid-stride"),
	    vec = first_of(&plan, "vectorize");
	assert_true(wpr >= 0 && gs >= 0 && vec >= 0);
	/* by the findings alone, grid-stride (which applies, and opens nothing) ranks first */
	assert_true(gs < wpr);
	double wscore = plan.c[wpr].score, vscore = plan.c[vec].score, gscore = plan.c[gs].score;
	ka_recipe_set_source_path(NULL);
	ka_opt_plan_sequences(&plan, src, strlen(src));
	wpr = first_of(&plan, "warp-per-row");
	gs = first_of(&plan, "grid-stride");
	vec = first_of(&plan, "vectorize");
	/* warp-per-row, then vectorize on its column loop: half of vectorize's
	 * impact above 1 on top of its own */
	assert_non_null(plan.c[wpr].then);
	assert_string_equal(plan.c[wpr].then->name, "vectorize");
	assert_true(plan.c[wpr].score > wscore + 0.5 * (vscore - 1.0) - 1e-9 &&
		    plan.c[wpr].score < wscore + 0.5 * (vscore - 1.0) + 1e-9);
	assert_true(wpr < gs);
	/* every parameter set of warp-per-row is the first step of the sequence */
	for (int i = 0; i < plan.n; i++)
		if (!strcmp(plan.c[i].recipe->name, "warp-per-row"))
			assert_ptr_equal(plan.c[i].then, plan.c[wpr].then);
	/* grid-stride's result opens nothing warp-per-row would not take now */
	assert_null(plan.c[gs].then);
	assert_true(plan.c[gs].score == gscore);
	/* deterministic: the same plan again */
	assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &f, NULL, NULL, &again), KA_OK);
	ka_opt_plan_sequences(&again, src, strlen(src));
	assert_int_equal(again.n, plan.n);
	for (int i = 0; i < plan.n; i++) {
		assert_ptr_equal(again.c[i].recipe, plan.c[i].recipe);
		assert_string_equal(again.c[i].params, plan.c[i].params);
		assert_ptr_equal(again.c[i].then, plan.c[i].then);
	}
}

/* a second step that applies to the kernel as it is earns the first
 * nothing; nor does a recipe no finding calls for */
static void test_sequence_needs_a_finding(void **st)
{
	(void)st;
	static ka_opt_plan plan;
	static const char flat[] =
		"__global__ void k(const float *x, float *y, long long rows, long long cols)\n{\n"
		"\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (r >= rows) return;\n"
		"\tfloat s = 0.0f;\n\tfor (long long j = 0; j < cols; j++) s += x[r * cols + j];\n\ty[r] = s;\n}\n"
		"void h(const float *x, float *y, long long rows, long long cols)\n{\n"
		"\tk<<<(unsigned)((rows + 255) / 256), 256>>>(x, y, rows, cols);\n}\n";
	ka_finding v[2] = {
		{.rule = (char *)"gmem-uncoalesced-access", .kernel = (char *)"k", .estimate = 1.8},
		{.rule = (char *)"gmem-scalar-not-vectorized", .kernel = (char *)"k", .estimate = 2.0}};
	ka_findings f = {v, 2, 2};
	assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &f, NULL, NULL, &plan), KA_OK);
	ka_opt_plan_sequences(&plan, flat, strlen(flat));
	/* y is a float: vectorize applies now (y[r] over the rows) */
	for (int i = 0; i < plan.n; i++)
		assert_null(plan.c[i].then);
	/* no findings: no recipe is called for, no sequence */
	ka_findings none = {NULL, 0, 0};
	assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &none, NULL, NULL, &plan), KA_OK);
	ka_opt_plan_sequences(&plan, src, strlen(src));
	for (int i = 0; i < plan.n; i++)
		assert_null(plan.c[i].then);
}

/* after an accepted step, what its result opened (a recipe that applies
 * now and did not before) ranks first, with its grid's first set: the
 * composition before the accepted recipe's tuning sets, its other sets
 * after them */
static void test_opened_follows(void **st)
{
	(void)st;
	static ka_opt_plan plan;
	char *mid = NULL, why[256], opened[256];
	size_t ml;
	ka_recipe_set_source_path(NULL);
	assert_int_equal(
		ka_recipe_apply("warp-per-row", src, strlen(src), NULL, NULL, &mid, &ml, why, sizeof why),
		KA_OK);
	ka_opt_plan_opened("warp-per-row", src, mid, opened, sizeof opened);
	assert_non_null(strstr(opened, "vectorize"));
	assert_null(strstr(opened, "warp-per-row"));
	/* nothing opens between a kernel and itself */
	char same[256];
	ka_opt_plan_opened("warp-per-row", mid, mid, same, sizeof same);
	assert_string_equal(same, "");
	ka_findings none = {NULL, 0, 0};
	assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &none, "warp-per-row", "block=256", &plan), KA_OK);
	ka_opt_plan_follow(&plan, opened);
	/* vectorize's first set, then every tuning set in its grid's order,
	 * then vectorize's other sets */
	const ka_recipe *vr = ka_recipe_find("vectorize"), *wr = ka_recipe_find("warp-per-row");
	assert_false(plan.c[0].on_parent);
	assert_ptr_equal(plan.c[0].recipe, vr);
	assert_string_equal(plan.c[0].params, vr->grid[0]);
	int i = 1;
	for (int g = 0; wr->grid[g]; g++) {
		if (!strcmp(wr->grid[g], "block=256")) /* the accepted set is not tuned again */
			continue;
		assert_true(plan.c[i].on_parent);
		assert_ptr_equal(plan.c[i].recipe, wr);
		assert_string_equal(plan.c[i++].params, wr->grid[g]);
	}
	assert_true(i > 2);
	assert_false(plan.c[i].on_parent);
	for (int k = 1; vr->grid[k]; k++, i++) {
		assert_ptr_equal(plan.c[i].recipe, vr);
		assert_string_equal(plan.c[i].params, vr->grid[k]);
	}
	/* an empty list changes nothing: the tuning sets first */
	static ka_opt_plan again;
	assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &none, "warp-per-row", "block=256", &again), KA_OK);
	ka_opt_plan_follow(&again, "");
	assert_true(again.c[0].on_parent && again.c[1].on_parent);
	/* deterministic: the same order again */
	assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &none, "warp-per-row", "block=256", &again), KA_OK);
	ka_opt_plan_follow(&again, opened);
	for (int k = 0; k < plan.n; k++) {
		assert_ptr_equal(again.c[k].recipe, plan.c[k].recipe);
		assert_string_equal(again.c[k].params, plan.c[k].params);
	}
	free(mid);
}

/* a recipe that applied before the step as well is opened when it
 * rewrites what the step wrote: with a float result, vectorize widens the
 * row loop's store as it is, and after warp-per-row it widens the column
 * loop warp-per-row wrote (row_mean's case) */
static void test_opened_rewrites_new_lines(void **st)
{
	(void)st;
	static const char flat[] =
		"__global__ void k(const float *x, float *y, long long rows, long long cols)\n{\n"
		"\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (r >= rows) return;\n"
		"\tfloat s = 0.0f;\n\tfor (long long j = 0; j < cols; j++) s += x[r * cols + j];\n\ty[r] = s;\n}\n"
		"void h(const float *x, float *y, long long rows, long long cols)\n{\n"
		"\tk<<<(unsigned)((rows + 255) / 256), 256>>>(x, y, rows, cols);\n}\n";
	char *mid = NULL, *v0 = NULL, *v1 = NULL, why[256], opened[256];
	size_t ml, l0, l1;
	ka_recipe_set_source_path(NULL);
	assert_int_equal(
		ka_recipe_apply("vectorize", flat, strlen(flat), NULL, NULL, &v0, &l0, why, sizeof why),
		KA_OK);
	assert_int_equal(
		ka_recipe_apply("warp-per-row", flat, strlen(flat), NULL, NULL, &mid, &ml, why, sizeof why),
		KA_OK);
	assert_int_equal(ka_recipe_apply("vectorize", mid, ml, NULL, NULL, &v1, &l1, why, sizeof why), KA_OK);
	/* the column loop warp-per-row wrote is the one vectorized */
	assert_non_null(strstr(mid, "+= 32)"));
	assert_non_null(strstr(v1, "float4"));
	ka_opt_plan_opened("warp-per-row", flat, mid, opened, sizeof opened);
	assert_true(listed(opened, "vectorize"));
	/* where vectorize rewrites only lines the step did not write (the
	 * row kernel reads doubles; the element-wise kernel beside it is
	 * vectorized before and after alike), the step did not open it */
	static const char two[] =
		"__global__ void a(const double *x, double *y, long long rows, long long cols)\n{\n"
		"\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (r >= rows) return;\n"
		"\tdouble s = 0.0;\n\tfor (long long j = 0; j < cols; j++) s += x[r * cols + j];\n\ty[r] = s;\n}\n"
		"__global__ void b(const float *p, float *q, long long n)\n{\n"
		"\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (i < n) q[i] = 2.0f * p[i];\n}\n"
		"void h(const double *x, double *y, const float *p, float *q, long long rows, long long cols, "
		"long long n)\n{\n"
		"\ta<<<(unsigned)((rows + 255) / 256), 256>>>(x, y, rows, cols);\n"
		"\tb<<<(unsigned)((n + 255) / 256), 256>>>(p, q, n);\n}\n";
	char *tw = NULL, *tv = NULL;
	size_t twl, tvl;
	assert_int_equal(
		ka_recipe_apply("warp-per-row", two, strlen(two), NULL, NULL, &tw, &twl, why, sizeof why),
		KA_OK);
	assert_int_equal(ka_recipe_apply("vectorize", tw, twl, NULL, NULL, &tv, &tvl, why, sizeof why),
			 KA_OK);
	assert_non_null(strstr(tv, "float4"));
	ka_opt_plan_opened("warp-per-row", two, tw, opened, sizeof opened);
	assert_false(listed(opened, "vectorize"));
	free(tw);
	free(tv);
	free(mid);
	free(v0);
	free(v1);
}

/* once the best is not the baseline: every recipe's first set again, on
 * the baseline, in the list's order and below every other strategy */
static void test_rebase_twins_last(void **st)
{
	(void)st;
	static ka_opt_plan plan;
	ka_finding v[1] = {{.rule = (char *)"gmem-unpacked-2byte", .kernel = (char *)"k", .estimate = 2.6}};
	ka_findings f = {v, 1, 1};
	assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &f, "vectorize-2byte", "block=256 cap=2112", &plan),
			 KA_OK);
	int before = plan.n;
	double low = plan.c[0].score;
	for (int i = 0; i < before; i++) {
		assert_false(plan.c[i].on_orig);
		if (plan.c[i].score < low)
			low = plan.c[i].score;
	}
	ka_opt_plan_rebase(&plan);
	assert_true(plan.n > before);
	size_t k = 0;
	for (int i = before; i < plan.n; i++, k++) {
		const ka_opt_cand *c = &plan.c[i];
		while (k < ka_recipe_count() && !ka_recipe_get(k)->grid[0])
			k++;
		assert_true(c->on_orig);
		assert_false(c->on_parent);
		assert_ptr_equal(c->recipe, ka_recipe_get(k));
		assert_string_equal(c->params, c->recipe->grid[0]);
		assert_true(c->score < low);
		if (i > before)
			assert_true(c->score < plan.c[i - 1].score);
	}
	assert_true(plan.n <= KA_OPT_MAX_CANDS);
}

/* the runner-up's opened recipes: the first two named (a name no recipe
 * has is skipped), each its grid's first set, on the runner-up, ahead of
 * everything; and which candidates are kept */
static void test_kept_first(void **st)
{
	(void)st;
	static ka_opt_plan plan;
	ka_finding v[1] = {{.rule = (char *)"gmem-unpacked-2byte", .kernel = (char *)"k", .estimate = 2.6}};
	ka_findings f = {v, 1, 1};
	assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &f, "vectorize-2byte", "block=256 cap=2112", &plan),
			 KA_OK);
	int before = plan.n;
	double top = plan.c[0].score;
	ka_opt_plan_kept(&plan, "no-such-recipe vectorize row-cache warp-per-row");
	assert_int_equal(plan.n, before + 2);
	assert_true(plan.c[0].on_kept && plan.c[1].on_kept);
	assert_string_equal(plan.c[0].recipe->name, "vectorize");
	assert_string_equal(plan.c[1].recipe->name, "row-cache");
	assert_string_equal(plan.c[0].params, plan.c[0].recipe->grid[0]);
	assert_true(plan.c[1].score > top && plan.c[0].score > plan.c[1].score);
	for (int i = 2; i < plan.n; i++)
		assert_false(plan.c[i].on_kept);
	ka_opt_plan_kept(&plan, ""); /* nothing opened: no change */
	assert_int_equal(plan.n, before + 2);
	/* kept: at least 0.6 of the best, and faster than the one kept */
	assert_true(ka_opt_keep_runner_up(0.8, 0));
	assert_true(ka_opt_keep_runner_up(0.69, 0));
	assert_true(ka_opt_keep_runner_up(1.01, 0.8));
	assert_false(ka_opt_keep_runner_up(0.59, 0));
	assert_false(ka_opt_keep_runner_up(0.75, 0.8));
}

/* a task's spec: rows x cols with the visible configurations given (the
 * unseen ones never count for the row-starved test) */
static void spec_of(ka_bench_spec *spec, const char *params, const char *visible, const char *unseen)
{
	char y[2048];
	snprintf(
		y, sizeof y,
		"name: t\ncategory: reduction-rowwise\nparams: [%s]\ntensors:\n"
		"  - {name: x, role: in, dtype: f32, shape: [rows, cols], dist: {kind: uniform, lo: -1, hi: 1}}\n"
		"  - {name: y, role: out, dtype: f32, shape: rows}\n"
		"tolerance: {atol: 1.0e-5, rtol: 2.0e-4, l2: 1.0e-4}\nbytes: 4*rows*cols\nflops: rows*cols\n"
		"configs:\n  visible:\n%s  unseen:\n    - {name: u_1, %s}\n",
		params, visible, unseen);
	memset(spec, 0, sizeof *spec);
	if (ka_bench_spec_parse(y, strlen(y), "test.yaml", spec) != KA_OK)
		fail_msg("the spec does not parse: %s\n%s", ka_error_last(), y);
}

/* the row count is the row guard's bound read in the task's visible
 * configurations; a warp per row starves the GPU below SMs * 2048 / 64
 * rows (4224 on 132 SMs) */
static void test_task_rows(void **st)
{
	(void)st;
	static ka_bench_spec spec;
	ka_recipe_set_source_path(NULL);
	spec_of(&spec, "rows, cols",
		"    - {name: v_a, rows: 8192, cols: 1024}\n    - {name: v_b, rows: 1024, cols: 8192}\n",
		"rows: 1, cols: 3");
	assert_int_equal(ka_opt_task_rows(&spec, src, strlen(src)), 1024);
	/* the bound a product of two task parameters */
	static const char bt[] =
		"__global__ void k(const float *x, float *y, int B, int T, long long cols)\n{\n"
		"\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (r >= B * T) return;\n"
		"\tfloat s = 0.0f;\n\tfor (long long j = 0; j < cols; j++) s += x[r * cols + j];\n\ty[r] = s;\n}\n";
	static ka_bench_spec sbt;
	spec_of(&sbt, "B, T, rows, cols",
		"    - {name: v_a, B: 8, T: 1024, rows: 1, cols: 64}\n"
		"    - {name: v_b, B: 4, T: 4096, rows: 1, cols: 64}\n",
		"B: 1, T: 1, rows: 1, cols: 3");
	assert_int_equal(ka_opt_task_rows(&sbt, bt, strlen(bt)), 8192);
	/* a bound that is no task parameter: unknown */
	assert_int_equal(ka_opt_task_rows(&spec, bt, strlen(bt)), 0);
	/* another name, traced through the launch: a local set from a->p[0], or a->p[0] itself */
	static const char traced[] =
		"__global__ void k(const float *x, float *y, int N, long long cols)\n{\n"
		"\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (r >= N) return;\n"
		"\tfloat s = 0.0f;\n\tfor (long long j = 0; j < cols; j++) s += x[r * cols + j];\n\ty[r] = s;\n}\n"
		"extern \"C\" int ka_task_run(const ka_task_args *a, cudaStream_t s)\n{\n"
		"\tint N = (int)a->p[0], C = (int)a->p[1];\n"
		"\tk<<<(N + 255) / 256, 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], N, C);\n"
		"\treturn 0;\n}\n";
	assert_int_equal(ka_opt_task_rows(&spec, traced, strlen(traced)), 1024);
	static const char direct[] =
		"__global__ void k(const float *x, float *y, int N, long long cols)\n{\n"
		"\tlong long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (r >= N) return;\n"
		"\tfloat s = 0.0f;\n\tfor (long long j = 0; j < cols; j++) s += x[r * cols + j];\n\ty[r] = s;\n}\n"
		"extern \"C\" int ka_task_run(const ka_task_args *a, cudaStream_t s)\n{\n"
		"\tk<<<(unsigned)((a->p[1] + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1],\n"
		"\t\t(int)a->p[1], a->p[0]);\n\treturn 0;\n}\n";
	static ka_bench_spec wide;
	spec_of(&wide, "rows, cols",
		"    - {name: v_a, rows: 8192, cols: 2048}\n    - {name: v_b, rows: 1024, cols: 4096}\n",
		"rows: 1, cols: 3");
	assert_int_equal(ka_opt_task_rows(&wide, traced, strlen(traced)), 1024);
	assert_int_equal(ka_opt_task_rows(&wide, direct, strlen(direct)), 2048); /* N is a->p[1] */
	assert_false(ka_opt_row_starved(0, 132));
	assert_true(ka_opt_row_starved(1024, 0));
	assert_true(ka_opt_row_starved(4223, 132));
	assert_false(ka_opt_row_starved(4224, 132));
	assert_false(ka_opt_row_starved(4096, 64));
	assert_true(ka_opt_row_starved(8192, 264));
}

/* a row-starved column sum: col-reduce's shape, so dispatch=size is not
 * put first; a row walk still gets it, and a task with rows enough never */
static void test_size_not_before_col_reduce(void **st)
{
	(void)st;
	static const char col[] =
		"__global__ void col_sum(const float *x, float *y, size_t rows, size_t cols)\n"
		"{\n"
		"\tsize_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (c >= cols)\n"
		"\t\treturn;\n"
		"\tfloat acc = 0.0f;\n"
		"\tfor (size_t r = 0; r < rows; ++r)\n"
		"\t\tacc += x[r * cols + c];\n"
		"\ty[c] = acc;\n"
		"}\n"
		"void run(const float *x, float *y, size_t rows, size_t cols)\n"
		"{\n"
		"\tcol_sum<<<(unsigned)((cols + 127) / 128), 128>>>(x, y, rows, cols);\n"
		"}\n";
	ka_recipe_set_source_path(NULL);
	assert_false(ka_opt_size_first(1, col, strlen(col)));
	assert_true(ka_opt_size_first(1, src, strlen(src)));
	assert_false(ka_opt_size_first(0, src, strlen(src)));
}

static int first_set(const ka_opt_plan *p, const char *recipe, const char *needle)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->c[i].recipe->name, recipe) && !p->c[i].on_orig &&
		    (needle ? strstr(p->c[i].params, needle) != NULL : !strstr(p->c[i].params, "dispatch=")))
			return i;
	return -1;
}

/* a row-starved task: warp-per-row's dispatch=size first among its sets on
 * the baseline, and ahead of what plain warp-per-row opened (vectorize)
 * once that was accepted; a task with rows enough keeps the old order,
 * and so does a plan after a dispatch=size step */
static void test_size_first_when_row_starved(void **st)
{
	(void)st;
	static ka_opt_plan plan;
	ka_finding v[2] = {
		{.rule = (char *)"gmem-uncoalesced-access", .kernel = (char *)"k", .estimate = 1.8},
		{.rule = (char *)"gmem-scalar-not-vectorized", .kernel = (char *)"k", .estimate = 2.0}};
	ka_findings f = {v, 2, 2};
	ka_recipe_set_source_path(NULL);
	for (int starved = 0; starved < 2; starved++) {
		assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &f, NULL, NULL, &plan), KA_OK);
		ka_opt_plan_sequences(&plan, src, strlen(src));
		ka_opt_plan_follow(&plan, "");
		int plain = first_set(&plan, "warp-per-row", NULL),
		    disp = first_set(&plan, "warp-per-row", "dispatch=size");
		double pscore = plan.c[plain].score;
		ka_opt_plan_size(&plan, starved, NULL, NULL);
		int p2 = first_set(&plan, "warp-per-row", NULL),
		    d2 = first_set(&plan, "warp-per-row", "dispatch=size");
		assert_true(plain >= 0 && disp > plain && p2 >= 0 && d2 >= 0);
		if (starved) {
			assert_int_equal(d2, 0); /* first of all */
			assert_int_equal(p2, plain + 1);
			assert_string_equal(plan.c[d2].params, "block=256 dispatch=size");
			assert_true(plan.c[d2].score > pscore);
		} else {
			assert_int_equal(p2, plain);
			assert_int_equal(d2, disp);
		}
	}
	/* after plain warp-per-row: what it opened first, or dispatch=size first */
	char *mid = NULL, *dmid = NULL, *wv2 = NULL, why[256], opened[256], dopened[256];
	size_t ml;
	assert_int_equal(
		ka_recipe_apply("warp-per-row", src, strlen(src), NULL, NULL, &mid, &ml, why, sizeof why),
		KA_OK);
	ka_opt_plan_opened("warp-per-row", src, mid, opened, sizeof opened);
	assert_true(listed(opened, "vectorize"));
	const ka_recipe *vr = ka_recipe_find("vectorize"), *wr = ka_recipe_find("warp-per-row");
	for (int starved = 0; starved < 2; starved++) {
		assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &f, "warp-per-row", "block=256", &plan),
				 KA_OK);
		ka_opt_plan_sequences(&plan, mid, ml);
		ka_opt_plan_follow(&plan, opened);
		ka_opt_plan_size(&plan, starved, "warp-per-row", "block=256");
		/* warp-per-row on its own result: only as tuning sets */
		for (int i = 0; i < plan.n; i++)
			assert_true(plan.c[i].recipe != wr || plan.c[i].on_parent);
		int k = 0;
		if (starved) {
			assert_true(plan.c[0].on_parent);
			assert_ptr_equal(plan.c[0].recipe, wr);
			assert_string_equal(plan.c[0].params, "block=256 dispatch=size");
			k = 1;
		}
		assert_false(plan.c[k].on_parent);
		assert_ptr_equal(plan.c[k].recipe, vr);
		assert_string_equal(plan.c[k].params, vr->grid[0]);
		/* then the tuning sets in their grid's order, dispatch=size's where it was unless moved */
		int g = 0;
		for (int i = k + 1; plan.c[i].on_parent; i++) {
			while (!strcmp(wr->grid[g], "block=256") ||
			       (starved && !strcmp(wr->grid[g], "block=256 dispatch=size")))
				g++;
			assert_string_equal(plan.c[i].params, wr->grid[g++]);
		}
		assert_null(wr->grid[g]);
	}
	/* after dispatch=size itself: vectorize (on both kernels) first, as before */
	assert_int_equal(ka_recipe_apply("warp-per-row", src, strlen(src), NULL, "block=256 dispatch=size",
					 &dmid, &ml, why, sizeof why),
			 KA_OK);
	ka_opt_plan_opened("warp-per-row", src, dmid, dopened, sizeof dopened);
	assert_true(listed(dopened, "vectorize"));
	assert_int_equal(
		ka_opt_make_plan(NULL, "sm_90", &f, "warp-per-row", "block=256 dispatch=size", &plan), KA_OK);
	ka_opt_plan_follow(&plan, dopened);
	ka_opt_plan_size(&plan, 1, "warp-per-row", "block=256 dispatch=size");
	assert_ptr_equal(plan.c[0].recipe, vr);
	assert_true(plan.c[1].on_parent);
	assert_string_equal(plan.c[1].params, wr->grid[0]);
	/* after vectorize on plain warp-per-row: dispatch=size on that kernel
	 * (its block twin derived from it) first when row-starved; vectorize's
	 * tuning sets first otherwise */
	char *wv = NULL;
	size_t wvl;
	assert_int_equal(
		ka_recipe_apply("vectorize", mid, strlen(mid), NULL, NULL, &wv, &wvl, why, sizeof why),
		KA_OK);
	assert_int_equal(ka_recipe_apply("warp-per-row", wv, wvl, NULL, "block=256 dispatch=size", &wv2, &ml,
					 why, sizeof why),
			 KA_OK);
	for (int starved = 0; starved < 2; starved++) {
		assert_int_equal(ka_opt_make_plan(NULL, "sm_90", &f, "vectorize", vr->grid[0], &plan), KA_OK);
		ka_opt_plan_sequences(&plan, wv, wvl);
		ka_opt_plan_follow(&plan, "");
		ka_opt_plan_size(&plan, starved, "vectorize", vr->grid[0]);
		if (starved) {
			assert_ptr_equal(plan.c[0].recipe, wr);
			assert_false(plan.c[0].on_parent);
			assert_string_equal(plan.c[0].params, "block=256 dispatch=size");
		} else {
			assert_true(plan.c[0].on_parent);
			assert_ptr_equal(plan.c[0].recipe, vr);
		}
	}
	free(wv);
	free(wv2);
	free(mid);
	free(dmid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequence_ranking),
		cmocka_unit_test(test_sequence_needs_a_finding),
		cmocka_unit_test(test_opened_follows),
		cmocka_unit_test(test_opened_rewrites_new_lines),
		cmocka_unit_test(test_rebase_twins_last),
		cmocka_unit_test(test_kept_first),
		cmocka_unit_test(test_task_rows),
		cmocka_unit_test(test_size_first_when_row_starved),
		cmocka_unit_test(test_size_not_before_col_reduce),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
