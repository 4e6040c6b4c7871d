/* bench/scale.c: the local pool of bench/scale.h and what both runners
 * share.  The pool keeps one job per GPU running: a thread per GPU takes
 * the next item, runs `env CUDA_VISIBLE_DEVICES=G PROGRAM bench ARGS
 * --output DIR/NAME.json` through util/proc (no shell, its own process
 * group, a time limit) and reads the document back.  The scheduling is the
 * same whatever PROGRAM is, so a stand-in program tests it without a GPU. */
#define _GNU_SOURCE /* mkdtemp, realpath */
#include "bench/scale.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/sha256.h"
#include "util/buf.h"
#include "util/cleanup.h"
#include "util/cmdopt.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/proc.h"
#include "util/utf8.h"

void ka_scale_item_free(ka_scale_item *it)
{
	free(it->json);
	it->json = NULL;
}

int ka_scale_self(char *dst, size_t cap)
{
	ssize_t n = readlink("/proc/self/exe", dst, cap - 1);
	if (n <= 0 || (size_t)n >= cap - 1)
		return ka_error_set(KA_ETOOL, "cannot find this program's path (/proc/self/exe)");
	dst[n] = 0;
	return 0;
}

int ka_scale_parse_gpus(const char *list, int *gpus)
{
	int n = 0;
	const char *p = list;
	while (*p) {
		char *end;
		long g = strtol(p, &end, 10);
		if (end == p || g < 0 || g > 1023 || (*end && *end != ','))
			return ka_error_set(KA_EINPUT, "--gpus takes GPU numbers separated by commas: %.60s",
					    list);
		for (int k = 0; k < n; k++)
			if (gpus[k] == (int)g)
				return ka_error_set(KA_EINPUT, "--gpus names GPU %ld twice", g);
		if (n == KA_SCALE_MAX_GPUS)
			return ka_error_set(KA_EINPUT, "--gpus: at most %d GPUs", KA_SCALE_MAX_GPUS);
		gpus[n++] = (int)g;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return ka_error_set(KA_EINPUT, "--gpus ends with a comma: %.60s", list);
	}
	if (!n)
		return ka_error_set(KA_EINPUT, "--gpus needs at least one GPU number");
	return n;
}

int ka_scale_visible_gpus(int *gpus)
{
	const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
	int n = 0;
	if (cvd) { /* CUDA numbers the devices it lets through from 0 */
		for (const char *p = cvd; *p && n < KA_SCALE_MAX_GPUS; n++) {
			const char *c = strchr(p, ',');
			if (c == p || (p[0] == '-' && p[1] == '1'))
				break; /* an empty or -1 entry ends the list, as CUDA reads it */
			gpus[n] = n;
			p = c ? c + 1 : p + strlen(p);
		}
		return n;
	}
	for (int g = 0; g < KA_SCALE_MAX_GPUS; g++) {
		char dev[32];
		snprintf(dev, sizeof dev, "/dev/nvidia%d", g);
		if (ka_fs_exists(dev))
			gpus[n++] = g;
	}
	return n;
}

int ka_scale_read_result(const char *path, char **json)
{
	char *text = NULL;
	size_t len = 0;
	ka_bench_result probe;
	*json = NULL;
	if (!ka_fs_is_regular(path) || ka_fs_read(path, 16 << 20, &text, &len))
		return 0;
	/* a document is kept only when it reads back whole */
	if (ka_bench_result_from_json(text, NULL, &probe)) {
		free(text);
		return 0;
	}
	*json = text;
	return 1;
}

