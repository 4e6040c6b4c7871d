/* cli/tool_optimize.c: `kcheck optimize TASK`: its option table (read by
 * util/cmdopt.h, with the runner's of bench/scale.c) and the exit status
 * (agents/optimize.h is the loop itself); `kcheck bench init`'s too.  The findings of
 * each step's best kernel come from the lint library in process
 * (ka_opt_lint), on the run's --arch.
 *
 * Exit: 0 when the run ended (whatever it found), 2 on bad arguments, a
 * bad task, no CUDA device without --compile-only, or a failed output. */
#include "cli/tools.h"
#include "agents/optimize.h"
#include "agents/scaffold.h"
#include "bench/bench.h"
#include "bench/runner.h"
#include "bench/scale.h"
#include "util/error.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: kcheck optimize TASK [--offline | --llm-base-url URL --llm-model M [--llm-timeout SEC]]\n"
	"                            [--budget N|Mm|N,Mm] [--db FILE | --no-db] [--out DIR [--force]] [--compile-only]\n"
	"                            [--samples N] [--arch ARCH] [--gpus LIST]\n"
	"                            [--runner slurm [--slurm-dir DIR] [--partition P] [--account A] [--time-limit T]\n"
	"                             [--gpus-per-job N] [--sbatch-option OPT] [--retries N] [--kcheck PATH]]\n";

static int opt_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "kcheck: error: ");
	fprintf(stderr, fmt, arg ? arg : "");
	fputc('\n', stderr);
	return 2;
}

/* --budget 8 | 10m | 8,10m, into the ka_opt_opts */
static int set_budget(void *field, const char *name, const char *v)
{
	ka_opt_opts *o = field;
	char copy[64];
	snprintf(copy, sizeof copy, "%s", v);
	for (char *p = strtok(copy, ","); p; p = strtok(NULL, ",")) {
		char *end;
		double x = strtod(p, &end);
		if (end == p || x <= 0)
			return ka_error_set(KA_EINPUT,
					    "--budget takes steps (1..64), minutes (10m) or both (8,10m): %s",
					    v);
		if (*end == 'm' && !end[1])
			o->budget_minutes = x;
		else if (!*end && x == (int)x && x <= 64)
			o->budget_steps = (int)x;
		else
			return ka_error_set(KA_EINPUT,
					    "--budget takes steps (1..64), minutes (10m) or both (8,10m): %s",
					    v);
	}
	return 0;
}

/* The coder: the offline expert, or an LLM (the ka_coder_opts) */
static int set_offline(void *field, const char *name, const char *v)
{
	((ka_coder_opts *)field)->provider = "offline";
	return 0;
}

static int set_llm(void *field, const char *name, const char *v)
{
	ka_coder_opts *c = field;
	c->provider = "llm";
	if (!strcmp(name, "--llm-model"))
		c->llm.model = v;
	else
		c->llm.base_url = v;
	return 0;
}

static int set_llm_timeout(void *field, const char *name, const char *v)
{
	char *end;
	long sec = strtol(v, &end, 10);
	if (*end || end == v || sec < 1 || sec > 3600)
		return ka_error_set(KA_EINPUT, "--llm-timeout takes seconds, 1..3600: %s", v);
	((ka_coder_opts *)field)->llm.timeout_ms = (int)sec * 1000;
	return 0;
}

#define F(field) offsetof(ka_opt_opts, field)
/* kcheck optimize's own options (util/cmdopt.h), over a ka_opt_opts; the
 * verifier's runner options are bench/scale.c's (docs/slurm.md). */
