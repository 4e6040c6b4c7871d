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
#include "bench/scale.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: kcheck optimize TASK [--offline | --llm-base-url URL --llm-model M [--llm-timeout SEC]]\n"
	"                            [--budget N|Mm|N,Mm] [--db FILE | --no-db] [--out DIR [--force]] [--compile-only]\n"
	"                            [--samples N] [--arch ARCH] [--gpus LIST]\n"
	"                            [--runner slurm [--slurm-dir DIR] [--partition P] [--account A] [--time-limit T]\n"
	"                             [--gpus-per-job N] [--sbatch-option OPT] [--retries N] [--kcheck PATH]]\n";

/* --help: every option parse() takes, one line each (tests/cli/help_test.sh
 * checks the two agree). */
static const ka_help_opt opt_help[] = {
	{"--offline", NULL, "the offline expert proposes each step (the default without --llm-*)"},
	{"--llm-base-url", "URL", "an OpenAI-compatible LLM proposes the steps (key: KERNELARC_LLM_API_KEY)"},
	{"--llm-model", "M", "the model of --llm-base-url"},
	{"--llm-timeout", "SEC", "time limit of one LLM request, 1..3600"},
	{"--budget", "N|Mm|N,Mm", "stop after N steps (1..64), M minutes, or whichever comes first"},
	{"--db", "FILE",
	 "the knowledge DB that learns from the run (default $XDG_DATA_HOME/kernelarc/knowledge.db)"},
	{"--no-db", NULL, "read and write no knowledge DB"},
	{"--out", "DIR", "where report.md, best.cu and the candidates go (default optimize-TASK)"},
	{"--force", NULL, "write into an --out DIR that holds an earlier run"},
	{"--compile-only", NULL,
	 "no GPU: stop at the static and compile gates; each built candidate is a patch"},
	{"--samples", "N", "timed samples per configuration, 30..4000"},
	{"--arch", "ARCH", "the GPU architecture to compile and look up evidence for (default sm_90)"},
	{"-h, --help", NULL, "this text"},
	{NULL, NULL, NULL}};

static void help(void)
{
	/* the table, then the verifier's runner options (bench/scale.h) */
	enum { NOWN = sizeof opt_help / sizeof opt_help[0] - 1 };
	ka_help_opt all[NOWN + 32];
	size_t nscale, n = 0;
	const ka_scale_help_row *sr = ka_scale_help_rows(&nscale);
	for (size_t i = 0; i + 1 < NOWN; i++) /* all but -h, --help */
		all[n++] = opt_help[i];
	for (size_t i = 0; i < nscale && n < NOWN + 30; i++)
		all[n++] = (ka_help_opt){sr[i].name, sr[i].arg, sr[i].help};
	all[n++] = opt_help[NOWN - 1];
	all[n] = (ka_help_opt){NULL, NULL, NULL};
	ka_tool_help_page(
		stdout, usage,
		"Rewrites a bench task's kernel step by step (a rule's finding -> a recipe or an\n"
		"LLM's rewrite), and keeps a step only when the bench's gates pass and it measures\n"
		"faster (docs/optimize.md).  TASK is a folder with task.yaml (kcheck bench init\n"
		"makes one from a kernel) or a name under bench/tasks.\n",
		all,
		"  kcheck optimize bench/tasks/softmax_rows --budget 8\n"
		"  kcheck optimize bench/tasks/softmax_rows --gpus 0,1,2,3   # 4 candidates a round\n"
		"  kcheck optimize tasks/mine --compile-only --out opt-mine   # no GPU: patches to try\n"
		"  kcheck optimize tasks/mine --llm-base-url http://localhost:8000/v1 --llm-model qwen\n");
}

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

