/* tests/agents/test_optimize_lint.c: the findings of the optimize loop
 * come from the lint library in process (ka_opt_lint), on the run's arch.
 *   - ka_opt_lint gives the findings `kcheck --checks='*' --format json`
 *     reports on the same file, arch and flags: rule, place, kernel (and
 *     the other kernels sharing it), message, estimate; on sm_70 and sm_90;
 *   - so the preview rules, off in kcheck's default set, reach the loop:
 *     examples/scan's early return before a barrier is among its findings
 *     and not among plain kcheck's;
 *   - one of them depends on the arch: 40 KB of shared memory per block of
 *     256 threads caps occupancy on sm_70 (96 KB per SM), not on sm_90;
 *   - a candidate whose analysis crashes is an error naming the crash, and
 *     the process that asked goes on (lint's forked worker);
 *   - ka_opt_run hands its --arch and the task's -I to the findings
 *     callback, so on the same task the loop sees that finding on sm_70
 *     and not on sm_90; an arch no profile knows is refused first.
 * No GPU: the loop runs compile-only (and without nvcc its step is an
 * error, after the findings were taken). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agents/optimize.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/proc.h"

static char tmp[] = "/tmp/ka_opt_lint_XXXXXX";
static char task_dir[128], smem_cu[192], helper_cu[128];

/* 40 KB of static shared memory per block of 256 threads (launch bounds):
 * 2 blocks per SM on sm_70, a quarter of its thread slots; 5 on sm_90. */
static const char smem_kernel[] =
	"#include \"ka_task.h\"\n"
	"\n"
	"__global__ void __launch_bounds__(256)\n"
	"saxpy_staged(float alpha, const float *x, const float *y, float *out, long long n)\n"
	"{\n"
	"\t__shared__ float stage[10240];\n"
	"\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	"\tstage[threadIdx.x] = i < n ? x[i] : 0.0f;\n"
	"\t__syncthreads();\n"
	"\tif (i < n)\n"
	"\t\tout[i] = alpha * stage[threadIdx.x] + y[i];\n"
	"}\n"
	"\n"
	"extern \"C\" int ka_task_run(const ka_task_args *a, cudaStream_t s)\n"
	"{\n"
	"\tlong long n = a->n[0];\n"
	"\tsaxpy_staged<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((float)a->s[0], (const float *)a->t[0],\n"
	"\t\t(const float *)a->t[1], (float *)a->t[2], n);\n"
	"\treturn 0;\n"
	"}\n";

/* A helper two kernels call: its finding is reported once, for the first
 * kernel, naming the other (JSON also_kernels, ka_finding.also). */
static const char helper_kernels[] = "__device__ float sq(float v) { return powf(v, 2.0f); }\n"
				     "__global__ void ka(float *o, const float *x, int n) {\n"
				     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
				     "  if (i < n) o[i] = sq(x[i]);\n"
				     "}\n"
				     "__global__ void kb(float *o, const float *x, int n) {\n"
				     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
				     "  if (i < n) o[i] = sq(x[i]) + 1.0f;\n"
				     "}\n";

static void write_text(const char *path, const char *text)
{
	assert_int_equal(ka_fs_write_atomic(path, text, strlen(text)), KA_OK);
}

static void copy_file(const char *from, const char *to)
{
	char *t;
	size_t n;
	assert_int_equal(ka_fs_read(from, 0, &t, &n), KA_OK);
	assert_int_equal(ka_fs_write_atomic(to, t, n), KA_OK);
	free(t);
}

/* tmp/harness -> bench/harness, tmp/tasks/smem: saxpy's spec and reference
 * with the staged kernel as the baseline, so that the loop's -I (the task
 * folder's ../../harness) finds ka_task.h as it does for bench/tasks. */
