/* tests/bench/test_scale.c: the parts of the scale-out runners that need no
 * process (bench/scale.h): a verdict document read back gives the result
 * the report was written from (text report and suite score alike), a
 * document that is not one is refused, GPU lists, the shapes the Slurm
 * settings of .kcheck.yaml must have, the runner options. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/report.h"
#include "bench/scale.h"
#include "util/buf.h"
#include "util/error.h"

static const char spec_text[] =
	"name: t\ncategory: c\nparams: [n]\n"
	"tensors:\n"
	"  - {name: x, role: in, dtype: f32, shape: n, dist: {kind: uniform, lo: -1, hi: 1}}\n"
	"  - {name: y, role: out, dtype: f32, shape: n}\n"
	"tolerance: {atol: 1e-6, rtol: 1e-5, l2: 1e-4}\nbytes: 8*n\nflops: n\n"
	"configs:\n  visible:\n    - {name: small, n: 1024}\n    - {name: big, n: 1048576}\n"
	"  unseen:\n    - {name: odd, n: 1000}\n";

static ka_bench_spec spec;
static ka_bench_job job;

static void load(void)
{
	assert_int_equal(ka_bench_spec_parse(spec_text, strlen(spec_text), "t.yaml", &spec), 0);
	ka_bench_job_init(&job, &spec);
	snprintf(job.candidate, sizeof job.candidate, "cand \"quoted\".cu");
	job.seed = 42;
}

/* A timed result with every field the text report and the score use. */
static void fill(ka_bench_result *r)
{
	memset(r, 0, sizeof *r);
	snprintf(r->verdict, sizeof r->verdict, "faster");
	snprintf(r->device, sizeof r->device, "NVIDIA H200 sm_90 sms=132 l2=60MB");
	snprintf(r->sanitizer, sizeof r->sanitizer, "passed");
	r->copy_gbs = 3900;
	r->fma_gflops = 51000;
	r->ncfg = spec.nconfigs;
	for (int i = 0; i < spec.nconfigs; i++) {
		ka_bench_cfg_result *c = &r->cfg[i];
		c->correct = 1;
		c->worst = 0.25;
		c->rel_l2 = 1e-7;
		if (i == 2)
			continue; /* unseen: correctness only */
		c->timed = 1;
		c->n = 40 + i;
		c->validated = 3;
		c->checked = 40;
		c->sa.median = 10.5 + i;
		c->sb.median = 5.25 + i;
		c->speedup = 2.0 - 0.5 * i;
		c->lo = 1.9 - 0.5 * i;
		c->hi = 2.1 - 0.5 * i;
		c->gbs = 1800;
		c->roof = 0.46;
	}
	r->geomean = 1.73;
	r->lo = 1.6;
	r->hi = 1.8;
	r->geo_visible = 1.73;
	r->roof_mean = 0.46;
	r->correct_visible = r->total_visible = 2;
	r->correct_unseen = r->total_unseen = 1;
}

static void test_round_trip(void **state)
{
	static ka_bench_result a, b;
	ka_buf j1, j2;
	(void)state;
	load();
	fill(&a);
	ka_buf_init(&j1, 1 << 20);
	ka_buf_init(&j2, 1 << 20);
	assert_int_equal(ka_bench_report_json(&j1, &job, &a), 0);
	assert_int_equal(ka_bench_result_from_json(j1.data, &spec, &b), 0);
	/* written again from what was read: the same document */
	assert_int_equal(ka_bench_report_json(&j2, &job, &b), 0);
	assert_string_equal(j1.data, j2.data);
	assert_string_equal(b.verdict, "faster");
	assert_string_equal(b.device, a.device);
	assert_int_equal(b.cfg[1].n, 41);
	assert_true(fabs(b.cfg[1].sb.median - 6.25) < 1e-9);
	assert_int_equal(b.cfg[2].timed, 0);
	assert_int_equal(b.correct_unseen, 1);
	ka_buf_free(&j1);
	ka_buf_free(&j2);
}

static void test_rejected_round_trip(void **state)
{
	static ka_bench_result a, b;
	ka_buf j1, j2;
	(void)state;
	load();
	memset(&a, 0, sizeof a);
	snprintf(a.verdict, sizeof a.verdict, "rejected");
	snprintf(a.gate, sizeof a.gate, "correctness");
	snprintf(a.reason, sizeof a.reason, "config big: y[7] = 1 \"off\" by \\ \x01 \xc3\xa9");
	a.ncfg = spec.nconfigs;
	a.cfg[0].correct = 1;
	a.cfg[1].correct = 0;
	snprintf(a.cfg[1].why, sizeof a.cfg[1].why, "y[7] differs");
	a.cfg[2].correct = -1;
	ka_buf_init(&j1, 1 << 20);
	ka_buf_init(&j2, 1 << 20);
	assert_int_equal(ka_bench_report_json(&j1, &job, &a), 0);
	assert_int_equal(ka_bench_result_from_json(j1.data, &spec, &b), 0);
	assert_string_equal(b.reason, a.reason); /* escapes undone */
	assert_int_equal(b.cfg[1].correct, 0);
	assert_int_equal(b.cfg[2].correct, -1);
	assert_int_equal(ka_bench_report_json(&j2, &job, &b), 0);
	assert_string_equal(j1.data, j2.data);
	ka_buf_free(&j1);
	ka_buf_free(&j2);
}

