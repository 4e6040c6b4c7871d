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