static int group_setup(void **st)
{
	(void)st;
	char p[256];
	if (!mkdtemp(tmp))
		return -1;
	snprintf(p, sizeof p, "%s/harness", tmp);
	if (symlink(KA_SOURCE_DIR "/bench/harness", p))
		return -1;
	snprintf(task_dir, sizeof task_dir, "%s/tasks/smem", tmp);
	char *argv[] = {"mkdir", "-p", task_dir, NULL};
	ka_proc_result r;
	if (ka_proc_run(argv, 60, NULL, &r) || r.status)
		return -1;
	snprintf(p, sizeof p, "%s/task.yaml", task_dir);
	copy_file(KA_SOURCE_DIR "/bench/tasks/saxpy/task.yaml", p);
	snprintf(p, sizeof p, "%s/reference.cu", task_dir);
	copy_file(KA_SOURCE_DIR "/bench/tasks/saxpy/reference.cu", p);
	snprintf(smem_cu, sizeof smem_cu, "%s/baseline.cu", task_dir);
	write_text(smem_cu, smem_kernel);
	snprintf(helper_cu, sizeof helper_cu, "%s/helper.cu", tmp);
	write_text(helper_cu, helper_kernels);
	return 0;
}

static int group_teardown(void **st)
{
	(void)st;
	char *argv[] = {"rm", "-rf", tmp, NULL};
	ka_proc_run(argv, 60, NULL, &(ka_proc_result){0});
	return 0;
}

static int has_rule(const ka_findings *f, const char *rule)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].rule && !strcmp(f->v[i].rule, rule))
			return 1;
	return 0;
}

/* `kcheck --no-db --no-config [--checks=*] --arch ARCH --format json -q -o
 * OUT FILE -- -I harness`:
 * its findings array (the caller decrefs the root in *root). */
static json_t *kcheck_run(const char *file, const char *arch, int all, json_t **root)
{
	char out[256];
	snprintf(out, sizeof out, "%s/report.json", tmp);
	unlink(out);
	char *argv[16];
	int k = 0;
	argv[k++] = KA_KCHECK;
	argv[k++] = "--no-db";
	argv[k++] = "--no-config";
	if (all)
		argv[k++] = "--checks=*";
	argv[k++] = "--arch";
	argv[k++] = (char *)arch;
	argv[k++] = "--format";
	argv[k++] = "json";
	argv[k++] = "-q";
	argv[k++] = "-o";
	argv[k++] = out;
	argv[k++] = (char *)file;
	argv[k++] = "--";
	argv[k++] = "-I" KA_SOURCE_DIR "/bench/harness";
	argv[k] = NULL;
	ka_proc_result r;
	assert_int_equal(ka_proc_run(argv, 300, NULL, &r), KA_OK);
	assert_true(r.exited && (r.status == 0 || r.status == 1)); /* 1: findings */
	json_error_t je;
	*root = json_load_file(out, 0, &je);
	assert_non_null(*root);
	json_t *arr = json_object_get(*root, "findings");
	assert_true(json_is_array(arr));
	return arr;
}

static void assert_same(const ka_findings *f, json_t *arr, const char *what)
{
	if (f->n != json_array_size(arr))
		fail_msg("%s: %zu findings in process, %zu from kcheck", what, f->n, json_array_size(arr));
	for (size_t i = 0; i < f->n; i++) {
		const ka_finding *x = &f->v[i];
		json_t *e = json_array_get(arr, i);
		const char *kern = json_string_value(json_object_get(e, "kernel"));
		assert_string_equal(x->rule, json_string_value(json_object_get(e, "rule")));
		assert_string_equal(x->file, json_string_value(json_object_get(e, "file")));
		assert_string_equal(ka_severity_name(x->severity),
				    json_string_value(json_object_get(e, "severity")));
		assert_string_equal(x->message, json_string_value(json_object_get(e, "message")));
		assert_int_equal(x->line, json_integer_value(json_object_get(e, "line")));
		assert_int_equal(x->col, json_integer_value(json_object_get(e, "column")));
		assert_string_equal(x->kernel ? x->kernel : "", kern ? kern : "");
		double est = json_number_value(json_object_get(e, "estimate"));
		if (fabs(x->estimate - est) > 1e-9 * (1 + fabs(est)))
			fail_msg("%s: %s estimate %g in process, %g from kcheck", what, x->rule, x->estimate,
				 est);
		json_t *also = json_object_get(e, "also_kernels");
		assert_int_equal(x->nalso, json_array_size(also));
		for (size_t a = 0; a < x->nalso; a++)
			assert_string_equal(x->also[a], json_string_value(json_array_get(also, a)));
	}
}

