/* bench/proc.c: bench/proc.h with fork/execvp, a pipe, poll() and a process
 * group so that a timeout kills the program and everything it started. */
#include "bench/proc.h"
#include <errno.h>
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

static void guard(int on, struct sigaction old[3])
{
	static const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	for (int i = 0; i < 3; i++) {
		if (on) sigaction(sigs[i], &sa, &old[i]);
		else sigaction(sigs[i], &old[i], NULL);
	}
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void child(char *const argv[], int fd[2])
{
	setpgid(0, 0);
	dup2(fd[1], 1);
	dup2(fd[1], 2);
	close(fd[0]);
	close(fd[1]);
	execvp(argv[0], argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int ka_bench_proc_run(char *const argv[], int timeout_s, ka_buf *out, ka_bench_proc *res)
{
	int fd[2], st = 0, open_fd = 1;
	struct sigaction old[3];
	double t0 = now_s();
	pid_t pid;
	memset(res, 0, sizeof *res);
	if (pipe(fd)) return ka_error_set(KA_ETOOL, "cannot run %s: %s", argv[0], strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return ka_error_set(KA_ETOOL, "cannot run %s: %s", argv[0], strerror(errno));
	}
	if (pid == 0) child(argv, fd);
	setpgid(pid, pid);
	running_pgid = pid;
	guard(1, old);
	close(fd[1]);
	while (open_fd) {
		double left = timeout_s - (now_s() - t0);
		struct pollfd p = {fd[0], POLLIN, 0};
		if (left <= 0) { res->timed_out = 1; break; }
		int r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR) continue;
		if (r <= 0) continue;
		char tmp[8192];
		ssize_t n = read(fd[0], tmp, sizeof tmp);
		if (n <= 0) { open_fd = 0; break; }
		if (out && ka_buf_add(out, tmp, (size_t)n)) { /* over the cap: keep draining */ }
	}
	if (res->timed_out) kill(-pid, SIGKILL);
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
	if (!res->timed_out) kill(-pid, SIGKILL);   /* leftovers of its process group */
	guard(0, old);
	running_pgid = 0;
	res->seconds = now_s() - t0;
	if (res->timed_out) res->status = 124;
	else if (WIFEXITED(st)) res->status = WEXITSTATUS(st);
	else if (WIFSIGNALED(st)) res->status = 128 + WTERMSIG(st);
	else res->status = 1;
	return 0;
}
