/* bench/runner_slurm.c: the Slurm side of bench/scale.h.  Each item becomes
 * a job script DIR/NAME.sh (`exec PROGRAM bench ARGS --output
 * DIR/NAME.json`), submitted with `sbatch --parsable`; the jobs are polled
 * with squeue (then scontrol, then sacct for a job squeue no longer
 * lists), never `sbatch --wait`.  The folder is the run's memory:
 *   NAME.sh    the script (a later run with other options is refused)
 *   NAME.job   "JOBID ATTEMPT", written before the job is polled
 *   NAME.json  the verdict document (written by the job, atomically)
 *   NAME.failed  the final outcome of a job that ended without a result
 *   NAME.JOBID.out / .err  what the job printed
 * So a run that is interrupted (Ctrl-C, a lost login) and started again
 * with the same command collects the results that arrived, keeps polling
 * the jobs still queued or running, and submits only what never ran.
 * A job that ends without a document (failed, past its time limit,
 * cancelled, its node lost) gets a one-line outcome and is submitted again
 * up to `retries` times.  sbatch refusing a job stops the run (every job
 * has the same options); what arrived stays, and the run resumes.  Every program runs through util/proc, no shell. */
#define _GNU_SOURCE /* realpath */
#include "bench/scale.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/proc.h"
#include "util/utf8.h"

enum { ST_TODO, ST_QUEUED, ST_DONE };

typedef struct sjob {
	int st;
	long long id;
	int attempt;
	char path[600]; /* DIR/NAME, the stem of its files */
} sjob;

typedef struct srun {
	const ka_scale_opts *o;
	char dir[512], cwd[1024], program[1024];
	sjob *j;
} srun;

static void say(const srun *R, const char *name, const char *fmt, ...) KA_PRINTF(3, 4);
static void say(const srun *R, const char *name, const char *fmt, ...)
{
	va_list ap;
	if (!R->o->progress)
		return;
	fprintf(R->o->progress, "kcheck: %s: ", name);
	va_start(ap, fmt);
	vfprintf(R->o->progress, fmt, ap);
	va_end(ap);
	fputc('\n', R->o->progress);
	fflush(R->o->progress);
}

static int file_at(char *dst, size_t cap, const sjob *j, const char *ext)
{
	int n = snprintf(dst, cap, "%s%s", j->path, ext);
	if (n < 0 || (size_t)n >= cap)
		return ka_error_set(KA_EINPUT, "path too long: %.80s...", j->path);
	return 0;
}

/* One argument in single quotes for the job script's /bin/sh. */
static int quote(ka_buf *b, const char *s)
{
	int rc = ka_buf_addc(b, '\'');
	for (; *s && !rc; s++)
		rc = *s == '\'' ? ka_buf_adds(b, "'\\''") : ka_buf_addc(b, *s);
	return rc ? rc : ka_buf_addc(b, '\'');
}

static int script(const srun *R, const ka_scale_item *it, const sjob *j, ka_buf *b)
{
	char out[700];
	int rc = file_at(out, sizeof out, j, ".json");
	if (!rc)
		rc = ka_buf_printf(
			b,
			"#!/bin/sh\n# kcheck bench job %s: written by kcheck, submitted with sbatch;\n"
			"# the verdict document goes to the file after --output.\nexec ",
			it->name);
	if (!rc)
		rc = quote(b, R->program);
	if (!rc)
		rc = ka_buf_adds(b, " bench");
	for (int i = 0; it->args[i] && !rc; i++) {
		rc = ka_buf_addc(b, ' ');
		if (!rc)
			rc = quote(b, it->args[i]);
	}
	if (!rc)
		rc = ka_buf_adds(b, " --output ");
	if (!rc)
		rc = quote(b, out);
	if (!rc)
		rc = ka_buf_addc(b, '\n');
	return rc ? ka_error_set(KA_ENOMEM, "cannot build the job script of %s", it->name) : 0;
}

/* Reads NAME.job ("ID ATTEMPT"); 0 when there was none. */
static void read_jobfile(sjob *j)
{
	char path[700], *text = NULL;
	size_t len;
	long long id = 0;
	int at = 0;
	if (file_at(path, sizeof path, j, ".job") || ka_fs_read(path, 4096, &text, &len))
		return;
	if (sscanf(text, "%lld %d", &id, &at) == 2 && id > 0 && at > 0) {
		j->id = id;
		j->attempt = at;
	}
	free(text);
}

static int write_jobfile(const sjob *j)
{
	char path[700], text[64];
	int n = snprintf(text, sizeof text, "%lld %d\n", j->id, j->attempt);
	if (file_at(path, sizeof path, j, ".job"))
		return KA_EINPUT;
	return ka_fs_write_atomic(path, text, (size_t)n);
}

