/* bench/bench.c: `kcheck bench` (bench/bench.h): argument parsing, one task
 * or a whole suite through a runner, text or JSON output, exit status.
 * 0: the candidate passed every gate and is faster (or, with --compile-only,
 * compiled); 1: rejected, or not faster; 2: usage, task or tool error, or
 * no CUDA device.  Never a result without a device. */
#define _GNU_SOURCE /* open_memstream */
#include "bench/bench.h"
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench/report.h"
#include "bench/runner.h"
#include "bench/scale.h"
#include "bench/score.h"
#include "util/cleanup.h"
#include "util/cmdopt.h"
#include "util/error.h"
#include "util/fs.h"

struct opts {
	const char *task, *suite, *candidate, *baseline, *cand_name, *build_dir, *arch, *nvcc;
	const char *output; /* --output FILE: the report, written atomically once whole */
	int configs, json, compile_only, skip_static, sanitize, samples, check_task, seed_given;
	unsigned long long seed;
	int scaled;       /* the jobs run through bench/scale.h (--runner slurm, --gpus) */
	int gpus_given;   /* --gpus on the command line */
	ka_scale_opts so; /* their settings */
	FILE *out;        /* stdout, or the --output buffer */
};

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "kcheck: error: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	return 2;
}

static const char usage[] =
	"usage: kcheck bench TASK [--candidate FILE] [--baseline FILE] [--configs visible|unseen|all]\n"
	"                         [--json] [--compile-only] [--sanitize] [--samples N] [--seed N] [--build-dir DIR]\n"
	"                         [--output FILE] [--gpus LIST | --runner slurm [Slurm options]]\n"
	"       kcheck bench --suite DIR [--candidate-name FILE] [same options]\n"
	"       kcheck bench TASK|--suite DIR --check-task N   (baseline and expert on N seeds)\n";

static int set_configs(void *field, const char *name, const char *v)
{
	int *configs = field;
	if (!strcmp(v, "all"))
		*configs = KA_BENCH_CONFIGS_ALL;
	else if (!strcmp(v, "visible"))
		*configs = KA_BENCH_CONFIGS_VISIBLE;
	else if (!strcmp(v, "unseen"))
		*configs = KA_BENCH_CONFIGS_UNSEEN;
	else
		return ka_error_set(KA_EINPUT, "--configs takes visible, unseen or all: %s", v);
	return 0;
}

static int set_check_task(void *field, const char *name, const char *v)
{
	char *end;
	long k = strtol(v, &end, 10);
	if (*end || end == v || k < 2 || k > 50)
		return ka_error_set(KA_EINPUT, "--check-task takes a number of seeds, 2..50: %s", v);
	*(int *)field = (int)k;
	return 0;
}

static int set_seed(void *field, const char *name, const char *v)
{
	struct opts *o = field;
	o->seed = strtoull(v, NULL, 10);
	o->seed_given = 1;
	return 0;
}

static const char *const configs_choices[] = {"visible", "unseen", "all", NULL};

