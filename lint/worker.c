/* lint/worker.c: each file's analysis in a process of its own.
 *
 * A file can take its analysis down with it: a crash in libclang or in the
 * walk, memory without end (an exponential macro), a parse that never
 * finishes.  So every job runs in a child forked for it, at most
 * opts.jobs at a time; the child runs the job, flattens its results
 * (util/wire.h) into a pipe and exits.  The parent reads the pipes with
 * poll(), and every TICK_MS checks each child's resident memory
 * (/proc/PID/statm) and age against --file-memory and --file-timeout.  A
 * child over a limit is killed with its process group (SIGKILL for memory;
 * SIGTERM first for time, so that the nvcc of --ptxas goes too, then
 * SIGKILL); a child that dies of a signal, or whose results are garbled,
 * leaves its job failed with the reason.  The other jobs are untouched, so
 * every other file's findings are reported.
 *
 * The child is a fork, not a fresh program: the rules are loaded once, in
 * the parent, and library callers need no kcheck executable.  It has a
 * process group of its own (registered with util/cleanup.h, so an
 * interrupted run takes it along) and /dev/null as stdin.  When no child
 * can be forked the job runs here, unprotected, as it always did. */
#define _GNU_SOURCE /* pipe2 */
#include "lint/lint_int.h"
#include "analyzer/analyzer.h"
#include "rewriter/rewriter.h"
#include "util/cleanup.h"
#include "util/wire.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TICK_MS 50
#define TERM_GRACE_S 1.0
#define MAX_PARALLEL 256

/* ---- a job's results as bytes ------------------------------------------ */

static int pack_finding(ka_buf *b, const ka_finding *f)
{
	long long nums[] = {
		f->line,     f->col,        f->end_line, f->end_col,          f->begin_off,       f->end_off,
		f->severity, f->fix_safety, f->row_id,   (long long)f->nalso, f->evidence != NULL};
	const char *strs[] = {f->file, f->rule, f->message, f->basis, f->kernel, f->fix, f->scope};
	int rc = ka_wire_real(b, f->estimate);
	for (size_t k = 0; rc == KA_OK && k < sizeof nums / sizeof *nums; k++)
		rc = ka_wire_int(b, nums[k]);
	for (size_t k = 0; rc == KA_OK && k < sizeof strs / sizeof *strs; k++)
		rc = ka_wire_str(b, strs[k]);
	for (size_t k = 0; rc == KA_OK && k < f->nalso; k++)
		rc = ka_wire_str(b, f->also[k]);
	if (rc == KA_OK && f->evidence) /* a plain value: no pointers */
		rc = ka_wire_bytes(b, f->evidence, sizeof *f->evidence);
	return rc;
}

static void unpack_finding(ka_wire_in *in, ka_finding *f)
{
	long long nums[11];
	f->estimate = ka_wire_get_real(in);
	for (int k = 0; k < 11; k++)
		nums[k] = ka_wire_get_int(in);
	f->line = (int)nums[0], f->col = (int)nums[1], f->end_line = (int)nums[2], f->end_col = (int)nums[3];
	f->begin_off = (long)nums[4], f->end_off = (long)nums[5];
	f->severity = (ka_severity)nums[6], f->fix_safety = (ka_fix_safety)nums[7];
	f->row_id = nums[8];
	char **strs[] = {&f->file, &f->rule, &f->message, &f->basis, &f->kernel, &f->fix, &f->scope};
	for (size_t k = 0; k < sizeof strs / sizeof *strs; k++)
		*strs[k] = ka_wire_get_str(in);
	if (!f->file || !f->rule || !f->message || f->severity > KA_SEV_ERROR || nums[9] < 0 ||
	    (unsigned long long)nums[9] > in->left)
		in->bad = 1;
	if (!in->bad && nums[9] > 0 && !(f->also = calloc((size_t)nums[9], sizeof *f->also)))
		in->bad = 1;
	for (long long k = 0; !in->bad && k < nums[9]; k++, f->nalso++)
		if (!(f->also[k] = ka_wire_get_str(in)))
			in->bad = 1;
	if (!in->bad && nums[10]) {
		size_t n = 0;
		char *e = ka_wire_get_bytes(in, &n);
		if (e && n == sizeof *f->evidence)
			f->evidence = (ka_finding_evidence *)e;
		else {
			free(e);
			in->bad = 1;
		}
	}
}

