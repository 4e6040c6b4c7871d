/* bench/proc.c: bench/proc.h with fork/execvp, pipes, poll() and a process
 * group, so that a timeout kills the program and everything it started.  The
 * deadline covers the whole life of the program: a child that closes its
 * output and keeps running is still killed when the limit passes. */
#define _GNU_SOURCE   /* pipe2 */
#include "bench/proc.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util/error.h"

/* The running child's process group, so that an interrupted bench does not
 * leave nvcc or a harness running in a group of its own. */
static volatile sig_atomic_t running_pgid;

static void on_signal(int sig)
{
	if (running_pgid > 0) kill(-(pid_t)running_pgid, SIGKILL);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void guard(int on, struct sigaction old[4])
{
	static const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa, ign;
	memset(&sa, 0, sizeof sa);
	memset(&ign, 0, sizeof ign);
	sa.sa_handler = on_signal;
	ign.sa_handler = SIG_IGN;   /* a child that closes stdin early must not kill us */
	for (int i = 0; i < 3; i++) {
		if (on) sigaction(sigs[i], &sa, &old[i]);
		else sigaction(sigs[i], &old[i], NULL);
	}
	if (on) sigaction(SIGPIPE, &ign, &old[3]);
	else sigaction(SIGPIPE, &old[3], NULL);
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* In the child: fds[0..3] become 0, 1, 2, 3 (fds[3] < 0: no fd 3). */
static void child(char *const argv[], int fds[4])
{
	int hi[4];
	setpgid(0, 0);
	for (int i = 0; i < 4; i++) hi[i] = fds[i] >= 0 ? fcntl(fds[i], F_DUPFD_CLOEXEC, 20) : -1;
	for (int i = 0; i < 4; i++)
		if (hi[i] >= 0 && dup2(hi[i], i) < 0) _exit(127);
	if (hi[3] < 0) close(3);
	execvp(argv[0], argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

struct chan { int out, res, in; const char *pending; size_t left; const char *late; int ready; };

static void feed(struct chan *c)
{
	while (c->in >= 0 && c->left > 0) {
		ssize_t n = write(c->in, c->pending, c->left);
		if (n < 0 && errno == EINTR) continue;
		if (n < 0 && errno == EAGAIN) return;
		if (n <= 0) { c->left = 0; break; }
		c->pending += n;
		c->left -= (size_t)n;
	}
	if (c->in >= 0 && c->left == 0 && (!c->late || c->ready)) {
		if (c->late && c->ready == 1) {
			c->pending = c->late;
			c->left = strlen(c->late);
			c->ready = 2;
			feed(c);
			return;
		}
		if (!c->late || c->ready == 2) { close(c->in); c->in = -1; }
	}
}

static int drain(int *fd, ka_buf *b)
{
	char tmp[8192];
	ssize_t n = read(*fd, tmp, sizeof tmp);
	if (n < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
	if (n <= 0) { close(*fd); *fd = -1; return 0; }
	if (b) (void)ka_buf_add(b, tmp, (size_t)n);   /* over the cap: keep draining */
	return (int)n;
}

/* Pumps the channels until both read ends close or the deadline passes. */
static void pump(struct chan *c, const ka_bench_proc_io *io, ka_buf *out, double deadline, int *timed_out)
{
	while (c->out >= 0 || c->res >= 0) {
		struct pollfd p[3];
		int np = 0, io_i = -1, res_i = -1, out_i = -1;
		double left = deadline - now_s();
		if (left <= 0) { *timed_out = 1; return; }
		if (c->out >= 0) { out_i = np; p[np++] = (struct pollfd){c->out, POLLIN, 0}; }
		if (c->res >= 0) { res_i = np; p[np++] = (struct pollfd){c->res, POLLIN, 0}; }
		if (c->in >= 0 && c->left > 0) { io_i = np; p[np++] = (struct pollfd){c->in, POLLOUT, 0}; }
		int r = poll(p, (nfds_t)np, (int)(left * 1000) + 1);
		if (r <= 0) continue;
		if (out_i >= 0 && p[out_i].revents) drain(&c->out, out);
		if (res_i >= 0 && p[res_i].revents && drain(&c->res, io->results) > 0 && !c->ready && io->results->data &&
		    strstr(io->results->data, "ready\n"))
			c->ready = 1;
		if (io_i >= 0 && p[io_i].revents) feed(c);
		else if (c->ready == 1) feed(c);
	}
}

static int open_pipes(int po[2], int pr[2], int pi[2], const ka_bench_proc_io *io)
{
	po[0] = po[1] = pr[0] = pr[1] = pi[0] = pi[1] = -1;
	if (pipe2(po, O_CLOEXEC)) return -1;
	if (io && pipe2(pr, O_CLOEXEC)) return -1;
	if (io && pipe2(pi, O_CLOEXEC)) return -1;
	if (!io && (pi[0] = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) return -1;
	if (pi[1] >= 0) fcntl(pi[1], F_SETFL, O_NONBLOCK);
	return 0;
}

static void close_all(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0) { close(fds[i]); fds[i] = -1; }
}

int ka_bench_proc_run_io(char *const argv[], int timeout_s, ka_buf *out, const ka_bench_proc_io *io,
			 ka_bench_proc *res)
{
	int po[2], pr[2], pi[2], st = 0;
	struct sigaction old[4];
	double t0 = now_s(), deadline = t0 + timeout_s;
	pid_t pid, w = 0;
	memset(res, 0, sizeof *res);
	if (open_pipes(po, pr, pi, io)) {
		int all[6] = {po[0], po[1], pr[0], pr[1], pi[0], pi[1]};
		close_all(all, 6);
		return ka_error_set(KA_ETOOL, "cannot run %s: %s", argv[0], strerror(errno));
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fds[4] = {pi[0], po[1], po[1], pr[1]};
		child(argv, fds);
	}
	int mine[3] = {po[1], pr[1], pi[0]};
	close_all(mine, 3);
	if (pid < 0) {
		int rest[3] = {po[0], pr[0], pi[1]};
		close_all(rest, 3);
		return ka_error_set(KA_ETOOL, "cannot run %s: %s", argv[0], strerror(errno));
	}
	setpgid(pid, pid);
	running_pgid = pid;
	guard(1, old);
	struct chan c = {po[0], pr[0], pi[1], io && io->input ? io->input : "", io && io->input ? strlen(io->input) : 0,
			 io ? io->late : NULL, 0};
	if (c.in >= 0) feed(&c);
	pump(&c, io, out, deadline, &res->timed_out);
	/* Output closed (or the limit passed): the limit still holds for the exit. */
	while (!res->timed_out && (w = waitpid(pid, &st, WNOHANG)) == 0) {
		if (now_s() >= deadline) { res->timed_out = 1; break; }
		struct timespec ts = {0, 5 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	kill(-pid, SIGKILL);   /* on a timeout, and any leftovers of its process group */
	if (w <= 0) while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
	int rest[3] = {c.out, c.res, c.in};
	close_all(rest, 3);
	guard(0, old);
	running_pgid = 0;
	res->seconds = now_s() - t0;
	if (res->timed_out) res->status = 124;
	else if (WIFEXITED(st)) res->status = WEXITSTATUS(st);
	else if (WIFSIGNALED(st)) res->status = 128 + WTERMSIG(st);
	else res->status = 1;
	return 0;
}

int ka_bench_proc_run(char *const argv[], int timeout_s, ka_buf *out, ka_bench_proc *res)
{
	return ka_bench_proc_run_io(argv, timeout_s, out, NULL, res);
}
