/* util/proc.c: run a tool with a time limit (see proc.h). */
#include "util/proc.h"
#include "util/fs.h"
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
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

int ka_proc_run(char *const argv[], int timeout_s, ka_buf *out, ka_proc_result *res)
{
	memset(res, 0, sizeof *res);
	int fds[2];
	if (pipe(fds) != 0)
		return ka_error_set(KA_ETOOL, "cannot run %s: %s", argv[0], strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return ka_error_set(KA_ETOOL, "cannot run %s: %s", argv[0], strerror(errno));
	}
	if (pid == 0) {
		int dn = open("/dev/null", O_RDONLY);
		if (dn >= 0)
			dup2(dn, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		setpgid(0, 0);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);   /* also here: no race with the child's own call */
	close(fds[1]);
	double deadline = now() + (timeout_s > 0 ? timeout_s : 600);
	char chunk[4096];
	for (;;) {
		int left_ms = (int)((deadline - now()) * 1000);
		if (left_ms <= 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			res->timed_out = 1;
			break;
		}
		struct pollfd p = {.fd = fds[0], .events = POLLIN};
		int r = poll(&p, 1, left_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		ssize_t n = read(fds[0], chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out && out->len + (size_t)n <= out->limit)
			ka_buf_add(out, chunk, (size_t)n);
	}
	close(fds[0]);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!res->timed_out && WIFEXITED(st)) {
		res->exited = 1;
		res->status = WEXITSTATUS(st);
		if (res->status == 127)
			return ka_error_set(KA_ETOOL, "cannot run %s: not found", argv[0]);
	}
	return KA_OK;
}

const char *ka_proc_find_nvcc(void)
{
	const char *e = getenv("KCHECK_NVCC");
	if (e && *e)
		return e;
	if (ka_fs_exists("/usr/local/cuda/bin/nvcc"))
		return "/usr/local/cuda/bin/nvcc";
	const char *path = getenv("PATH");
	static _Thread_local char found[4096];
	while (path && *path) {
		const char *c = strchr(path, ':');
		size_t n = c ? (size_t)(c - path) : strlen(path);
		snprintf(found, sizeof found, "%.*s/nvcc", (int)n, path);
		if (access(found, X_OK) == 0)
			return found;
		path = c ? c + 1 : NULL;
	}
	return NULL;
}