static int pack_job(ka_buf *b, const ka_lint_job *j, size_t nrules)
{
	const ka_report_file *s = &j->st;
	int rc = ka_wire_int(b, s->state);
	rc = rc ? rc : ka_wire_str(b, s->reason);
	rc = rc ? rc : ka_wire_int(b, s->clang_errors);
	rc = rc ? rc : ka_wire_int(b, (long long)s->ndiags);
	for (size_t i = 0; rc == KA_OK && i < s->ndiags; i++) {
		const ka_report_diag *d = &s->diags[i];
		rc = ka_wire_str(b, d->file);
		rc = rc ? rc : ka_wire_int(b, d->line);
		rc = rc ? rc : ka_wire_int(b, d->col);
		rc = rc ? rc : ka_wire_int(b, d->is_error);
		rc = rc ? rc : ka_wire_str(b, d->message);
	}
	rc = rc ? rc : ka_wire_int(b, j->failed);
	rc = rc ? rc : ka_wire_real(b, j->analyze_ms);
	rc = rc ? rc : ka_wire_real(b, j->rules_ms);
	rc = rc ? rc : ka_wire_int(b, j->rule_ms != NULL);
	for (size_t i = 0; rc == KA_OK && j->rule_ms && i < nrules; i++)
		rc = ka_wire_real(b, j->rule_ms[i]);
	rc = rc ? rc : ka_wire_int(b, j->nincluded);
	for (int i = 0; rc == KA_OK && i < j->nincluded; i++)
		rc = ka_wire_str(b, j->included[i]);
	rc = rc ? rc : ka_wire_int(b, (long long)j->findings.n);
	for (size_t i = 0; rc == KA_OK && i < j->findings.n; i++)
		rc = pack_finding(b, &j->findings.v[i]);
	rc = rc ? rc : ka_wire_int(b, j->fixes != NULL);
	if (rc == KA_OK && j->fixes)
		rc = ka_fixset_pack(j->fixes, b);
	return rc;
}

/* A count read from the wire: within [0, left] (each item takes a byte at
 * least), else the message is bad. */
static size_t count_of(ka_wire_in *in)
{
	long long n = ka_wire_get_int(in);
	if (n < 0 || (unsigned long long)n > in->left) {
		in->bad = 1;
		return 0;
	}
	return (size_t)n;
}

static void unpack_status(ka_wire_in *in, ka_report_file *s)
{
	long long state = ka_wire_get_int(in);
	s->state = state == KA_FILE_PARTIAL  ? KA_FILE_PARTIAL
		   : state == KA_FILE_FAILED ? KA_FILE_FAILED
					     : KA_FILE_ANALYZED;
	s->reason = ka_wire_get_str(in);
	s->clang_errors = (int)ka_wire_get_int(in);
	size_t n = count_of(in);
	if (n && !(s->diags = calloc(n, sizeof *s->diags)))
		in->bad = 1;
	for (size_t i = 0; !in->bad && i < n; i++, s->ndiags++) {
		ka_report_diag *d = &s->diags[i];
		d->file = ka_wire_get_str(in);
		d->line = (int)ka_wire_get_int(in);
		d->col = (int)ka_wire_get_int(in);
		d->is_error = (int)ka_wire_get_int(in);
		d->message = ka_wire_get_str(in);
	}
}

/* Fill j (whose status path the parent keeps) from the message; 0 when it
 * is short or garbled (j then holds what arrived, for ka_lint_job_clear). */
