/* util/proc_run.c: the one process runner of util/proc.h (the linter's
 * tools and the bench's nvcc, objcopy and harness all go through it).
 * fork/execvp, never a shell; pipes for stdout+stderr, for the harness's
 * stdin and for its result channel on fd 3; poll(); a process group of its
 * own, registered with util/cleanup.h, so a timeout or a signal takes the
 * program and everything it started.  The deadline covers the program's
 * whole life: a child that closes its output and keeps running is still
 * killed, and output a grandchild keeps open does not outlive the child. */
#define _GNU_SOURCE /* pipe2 */
#include "util/proc.h"
#include "util/cleanup.h"
#include "util/shsafe.h"
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* In the child: fds[0..3] become 0, 1, 2, 3 (fds[3] < 0: no fd 3); a
 * process group of its own; the signal mask the parent had before it
 * blocked signals for the fork. */
static void child(char *const argv[], const int fds[4], const sigset_t *mask)
{
	int hi[4];
	setpgid(0, 0);
	for (int i = 0; i < 4; i++)
		hi[i] = fds[i] >= 0 ? fcntl(fds[i], F_DUPFD_CLOEXEC, 20) : -1;
	for (int i = 0; i < 4; i++)
		if (hi[i] >= 0 && dup2(hi[i], i) < 0)
			_exit(127);
	if (hi[3] < 0)
		close(3);
	sigprocmask(SIG_SETMASK, mask, NULL);
	execvp(argv[0], argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* 1 once the child has exited (still a zombie: its pid and group stay ours). */
static int exited(pid_t pid)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

/* The parent's ends: output (stdout+stderr), results (fd 3), the child's
 * stdin; what is left to write, and the late part once "ready" was seen. */
struct chan {
	int out, res, in;
	const char *pending, *late;
	size_t left;
	int ready; /* 0 waiting, 1 "ready" seen, 2 late part queued */
};

static void feed(struct chan *c)
{
	for (;;) {
		while (c->in >= 0 && c->left > 0) {
			ssize_t n = write(c->in, c->pending, c->left);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno == EAGAIN)
				return;
			if (n <= 0) { /* the child closed its stdin: nothing more to say */
				c->left = 0;
				break;
			}
			c->pending += n;
			c->left -= (size_t)n;
		}
		if (c->in < 0 || c->left > 0 || (c->late && !c->ready))
			return;
		if (c->late && c->ready == 1) {
			c->pending = c->late;
			c->left = strlen(c->late);
			c->ready = 2;
			continue;
		}
		close(c->in);
		c->in = -1;
		return;
	}
}

/* One read of fd into b (what passes b's cap is dropped, and reading goes
 * on).  Bytes read, 0 at EOF or on a transient error; EOF closes fd. */
static ssize_t take(int *fd, ka_buf *b)
{
	char tmp[8192];
	ssize_t n = read(*fd, tmp, sizeof tmp);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		close(*fd);
		*fd = -1;
		return 0;
	}
	size_t room = b && b->len < b->limit ? b->limit - b->len : 0;
	if (room)
		(void)ka_buf_add(b, tmp, (size_t)n < room ? (size_t)n : room);
	return n;
}

/* What the child wrote just before it exited, when a grandchild keeps the
 * pipe open: read what is there without waiting, at most 16 MiB of it. */