static void test_findings_match_kcheck(void **st)
{
	(void)st;
	const struct {
		const char *file, *arch;
	} runs[] = {{smem_cu, "sm_70"},
		    {smem_cu, "sm_90"},
		    {helper_cu, "sm_90"},
		    {KA_SOURCE_DIR "/bench/tasks/softmax/baseline.cu", "sm_70"}};
	const char *inc[] = {"-I" KA_SOURCE_DIR "/bench/harness"};
	size_t total = 0, shared = 0;
	for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
		ka_findings f = KA_FINDINGS_INIT;
		json_t *root;
		char what[300];
		snprintf(what, sizeof what, "%s on %s", runs[k].file, runs[k].arch);
		if (ka_opt_lint(NULL, runs[k].file, runs[k].arch, inc, 1, &f) != KA_OK)
			fail_msg("%s: %s", what, ka_error_last());
		assert_same(&f, kcheck_run(runs[k].file, runs[k].arch, 1, &root), what);
		json_decref(root);
		total += f.n;
		for (size_t i = 0; i < f.n; i++)
			shared += f.v[i].nalso;
		if (k < 2) /* the arch decides */
			assert_int_equal(has_rule(&f, "smem-occupancy-limiter"), k == 0);
		ka_findings_free(&f);
	}
	assert_true(total >= 4); /* not a comparison of empty lists */
	assert_true(shared >= 1);
}

static int json_has_rule(json_t *arr, const char *rule)
{
	for (size_t i = 0; i < json_array_size(arr); i++)
		if (!strcmp(json_string_value(json_object_get(json_array_get(arr, i), "rule")), rule))
			return 1;
	return 0;
}

/* A preview rule (docs/rules.md, `status`) is off in kcheck's default set
 * and on in the loop's: a false finding there costs a benched trial. */
static void test_preview_rules_reach_the_loop(void **st)
{
	(void)st;
	const char *scan = KA_SOURCE_DIR "/examples/scan/naive.cu";
	const char *rule = "sync-early-return-before-barrier";
	ka_findings f = KA_FINDINGS_INIT;
	json_t *root;
	if (ka_opt_lint(NULL, scan, "sm_90", NULL, 0, &f) != KA_OK)
		fail_msg("%s: %s", scan, ka_error_last());
	assert_true(has_rule(&f, rule));
	ka_findings_free(&f);
	assert_false(json_has_rule(kcheck_run(scan, "sm_90", 0, &root), rule));
	json_decref(root);
	assert_true(json_has_rule(kcheck_run(scan, "sm_90", 1, &root), rule));
	json_decref(root);
}

/* A file lint cannot analyze is an error with the reason, not an empty
 * list; an unknown arch is lint's own one-line error. */
static void test_lint_errors(void **st)
{
	(void)st;
	ka_findings f = KA_FINDINGS_INIT;
	char missing[192];
	snprintf(missing, sizeof missing, "%s/missing.cu", tmp);
	assert_true(ka_opt_lint(NULL, missing, "sm_90", NULL, 0, &f) < 0);
	assert_non_null(strstr(ka_error_last(), "missing.cu"));
	assert_null(strchr(ka_error_last(), '\n'));
	assert_int_equal(f.n, 0);
	assert_true(ka_opt_lint(NULL, smem_cu, "sm_1", NULL, 0, &f) < 0);
	assert_non_null(strstr(ka_error_last(), "unknown --arch 'sm_1'"));
	assert_int_equal(f.n, 0);
}

/* A crash in the analysis (forced, as tests/cli/isolate_test.sh does, with
 * a 5,000-deep expression on libclang's own 8 MB stack) happens in lint's
 * worker: an error that names it, here, and this process lives on to lint
 * the next file. */