#define F(field) offsetof(struct opts, field)
/* kcheck bench's own options (util/cmdopt.h); the runner's are bench/scale.c's. */
static const ka_opt bench_table[] = {
	{.name = "--candidate",
	 .kind = KA_OPT_STR,
	 .off = F(candidate),
	 .arg = "FILE",
	 .help = "the kernel file to judge (default: the task's expert.cu)"},
	{.name = "--baseline",
	 .kind = KA_OPT_STR,
	 .off = F(baseline),
	 .arg = "FILE",
	 .help = "time against FILE instead of the task's baseline.cu"},
	{.name = "--suite",
	 .kind = KA_OPT_STR,
	 .off = F(suite),
	 .arg = "DIR",
	 .help = "every task folder under DIR"},
	{.name = "--candidate-name",
	 .kind = KA_OPT_STR,
	 .off = F(cand_name),
	 .arg = "FILE",
	 .help = "with --suite: each task's candidate file name (default expert.cu)"},
	{.name = "--configs",
	 .kind = KA_OPT_CALL,
	 .off = F(configs),
	 .call = set_configs,
	 .choices = configs_choices,
	 .arg = "visible|unseen|all",
	 .help = "which configurations of task.yaml to run (default all)"},
	{.name = "--json",
	 .kind = KA_OPT_FLAG,
	 .off = F(json),
	 .help = "the result as JSON (schema kernelarc.bench/1)"},
	{.name = "--compile-only",
	 .kind = KA_OPT_FLAG,
	 .off = F(compile_only),
	 .help = "stop after the static and compile gates (no GPU needed)"},
	{.name = "--sanitize",
	 .kind = KA_OPT_FLAG,
	 .off = F(sanitize),
	 .help = "also run compute-sanitizer (memcheck, racecheck) on the smallest configuration"},
	{.name = "--samples",
	 .kind = KA_OPT_INT,
	 .off = F(samples),
	 .lo = 30,
	 .hi = 4000,
	 .arg = "N",
	 .help = "timed samples per configuration, 30..4000 (default 40)"},
	{.name = "--seed",
	 .kind = KA_OPT_CALL,
	 .off = 0,
	 .call = set_seed,
	 .arg = "N",
	 .help = "the inputs' and unseen sizes' seed (default: from the clock)"},
	{.name = "--check-task",
	 .kind = KA_OPT_CALL,
	 .off = F(check_task),
	 .call = set_check_task,
	 .arg = "N",
	 .help = "check the task itself: baseline and expert on N seeds, 2..50"},
	{.name = "--build-dir",
	 .kind = KA_OPT_STR,
	 .off = F(build_dir),
	 .arg = "DIR",
	 .help = "the compile cache (default $XDG_CACHE_HOME/kernelarc/bench)"},
	{.name = "--output",
	 .kind = KA_OPT_STR,
	 .off = F(output),
	 .arg = "FILE",
	 .help = "write the report to FILE (atomically, once whole) instead of stdout"},
	{.name = "--arch",
	 .kind = KA_OPT_STR,
	 .off = F(arch),
	 .arg = "ARCH",
	 .help = "nvcc's -arch (default sm_90)"},
	{.name = "--nvcc",
	 .kind = KA_OPT_STR,
	 .off = F(nvcc),
	 .arg = "PATH",
	 .help = "the nvcc (or hipcc) to compile with"},
	{.name = "--unsafe-skip-static-gate",
	 .kind = KA_OPT_FLAG,
	 .off = F(skip_static),
	 .help = "skip the static gate (only for code you trust)"},
	{.name = "-h", .alias = "--help", .kind = KA_OPT_HELP, .show_alias = 1, .help = "this text"},
	{.name = NULL},
};
#undef F

const ka_opt *ka_bench_opt_table(void)
{
	return bench_table;
}

static void help(void)
{
	ka_opt_group g[2] = {{bench_table, NULL}, {ka_scale_opt_table(), NULL}};
	fputs(usage, stdout);
	fputs("\nCompiles a candidate kernel with the task's harness and judges it against the\n"
	      "baseline: static gate, compile gate, correctness on every configuration (the\n"
	      "unseen ones drawn at run time), then timing (docs/bench.md).  Exit 0 when it\n"
	      "passes every gate and is faster (--compile-only: when it compiles), 1 when it is\n"
	      "rejected or not faster, 2 on a bad task, a tool error or no CUDA device.\n"
	      "`kcheck bench init FILE --kernel K` makes a task from your own kernel.\n"
	      "\nOptions:\n",
	      stdout);
	ka_cmdopt_help_rows(stdout, g, 2, KA_SCALE_CMD_BENCH);
	fputs("\nExamples:\n"
	      "  kcheck bench bench/tasks/softmax --candidate my_softmax.cu\n"
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
	ka_scale_opts_init(&o->so);
	ka_opt_group g[2] = {{bench_table, o}, {ka_scale_opt_table(), &o->so}};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1]) {
			if (o->task)
				return usage_error("unexpected argument", a) + 1;
			o->task = a;
			continue;
		}
		switch (ka_cmdopt_take(g, 2, KA_SCALE_CMD_BENCH, NULL, argc, argv, &i, NULL, NULL)) {
		case KA_CMDOPT_OK:
			continue;
		case KA_CMDOPT_HELP:
			help();
			return 1;
		case KA_CMDOPT_NOVALUE:
			return usage_error("option needs a value", a) + 1;
		case KA_CMDOPT_BAD:
			return usage_error(ka_error_last(), NULL) + 1;
		default: {
			const char *near = ka_cmdopt_nearest(g, 2, KA_SCALE_CMD_BENCH, a);
			fprintf(stderr, "kcheck: error: unknown option: %s%s\n", a, ka_cmdopt_hint(near));
			return 3;
		}
		}
	}
	o->scaled = o->so.slurm || o->so.ngpus > 0;
	o->gpus_given = o->so.ngpus > 0;
	if (!o->task == !o->suite)
		return usage_error("give one TASK or --suite DIR (kcheck bench --help)", NULL) + 1;
	if (o->suite && (o->candidate || o->baseline))
		return usage_error("--suite takes --candidate-name, not --candidate", NULL) + 1;
	if (o->check_task && (o->candidate || o->compile_only))
		return usage_error("--check-task checks the task's own expert and baseline, at run time",
				   NULL) +
		       1;
	if (o->check_task && o->scaled)
		return usage_error(
			       "--check-task runs on this host, one task at a time (no --runner slurm, --gpus)",
			       NULL) +
		       1;
	if (o->so.slurm && o->gpus_given)
		return usage_error("--gpus picks GPUs of this host; with --runner slurm use --gpus-per-job",
				   NULL) +
		       1;
	if (!o->so.slurm &&
	    (o->so.dir || o->so.partition || o->so.account || o->so.time_limit || o->so.nextra))
		return usage_error("--slurm-dir, --partition, --account, --time-limit and --sbatch-option "
				   "need --runner slurm",
				   NULL) +
		       1;
	if (!o->seed)
		o->seed = ((unsigned long long)time(NULL) << 20) ^ (unsigned long long)getpid();
	return 0;
}