/* Loads what an earlier run left; writes the script.  Negative when the
 * folder belongs to a run with other options. */
static int prepare(srun *R, ka_scale_item *it, sjob *j)
{
	char path[700], *old = NULL;
	size_t len = 0;
	ka_buf b;
	int rc;
	memset(j, 0, sizeof *j);
	if (snprintf(j->path, sizeof j->path, "%s/%s", R->dir, it->name) >= (int)sizeof j->path)
		return ka_error_set(KA_EINPUT, "path too long: %.80s...", R->dir);
	ka_buf_init(&b, 1 << 20);
	if ((rc = script(R, it, j, &b)) || (rc = file_at(path, sizeof path, j, ".sh"))) {
		ka_buf_free(&b);
		return rc;
	}
	if (ka_fs_is_regular(path) && !ka_fs_read(path, 1 << 20, &old, &len)) {
		int same = len == b.len && !memcmp(old, b.data, len);
		free(old);
		if (!same) {
			ka_buf_free(&b);
			return ka_error_set(KA_EINPUT,
					    "%s was written by a run with other options or another seed: "
					    "give another --slurm-dir, or remove that folder",
					    path);
		}
	} else if ((rc = ka_fs_write_atomic(path, b.data, b.len))) {
		ka_buf_free(&b);
		return rc;
	}
	ka_buf_free(&b);
	chmod(path, 0755);
	read_jobfile(j);
	it->attempts = j->attempt;
	if (!file_at(path, sizeof path, j, ".json") && ka_scale_read_result(path, &it->json)) {
		j->st = ST_DONE;
		say(R, it->name, "result already in the folder");
		return 0;
	}
	if (!file_at(path, sizeof path, j, ".failed") && ka_fs_is_regular(path) &&
	    !ka_fs_read(path, 4096, &old, &len)) {
		ka_utf8_copy(it->outcome, sizeof it->outcome, old, strcspn(old, "\n"));
		free(old);
		j->st = ST_DONE;
		say(R, it->name, "ended in an earlier run: %s", it->outcome);
		return 0;
	}
	j->st = j->id > 0 ? ST_QUEUED : ST_TODO;
	if (j->id > 0)
		say(R, it->name, "job %lld (attempt %d) from an earlier run: polling it again", j->id,
		    j->attempt);
	return 0;
}

/* A tool that could not start: its reason, copied first (the message
 * buffer is the one ka_error_set writes). */
static int tool_error(const char *tool)
{
	char why[300];
	snprintf(why, sizeof why, "%s", ka_error_last());
	return ka_error_set(KA_ETOOL, "cannot run %s: %s", tool, why);
}

