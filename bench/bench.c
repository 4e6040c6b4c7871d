/* bench/bench.c: `kcheck bench` (bench/bench.h): argument parsing, one task
 * or a whole suite through a runner, text or JSON output, exit status.
 * 0: the candidate passed every gate and is faster (or, with --compile-only,
 * compiled); 1: rejected, or not faster; 2: usage, task or tool error, or
 * no CUDA device.  Never a result without a device. */
#include "bench/bench.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench/report.h"
#include "bench/runner.h"
#include "bench/score.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/fs.h"

struct opts {
	const char *task, *suite, *candidate, *baseline, *cand_name, *build_dir, *arch, *nvcc;
	int configs, json, compile_only, skip_static, sanitize, samples, check_task;
	unsigned long long seed;
};

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "kcheck: error: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	return 2;
}

static const char usage[] =
	"usage: kcheck bench TASK [--candidate FILE] [--baseline FILE] [--configs visible|unseen|all]\n"
	"                         [--json] [--compile-only] [--sanitize] [--samples N] [--seed N] [--build-dir DIR]\n"
	"       kcheck bench --suite DIR [--candidate-name FILE] [same options]\n"
	"       kcheck bench TASK|--suite DIR --check-task N   (baseline and expert on N seeds)\n";

/* Every option parse_args takes, for --help (one line each) and for
 * telling a valued option from an unknown one. */
static const struct bench_opt {
	const char *name, *arg, *help;
} bench_opts[] = {
	{"--candidate", "FILE", "the kernel file to judge (default: the task's expert.cu)"},
	{"--baseline", "FILE", "time against FILE instead of the task's baseline.cu"},
	{"--suite", "DIR", "every task folder under DIR"},
	{"--candidate-name", "FILE", "with --suite: each task's candidate file name (default expert.cu)"},
	{"--configs", "visible|unseen|all", "which configurations of task.yaml to run (default all)"},
	{"--json", NULL, "the result as JSON (schema kernelarc.bench/1)"},
	{"--compile-only", NULL, "stop after the static and compile gates (no GPU needed)"},
	{"--sanitize", NULL,
	 "also run compute-sanitizer (memcheck, racecheck) on the smallest configuration"},
	{"--samples", "N", "timed samples per configuration, 30..4000 (default 40)"},
	{"--seed", "N", "the inputs' and unseen sizes' seed (default: from the clock)"},
	{"--check-task", "N", "check the task itself: baseline and expert on N seeds, 2..50"},
	{"--build-dir", "DIR", "the compile cache (default $XDG_CACHE_HOME/kernelarc/bench)"},
	{"--arch", "ARCH", "nvcc's -arch (default sm_90)"},
	{"--nvcc", "PATH", "the nvcc (or hipcc) to compile with"},
	{"--unsafe-skip-static-gate", NULL, "skip the static gate (only for code you trust)"},
	{"-h, --help", NULL, "this text"},
};

static int known_option(const char *a)
{
	for (size_t i = 0; i < sizeof bench_opts / sizeof bench_opts[0]; i++)
		if (bench_opts[i].arg && !strcmp(a, bench_opts[i].name))
			return 1;
	return 0;
}