static void test_not_a_document(void **state)
{
	static ka_bench_result r;
	static const char *const bad[] = {
		"",
		"{\"schema\":\"kernelarc.bench/1\",\"task\":\"t\",\"verdict\":\"fas", /* cut short */
		"{\"schema\":\"kernelarc.other/1\",\"verdict\":\"faster\"}",
		"{\"schema\":\"kernelarc.bench/1\"}",                    /* no verdict */
		"{\"schema\":\"kernelarc.bench/1\",\"verdict\":faster}", /* not a string */
		"[1,2,3]",
		"kcheck: error: no CUDA device found\n",
	};
	(void)state;
	load();
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		r.verdict[0] = 'x';
		assert_true(ka_bench_result_from_json(bad[i], &spec, &r) < 0);
		assert_int_equal(r.verdict[0], 0);
	}
	/* wrong kinds inside a document: ignored, never trusted */
	assert_int_equal(ka_bench_result_from_json("{\"schema\":\"kernelarc.bench/1\",\"verdict\":\"same\","
						   "\"speedup\":{\"geomean\":\"9\"},\"configs\":[{\"name\":"
						   "\"nosuch\",\"timed\":true,\"samples\":1e300}]}",
						   &spec, &r),
			 0);
	assert_string_equal(r.verdict, "same");
	assert_true(r.geomean == 0);
	assert_int_equal(r.ncfg, 0);
}

static void test_gpus(void **state)
{
	int g[KA_SCALE_MAX_GPUS];
	(void)state;
	assert_int_equal(ka_scale_parse_gpus("0,1,7", g), 3);
	assert_int_equal(g[2], 7);
	assert_int_equal(ka_scale_parse_gpus("3", g), 1);
	assert_true(ka_scale_parse_gpus("1,1", g) < 0);
	assert_non_null(strstr(ka_error_last(), "twice"));
	assert_true(ka_scale_parse_gpus("0,", g) < 0);
	assert_true(ka_scale_parse_gpus("a", g) < 0);
	assert_true(ka_scale_parse_gpus("-1", g) < 0);
	assert_true(ka_scale_parse_gpus("", g) < 0);
	setenv("CUDA_VISIBLE_DEVICES", "5,GPU-abc,2", 1);
	assert_int_equal(ka_scale_visible_gpus(g), 3);
	assert_int_equal(g[2], 2); /* CUDA numbers what it lets through from 0 */
	setenv("CUDA_VISIBLE_DEVICES", "1,-1,2", 1);
	assert_int_equal(ka_scale_visible_gpus(g), 1);
	setenv("CUDA_VISIBLE_DEVICES", "", 1);
	assert_int_equal(ka_scale_visible_gpus(g), 0);
	unsetenv("CUDA_VISIBLE_DEVICES");
}

static void test_shapes_and_options(void **state)
{
	ka_scale_opts o;
	(void)state;
	assert_true(ka_scale_safe_partition("gpu"));
	assert_true(ka_scale_safe_partition("h200,a100-long"));
	assert_false(ka_scale_safe_partition("gpu;rm"));
	assert_false(ka_scale_safe_partition("--uid=0"));
	assert_false(ka_scale_safe_partition(""));
	assert_true(ka_scale_safe_time("30"));
	assert_true(ka_scale_safe_time("1-12:00:00"));
	assert_false(ka_scale_safe_time("10 minutes"));
	assert_false(ka_scale_safe_time("-5"));
	assert_false(ka_scale_safe_time("$(id)"));
	ka_scale_opts_init(&o);
	assert_int_equal(o.gpus_per_job, 1);
	assert_int_equal(o.retries, 1);
	assert_true(ka_scale_is_opt("--partition"));
	assert_false(ka_scale_is_opt("--samples"));
	assert_int_equal(ka_scale_parse_opt(&o, "--runner", "slurm"), 0);
	assert_int_equal(o.slurm, 1);
	assert_true(ka_scale_parse_opt(&o, "--runner", "pbs") < 0);
	assert_int_equal(ka_scale_parse_opt(&o, "--gpus-per-job", "2"), 0);
	assert_int_equal(o.gpus_per_job, 2);
	assert_true(o.set & KA_SCALE_SET_GPUS);
	assert_true(ka_scale_parse_opt(&o, "--retries", "11") < 0);
	assert_true(ka_scale_parse_opt(&o, "--time-limit", "soon") < 0);
	assert_true(ka_scale_parse_opt(&o, "--sbatch-option", "qos=x") < 0);
	assert_int_equal(ka_scale_parse_opt(&o, "--sbatch-option", "--qos=x"), 0);
	assert_int_equal(o.nextra, 1);
	assert_int_equal(ka_scale_parse_opt(&o, "--poll-interval", "0"), 0);
	assert_true(o.poll_s > 0 && o.poll_s < 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),         cmocka_unit_test(test_rejected_round_trip),
		cmocka_unit_test(test_not_a_document),     cmocka_unit_test(test_gpus),
		cmocka_unit_test(test_shapes_and_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
