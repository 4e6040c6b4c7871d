/* util/proc.h: run an external program (nvcc, hipcc, objcopy, the bench
 * harness) with a time limit and capture what it prints; find the tools.
 * Programs are never run through a shell: arguments are passed as a
 * vector.  The limit holds until the program and its whole process group
 * are gone, not only until it closes its output. */
#ifndef KA_UTIL_PROC_H
#define KA_UTIL_PROC_H
#include "util/buf.h"

typedef struct ka_proc_result {
	int exited;     /* 1 when it exited on its own */
	int status;     /* exit status when exited; 124 when timed out;
	                    128 + signal when a signal ended it */
	int signal;     /* the signal that ended it, 0 when none did */
	int timed_out;  /* killed at the time limit */
	double seconds; /* wall time */
} ka_proc_result;

/* The channels of a harness run, all owned by the parent: `input` is written
 * to the child's stdin; once the child has written a line "ready" on its
 * fd 3, `late` (may be NULL) follows and stdin is closed; everything the
 * child writes on fd 3 lands in *results (capped by its limit).  So a plan
 * and seeds drawn after the program has loaded travel over pipes, never
 * through a file anyone else can read. */
typedef struct ka_proc_io {
	const char *input;
	const char *late;
	ka_buf *results;
} ka_proc_io;

/* Run argv (argv[0] looked up in PATH) with stdin from /dev/null, stdout and
 * stderr together into out (capped by out's limit, excess dropped; out may
 * be NULL to discard).  timeout_s <= 0 means 600.  KA_OK when it ran (look
 * at res), KA_ETOOL when it could not start or exec failed (status 127). */
int ka_proc_run(char *const argv[], int timeout_s, ka_buf *out, ka_proc_result *res);
/* The same with the channels of io (stdin from /dev/null and no fd 3 when
 * io is NULL).  An exec failure is status 127 here, not an error, with the
 * reason in *out.  KA_OK when it ran, KA_ETOOL when it could not start.
 * Both refuse (KA_EINPUT, message set, nothing started) a program of the
 * nvcc family one of whose arguments its /bin/sh would act on
 * (util/shsafe.h). */
int ka_proc_run_io(char *const argv[], int timeout_s, ka_buf *out, const ka_proc_io *io, ka_proc_result *res);

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

/* The nvcc to use: $KCHECK_NVCC, else $CUDA_HOME/bin/nvcc, else
 * $CUDA_PATH/bin/nvcc, else nvcc on PATH, else /usr/local/cuda/bin/nvcc;
 * NULL when none exists.  Thread-local storage, valid until the next call. */
const char *ka_proc_find_nvcc(void);

#endif