static void help(void)
{
	fputs(usage, stdout);
	fputs("\nCompiles a candidate kernel with the task's harness and judges it against the\n"
	      "baseline: static gate, compile gate, correctness on every configuration (the\n"
	      "unseen ones drawn at run time), then timing (docs/bench.md).  Exit 0 when it\n"
	      "passes every gate and is faster (--compile-only: when it compiles), 1 when it is\n"
	      "rejected or not faster, 2 on a bad task, a tool error or no CUDA device.\n"
	      "`kcheck bench init FILE --kernel K` makes a task from your own kernel.\n"
	      "\nOptions:\n",
	      stdout);
	for (size_t i = 0; i < sizeof bench_opts / sizeof bench_opts[0]; i++) {
		char left[128];
		const struct bench_opt *b = &bench_opts[i];
		int n = snprintf(left, sizeof left, "  %s%s%s", b->name, b->arg ? " " : "",
				 b->arg ? b->arg : "");
		printf("%s%*s%s\n", left, n < 25 ? 25 - n : 1, "", b->help);
	}
	fputs("\nExamples:\n"
	      "  kcheck bench bench/tasks/softmax_rows --candidate my_softmax.cu\n"
	      "  kcheck bench tasks/mine --compile-only\n"
	      "  kcheck bench --suite bench/tasks --json > suite.json\n"
	      "  kcheck bench bench/tasks/gelu --check-task 5\n",
	      stdout);
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	memset(o, 0, sizeof *o);
	o->cand_name = "expert.cu";
	o->samples = 40;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int takes = 1;
		if (!strcmp(a, "--json")) {
			o->json = 1;
			takes = 0;
		} else if (!strcmp(a, "--compile-only")) {
			o->compile_only = 1;
			takes = 0;
		} else if (!strcmp(a, "--unsafe-skip-static-gate")) {
			o->skip_static = 1;
			takes = 0;
		} else if (!strcmp(a, "--sanitize")) {
			o->sanitize = 1;
			takes = 0;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			help();
			return 1;
		} else if (a[0] == '-' && !known_option(a))
			return usage_error("unknown option", a) + 1;
		else if (a[0] == '-' && !v)
			return usage_error("option needs a value", a) + 1;
		else if (!strcmp(a, "--candidate"))
			o->candidate = v;
		else if (!strcmp(a, "--baseline"))
			o->baseline = v;
		else if (!strcmp(a, "--suite"))
			o->suite = v;
		else if (!strcmp(a, "--candidate-name"))
			o->cand_name = v;
		else if (!strcmp(a, "--build-dir"))
			o->build_dir = v;
		else if (!strcmp(a, "--arch"))
			o->arch = v;
		else if (!strcmp(a, "--nvcc"))
			o->nvcc = v;
		else if (!strcmp(a, "--seed"))
			o->seed = strtoull(v, NULL, 10);
		else if (!strcmp(a, "--samples")) {
			o->samples = atoi(v);
			if (o->samples < 30 || o->samples > 4000)
				return usage_error("--samples must be 30..4000", v) + 1;
		} else if (!strcmp(a, "--check-task")) {
			char *end;
			long k = strtol(v, &end, 10);
			if (*end || end == v || k < 2 || k > 50)
				return usage_error("--check-task takes a number of seeds, 2..50", v) + 1;
			o->check_task = (int)k;
		} else if (!strcmp(a, "--configs")) {
			if (!strcmp(v, "all"))
				o->configs = KA_BENCH_CONFIGS_ALL;
			else if (!strcmp(v, "visible"))
				o->configs = KA_BENCH_CONFIGS_VISIBLE;
			else if (!strcmp(v, "unseen"))
				o->configs = KA_BENCH_CONFIGS_UNSEEN;
			else
				return usage_error("--configs takes visible, unseen or all", v) + 1;
		} else if (!o->task) {
			o->task = a;
			takes = 0;
		} else
			return usage_error("unexpected argument", a) + 1;
		i += takes;
	}
	if (!o->task == !o->suite)
		return usage_error("give one TASK or --suite DIR (kcheck bench --help)", NULL) + 1;
	if (o->suite && (o->candidate || o->baseline))
		return usage_error("--suite takes --candidate-name, not --candidate", NULL) + 1;
	if (o->check_task && (o->candidate || o->compile_only))
		return usage_error("--check-task checks the task's own expert and baseline, at run time",
				   NULL) +
		       1;
	if (!o->seed)
		o->seed = ((unsigned long long)time(NULL) << 20) ^ (unsigned long long)getpid();
	return 0;
}

/* 0, or KA_EINPUT when a path or name does not fit the job. */
static int setup_job(const struct opts *o, const ka_bench_spec *spec, ka_bench_job *j)
{
	int rc = 0;
	ka_bench_job_init(j, spec);
	if (!j->baseline[0] || !j->reference[0])
		rc = ka_error_set(KA_EINPUT, "task path too long: %.80s...", spec->dir);
	if (!rc && o->candidate)
		rc = ka_bench_job_path(j->candidate, sizeof j->candidate, o->candidate, NULL);
	else if (!rc)
		rc = ka_bench_job_path(j->candidate, sizeof j->candidate, spec->dir, o->cand_name);
	if (!rc && o->baseline)
		rc = ka_bench_job_path(j->baseline, sizeof j->baseline, o->baseline, NULL);
	if (!rc && o->build_dir)
		rc = ka_bench_job_path(j->build_dir, sizeof j->build_dir, o->build_dir, NULL);
	if (!rc && o->arch)
		rc = ka_bench_job_path(j->arch, sizeof j->arch, o->arch, NULL);
	if (!rc && o->nvcc)
		rc = ka_bench_job_path(j->nvcc, sizeof j->nvcc, o->nvcc, NULL);
	j->configs = o->configs;
	j->compile_only = o->compile_only;
	j->correct_only = o->check_task > 0;
	j->skip_static = o->skip_static;
	j->sanitize = o->sanitize;
	j->samples = o->samples;
	j->seed = o->seed;
	return rc;
}

