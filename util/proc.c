/* util/proc.c: run a tool (the runner itself is util/proc_run.c), find
 * the tools, and the compiler flags a project may pass them (see proc.h). */
#include "util/proc.h"
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ka_proc_run(char *const argv[], int timeout_s, ka_buf *out, ka_proc_result *res)
{
	int rc = ka_proc_run_io(argv, timeout_s, out, NULL, res);
	if (rc == KA_OK && res->exited && res->status == 127)
		return ka_error_set(KA_ETOOL, "cannot run %s: not found", argv[0]);
	return rc;
}

static int is_exe(const char *p)
{
	struct stat st;
	return p && *p && stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

char *ka_proc_find_tool(const char *env, const char *name, const char *fallback)
{
	assert(name);
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

/* $VAR/bin/nvcc when $VAR names a toolkit that has one (malloc'ed), else NULL. */
static char *in_toolkit(const char *var)
{
	const char *home = getenv(var);
	size_t n = home ? strlen(home) : 0;
	char *p = n ? malloc(n + sizeof "/bin/nvcc") : NULL;
	if (!p)
		return NULL;
	memcpy(p, home, n);
	memcpy(p + n, "/bin/nvcc", sizeof "/bin/nvcc");
	if (is_exe(p))
		return p;
	free(p);
	return NULL;
}

const char *ka_proc_find_nvcc(void)
{
	static _Thread_local char found[4096];
	const char *env = getenv("KCHECK_NVCC");
	char *p = NULL;
	if (!(env && *env) && !(p = in_toolkit("CUDA_HOME")))
		p = in_toolkit("CUDA_PATH");
	if (!p)
		p = ka_proc_find_tool("KCHECK_NVCC", "nvcc", "/usr/local/cuda/bin/nvcc");
	if (!p || strlen(p) >= sizeof found) {
		free(p);
		return NULL;
	}
	snprintf(found, sizeof found, "%s", p);
	free(p);
	return found;
}

/* Joined or separate: -Idir, -I dir, -DX=1, -D X, -UX, -U X. */
static const char *const short_flags[] = {"-I", "-D", "-U"};
/* Separate or with '=': -isystem dir, --include-path=dir, ... */
static const char *const long_flags[] = {"-isystem",         "-include",      "--include-path",
					 "--system-include", "--pre-include", "--define-macro",
					 "--undefine-macro"};

int ka_proc_cc_flag(const char *const *args, int n, int i, int *take)
{
	assert(args && take && i >= 0 && i < n);
	const char *a = args[i];
	const char *next = i + 1 < n ? args[i + 1] : NULL;
	int next_ok = next && *next && *next != '-';
	*take = 1;
	for (size_t k = 0; k < sizeof short_flags / sizeof short_flags[0]; k++)
		if (strncmp(a, short_flags[k], 2) == 0) {
			if (a[2])
				return a[2] != '='; /* -I=x is nvcc's spelling of nothing we allow */
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
