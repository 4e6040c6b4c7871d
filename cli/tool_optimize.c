/* cli/tool_optimize.c: `kcheck optimize TASK`: argument parsing and the
 * exit status (agents/optimize.h is the loop itself).  The findings of
 * each step's best kernel come from the lint library in process
 * (ka_opt_lint), on the run's --arch.
 *
 * Exit: 0 when the run ended (whatever it found), 2 on bad arguments, a
 * bad task, no CUDA device without --compile-only, or a failed output. */
#include "cli/tools.h"
#include "agents/optimize.h"
#include "agents/scaffold.h"
#include "bench/runner.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: kcheck optimize TASK [--offline | --llm-base-url URL --llm-model M [--llm-timeout SEC]]\n"
	"                            [--budget N|Mm|N,Mm] [--db FILE | --no-db] [--out DIR [--force]] [--compile-only]\n"
	"                            [--samples N] [--arch ARCH]\n";

static int opt_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "kcheck: error: ");
	fprintf(stderr, fmt, arg ? arg : "");
	fputc('\n', stderr);
	return 2;
}

/* --budget 8 | 10m | 8,10m */
static int parse_budget(const char *v, ka_opt_opts *o)
{
	char copy[64];
	snprintf(copy, sizeof copy, "%s", v);
	for (char *p = strtok(copy, ","); p; p = strtok(NULL, ",")) {
		char *end;
		double x = strtod(p, &end);
		if (end == p || x <= 0)
			return -1;
		if (*end == 'm' && !end[1])
			o->budget_minutes = x;
		else if (!*end && x == (int)x && x <= 64)
			o->budget_steps = (int)x;
		else
			return -1;
	}
	return 0;
}

static int parse(int argc, char **argv, ka_opt_opts *o, char *out_dir, size_t cap)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int flag = !strcmp(a, "--offline") || !strcmp(a, "--compile-only") || !strcmp(a, "--no-db") ||
			   !strcmp(a, "--force");
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 1;
		}
		static const char *const valued[] = {"--llm-base-url", "--llm-model", "--llm-timeout",
						     "--db",           "--out",       "--arch",
						     "--samples",      "--budget"};
		int known = flag;
		for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
			known |= !strcmp(a, valued[k]);
		if (a[0] == '-' && !known)
			return opt_error("unknown option: %s", a);
		if (a[0] == '-' && !flag && !v)
			return opt_error("option needs a value: %s", a);
		if (!strcmp(a, "--offline"))
			o->coder.provider = "offline";
		else if (!strcmp(a, "--compile-only"))
			o->compile_only = 1;
		else if (!strcmp(a, "--no-db"))
			o->no_db = 1;
		else if (!strcmp(a, "--force"))
			o->force = 1;
		else if (!strcmp(a, "--llm-base-url"))
			o->coder.provider = "llm", o->coder.llm.base_url = argv[++i];
		else if (!strcmp(a, "--llm-model"))
			o->coder.provider = "llm", o->coder.llm.model = argv[++i];
		else if (!strcmp(a, "--llm-timeout")) {
			char *end;
			long sec = strtol(argv[++i], &end, 10);
			if (*end || sec < 1 || sec > 3600)
				return opt_error("--llm-timeout takes seconds, 1..3600: %s", v);
			o->coder.llm.timeout_ms = (int)sec * 1000;
		} else if (!strcmp(a, "--db"))
			o->db = argv[++i];
		else if (!strcmp(a, "--out"))
			o->out_dir = argv[++i];
		else if (!strcmp(a, "--arch"))
			o->arch = argv[++i];
		else if (!strcmp(a, "--samples")) {
			o->samples = atoi(argv[++i]);
			if (o->samples < 30 || o->samples > 4000)
				return opt_error("--samples must be 30..4000: %s", v);
		} else if (!strcmp(a, "--budget")) {
			if (parse_budget(argv[++i], o))
				return opt_error(
					"--budget takes steps (1..64), minutes (10m) or both (8,10m): %s", v);
		} else if (o->task)
			return opt_error("one task at a time: %s", a);
		else
			o->task = a;
	}
	if (!o->task)
		return opt_error(
			"%s",
			"no task given (kcheck optimize TASK; tasks are folders like bench/tasks/saxpy)");
	if (o->coder.provider && !strcmp(o->coder.provider, "llm") &&
	    (!o->coder.llm.model || !*o->coder.llm.model))
		return opt_error("%s", "--llm-base-url needs --llm-model");
	if (!o->out_dir) {
		const char *base = strrchr(o->task, '/');
		base = base && base[1] ? base + 1 : o->task;
		snprintf(out_dir, cap, "optimize-%.200s", base);
		o->out_dir = out_dir;
	}
	return 0;
}