/* A line of digits (the job id) in sbatch --parsable's output. */
static long long parse_jobid(const char *out)
{
	for (const char *p = out; p && *p;) {
		char *end;
		long long id = strtoll(p, &end, 10);
		if (end != p && id > 0 && (*end == '\n' || *end == ';' || *end == 0))
			return id;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static void last_line(const char *log, char *dst, size_t cap)
{
	const char *end = log + strlen(log);
	while (end > log && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\r'))
		end--;
	const char *b = end;
	while (b > log && b[-1] != '\n')
		b--;
	ka_utf8_copy(dst, cap, b, (size_t)(end - b));
}

static void finish_failed(srun *R, ka_scale_item *it, sjob *j)
{
	char path[700];
	j->st = ST_DONE;
	if (!file_at(path, sizeof path, j, ".failed"))
		ka_fs_write_atomic(path, it->outcome, strlen(it->outcome));
	say(R, it->name, "%s", it->outcome);
}

static int submit_one(srun *R, ka_scale_item *it, sjob *j)
{
	char a[8][1100], sh[700];
	char *argv[40];
	int k = 0, n = 0;
	ka_buf out;
	ka_proc_result pr;
	const ka_scale_opts *o = R->o;
	if (file_at(sh, sizeof sh, j, ".sh"))
		return KA_EINPUT;
	argv[k++] = "sbatch";
	argv[k++] = "--parsable";
	snprintf(a[n], sizeof a[n], "--job-name=kcheck-%s", it->name);
	argv[k++] = a[n++];
	snprintf(a[n], sizeof a[n], "--output=%s.%%j.out", j->path);
	argv[k++] = a[n++];
	snprintf(a[n], sizeof a[n], "--error=%s.%%j.err", j->path);
	argv[k++] = a[n++];
	snprintf(a[n], sizeof a[n], "--chdir=%s", R->cwd);
	argv[k++] = a[n++];
	if (o->partition) {
		snprintf(a[n], sizeof a[n], "--partition=%s", o->partition);
		argv[k++] = a[n++];
	}
	if (o->account) {
		snprintf(a[n], sizeof a[n], "--account=%s", o->account);
		argv[k++] = a[n++];
	}
	if (o->time_limit) {
		snprintf(a[n], sizeof a[n], "--time=%s", o->time_limit);
		argv[k++] = a[n++];
	}
	if (o->gpus_per_job > 0) {
		snprintf(a[n], sizeof a[n], "--gres=gpu:%d", o->gpus_per_job);
		argv[k++] = a[n++];
	}
	for (int i = 0; i < o->nextra; i++)
		argv[k++] = (char *)o->extra[i];
	argv[k++] = sh;
	argv[k] = NULL;
	ka_buf_init(&out, 64 << 10);
	int rc = ka_proc_run(argv, 120, &out, &pr);
	long long id = rc || pr.status ? 0 : parse_jobid(out.data);
	if (rc) {
		ka_buf_free(&out);
		return tool_error("sbatch");
	}
	if (!id) { /* the same options for every job: the run stops (and resumes once fixed) */
		char last[300];
		last_line(out.data ? out.data : "", last, sizeof last);
		ka_buf_free(&out);
		if (pr.timed_out)
			return ka_error_set(KA_ETOOL, "%s: sbatch did not answer within 120 s", it->name);
		return ka_error_set(KA_ETOOL, "%s: sbatch refused the job (status %d)%s%s", it->name,
				    pr.status, last[0] ? ": " : "", last);
	}
	ka_buf_free(&out);
	j->id = id;
	j->attempt++;
	it->attempts = j->attempt;
	j->st = ST_QUEUED;
	if ((rc = write_jobfile(j)))
		return rc;
	say(R, it->name, "submitted as job %lld (attempt %d)", id, j->attempt);
	return 0;
}

/* An interruption between sbatch and NAME.job would leave a job that no
 * later run knows of: SIGINT, SIGTERM and SIGHUP wait until it is written. */
static int submit(srun *R, ka_scale_item *it, sjob *j)
{
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	int rc = submit_one(R, it, j);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* Slurm's job states: 0 still pending or running, 1 ended. */
static int ended(const char *st)
{
	static const char *const live[] = {"PENDING",       "RUNNING",     "CONFIGURING", "COMPLETING",
					   "SUSPENDED",     "REQUEUED",    "RESIZING",    "REQUEUE_HOLD",
					   "REQUEUE_FED",   "SIGNALING",   "STAGE_OUT",   "STOPPED",
					   "RESV_DEL_HOLD", "SPECIAL_EXIT"};
	for (size_t i = 0; i < sizeof live / sizeof live[0]; i++)
		if (!strcmp(st, live[i]))
			return 0;
	return 1;
}

/* The state of one job squeue no longer lists: scontrol, then sacct;
 * "" when neither knows it. */
static void state_of(long long id, char *st, size_t cap)
{
	char ids[32];
	ka_buf out;
	ka_proc_result pr;
	st[0] = 0;
	snprintf(ids, sizeof ids, "%lld", id);
	char *sc[] = {"scontrol", "-o", "show", "job", ids, NULL};
	ka_buf_init(&out, 256 << 10);
	if (!ka_proc_run(sc, 60, &out, &pr) && pr.status == 0 && out.data) {
		const char *p = strstr(out.data, "JobState=");
		if (p) {
			p += 9;
			ka_utf8_copy(st, cap, p, strcspn(p, " \n"));
		}
	}
	ka_buf_free(&out);
	if (st[0])
		return;
	char *sa[] = {"sacct", "-n", "-X", "-P", "-j", ids, "-o", "State", NULL};
	ka_buf_init(&out, 64 << 10);
	if (!ka_proc_run(sa, 60, &out, &pr) && pr.status == 0 && out.data)
		ka_utf8_copy(st, cap, out.data, strcspn(out.data, " \n"));
	ka_buf_free(&out);
}

static const char *state_words(const char *st)
{
	if (!strcmp(st, "TIMEOUT") || !strcmp(st, "DEADLINE"))
		return "ran past its time limit";
	if (!strncmp(st, "CANCELLED", 9))
		return "was cancelled";
	if (!strcmp(st, "NODE_FAIL") || !strcmp(st, "BOOT_FAIL"))
		return "lost its node";
	if (!strcmp(st, "PREEMPTED"))
		return "was preempted";
	if (!strcmp(st, "OUT_OF_MEMORY"))
		return "ran out of memory";
	if (!strcmp(st, "FAILED"))
		return "failed";
	if (!strcmp(st, "COMPLETED"))
		return "completed";
	return "is unknown to Slurm (squeue, scontrol and sacct do not list it)";
}

/* A job that ended: its document, or an outcome and maybe another attempt. */
static void collect(srun *R, ka_scale_item *it, sjob *j, const char *st)
{
	char path[700], errf[720], why[300] = "", *text = NULL;
	size_t len;
	if (!file_at(path, sizeof path, j, ".json") && ka_scale_read_result(path, &it->json)) {
		j->st = ST_DONE;
		say(R, it->name, "job %lld: result collected (attempt %d)", j->id, j->attempt);
		return;
	}
	snprintf(errf, sizeof errf, "%s.%lld.err", j->path, j->id);
	if (ka_fs_is_regular(errf) && !ka_fs_read(errf, 1 << 20, &text, &len)) {
		last_line(text, why, sizeof why);
		free(text);
	}
	snprintf(it->outcome, sizeof it->outcome,
		 "slurm job %lld %s (%s) without a result, attempt %d of %d%s%s", j->id, state_words(st),
		 st[0] ? st : "no state", j->attempt, R->o->retries + 1, why[0] ? ": " : "", why);
	if (j->attempt <= R->o->retries) {
		say(R, it->name, "%s; submitting it again", it->outcome);
		it->outcome[0] = 0;
		j->st = ST_TODO;
		return;
	}
	finish_failed(R, it, j);
}

/* One poll of every queued job. */
static int poll_jobs(srun *R, ka_scale_item *items, int n)
{
	ka_buf ids, out;
	ka_proc_result pr;
	int rc = 0;
	ka_buf_init(&ids, 1 << 20);
	for (int i = 0; i < n && !rc; i++)
		if (R->j[i].st == ST_QUEUED)
			rc = ka_buf_printf(&ids, "%s%lld", ids.len ? "," : "", R->j[i].id);
	if (rc || !ids.len) {
		ka_buf_free(&ids);
		return rc;
	}
	char *argv[] = {"squeue", "-h", "-t", "all", "-j", ids.data, "-o", "%i|%T", NULL};
	ka_buf_init(&out, 16 << 20);
	rc = ka_proc_run(argv, 120, &out, &pr);
	ka_buf_free(&ids);
	if (rc) {
		ka_buf_free(&out);
		return tool_error("squeue");
	}
	for (int i = 0; i < n; i++) {
		sjob *j = &R->j[i];
		char key[40], st[48] = "";
		if (j->st != ST_QUEUED)
			continue;
		int kl = snprintf(key, sizeof key, "%lld|", j->id);
		for (const char *p = out.data; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			if (!strncmp(p, key, (size_t)kl)) {
				ka_utf8_copy(st, sizeof st, p + kl, strcspn(p + kl, " \n"));
				break;
			}
		if (!st[0])
			state_of(j->id, st, sizeof st);
		if (!st[0] || ended(st))
			collect(R, &items[i], j, st);
	}
	ka_buf_free(&out);
	return 0;
}

int ka_scale_slurm(const ka_scale_opts *o, ka_scale_item *items, int n)
{
	srun R;
	const char *dir = o->dir ? o->dir : "kcheck-slurm";
	int rc = 0;
	memset(&R, 0, sizeof R);
	R.o = o;
	if (!getcwd(R.cwd, sizeof R.cwd))
		return ka_error_set(KA_EIO, "cannot read the current folder");
	if (mkdir(dir, 0755) && errno != EEXIST)
		return ka_error_set(KA_EIO, "cannot make the jobs folder %s: %s", dir, strerror(errno));
	if (!realpath(dir, R.dir) || !ka_fs_is_dir(R.dir))
		return ka_error_set(KA_EIO, "the jobs folder %s is not a folder", dir);
	if (o->program) {
		if (!realpath(o->program, R.program))
			return ka_error_set(KA_EIO, "cannot find %s", o->program);
	} else if ((rc = ka_scale_self(R.program, sizeof R.program)))
		return rc;
	R.j = calloc((size_t)(n > 0 ? n : 1), sizeof *R.j);
	if (!R.j)
		return ka_error_set(KA_ENOMEM, "out of memory");
	for (int i = 0; i < n && !rc; i++)
		rc = prepare(&R, &items[i], &R.j[i]);
	double poll = o->poll_s > 0 ? o->poll_s : 5;
	struct timespec nap = {(time_t)poll, (long)((poll - (double)(time_t)poll) * 1e9)};
	while (!rc) {
		int left = 0;
		for (int i = 0; i < n && !rc; i++)
			if (R.j[i].st == ST_TODO)
				rc = submit(&R, &items[i], &R.j[i]);
		for (int i = 0; i < n; i++)
			left += R.j[i].st != ST_DONE;
		if (rc || !left)
			break;
		nanosleep(&nap, NULL);
		rc = poll_jobs(&R, items, n);
	}
	free(R.j);
	return rc;
}