static void drain(int *fd, ka_buf *b)
{
	int fl = *fd >= 0 ? fcntl(*fd, F_GETFL) : -1;
	if (fl < 0 || fcntl(*fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return;
	for (int k = 0; k < 2048 && *fd >= 0 && take(fd, b) > 0; k++)
		;
}

/* Pumps the channels until the child has exited and what it wrote is read
 * (0), or the deadline passes (1). */
static int pump(pid_t pid, struct chan *c, const ka_proc_io *io, ka_buf *out, double deadline)
{
	ka_buf *results = io ? io->results : NULL;
	for (;;) {
		double left = deadline - now();
		if (left <= 0)
			return 1;
		int tick = left > 0.05 ? 50 : (int)(left * 1000) + 1;
		struct pollfd p[3];
		int np = 0, oi = -1, ri = -1, ii = -1;
		if (c->out >= 0)
			p[oi = np++] = (struct pollfd){.fd = c->out, .events = POLLIN};
		if (c->res >= 0)
			p[ri = np++] = (struct pollfd){.fd = c->res, .events = POLLIN};
		if (c->in >= 0 && c->left > 0)
			p[ii = np++] = (struct pollfd){.fd = c->in, .events = POLLOUT};
		if (np == 0) { /* every pipe closed: the limit still holds for the exit */
			if (exited(pid))
				return 0;
			poll(NULL, 0, tick);
			continue;
		}
		int r = poll(p, (nfds_t)np, tick);
		if (r == 0 && exited(pid)) {
			drain(&c->out, out);
			drain(&c->res, results);
			return 0;
		}
		if (r <= 0)
			continue;
		if (oi >= 0 && p[oi].revents)
			take(&c->out, out);
		if (ri >= 0 && p[ri].revents && take(&c->res, results) > 0 && !c->ready && results &&
		    results->data && strstr(results->data, "ready\n"))
			c->ready = 1;
		if ((ii >= 0 && p[ii].revents) || c->ready == 1)
			feed(c);
	}
}

static void close_all(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}

/* po: output; pr: results (fd 3); pi: stdin (a pipe with io, else /dev/null). */
static int open_pipes(int po[2], int pr[2], int pi[2], const ka_proc_io *io)
{
	po[0] = po[1] = pr[0] = pr[1] = pi[0] = pi[1] = -1;
	if (pipe2(po, O_CLOEXEC) || (io && pipe2(pr, O_CLOEXEC)) || (io && pipe2(pi, O_CLOEXEC)))
		return -1;
	if (!io && (pi[0] = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (pi[1] >= 0 && fcntl(pi[1], F_SETFL, O_NONBLOCK) < 0)
		return -1;
	return 0;
}

/* The child's end, in the caller's result. */
static void finish(int st, ka_proc_result *res)
{
	if (res->timed_out) {
		res->status = 124;
	} else if (WIFEXITED(st)) {
		res->exited = 1;
		res->status = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		res->signal = WTERMSIG(st);
		res->status = 128 + res->signal;
	} else {
		res->status = 1;
	}
}

/* Writing to a child that closed its stdin raises SIGPIPE in this thread:
 * it stays blocked while the child runs and, if it came, is taken off. */
static void unblock_pipe(const sigset_t *old, int was_pending)
{
	sigset_t pend, pipe_only;
	static const struct timespec zero = {0, 0};
	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	if (!was_pending && sigpending(&pend) == 0 && sigismember(&pend, SIGPIPE))
		sigtimedwait(&pipe_only, NULL, &zero);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* The last line of defence of util/shsafe.h: an nvcc-family program is
 * not started with an argument its /bin/sh would act on, wherever the
 * argument came from.  1 (the message set) when one is found. */
static int unsafe_argv(char *const argv[])
{
	if (!ka_sh_nvcc_family(argv[0]))
		return 0;
	for (int i = 1; argv[i]; i++) {
		char why[96], show[160];
		if (ka_sh_safe(argv[i], why, sizeof why))
			continue;
		const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
		ka_error_set(KA_EINPUT,
			     "refusing to run %s: its argument '%s' holds %s (see docs/security.md)", base,
			     ka_sh_show(show, sizeof show, argv[i]), why);
		return 1;
	}
	return 0;
}

int ka_proc_run_io(char *const argv[], int timeout_s, ka_buf *out, const ka_proc_io *io, ka_proc_result *res)
{
	int po[2], pr[2], pi[2], st = 0, slot = -1, was_pending;
	sigset_t block, old, pend;
	double t0 = now();
	assert(argv && argv[0] && res);
	memset(res, 0, sizeof *res);
	if (unsafe_argv(argv))
		return KA_EINPUT;
	if (open_pipes(po, pr, pi, io)) {
		int all[6] = {po[0], po[1], pr[0], pr[1], pi[0], pi[1]};
		int e = errno;
		close_all(all, 6);
		return ka_error_set(KA_ETOOL, "cannot run %s: %s", argv[0], strerror(e));
	}
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGPIPE);
	was_pending = sigpending(&pend) == 0 && sigismember(&pend, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &block, &old); /* no signal between fork and registration */
	pid_t pid = fork();
	if (pid == 0) {
		int fds[4] = {pi[0], po[1], po[1], pr[1]};
		child(argv, fds, &old);
	}
	if (pid > 0) {
		setpgid(pid, pid); /* also here: no race with the child's own call */
		slot = ka_cleanup_add_group(pid);
	}
	sigset_t running = old;
	sigaddset(&running, SIGPIPE);
	pthread_sigmask(SIG_SETMASK, &running, NULL);
	int mine[3] = {po[1], pr[1], pi[0]};
	close_all(mine, 3);
	struct chan c = {po[0],
			 pr[0],
			 pi[1],
			 io && io->input ? io->input : "",
			 io ? io->late : NULL,
			 io && io->input ? strlen(io->input) : 0,
			 0};
	if (pid < 0) {
		int e = errno, rest[3] = {c.out, c.res, c.in};
		close_all(rest, 3);
		unblock_pipe(&old, was_pending);
		return ka_error_set(KA_ETOOL, "cannot run %s: %s", argv[0], strerror(e));
	}
	feed(&c);
	res->timed_out = pump(pid, &c, io, out, t0 + (timeout_s > 0 ? timeout_s : 600));
	int rest[3] = {c.out, c.res, c.in};
	close_all(rest, 3);
	kill(-pid, SIGKILL); /* at the limit: all of it; after an exit: what it left running */
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	ka_cleanup_remove_group(slot);
	unblock_pipe(&old, was_pending);
	res->seconds = now() - t0;
	finish(st, res);
	return KA_OK;
}