/* Slurm: a run without --seed takes the seed its folder remembers, so the
 * same command again resumes it (the job scripts hold the seed). */
static int slurm_seed(struct opts *o)
{
	char path[1100], *text = NULL, num[32];
	size_t len;
	const char *dir = o->so.dir ? o->so.dir : "kcheck-slurm";
	if (o->seed_given)
		return 0;
	snprintf(path, sizeof path, "%s/seed", dir);
	if (ka_fs_is_regular(path) && !ka_fs_read(path, 64, &text, &len)) {
		o->seed = strtoull(text, NULL, 10);
		free(text);
		return o->seed ? 0 : ka_error_set(KA_EINPUT, "%s holds no seed", path);
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return ka_error_set(KA_EIO, "cannot make the jobs folder %s: %s", dir, strerror(errno));
	int n = snprintf(num, sizeof num, "%llu\n", o->seed);
	return ka_fs_write_atomic(path, num, (size_t)n);
}

/* The bench arguments (after "bench") of one task's job: the task and every
 * option that shapes its verdict.  NULL-terminated, malloc'd; NULL when out
 * of memory. */
static char **job_args(const struct opts *o, const char *task)
{
	char **a = calloc(40, sizeof *a), num[32];
	int k = 0, bad = 0;
	if (!a)
		return NULL;
#define ARG(s) (bad |= !(a[k++] = strdup(s)))
	ARG(task); /* paths as given: a job starts in this folder (Slurm: --chdir) */
	ARG("--json");
	snprintf(num, sizeof num, "%llu", o->seed);
	ARG("--seed");
	ARG(num);
	ARG("--configs");
	ARG(o->configs == KA_BENCH_CONFIGS_VISIBLE  ? "visible"
	    : o->configs == KA_BENCH_CONFIGS_UNSEEN ? "unseen"
						    : "all");
	snprintf(num, sizeof num, "%d", o->samples);
	ARG("--samples");
	ARG(num);
	if (o->candidate) {
		ARG("--candidate");
		ARG(o->candidate);
	} else {
		ARG("--candidate-name");
		ARG(o->cand_name);
	}
	if (o->baseline) {
		ARG("--baseline");
		ARG(o->baseline);
	}
	const char *pairs[][2] = {{"--build-dir", o->build_dir}, {"--arch", o->arch}, {"--nvcc", o->nvcc}};
	for (int i = 0; i < 3; i++)
		if (pairs[i][1]) {
			ARG(pairs[i][0]);
			ARG(pairs[i][1]);
		}
	if (o->compile_only)
		ARG("--compile-only");
	if (o->sanitize)
		ARG("--sanitize");
	if (o->skip_static)
		ARG("--unsafe-skip-static-gate");
#undef ARG
	if (bad) {
		for (int i = 0; i < k; i++)
			free(a[i]);
		free(a);
		return NULL;
	}
	return a;
}

static void free_items(ka_scale_item *items, int n)
{
	for (int i = 0; items && i < n; i++) {
		for (int k = 0; items[i].args && items[i].args[k]; k++)
			free(items[i].args[k]);
		free(items[i].args);
		ka_scale_item_free(&items[i]);
	}
	free(items);
}

/* Runs the tasks' jobs through the scale runner; NULL (message set) when
 * the jobs could not be set up.  A runner that stopped part way leaves
 * its message as the outcome of every job without a result. */
static ka_scale_item *run_scaled(struct opts *o, char **tasks, int n)
{
	ka_scale_item *items = calloc((size_t)n, sizeof *items);
	if (!items) {
		ka_error_set(KA_ENOMEM, "out of memory");
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		const char *slash = strrchr(tasks[i], '/');
		const char *base = slash && slash[1] ? slash + 1 : tasks[i];
		char *p = items[i].name;
		snprintf(items[i].name, sizeof items[i].name, "%s", base);
		for (; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
				*p = '_';
		for (int k = 0; k < i; k++)
			if (!strcmp(items[k].name, items[i].name)) {
				char dup[sizeof items[i].name];
				snprintf(dup, sizeof dup, "%.80s-%d", items[i].name, i);
				memcpy(items[i].name, dup, sizeof dup);
			}
		if (!(items[i].args = job_args(o, tasks[i]))) {
			ka_error_set(KA_ENOMEM, "out of memory");
			free_items(items, n);
			return NULL;
		}
	}
	o->so.progress = stderr;
	if (ka_scale_run(&o->so, items, n)) {
		char msg[300];
		snprintf(msg, sizeof msg, "the runner stopped: %s", ka_error_last());
		fprintf(stderr, "kcheck: error: %s\n", msg);
		for (int i = 0; i < n; i++)
			if (!items[i].json && !items[i].outcome[0])
				snprintf(items[i].outcome, sizeof items[i].outcome, "%s", msg);
	}
	return items;
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
		    ka_bench_result *res, const ka_scale_item *it)
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
	if (it) { /* the job ran elsewhere: its document is the result */
		if (!it->json) {
			ka_error_set(KA_ETOOL, "%s",
				     it->outcome[0] ? it->outcome : "the job ended without a result");
			return usage_error(ka_error_last(), NULL);
		}
		if (ka_bench_result_from_json(it->json, spec, res))
			return usage_error(ka_error_last(), NULL);
		return 0;
	}
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
		if (run_task(&one, task, &spec, &job, &res, NULL))
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
	fprintf(o->out, "%s: baseline and expert correct on %d seeds\n", spec.name, o->check_task);
	return 0;
}

static int one_task(struct opts *o)
{
	static ka_bench_spec spec;
	static ka_bench_job job;
	static ka_bench_result res;
	ka_scale_item *items = NULL;
	char *tasks[1] = {(char *)o->task};
	if (o->scaled && !(items = run_scaled(o, tasks, 1)))
		return usage_error(ka_error_last(), NULL);
	int rc = run_task(o, o->task, &spec, &job, &res, items);
	if (rc) {
		free_items(items, 1);
		return rc;
	}
	if (!strcmp(res.verdict, "error"))
		fprintf(stderr, "kcheck: error: %s\n", res.reason);
	if (o->json && items) {
		fprintf(o->out, "%.*s\n", (int)strcspn(items[0].json, "\n"), items[0].json);
	} else if (o->json) {
		ka_buf b;
		ka_buf_init(&b, 16 << 20);
		int jrc = ka_bench_report_json(&b, &job, &res);
		if (jrc) {
			ka_buf_free(&b);
			ka_bench_result_free(&res);
			return usage_error("cannot build the JSON result (too large or out of memory)", NULL);
		}
		fprintf(o->out, "%s\n", b.data);
		ka_buf_free(&b);
	} else {
		ka_bench_report_text(o->out, &job, &res);
	}
	rc = exit_for(&res);
	ka_bench_result_free(&res);
	free_items(items, 1);
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
	t->roof_large = r->roof_large;
}

/* A task that could not run at all (bad spec, missing file, tool failure):
 * an entry with verdict "error", so the suite still reports every task. */
static int broken_task(const struct opts *o, ka_buf *b, int i, const char *name, const char *why)
{
	int rc = 0;
	if (!o->json) {
		fprintf(o->out, "%s: error: %s\n", name, why);
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

static int suite(struct opts *o)
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
	/* more than one GPU: one task per GPU at a time (a GPU is needed anyway) */
	if (!o->scaled && !o->compile_only && (o->so.ngpus = ka_scale_visible_gpus(o->so.gpus)) > 1)
		o->scaled = 1;
	ka_scale_item *items = NULL;
	if (o->scaled && !(items = run_scaled(o, tasks, n))) {
		for (int i = 0; i < n; i++)
			free(tasks[i]);
		free(tasks);
		free(sc);
		return usage_error(ka_error_last(), NULL);
	}
	ka_buf_init(&b, 64 << 20);
	int jrc = ka_buf_adds(&b, "{\"schema\":\"kernelarc.bench-suite/1\",\"tasks\":[");
	for (int i = 0; i < n; i++) {
		if (tty && !items)
			fprintf(stderr, "[%d/%d] %s ...\n", i + 1, n, tasks[i]);
		memset(&res, 0, sizeof res);
		if (run_task(o, tasks[i], &spec, &job, &res,
			     items ? &items[i] : NULL)) { /* a broken task: report it, go on with the rest */
			const char *slash = strrchr(tasks[i], '/');
			if (!jrc)
				jrc = broken_task(o, &b, i, slash ? slash + 1 : tasks[i], ka_error_last());
			worst = 2;
			task_score(&res, &sc[i]);
			continue;
		}
		if (!o->json)
			ka_bench_report_text(o->out, &job, &res);
		else if (!jrc && !(jrc = i ? ka_buf_addc(&b, ',') : 0))
			jrc = items ? ka_buf_add(&b, items[i].json, strcspn(items[i].json, "\n"))
				    : ka_bench_report_json(&b, &job, &res);
		if (tty)
			fprintf(stderr, "[%d/%d] %s: %s\n", i + 1, n, spec.name, res.verdict);
		if (exit_for(&res) > worst)
			worst = exit_for(&res);
		task_score(&res, &sc[i]);
		ka_bench_result_free(&res);
		fflush(o->out);
	}
	free_items(items, n);
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
			fprintf(o->out, "%s\n", b.data);
	} else if (!o->compile_only) {
		fprintf(o->out,
			"suite: %d tasks, %d passed every gate; correct visible %.2f unseen %.2f; fast_1.0 %.2f fast_1.1 %.2f "
			"fast_1.5 %.2f fast_2 %.2f; geomean speedup %.3f; gap: correctness %.2f, speedup x%.3f; roofline %.2f (large configs %.2f)\n",
			s.tasks, s.passed, s.correct_visible, s.correct_unseen, s.fast_p[0], s.fast_p[1],
			s.fast_p[2], s.fast_p[3], s.geomean, s.gap_correct, s.gap_speedup, s.roof_mean,
			s.roof_large_mean);
	}
	for (int i = 0; i < n; i++)
		free(tasks[i]);
	free(tasks);
	free(sc);
	ka_buf_free(&b);
	return worst;
}

static int dispatch(struct opts *o)
{
	if (o->check_task && o->suite) {
		char **tasks = NULL;
		int n = list_tasks(o->suite, &tasks),
		    worst = n > 0 ? 0 : usage_error("no tasks (folders with task.yaml) in", o->suite);
		for (int i = 0; i < n; i++) {
			if (check_task(o, tasks[i]))
				worst = 2;
			free(tasks[i]);
		}
		free(tasks);
		return worst;
	}
	if (o->check_task)
		return check_task(o, o->task);
	if (o->so.slurm && (ka_scale_config(&o->so) || slurm_seed(o)))
		return usage_error(ka_error_last(), NULL);
	return o->suite ? suite(o) : one_task(o);
}

int ka_bench_main(int argc, char **argv)
{
	struct opts o;
	char *text = NULL;
	size_t len = 0;
	int rc = parse_args(argc, argv, &o);
	if (rc)
		return rc - 1;
	ka_cleanup_install(); /* SIGINT/SIGTERM: kill the running nvcc or harness with its group */
	o.out = o.output ? open_memstream(&text, &len) : stdout;
	if (!o.out)
		return usage_error("out of memory", NULL);
	rc = dispatch(&o);
	if (!o.output)
		return rc;
	fclose(o.out);
	/* the report, whole or not at all: a job's result file is never half of one */
	if (len && ka_fs_write_atomic(o.output, text, len))
		rc = usage_error(ka_error_last(), NULL);
	free(text);
	return rc;
}
