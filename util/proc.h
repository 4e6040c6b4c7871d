/* util/proc.h: run an external tool (nvcc, hipcc) with a time limit and
 * capture what it prints. */
#ifndef KA_UTIL_PROC_H
#define KA_UTIL_PROC_H
#include "util/buf.h"

typedef struct ka_proc_result {
	int exited;      /* 1 when it exited on its own */
	int status;      /* exit status when exited */
	int timed_out;   /* killed at the time limit */
} ka_proc_result;

/* Run argv (argv[0] looked up in PATH) with stdin from /dev/null, stdout and
 * stderr together into out (capped by out's limit, excess dropped).
 * KA_OK when it ran (look at res), KA_ETOOL when it could not start. */
int ka_proc_run(char *const argv[], int timeout_s, ka_buf *out, ka_proc_result *res);

/* The compiler flags a project may give a tool kcheck runs (the compile
 * gate): include and macro flags and -std=, nothing that picks a host
 * compiler, a linker or a plugin (-ccbin, -Xcompiler, --compiler-bindir
 * ... in any spelling).  Looks at args[i]: 1 keep, 0 drop; *take is how
 * many entries the flag spans (2 for `-I dir`), kept or dropped together.
 * A separate value that starts with '-' is refused with its flag. */
int ka_proc_cc_flag(const char *const *args, int n, int i, int *take);

/* An executable: $ENV when set (NULL when that is not executable), else
 * NAME on PATH, else FALLBACK.  Malloc'ed path, or NULL when none exists. */
char *ka_proc_find_tool(const char *env, const char *name, const char *fallback);

/* The nvcc to use: $KCHECK_NVCC, nvcc on PATH, /usr/local/cuda/bin/nvcc;
 * NULL when none exists.  Thread-local storage, valid until the next call. */
const char *ka_proc_find_nvcc(void);

#endif
