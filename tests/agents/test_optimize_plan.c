/* tests/agents/test_optimize_plan.c: the planner over two-step sequences
 * (ka_opt_plan_sequences).  A strategy whose result opens a recipe a
 * finding calls for, and that the kernel as it is does not take, ranks by
 * both; what applies now gains nothing; the order is the same every time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequence_ranking),
		cmocka_unit_test(test_sequence_needs_a_finding),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