static int unpack_job(ka_wire_in *in, ka_lint_job *j, size_t nrules)
{
	unpack_status(in, &j->st);
	j->failed = (int)ka_wire_get_int(in);
	j->analyze_ms = ka_wire_get_real(in);
	j->rules_ms = ka_wire_get_real(in);
	if (ka_wire_get_int(in) && !in->bad) {
		if (!(j->rule_ms = calloc(nrules + 1, sizeof *j->rule_ms)))
			in->bad = 1;
		for (size_t i = 0; !in->bad && i < nrules; i++)
			j->rule_ms[i] = ka_wire_get_real(in);
	}
	size_t n = count_of(in);
	if (n && !(j->included = calloc(n, sizeof *j->included)))
		in->bad = 1;
	for (size_t i = 0; !in->bad && i < n; i++, j->nincluded++)
		if (!(j->included[i] = ka_wire_get_str(in)))
			in->bad = 1;
	n = count_of(in);
	for (size_t i = 0; !in->bad && i < n; i++) {
		ka_finding f = {0};
		unpack_finding(in, &f);
		if (in->bad || ka_findings_push(&j->findings, &f) != KA_OK) {
			ka_finding_clear(&f);
			in->bad = 1;
		}
	}
	if (ka_wire_get_int(in) && !in->bad && ka_fixset_unpack(in, &j->fixes) != KA_OK)
		in->bad = 1;
	return !in->bad && in->left == 0;
}

/* ---- the children -------------------------------------------------------- */

enum { KILLED_NOT, KILLED_MEMORY, KILLED_TIME };

typedef struct child {
	pid_t pid;
	int fd;   /* the read end of its results pipe; -1 at EOF */
	int job;  /* index into the jobs */
	int slot; /* its process group's cleanup slot */
	ka_buf msg;
	double start, term_at;
	int killed; /* KILLED_* */
} child;

typedef struct pool {
	ka_lint *l;
	ka_lint_job *jobs;
	void (*fn)(void *, ka_lint_job *);
	void *ctx;
	size_t nrules;
	long memory_mb;
	int timeout_s;
} pool;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* In the child: run the job, send its results, never return. */
static void child_main(const pool *p, ka_lint_job *j, int fd, const sigset_t *mask)
{
	setpgid(0, 0);
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		close(null);
	}
	ka_cleanup_forget_all(); /* a SIGTERM here must not kill the other workers */
	sigprocmask(SIG_SETMASK, mask, NULL);
	ka_analyze_no_crash_recovery(); /* a crash is this process's end, and the parent's news */
	p->fn(p->ctx, j);
	ka_buf b;
	ka_buf_init(&b, KA_BUF_MAX_LIMIT);
	int rc = pack_job(&b, j, p->nrules);
	if (rc == KA_OK)
		rc = write_all(fd, b.data ? b.data : "", b.len) == 0 ? KA_OK : KA_EIO;
	_exit(rc == KA_OK ? 0 : 3);
}

/* Fork a child for job i; 0 when none could be had (the caller runs it). */
static int start(const pool *p, child *c, int i)
{
	int fds[2];
	sigset_t all, old;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return 0;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old); /* no handler of ours runs in the child before it is set up */
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child_main(p, &p->jobs[i], fds[1], &old);
	}
	if (pid > 0)
		setpgid(pid, pid); /* also here: no race with a kill of the group */
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return 0;
	}
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	*c = (child){.pid = pid, .fd = fds[0], .job = i, .start = now_s()};
	c->slot = ka_cleanup_add_group(pid);
	ka_buf_init(&c->msg, KA_BUF_MAX_LIMIT);
	return 1;
}