/* Runs one task; fills *res.  Returns 0, or 2 after printing an error. */
static int run_task(const struct opts *o, const char *task, ka_bench_spec *spec, ka_bench_job *j,
		    ka_bench_result *res)
{
	const ka_bench_runner *rn = ka_bench_runner_local();
	char alt[1200];
	if (!ka_fs_is_dir(task) && !ka_fs_exists(task)) {
		snprintf(alt, sizeof alt, "bench/tasks/%s", task);
		if (ka_fs_is_dir(alt))
			task = alt;
	}
	if (ka_bench_spec_load(task, spec))
		return usage_error(ka_error_last(), NULL);
	/* unseen sizes drawn now, from this run's seed, never listed anywhere a candidate can read */
	if (ka_bench_spec_draw(spec, o->seed ^ 0x756e7365656eULL))
		return usage_error(ka_error_last(), NULL);
	if (setup_job(o, spec, j))
		return usage_error(ka_error_last(), NULL);
	if (!ka_fs_exists(j->candidate))
		return usage_error("no such candidate file", j->candidate);
	if (!ka_fs_exists(j->baseline))
		return usage_error("no such baseline file", j->baseline);
	if (!o->compile_only && !rn->has_device(rn))
		return usage_error("no CUDA device found", NULL);
	if (rn->run(rn, j, res))
		return usage_error(ka_error_last(), NULL);
	return 0;
}

static int exit_for(const ka_bench_result *r)
{
	if (!strcmp(r->verdict, "error"))
		return 2;
	return !strcmp(r->verdict, "faster") || !strcmp(r->verdict, "compiled") ? 0 : 1;
}

/* The task self-check: its baseline and its expert through the correctness
 * gate on `check_task` fresh seeds (each with its own drawn sizes).  A task
 * whose baseline or expert ever fails is refused: its verdicts would flip
 * from run to run.  0 when it held every time, 2 when refused. */
static int check_task(const struct opts *o, const char *task)
{
	static ka_bench_spec spec;
	static ka_bench_job job;
	static ka_bench_result res;
	struct opts one = *o;
	for (int k = 0; k < o->check_task; k++) {
		one.seed = ka_bench_fresh_seed();
		memset(&res, 0, sizeof res);
		if (run_task(&one, task, &spec, &job, &res))
			return 2;
		if (strcmp(res.verdict, "checked")) {
			fprintf(stderr,
				"kcheck: error: task '%s' is refused: on seed %llu (%d of %d) the %s fails: %s\n",
				spec.name, one.seed, k + 1, o->check_task,
				!strcmp(res.verdict, "rejected") ? "expert" : "task", res.reason);
			ka_bench_result_free(&res);
			return 2;
		}
		ka_bench_result_free(&res);
	}
	printf("%s: baseline and expert correct on %d seeds\n", spec.name, o->check_task);
	return 0;
}

static int one_task(const struct opts *o)
{
	static ka_bench_spec spec;
	static ka_bench_job job;
	static ka_bench_result res;
	int rc = run_task(o, o->task, &spec, &job, &res);
	if (rc)
		return rc;
	if (!strcmp(res.verdict, "error"))
		fprintf(stderr, "kcheck: error: %s\n", res.reason);
	if (o->json) {
		ka_buf b;
		ka_buf_init(&b, 16 << 20);
		int jrc = ka_bench_report_json(&b, &job, &res);
		if (jrc) {
			ka_buf_free(&b);
			ka_bench_result_free(&res);
			return usage_error("cannot build the JSON result (too large or out of memory)", NULL);
		}
		printf("%s\n", b.data);
		ka_buf_free(&b);
	} else {
		ka_bench_report_text(stdout, &job, &res);
	}
	rc = exit_for(&res);
	ka_bench_result_free(&res);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted task folders (those holding task.yaml) under dir; caller frees. */
static int list_tasks(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	int n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[1200];
		snprintf(path, sizeof path, "%s/%s/task.yaml", dir, e->d_name);
		if (e->d_name[0] == '.' || !ka_fs_exists(path))
			continue;
		char **nv = realloc(v, sizeof *v * (size_t)(n + 1));
		if (!nv)
			break;
		v = nv;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		v[n++] = strdup(path);
	}
	closedir(d);
	qsort(v, (size_t)n, sizeof *v, cmp_str);
	*out = v;
	return n;
}

static void task_score(const ka_bench_result *r, ka_bench_task_score *t)
{
	memset(t, 0, sizeof *t);
	t->passed = !strcmp(r->verdict, "faster") || !strcmp(r->verdict, "same") ||
		    !strcmp(r->verdict, "slower");
	t->visible_ok = r->total_visible && r->correct_visible == r->total_visible;
	t->unseen_ok = r->total_unseen && r->correct_unseen == r->total_unseen;
	t->speedup = r->geomean;
	t->lo = r->lo;
	t->speedup_visible = r->geo_visible;
	t->speedup_unseen = r->geo_unseen;
	t->roof = r->roof_mean;
}

/* A task that could not run at all (bad spec, missing file, tool failure):
 * an entry with verdict "error", so the suite still reports every task. */
