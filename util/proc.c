/* util/proc.c: run a tool with a time limit (see proc.h). */
#include "util/proc.h"
#include "util/cleanup.h"
#include "util/fs.h"
#include <pthread.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The child: stdin from /dev/null, stdout+stderr into the pipe, a process
 * group of its own (so a timeout or a signal takes everything it started),
 * the signal mask the parent had before it blocked signals for the fork. */
static void child(char *const argv[], int fds[2], const sigset_t *mask)
{
	int dn = open("/dev/null", O_RDONLY);
	if (dn >= 0)
		dup2(dn, 0);
	dup2(fds[1], 1);
	dup2(fds[1], 2);
	close(fds[0]);
	close(fds[1]);
	setpgid(0, 0);
	sigprocmask(SIG_SETMASK, mask, NULL);
	execvp(argv[0], argv);
	_exit(127);
}

/* 1 once the child has exited (still a zombie: its pid and group stay ours). */
static int exited(pid_t pid)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

static void keep(ka_buf *out, const char *chunk, ssize_t n)
{
	if (out && out->len + (size_t)n <= out->limit)
		ka_buf_add(out, chunk, (size_t)n);
}

/* What the child wrote just before it exited (the pipe may stay open in a
 * grandchild: read what is there, without waiting, and at most 256 KiB of
 * it, in case that grandchild keeps writing). */
static void drain(int fd, ka_buf *out)
{
	char chunk[4096];
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return;
	for (ssize_t n, k = 0; k < 64 && (n = read(fd, chunk, sizeof chunk)) != 0; k++) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		keep(out, chunk, n);
	}
}

/* Read the output until the child exits or the deadline passes.  The limit
 * holds after the child closes its output (EOF is not the end), and output
 * kept open by a grandchild does not outlive the child. */
static int collect(pid_t pid, int fd, double deadline, ka_buf *out)
{
	char chunk[4096];
	int eof = 0;
	for (;;) {
		double left = deadline - now();
		if (left <= 0)
			return 1;
		int tick = left > 0.05 ? 50 : (int)(left * 1000) + 1;
		if (eof) {
			if (exited(pid))
				return 0;
			poll(NULL, 0, tick);
			continue;
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int r = poll(&p, 1, tick);
		if (r < 0 && errno != EINTR)
			eof = 1;
		if (r == 0 && exited(pid)) {
			drain(fd, out);
			return 0;
		}
		if (r <= 0)
			continue;
		ssize_t n = read(fd, chunk, sizeof chunk);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			eof = 1;
			continue;
		}
		keep(out, chunk, n);
	}
}

int ka_proc_run(char *const argv[], int timeout_s, ka_buf *out, ka_proc_result *res)
{
	memset(res, 0, sizeof *res);
	int fds[2];
	if (pipe(fds) != 0)
		return ka_error_set(KA_ETOOL, "cannot run %s: %s", argv[0], strerror(errno));
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);   /* no signal between fork and registration */
	pid_t pid = fork();
	if (pid == 0)
		child(argv, fds, &old);
	int slot = -1;
	if (pid > 0) {
		setpgid(pid, pid);   /* also here: no race with the child's own call */
		slot = ka_cleanup_add_group(pid);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return ka_error_set(KA_ETOOL, "cannot run %s: %s", argv[0], strerror(errno));
	}
	double deadline = now() + (timeout_s > 0 ? timeout_s : 600);
	res->timed_out = collect(pid, fds[0], deadline, out);
	close(fds[0]);
	kill(-pid, SIGKILL);     /* at the limit: all of it; after an exit: what it left running */
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	ka_cleanup_remove_group(slot);
	if (!res->timed_out && WIFEXITED(st)) {
		res->exited = 1;
		res->status = WEXITSTATUS(st);
		if (res->status == 127)
			return ka_error_set(KA_ETOOL, "cannot run %s: not found", argv[0]);
	}
	return KA_OK;
}

static int is_exe(const char *p)
{
	struct stat st;
	return p && *p && stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

char *ka_proc_find_tool(const char *env, const char *name, const char *fallback)
{
	const char *e = env ? getenv(env) : NULL;
	if (e && *e)
		return is_exe(e) ? strdup(e) : NULL;
	const char *path = getenv("PATH");
	char buf[4096];
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		if (n && n + strlen(name) + 2 < sizeof buf) {
			snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, name);
			if (is_exe(buf))
				return strdup(buf);
		}
		path = colon ? colon + 1 : NULL;
	}
	return is_exe(fallback) ? strdup(fallback) : NULL;
}

const char *ka_proc_find_nvcc(void)
{
	static _Thread_local char found[4096];
	char *p = ka_proc_find_tool("KCHECK_NVCC", "nvcc", "/usr/local/cuda/bin/nvcc");
	if (!p)
		return NULL;
	snprintf(found, sizeof found, "%s", p);
	free(p);
	return found;
}

/* Joined or separate: -Idir, -I dir, -DX=1, -D X, -UX, -U X. */
static const char *const short_flags[] = {"-I", "-D", "-U"};
/* Separate or with '=': -isystem dir, --include-path=dir, ... */
static const char *const long_flags[] = {"-isystem", "-include", "--include-path", "--system-include",
					 "--pre-include", "--define-macro", "--undefine-macro"};

int ka_proc_cc_flag(const char *const *args, int n, int i, int *take)
{
	const char *a = args[i];
	const char *next = i + 1 < n ? args[i + 1] : NULL;
	int next_ok = next && *next && *next != '-';
	*take = 1;
	for (size_t k = 0; k < sizeof short_flags / sizeof short_flags[0]; k++)
		if (strncmp(a, short_flags[k], 2) == 0) {
			if (a[2])
				return a[2] != '=';      /* -I=x is nvcc's spelling of nothing we allow */
			*take = next ? 2 : 1;
			return next_ok;
		}
	for (size_t k = 0; k < sizeof long_flags / sizeof long_flags[0]; k++) {
		size_t l = strlen(long_flags[k]);
		if (strncmp(a, long_flags[k], l) != 0)
			continue;
		if (a[l] == '=')
			return a[l + 1] != '\0';
		if (a[l] == '\0') {
			*take = next ? 2 : 1;
			return next_ok;
		}
	}
	return (strncmp(a, "-std=", 5) == 0 && a[5]) || (strncmp(a, "--std=", 6) == 0 && a[6]);
}