/* The last non-empty line of a log, for an outcome. */
static void last_line(const char *log, char *dst, size_t cap)
{
	const char *end = log + strlen(log);
	while (end > log && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	const char *b = end;
	while (b > log && b[-1] != '\n')
		b--;
	ka_utf8_copy(dst, cap, b, (size_t)(end - b));
}

typedef struct pool {
	const ka_scale_opts *o;
	ka_scale_item *items;
	int n, next;
	int fixed; /* no more items than GPUs: worker k runs item k alone */
	char dir[512], program[1024];
	pthread_mutex_t mu;
} pool;

static int count_args(char **a)
{
	int n = 0;
	while (a && a[n])
		n++;
	return n;
}

static void pool_one(pool *P, ka_scale_item *it, int gpu)
{
	char env[48], out[700];
	int na = count_args(it->args);
	char **argv = calloc((size_t)na + 8, sizeof *argv);
	ka_buf log;
	ka_proc_result pr;
	snprintf(env, sizeof env, "CUDA_VISIBLE_DEVICES=%d", gpu);
	snprintf(out, sizeof out, "%s/%s.json", P->dir, it->name);
	if (!argv) {
		snprintf(it->outcome, sizeof it->outcome, "out of memory");
		return;
	}
	int k = 0;
	argv[k++] = "env";
	argv[k++] = env;
	argv[k++] = P->program;
	argv[k++] = "bench";
	for (int i = 0; i < na; i++)
		argv[k++] = it->args[i];
	argv[k++] = "--output";
	argv[k++] = out;
	argv[k] = NULL;
	ka_buf_init(&log, 64 << 10);
	it->attempts = 1;
	it->gpu = gpu;
	int rc = ka_proc_run_io(argv, P->o->timeout_s > 0 ? P->o->timeout_s : 3600, &log, NULL, &pr);
	if (rc)
		snprintf(it->outcome, sizeof it->outcome, "cannot start the job: %.400s", ka_error_last());
	else if (ka_scale_read_result(out, &it->json))
		it->outcome[0] = 0;
	else {
		char last[300];
		last_line(log.data ? log.data : "", last, sizeof last);
		if (pr.timed_out)
			snprintf(it->outcome, sizeof it->outcome, "the job exceeded its %d s limit on GPU %d",
				 P->o->timeout_s > 0 ? P->o->timeout_s : 3600, gpu);
		else
			snprintf(it->outcome, sizeof it->outcome,
				 "the job on GPU %d ended with status %d and no result%s%s", gpu, pr.status,
				 last[0] ? ": " : "", last);
	}
	unlink(out);
	ka_buf_free(&log);
	free(argv);
}

typedef struct worker {
	pool *P;
	int gpu, k;
	int done; /* fixed: its one item was taken */
} worker;

static void *pool_worker(void *arg)
{
	worker *w = arg;
	pool *P = w->P;
	for (;;) {
		pthread_mutex_lock(&P->mu);
		int i = P->fixed ? (w->done++ ? -1 : w->k) : P->next < P->n ? P->next++ : -1;
		pthread_mutex_unlock(&P->mu);
		if (i < 0)
			return NULL;
		if (P->o->progress) {
			pthread_mutex_lock(&P->mu);
			fprintf(P->o->progress, "kcheck: %s: started on GPU %d\n", P->items[i].name, w->gpu);
			pthread_mutex_unlock(&P->mu);
		}
		pool_one(P, &P->items[i], w->gpu);
		if (P->o->progress) {
			pthread_mutex_lock(&P->mu);
			fprintf(P->o->progress, "kcheck: %s: %s\n", P->items[i].name,
				P->items[i].json ? "done" : P->items[i].outcome);
			pthread_mutex_unlock(&P->mu);
		}
	}
}

static int pool_run(const ka_scale_opts *o, ka_scale_item *items, int n)
{
	pool P;
	worker w[KA_SCALE_MAX_GPUS];
	pthread_t th[KA_SCALE_MAX_GPUS];
	const char *tmp = getenv("TMPDIR");
	int nt = 0, rc = 0;
	memset(&P, 0, sizeof P);
	P.o = o;
	P.items = items;
	P.n = n;
	if (o->ngpus < 1)
		return ka_error_set(KA_EINPUT, "no GPU to run the jobs on (--gpus)");
	if (o->program)
		snprintf(P.program, sizeof P.program, "%s", o->program);
	else if (ka_scale_self(P.program, sizeof P.program))
		return KA_ETOOL;
	snprintf(P.dir, sizeof P.dir, "%s/kcheck-gpus.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(P.dir))
		return ka_error_set(KA_EIO, "cannot make a temporary folder under %s", tmp ? tmp : "/tmp");
	int slot = ka_cleanup_add_dir(P.dir);
	pthread_mutex_init(&P.mu, NULL);
	/* a batch that fits the GPUs runs side by side, one item per GPU, with
	 * no worker taking a second item while another GPU waits */
	P.fixed = n <= o->ngpus;
	for (int g = 0; g < o->ngpus && g < n; g++) {
		w[g] = (worker){&P, o->gpus[g], g, 0};
		if (pthread_create(&th[nt], NULL, pool_worker, &w[g])) {
			rc = ka_error_set(KA_ERR, "cannot start a worker thread");
			break;
		}
		nt++;
	}
	if (!nt && !rc)
		rc = ka_error_set(KA_ERR, "no worker thread");
	for (int t = 0; t < nt; t++)
		pthread_join(th[t], NULL);
	pthread_mutex_destroy(&P.mu);
	rmdir(P.dir);
	if (slot >= 0)
		ka_cleanup_remove_dir(slot);
	return rc;
}

int ka_scale_run(const ka_scale_opts *o, ka_scale_item *items, int n)
{
	for (int i = 0; i < n; i++) {
		items[i].json = NULL;
		items[i].outcome[0] = 0;
		items[i].attempts = 0;
		items[i].gpu = -1;
	}
	return o->slurm ? ka_scale_slurm(o, items, n) : pool_run(o, items, n);
}

/* The single-job runner (bench/runner.h) over the scale runners, for
 * kcheck optimize's verifier. */
static int scale_has_device(const ka_bench_runner *r)
{
	(void)r;
	return 1; /* the device is the job's: a job without one ends with an error verdict */
}

static const char *configs_name(int c)
{
	return c == KA_BENCH_CONFIGS_VISIBLE ? "visible" : c == KA_BENCH_CONFIGS_UNSEEN ? "unseen" : "all";
}

/* One job's bench arguments (the caller's storage). */
typedef struct job_args {
	char task[1024], cand[1024], basel[1024], seed[32], samples[16];
	char *args[24];
} job_args;

static int job_item(ka_scale_runner *r, const ka_bench_job *j, job_args *a, ka_scale_item *it)
{
	int k = 0;
	if (!realpath(j->spec->dir, a->task) || !realpath(j->candidate, a->cand) ||
	    !realpath(j->baseline, a->basel))
		return ka_error_set(KA_EIO, "cannot resolve the task, candidate or baseline path");
	snprintf(a->seed, sizeof a->seed, "%llu", j->seed);
	snprintf(a->samples, sizeof a->samples, "%d", j->samples);
	a->args[k++] = a->task;
	a->args[k++] = "--json";
	a->args[k++] = "--candidate";
	a->args[k++] = a->cand;
	a->args[k++] = "--baseline";
	a->args[k++] = a->basel;
	a->args[k++] = "--configs";
	a->args[k++] = (char *)configs_name(j->configs);
	a->args[k++] = "--seed";
	a->args[k++] = a->seed;
	a->args[k++] = "--samples";
	a->args[k++] = a->samples;
	a->args[k++] = "--arch";
	a->args[k++] = (char *)j->arch;
	if (j->compile_only)
		a->args[k++] = "--compile-only";
	if (j->sanitize)
		a->args[k++] = "--sanitize";
	if (j->skip_static)
		a->args[k++] = "--unsafe-skip-static-gate";
	a->args[k] = NULL;
	/* the name: the task and a hash of the arguments (the seed is fresh per job) */
	ka_sha256 h;
	char hex[65];
	ka_sha256_init(&h);
	for (int i = 0; i < k; i++)
		ka_sha256_add(&h, a->args[i], strlen(a->args[i]) + 1);
	ka_sha256_hex(&h, hex);
	memset(it, 0, sizeof *it);
	snprintf(it->name, sizeof it->name, "%.40s-%d-%.12s", r->prefix, ++r->seq, hex);
	it->args = a->args;
	return 0;
}

/* The jobs as one batch of the scale runner: each result read back, or an
 * "error" verdict (gate "runner") saying why the job left none. */
static int scale_run_many(const ka_bench_runner *base, const ka_bench_job *jobs, int n, ka_bench_result *res,
			  int *gpu)
{
	ka_scale_runner *r = (ka_scale_runner *)base;
	job_args *a = calloc((size_t)n, sizeof *a);
	ka_scale_item *it = calloc((size_t)n, sizeof *it);
	int rc = a && it ? 0 : ka_error_set(KA_ENOMEM, "out of memory");
	for (int i = 0; i < n; i++) {
		memset(&res[i], 0, sizeof res[i]);
		if (gpu)
			gpu[i] = -1;
	}
	for (int i = 0; i < n && !rc; i++)
		rc = job_item(r, &jobs[i], &a[i], &it[i]);
	if (!rc)
		rc = ka_scale_run(r->o, it, n);
	for (int i = 0; i < n && !rc; i++) {
		if (gpu)
			gpu[i] = it[i].gpu;
		if (it[i].json && ka_bench_result_from_json(it[i].json, jobs[i].spec, &res[i]) == 0)
			continue;
		if (it[i].json) /* read back whole once, but not against this task's spec */
			snprintf(it[i].outcome, sizeof it[i].outcome, "%.400s", ka_error_last());
		ka_bench_result_free(&res[i]);
		memset(&res[i], 0, sizeof res[i]);
		snprintf(res[i].verdict, sizeof res[i].verdict, "error");
		snprintf(res[i].gate, sizeof res[i].gate, "runner");
		ka_utf8_copy(res[i].reason, sizeof res[i].reason, it[i].outcome, (size_t)-1);
	}
	for (int i = 0; it && i < n; i++)
		ka_scale_item_free(&it[i]);
	free(it);
	free(a);
	return rc;
}

static int scale_job_run(const ka_bench_runner *base, const ka_bench_job *j, ka_bench_result *res)
{
	return scale_run_many(base, j, 1, res, NULL);
}

void ka_scale_runner_init(ka_scale_runner *r, const ka_scale_opts *o, const char *prefix)
{
	memset(r, 0, sizeof *r);
	r->base.name = o->slurm ? "slurm" : "local-gpus";
	r->base.has_device = scale_has_device;
	r->base.run = scale_job_run;
	r->base.run_many = scale_run_many;
	r->base.width = o->slurm ? 1 : o->ngpus;
	r->o = o;
	snprintf(r->prefix, sizeof r->prefix, "%s", prefix);
	for (char *p = r->prefix; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '.' || *p == '_' || *p == '-'))
			*p = '_';
}

/* The runner options (bench/scale.h). */
void ka_scale_opts_init(ka_scale_opts *o)
{
	memset(o, 0, sizeof *o);
	o->gpus_per_job = 1;
	o->retries = 1;
}

static int parse_row(void *field, const char *name, const char *v)
{
	return ka_scale_parse_opt(field, name, v);
}

static const char *const runners[] = {"local", "slurm", NULL};

/* The runner options (util/cmdopt.h): each row applies its value through
 * ka_scale_parse_opt to the ka_scale_opts the group points at. */
#define ROW(nm, a, h) {.name = nm, .kind = KA_OPT_CALL, .call = parse_row, .arg = a, .help = h}
static const ka_opt scale_table[] = {
	{.name = "--runner",
	 .kind = KA_OPT_CALL,
	 .call = parse_row,
	 .choices = runners,
	 .arg = "local|slurm",
	 .help = "run the bench jobs here (default) or as Slurm jobs (docs/slurm.md)"},
	{.name = "--gpus",
	 .kind = KA_OPT_CALL,
	 .call = parse_row,
	 .arg = "LIST",
	 .help = "one job per GPU of this host at a time, e.g. 0,1 (--suite, optimize: every visible GPU)"},
	ROW("--slurm-dir", "DIR", "Slurm: job scripts, outputs and the run's state (default ./kcheck-slurm)"),
	ROW("--partition", "P", "Slurm: the partition to submit to"),
	ROW("--account", "A", "Slurm: the account to charge"),
	ROW("--time-limit", "T", "Slurm: sbatch --time (minutes, MM:SS, HH:MM:SS, D-HH:MM)"),
	ROW("--gpus-per-job", "N", "Slurm: --gres=gpu:N per job (default 1; 0 asks for none)"),
	ROW("--sbatch-option", "OPT", "Slurm: one more sbatch option, e.g. --qos=short (repeatable)"),
	ROW("--retries", "N", "Slurm: new attempts for a job that ends without a result (default 1)"),
	ROW("--poll-interval", "SEC", "Slurm: seconds between squeue/sacct polls (default 5)"),
	ROW("--kcheck", "PATH", "the kcheck the jobs run (default this one; Slurm: a path the nodes share)"),
	{.name = NULL},
};
#undef ROW

const ka_opt *ka_scale_opt_table(void)
{
	return scale_table;
}

int ka_scale_is_opt(const char *a)
{
	const ka_opt_group g = {scale_table, NULL};
	return ka_cmdopt_find(&g, 1, KA_SCALE_CMD_BENCH | KA_SCALE_CMD_OPTIMIZE, a, NULL) != NULL;
}

static int small_number(const char *a, const char *v, int hi, int *out)
{
	char *end;
	long k = strtol(v, &end, 10);
	if (*end || end == v || k < 0 || k > hi)
		return ka_error_set(KA_EINPUT, "%s takes a whole number 0..%d: %.40s", a, hi, v);
	*out = (int)k;
	return 0;
}

int ka_scale_parse_opt(ka_scale_opts *o, const char *a, const char *v)
{
	int k = 0, rc = 0;
	if (!strcmp(a, "--runner")) {
		if (strcmp(v, "local") && strcmp(v, "slurm"))
			return ka_error_set(KA_EINPUT, "--runner takes local or slurm: %.40s", v);
		o->slurm = !strcmp(v, "slurm");
	} else if (!strcmp(a, "--gpus")) {
		int n = ka_scale_parse_gpus(v, o->gpus);
		if (n < 0)
			return n;
		o->ngpus = n;
	} else if (!strcmp(a, "--slurm-dir"))
		o->dir = v;
	else if (!strcmp(a, "--partition")) {
		o->partition = v;
		o->set |= KA_SCALE_SET_PARTITION;
	} else if (!strcmp(a, "--account"))
		o->account = v;
	else if (!strcmp(a, "--time-limit")) {
		if (!ka_scale_safe_time(v))
			return ka_error_set(
				KA_EINPUT,
				"--time-limit takes a Slurm time (minutes, MM:SS, HH:MM:SS, D-HH:MM): %.40s",
				v);
		o->time_limit = v;
		o->set |= KA_SCALE_SET_TIME;
	} else if (!strcmp(a, "--kcheck"))
		o->program = v;
	else if (!strcmp(a, "--sbatch-option")) {
		if (o->nextra == KA_SCALE_MAX_EXTRA)
			return ka_error_set(KA_EINPUT, "too many --sbatch-option (at most %d)",
					    KA_SCALE_MAX_EXTRA);
		if (v[0] != '-')
			return ka_error_set(
				KA_EINPUT, "--sbatch-option takes an sbatch option (--name=value): %.60s", v);
		o->extra[o->nextra++] = v;
	} else if (!strcmp(a, "--gpus-per-job")) {
		rc = small_number(a, v, 64, &o->gpus_per_job);
		o->set |= KA_SCALE_SET_GPUS;
	} else if (!strcmp(a, "--retries"))
		rc = small_number(a, v, 10, &o->retries);
	else if (!strcmp(a, "--poll-interval")) {
		rc = small_number(a, v, 600, &k);
		o->poll_s = k ? (double)k : 0.5; /* 0: half a second (tests) */
	} else
		return ka_error_set(KA_EINPUT, "not a runner option: %.40s", a);
	return rc;
}

int ka_scale_safe_partition(const char *s)
{
	size_t n = 0;
	for (; s[n]; n++)
		if (!((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
		      (s[n] >= '0' && s[n] <= '9') || s[n] == '.' || s[n] == '_' || s[n] == '-' ||
		      s[n] == ','))
			return 0;
	return n > 0 && n <= 128 && s[0] != '-';
}

int ka_scale_safe_time(const char *s)
{
	size_t n = 0;
	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || s[n] == ':' || s[n] == '-'))
			return 0;
	return n > 0 && n <= 20 && s[0] >= '0' && s[0] <= '9';
}