int ka_tool_optimize(int argc, char **argv)
{
	ka_opt_opts o = {.coder = KA_CODER_OPTS_INIT};
	char out_dir[256];
	int rc = parse(argc, argv, &o, out_dir, sizeof out_dir);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (!o.compile_only && !ka_bench_runner_local()->has_device(ka_bench_runner_local()))
		return opt_error(
			"%s", "no CUDA device found (--compile-only stops at the static and compile gates)");
	o.lint = ka_opt_lint; /* on o.arch, with the task's -I (the loop passes both) */
	o.progress = stderr;
	o.coder.log = NULL;
	ka_opt_summary *s = calloc(1, sizeof *s);
	if (!s)
		return opt_error("%s", "out of memory");
	rc = ka_opt_run(&o, s);
	if (rc) {
		opt_error("%s", ka_error_last());
		free(s);
		return 2;
	}
	printf("%s: best %.3fx over the baseline in %d steps (%s)%s; report: %s/report.md\n", o.task,
	       s->speedup, s->nsteps, s->stop, o.compile_only ? ", compile-only: unverified" : "", o.out_dir);
	int npatch = 0;
	for (int i = 0; i < s->nsteps; i++)
		npatch += s->steps[i].patch[0] != 0;
	if (npatch) { /* no GPU said which is faster: each built candidate, to try by hand */
		printf("%d unverified candidate%s as patches against the task's baseline.cu:\n", npatch,
		       npatch == 1 ? "" : "s");
		for (int i = 0; i < s->nsteps; i++)
			if (s->steps[i].patch[0])
				printf("  %s/%s  (step %d: %s %s)\n", o.out_dir, s->steps[i].patch,
				       s->steps[i].step, s->steps[i].strategy, s->steps[i].params);
	}
	free(s);
	return 0;
}

/* `kcheck bench init FILE --kernel NAME [--out DIR]` (agents/scaffold.h). */
int ka_tool_bench_init(int argc, char **argv)
{
	const char *file = NULL, *kernel = NULL, *out = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs("usage: kcheck bench init FILE --kernel NAME [--out DIR]\n", stdout);
			return 0;
		}
		if ((!strcmp(a, "--kernel") || !strcmp(a, "--out")) && i + 1 >= argc)
			return opt_error("option needs a value: %s", a);
		if (!strcmp(a, "--kernel"))
			kernel = argv[++i];
		else if (!strcmp(a, "--out"))
			out = argv[++i];
		else if (a[0] == '-')
			return opt_error("unknown option: %s", a);
		else if (file)
			return opt_error("one file at a time: %s", a);
		else
			file = a;
	}
	if (!file || !kernel)
		return opt_error("%s", "usage: kcheck bench init FILE --kernel NAME [--out DIR]");
	char dflt[200];
	snprintf(dflt, sizeof dflt, "bench-task-%.100s", kernel);
	if (!out)
		out = dflt;
	if (ka_scaffold_task(file, kernel, out))
		return opt_error("%s", ka_error_last());
	printf("%s: task.yaml, baseline.cu, reference.cu; fill in the TODO lines (sizes, tolerance, the reference), "
	       "then: kcheck bench %s --candidate %s/baseline.cu\n",
	       out, out, out);
	return 0;
}