static const ka_opt optimize_table[] = {
	{.name = "--offline",
	 .kind = KA_OPT_CALL_FLAG,
	 .off = F(coder),
	 .call = set_offline,
	 .help = "the offline expert proposes each step (the default without --llm-*)"},
	{.name = "--llm-base-url",
	 .kind = KA_OPT_CALL,
	 .off = F(coder),
	 .call = set_llm,
	 .arg = "URL",
	 .help = "an OpenAI-compatible LLM proposes the steps (key: KERNELARC_LLM_API_KEY)"},
	{.name = "--llm-model",
	 .kind = KA_OPT_CALL,
	 .off = F(coder),
	 .call = set_llm,
	 .arg = "M",
	 .help = "the model of --llm-base-url"},
	{.name = "--llm-timeout",
	 .kind = KA_OPT_CALL,
	 .off = F(coder),
	 .call = set_llm_timeout,
	 .arg = "SEC",
	 .help = "time limit of one LLM request, 1..3600"},
	{.name = "--budget",
	 .kind = KA_OPT_CALL,
	 .off = 0,
	 .call = set_budget,
	 .arg = "N|Mm|N,Mm",
	 .help = "stop after N steps (1..64), M minutes, or whichever comes first"},
	{.name = "--db",
	 .kind = KA_OPT_STR,
	 .off = F(db),
	 .arg = "FILE",
	 .help = "the knowledge DB that learns from the run (default $XDG_DATA_HOME/kernelarc/knowledge.db)"},
	{.name = "--no-db", .kind = KA_OPT_FLAG, .off = F(no_db), .help = "read and write no knowledge DB"},
	{.name = "--out",
	 .kind = KA_OPT_STR,
	 .off = F(out_dir),
	 .arg = "DIR",
	 .help = "where report.md, best.cu and the candidates go (default optimize-TASK)"},
	{.name = "--force",
	 .kind = KA_OPT_FLAG,
	 .off = F(force),
	 .help = "write into an --out DIR that holds an earlier run"},
	{.name = "--compile-only",
	 .kind = KA_OPT_FLAG,
	 .off = F(compile_only),
	 .help = "no GPU: stop at the static and compile gates; each built candidate is a patch"},
	{.name = "--samples",
	 .kind = KA_OPT_INT,
	 .off = F(samples),
	 .lo = 30,
	 .hi = 4000,
	 .arg = "N",
	 .help = "timed samples per configuration, 30..4000"},
	{.name = "--arch",
	 .kind = KA_OPT_STR,
	 .off = F(arch),
	 .arg = "ARCH",
	 .help = "the GPU architecture to compile and look up evidence for (default sm_90)"},
	{.name = "-h", .alias = "--help", .kind = KA_OPT_HELP, .show_alias = 1, .help = "this text"},
	{.name = NULL},
};
#undef F

/* kcheck bench init's, over a struct init_args */
struct init_args {
	const char *kernel, *out;
};
static const ka_opt init_table[] = {
	{.name = "--kernel",
	 .kind = KA_OPT_STR,
	 .off = offsetof(struct init_args, kernel),
	 .arg = "NAME",
	 .help = "the __global__ function the task times"},
	{.name = "--out",
	 .kind = KA_OPT_STR,
	 .off = offsetof(struct init_args, out),
	 .arg = "DIR",
	 .help = "a new or empty folder for the task (default bench-task-NAME)"},
	{.name = "-h", .alias = "--help", .kind = KA_OPT_HELP, .show_alias = 1, .help = "this text"},
	{.name = NULL},
};

int ka_tool_opt_groups(unsigned cmd, ka_opt_group *g)
{
	if (cmd == KA_CMD_OPTIMIZE) {
		g[0] = (ka_opt_group){optimize_table, NULL};
		g[1] = (ka_opt_group){ka_scale_opt_table(), NULL};
		return 2;
	}
	if (cmd == KA_CMD_BENCH_INIT) {
		g[0] = (ka_opt_group){init_table, NULL};
		return 1;
	}
	if (cmd == KA_CMD_BENCH) {
		g[0] = (ka_opt_group){ka_bench_opt_table(), NULL};
		g[1] = (ka_opt_group){ka_scale_opt_table(), NULL};
		return 2;
	}
	return 0;
}