static int parse(int argc, char **argv, ka_opt_opts *o, ka_scale_opts *so, char *out_dir, size_t cap)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int flag = !strcmp(a, "--offline") || !strcmp(a, "--compile-only") || !strcmp(a, "--no-db") ||
			   !strcmp(a, "--force");
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			help();
			return 1;
		}
		static const char *const valued[] = {"--llm-base-url", "--llm-model", "--llm-timeout",
						     "--db",           "--out",       "--arch",
						     "--samples",      "--budget"};
		int known = flag || ka_scale_is_opt(a);
		for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
			known |= !strcmp(a, valued[k]);
		if (a[0] == '-' && !known)
			return opt_error("unknown option: %s", a);
		if (a[0] == '-' && !flag && !v)
			return opt_error("option needs a value: %s", a);
		if (ka_scale_is_opt(a)) { /* the verifier's runner: docs/slurm.md */
			if (ka_scale_parse_opt(so, a, argv[++i]))
				return opt_error("%s", ka_error_last());
		} else if (!strcmp(a, "--offline"))
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
	if (so->ngpus && so->slurm)
		return opt_error("%s",
				 "--gpus picks GPUs of this host; with --runner slurm use --gpus-per-job");
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
	static ka_scale_opts so;
	static ka_scale_runner scaled;
	char out_dir[256];
	ka_scale_opts_init(&so);
	int rc = parse(argc, argv, &o, &so, out_dir, sizeof out_dir);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (!so.slurm && (so.dir || so.partition || so.account || so.time_limit || so.nextra))
		return opt_error(
			"%s",
			"--slurm-dir, --partition, --account, --time-limit and --sbatch-option need --runner slurm");
	/* without --gpus, every visible GPU when there are several (one GPU:
	 * the bench in process, as always) */
	if (!so.slurm && !so.ngpus && !o.compile_only && (so.ngpus = ka_scale_visible_gpus(so.gpus)) < 2)
		so.ngpus = 0;
	/* each candidate's bench a Slurm job, or a job on a GPU of this host
	 * (--gpus N,M: one candidate per GPU, a round's side by side) */
	if (so.slurm || so.ngpus) {
		if (so.slurm && ka_scale_config(&so))
			return opt_error("%s", ka_error_last());
		so.progress = so.slurm ? stderr : NULL;
		const char *base = strrchr(o.task, '/');
		ka_scale_runner_init(&scaled, &so, base && base[1] ? base + 1 : o.task);
		o.runner = &scaled.base;
	}
	if (!o.runner && !o.compile_only && !ka_bench_runner_local()->has_device(ka_bench_runner_local()))
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
			static const ka_help_opt init_help[] = {
				{"--kernel", "NAME", "the __global__ function the task times"},
				{"--out", "DIR",
				 "a new or empty folder for the task (default bench-task-NAME)"},
				{"-h, --help", NULL, "this text"},
				{NULL, NULL, NULL}};
			ka_tool_help_page(
				stdout, "usage: kcheck bench init FILE --kernel NAME [--out DIR]\n",
				"A bench task from a kernel in FILE (docs/bench.md, \"From your own kernel\"):\n"
				"task.yaml (every guess says \"TODO check\"), baseline.cu (FILE without its host\n"
				"code, each kernel line where it was, and a ka_task_run that launches the kernel\n"
				"as FILE does), expert.cu (a copy) and a reference.cu to write.  It runs the\n"
				"static gate on baseline.cu and prints what is left; exit 1 while the gate\n"
				"still rejects it.\n",
				init_help,
				"  kcheck bench init reduce.cu --kernel reduceSum --out tasks/reduce\n"
				"  kcheck bench tasks/reduce --compile-only\n");
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
	ka_buf report;
	int left = 0;
	ka_buf_init(&report, 1 << 20);
	if (ka_scaffold_task(file, kernel, out, &report, &left)) {
		ka_buf_free(&report);
		return opt_error("%s", ka_error_last());
	}
	fputs(report.data ? report.data : "", stdout);
	ka_buf_free(&report);
	return left ? 1 : 0; /* 1: the static gate still rejects the baseline */
}