static void test_crash_is_an_error(void **st)
{
	(void)st;
	char deep[192], *text = malloc(20000);
	assert_non_null(text);
	int n = snprintf(text, 20000, "__global__ void k(int *p, int a) { p[threadIdx.x] = ");
	for (int i = 0; i < 5000; i++)
		n += snprintf(text + n, (size_t)(20000 - n), "- ");
	snprintf(text + n, (size_t)(20000 - n), "a; }\n");
	snprintf(deep, sizeof deep, "%s/deep.cu", tmp);
	write_text(deep, text);
	free(text);
	ka_findings f = KA_FINDINGS_INIT;
	setenv("KCHECK_TEST_STACK_KB", "8192", 1);
	int rc = ka_opt_lint(NULL, deep, "sm_90", NULL, 0, &f);
	unsetenv("KCHECK_TEST_STACK_KB");
	assert_true(rc < 0);
	assert_int_equal(f.n, 0);
	assert_non_null(strstr(ka_error_last(), "deep.cu was not analyzed: "));
	assert_non_null(strstr(ka_error_last(), "crash"));
	assert_int_equal(ka_opt_lint(NULL, helper_cu, "sm_90", NULL, 0, &f), KA_OK);
	assert_true(has_rule(&f, "math-pow-small-integer"));
	ka_findings_free(&f);
}

/* The loop's findings callback wrapped: what it was given, what it gave.
 * Only the first step's findings are taken: the offline recipes that
 * decline this kernel cost no budget, so the loop goes on through them,
 * and later steps plan without findings (the callback's error). */
typedef struct spy {
	int calls;
	char arch[16], extra[256];
	int nextra;
	int limiter; /* smem-occupancy-limiter among the findings */
} spy;

static int spy_lint(void *ud, const char *path, const char *arch, const char *const *extra, int nextra,
		    ka_findings *out)
{
	spy *s = ud;
	if (s->calls++)
		return ka_error_set(KA_ERR, "the first step's findings were enough");
	snprintf(s->arch, sizeof s->arch, "%s", arch);
	snprintf(s->extra, sizeof s->extra, "%s", nextra > 0 ? extra[0] : "");
	s->nextra = nextra;
	int rc = ka_opt_lint(NULL, path, arch, extra, nextra, out);
	s->limiter |= rc == KA_OK && has_rule(out, "smem-occupancy-limiter");
	return rc;
}

static void run_loop(const char *arch, spy *s, int *rc)
{
	char out[192];
	static ka_opt_summary sum;
	ka_opt_opts o;
	memset(&o, 0, sizeof o);
	memset(s, 0, sizeof *s);
	ka_coder_opts c = KA_CODER_OPTS_INIT;
	o.coder = c;
	o.coder.provider = "offline";
	snprintf(out, sizeof out, "%s/out-%s", tmp, arch);
	o.task = task_dir;
	o.out_dir = out;
	o.no_db = 1;
	o.compile_only = 1;
	o.budget_steps = 1;
	o.arch = arch;
	o.lint = spy_lint;
	o.lint_ud = s;
	*rc = ka_opt_run(&o, &sum);
}

static void test_arch_reaches_lint(void **st)
{
	(void)st;
	spy s;
	int rc;
	char inc[300];
	snprintf(inc, sizeof inc, "-I%s/../../harness", task_dir);
	run_loop("sm_70", &s, &rc);
	if (rc)
		fail_msg("ka_opt_run: %s", ka_error_last());
	assert_true(s.calls >= 1);
	assert_string_equal(s.arch, "sm_70");
	assert_int_equal(s.nextra, 1);
	assert_string_equal(s.extra, inc);
	assert_int_equal(s.limiter, 1);
	run_loop("sm_90", &s, &rc);
	if (rc)
		fail_msg("ka_opt_run: %s", ka_error_last());
	assert_true(s.calls >= 1);
	assert_string_equal(s.arch, "sm_90");
	assert_int_equal(s.limiter, 0);
	/* an arch no profile knows: refused before any step */
	run_loop("sm_87", &s, &rc);
	assert_int_equal(rc, KA_EINPUT);
	assert_int_equal(s.calls, 0);
	assert_non_null(strstr(ka_error_last(), "unknown --arch 'sm_87' (known: sm_70 "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_findings_match_kcheck),
		cmocka_unit_test(test_preview_rules_reach_the_loop),
		cmocka_unit_test(test_lint_errors),
		cmocka_unit_test(test_crash_is_an_error),
		cmocka_unit_test(test_arch_reaches_lint),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