/* Resident memory of pid in MB; -1 when it cannot be read. */
static long rss_mb(pid_t pid)
{
	char path[64], buf[128];
	snprintf(path, sizeof path, "/proc/%ld/statm", (long)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	long size = 0, resident = 0;
	if (sscanf(buf, "%ld %ld", &size, &resident) != 2)
		return -1;
	return (long)((double)resident * (double)sysconf(_SC_PAGESIZE) / (1 << 20));
}

/* The limits, once per tick. */
static void watch(const pool *p, child *c, double t)
{
	if (c->killed == KILLED_TIME && c->term_at > 0 && t - c->term_at > TERM_GRACE_S) {
		kill(-c->pid, SIGKILL); /* SIGTERM was not enough */
		c->term_at = 0;
	}
	if (c->killed)
		return;
	long mb = rss_mb(c->pid);
	if (p->memory_mb > 0 && mb > p->memory_mb) {
		c->killed = KILLED_MEMORY;
		kill(-c->pid, SIGKILL);
	} else if (p->timeout_s > 0 && t - c->start > p->timeout_s) {
		c->killed = KILLED_TIME;
		c->term_at = t;
		kill(-c->pid, SIGTERM); /* its handler takes the nvcc of --ptxas along */
	}
}

static void drain(child *c)
{
	char buf[65536];
	for (;;) {
		ssize_t n = read(c->fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) /* EAGAIN: more later */
			return;
		if (n == 0 || ka_buf_add(&c->msg, buf, (size_t)n) != KA_OK) {
			close(c->fd);
			c->fd = -1;
			return;
		}
	}
}

static char *dup_printf(const char *fmt, ...) KA_PRINTF(1, 2);
static char *dup_printf(const char *fmt, ...)
{
	ka_buf b;
	va_list ap;
	ka_buf_init(&b, 1 << 16);
	va_start(ap, fmt);
	ka_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return ka_buf_steal(&b);
}

/* The child is gone (its pipe at EOF): reap it and settle its job. */
static void finish(const pool *p, child *c)
{
	int st = 0;
	ka_lint_job *j = &p->jobs[c->job];
	kill(-c->pid, SIGKILL); /* anything it left in its group (its zombie keeps the id ours) */
	while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
		;
	ka_cleanup_remove_group(c->slot);
	ka_wire_in in = {.p = c->msg.data, .left = c->msg.len};
	int ok = !c->killed && WIFEXITED(st) && WEXITSTATUS(st) == 0 && unpack_job(&in, j, p->nrules);
	ka_buf_free(&c->msg);
	if (ok)
		return;
	ka_lint_job_clear(j); /* whatever half arrived */
	j->failed = 1;
	j->st.state = KA_FILE_FAILED;
	if (c->killed == KILLED_MEMORY)
		j->st.reason = dup_printf("the analysis used more than %ld MB of memory (--file-memory)",
					  p->memory_mb);
	else if (c->killed == KILLED_TIME)
		j->st.reason = dup_printf("the analysis took longer than %d s (--file-timeout)",
					  p->timeout_s);
	else if (WIFSIGNALED(st))
		j->st.reason = dup_printf("the analysis crashed (SIG%s)",
					  sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) : "NAL");
	else
		j->st.reason = dup_printf("the analysis ended without its results (exit status %d)",
					  WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

void ka_lint_workers(ka_lint *l, ka_lint_job *jobs, int njobs, void (*fn)(void *, ka_lint_job *), void *ctx)
{
	pool p = {.l = l,
		  .jobs = jobs,
		  .fn = fn,
		  .ctx = ctx,
		  .nrules = ka_ruleset_count(l->rs),
		  .memory_mb = l->o.file_memory_mb > 0 ? l->o.file_memory_mb : KA_LINT_FILE_MEMORY_MB,
		  .timeout_s = l->o.file_timeout_s > 0 ? l->o.file_timeout_s : KA_LINT_FILE_TIMEOUT_S};
	int parallel = l->o.jobs < 1 ? 1 : l->o.jobs > MAX_PARALLEL ? MAX_PARALLEL : l->o.jobs;
	child kids[MAX_PARALLEL];
	struct pollfd pfd[MAX_PARALLEL];
	int nkids = 0, next = 0;
	for (;;) {
		while (nkids < parallel && next < njobs) {
			if (start(&p, &kids[nkids], next))
				nkids++;
			else
				fn(ctx, &jobs[next]); /* no process to be had: here, unprotected */
			next++;
		}
		if (!nkids)
			break;
		for (int i = 0; i < nkids; i++)
			pfd[i] = (struct pollfd){.fd = kids[i].fd, .events = POLLIN};
		poll(pfd, (nfds_t)nkids, TICK_MS);
		double t = now_s();
		for (int i = 0; i < nkids;) {
			child *c = &kids[i];
			if (pfd[i].revents)
				drain(c);
			if (c->fd >= 0) {
				watch(&p, c, t);
				i++;
				continue;
			}
			finish(&p, c);
			kids[i] = kids[--nkids];
			pfd[i] = pfd[nkids];
		}
	}
}