unsigned ka_tool_table_cmd(unsigned cmd)
{
	return cmd == KA_CMD_OPTIMIZE ? KA_SCALE_CMD_OPTIMIZE : KA_SCALE_CMD_BENCH;
}

/* Read the option at argv[*i] of cmd into its groups' structs: 0, 1 for
 * --help (printed by the caller), or 2 after a one-line error. */
static int take(ka_opt_group *g, int ng, unsigned cmd, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	switch (ka_cmdopt_take(g, ng, ka_tool_table_cmd(cmd), NULL, argc, argv, i, NULL, NULL)) {
	case KA_CMDOPT_OK:
		return 0;
	case KA_CMDOPT_HELP:
		return 1;
	case KA_CMDOPT_NOVALUE:
		return opt_error("option needs a value: %s", a);
	case KA_CMDOPT_BAD:
		return opt_error("%s", ka_error_last());
	default:
		fprintf(stderr, "kcheck: error: unknown option: %s%s\n", a,
			ka_cmdopt_hint(ka_cmdopt_nearest(g, ng, ka_tool_table_cmd(cmd), a)));
		return 2;
	}
}

static void help(void)
{
	ka_opt_group g[2];
	int ng = ka_tool_opt_groups(KA_CMD_OPTIMIZE, g);
	ka_tool_help_page(
		stdout, usage,
		"Rewrites a bench task's kernel step by step (a rule's finding -> a recipe or an\n"
		"LLM's rewrite), and keeps a step only when the bench's gates pass and it measures\n"
		"faster (docs/optimize.md).  TASK is a folder with task.yaml (kcheck bench init\n"
		"makes one from a kernel) or a name under bench/tasks.\n",
		KA_SCALE_CMD_OPTIMIZE, g, ng,
		"  kcheck optimize bench/tasks/softmax --budget 8\n"
		"  kcheck optimize bench/tasks/softmax --gpus 0,1,2,3   # 4 candidates a round\n"
		"  kcheck optimize tasks/mine --compile-only --out opt-mine   # no GPU: patches to try\n"
		"  kcheck optimize tasks/mine --llm-base-url http://localhost:8000/v1 --llm-model qwen\n");
}

static int parse(int argc, char **argv, ka_opt_opts *o, ka_scale_opts *so, char *out_dir, size_t cap)
{
	ka_opt_group g[2] = {{optimize_table, o}, {ka_scale_opt_table(), so}};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] == '-' && a[1]) {
			int rc = take(g, 2, KA_CMD_OPTIMIZE, argc, argv, &i);
			if (rc == 1)
				help();
			if (rc)
				return rc;
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
	struct init_args args = {NULL, NULL};
	ka_opt_group g = {init_table, &args};
	const char *file = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] == '-' && a[1]) {
			int rc = take(&g, 1, KA_CMD_BENCH_INIT, argc, argv, &i);
			if (rc == 1) {
				ka_tool_help_page(
					stdout, "usage: kcheck bench init FILE --kernel NAME [--out DIR]\n",
					"A bench task from a kernel in FILE (docs/bench.md, \"From your own kernel\"):\n"
					"task.yaml (every guess says \"TODO check\"), baseline.cu (FILE without its host\n"
					"code, each kernel line where it was, and a ka_task_run that launches the kernel\n"
					"as FILE does), expert.cu (a copy) and a reference.cu to write.  It runs the\n"
					"static gate on baseline.cu and prints what is left; exit 1 while the gate\n"
					"still rejects it.\n",
					KA_SCALE_CMD_BENCH, &g, 1,
					"  kcheck bench init reduce.cu --kernel reduceSum --out tasks/reduce\n"
					"  kcheck bench tasks/reduce --compile-only\n");
				return 0;
			}
			if (rc)
				return rc;
		} else if (file)
			return opt_error("one file at a time: %s", a);
		else
			file = a;
	}
	const char *kernel = args.kernel, *out = args.out;
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
