/* util/workpool.c: jobs in processes that may die (util/workpool.h).
 *
 * The parent reads the children's pipes with poll() and, every TICK_MS,
 * reads each child's resident memory from /proc/PID/statm and its age.
 * The child is a fork, not a fresh program: what the parent loaded (rules,
 * a database) is there without a second load. */
#define _GNU_SOURCE /* pipe2, sigabbrev_np */
#include "util/workpool.h"
#include "util/cleanup.h"
#include "util/error.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TICK_MS 50
#define TERM_GRACE_S 1.0
#define MAX_PARALLEL 256

enum { KILLED_NOT, KILLED_MEMORY, KILLED_TIME };

typedef struct child {
	pid_t pid;
	int fd;   /* the read end of its results pipe; -1 at EOF */
	int job;  /* the job's index */
	int slot; /* its process group's cleanup slot */
	ka_buf msg;
	double start, term_at;
	int killed; /* KILLED_* */
} child;

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

/* In the child: run the job, send its result, never return. */
static void child_main(const ka_workpool *wp, int i, int fd, const sigset_t *mask)
{
	setpgid(0, 0);
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		close(null);
	}
	ka_cleanup_forget_all(); /* a SIGTERM here must not kill the other children */
	sigprocmask(SIG_SETMASK, mask, NULL);
	ka_buf b;
	ka_buf_init(&b, KA_BUF_MAX_LIMIT);
	int rc = wp->run(wp->ctx, i, &b);
	if (rc == KA_OK)
		rc = write_all(fd, b.data ? b.data : "", b.len) == 0 ? KA_OK : KA_EIO;
	_exit(rc == KA_OK ? 0 : 3);
}

/* Fork a child for job i; 0 when none could be had. */
static int start(const ka_workpool *wp, child *c, int i)
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
		child_main(wp, i, fds[1], &old);
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
static void watch(const ka_workpool *wp, child *c, double t)
{
	if (c->killed == KILLED_TIME && c->term_at > 0 && t - c->term_at > TERM_GRACE_S) {
		kill(-c->pid, SIGKILL); /* SIGTERM was not enough */
		c->term_at = 0;
	}
	if (c->killed)
		return;
	long mb = rss_mb(c->pid);
	if (wp->memory_mb > 0 && mb > wp->memory_mb) {
		c->killed = KILLED_MEMORY;
		kill(-c->pid, SIGKILL);
	} else if (wp->timeout_s > 0 && t - c->start > wp->timeout_s) {
		c->killed = KILLED_TIME;
		c->term_at = t;
		kill(-c->pid, SIGTERM); /* its handler takes what it started along */
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

/* The child is gone (its pipe at EOF): reap it and settle its job. */
static void finish(const ka_workpool *wp, child *c)
{
	int st = 0;
	kill(-c->pid, SIGKILL); /* anything it left in its group (its zombie keeps the id ours) */
	while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
		;
	ka_cleanup_remove_group(c->slot);
	int ok = !c->killed && WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
		 wp->take(wp->ctx, c->job, c->msg.data ? c->msg.data : "", c->msg.len);
	ka_buf_free(&c->msg);
	if (ok)
		return;
	const char *what = wp->what ? wp->what : "the job";
	char why[256], opt[64] = "";
	const char *o = c->killed == KILLED_MEMORY ? wp->memory_opt : wp->timeout_opt;
	if (o)
		snprintf(opt, sizeof opt, " (%s)", o);
	if (c->killed == KILLED_MEMORY)
		snprintf(why, sizeof why, "%s used more than %ld MB of memory%s", what, wp->memory_mb, opt);
	else if (c->killed == KILLED_TIME)
		snprintf(why, sizeof why, "%s took longer than %d s%s", what, wp->timeout_s, opt);
	else if (WIFSIGNALED(st))
		snprintf(why, sizeof why, "%s crashed (SIG%s)", what,
			 sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) : "NAL");
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		snprintf(why, sizeof why, "%s sent garbled results", what);
	else
		snprintf(why, sizeof why, "%s ended without its results (exit status %d)", what,
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	wp->fail(wp->ctx, c->job, why);
}

void ka_workpool_run(const ka_workpool *wp)
{
	int parallel = wp->parallel < 1 ? 1 : wp->parallel > MAX_PARALLEL ? MAX_PARALLEL : wp->parallel;
	child kids[MAX_PARALLEL];
	struct pollfd pfd[MAX_PARALLEL];
	int nkids = 0, next = 0;
	for (;;) {
		while (nkids < parallel && next < wp->njobs) {
			if (start(wp, &kids[nkids], next))
				nkids++;
			else
				wp->here(wp->ctx, next); /* no process to be had: here, unprotected */
			next++;
		}
		if (nkids <= 0)
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
				watch(wp, c, t);
				i++;
				continue;
			}
			finish(wp, c);
			kids[i] = kids[--nkids];
			pfd[i] = pfd[nkids];
		}
	}
}