static int broken_task(const struct opts *o, ka_buf *b, int i, const char *name, const char *why)
{
	int rc = 0;
	if (!o->json) {
		printf("%s: error: %s\n", name, why);
		return 0;
	}
	if (i)
		rc = ka_buf_addc(b, ',');
	if (!rc)
		rc = ka_buf_adds(b, "{\"schema\":\"kernelarc.bench/1\",\"task\":");
	if (!rc)
		rc = ka_bench_json_str(b, name);
	if (!rc)
		rc = ka_buf_adds(b, ",\"verdict\":\"error\",\"failed_gate\":null,\"reason\":");
	if (!rc)
		rc = ka_bench_json_str(b, why);
	if (!rc)
		rc = ka_buf_addc(b, '}');
	return rc;
}

static int suite(const struct opts *o)
{
	static ka_bench_spec spec;
	static ka_bench_job job;
	static ka_bench_result res;
	char **tasks = NULL;
	int n = list_tasks(o->suite, &tasks), worst = 0, tty = isatty(2);
	ka_bench_task_score *sc = calloc((size_t)(n > 0 ? n : 1), sizeof *sc);
	ka_buf b;
	if (n <= 0 || !sc) {
		free(sc);
		free(tasks);
		return usage_error("no tasks (folders with task.yaml) in", o->suite);
	}
	ka_buf_init(&b, 64 << 20);
	int jrc = ka_buf_adds(&b, "{\"schema\":\"kernelarc.bench-suite/1\",\"tasks\":[");
	for (int i = 0; i < n; i++) {
		if (tty)
			fprintf(stderr, "[%d/%d] %s ...\n", i + 1, n, tasks[i]);
		memset(&res, 0, sizeof res);
		if (run_task(o, tasks[i], &spec, &job,
			     &res)) { /* a broken task: report it, go on with the rest */
			const char *slash = strrchr(tasks[i], '/');
			if (!jrc)
				jrc = broken_task(o, &b, i, slash ? slash + 1 : tasks[i], ka_error_last());
			worst = 2;
			task_score(&res, &sc[i]);
			continue;
		}
		if (!o->json)
			ka_bench_report_text(stdout, &job, &res);
		else if (!jrc && !(jrc = i ? ka_buf_addc(&b, ',') : 0))
			jrc = ka_bench_report_json(&b, &job, &res);
		if (tty)
			fprintf(stderr, "[%d/%d] %s: %s\n", i + 1, n, spec.name, res.verdict);
		if (exit_for(&res) > worst)
			worst = exit_for(&res);
		task_score(&res, &sc[i]);
		ka_bench_result_free(&res);
		fflush(stdout);
	}
	ka_bench_suite_score s;
	ka_bench_score(sc, n, &s);
	if (o->json) {
		if (!jrc)
			jrc = ka_buf_adds(&b, "],");
		if (!jrc)
			jrc = ka_bench_report_suite_json(&b, &s);
		if (!jrc)
			jrc = ka_buf_addc(&b, '}');
		if (jrc)
			worst = usage_error("cannot build the JSON result (too large or out of memory)",
					    NULL);
		else
			printf("%s\n", b.data);
	} else if (!o->compile_only) {
		printf("suite: %d tasks, %d passed every gate; correct visible %.2f unseen %.2f; fast_1.0 %.2f fast_1.1 %.2f "
		       "fast_1.5 %.2f fast_2 %.2f; geomean speedup %.3f; gap: correctness %.2f, speedup x%.3f; roofline %.2f\n",
		       s.tasks, s.passed, s.correct_visible, s.correct_unseen, s.fast_p[0], s.fast_p[1],
		       s.fast_p[2], s.fast_p[3], s.geomean, s.gap_correct, s.gap_speedup, s.roof_mean);
	}
	for (int i = 0; i < n; i++)
		free(tasks[i]);
	free(tasks);
	free(sc);
	ka_buf_free(&b);
	return worst;
}

int ka_bench_main(int argc, char **argv)
{
	struct opts o;
	int rc = parse_args(argc, argv, &o);
	if (rc)
		return rc - 1;
	ka_cleanup_install(); /* SIGINT/SIGTERM: kill the running nvcc or harness with its group */
	if (o.check_task && o.suite) {
		char **tasks = NULL;
		int n = list_tasks(o.suite, &tasks),
		    worst = n > 0 ? 0 : usage_error("no tasks (folders with task.yaml) in", o.suite);
		for (int i = 0; i < n; i++) {
			if (check_task(&o, tasks[i]))
				worst = 2;
			free(tasks[i]);
		}
		free(tasks);
		return worst;
	}
	if (o.check_task)
		return check_task(&o, o.task);
	return o.suite ? suite(&o) : one_task(&o);
}
