/* bench/proc.h: run an external program (nvcc, objcopy, the harness) with a
 * wall-clock limit, capturing its output.  The bench never goes through a
 * shell: arguments are passed as a vector.  The limit holds until the
 * program and its whole process group are gone, not only until it closes
 * its output. */
#ifndef KA_BENCH_PROC_H
#define KA_BENCH_PROC_H
#include <stddef.h>
#include "util/buf.h"

typedef struct ka_bench_proc {
	int status;        /* exit status; 128+signal when killed by a signal */
	int timed_out;     /* 1 when the limit ended it (status is then 124) */
	double seconds;    /* wall time */
} ka_bench_proc;

/* The channels of a harness run, all owned by the parent: `input` is written
 * to the child's stdin; once the child has written a line "ready" on its
 * fd 3, `late` follows and stdin is closed; everything the child writes on
 * fd 3 lands in *results.  So a plan and the seeds drawn after the program
 * has loaded travel over pipes, never through a file anyone else can read. */
typedef struct ka_bench_proc_io {
	const char *input;
	const char *late;
	ka_buf *results;
} ka_bench_proc_io;

/* Run argv (argv[0] looked up in PATH); stdout+stderr go to *out (capped;
 * may be NULL to discard).  0 when the program ran (whatever its status),
 * KA_ETOOL when it could not be started. */
int ka_bench_proc_run(char *const argv[], int timeout_s, ka_buf *out, ka_bench_proc *res);
/* The same with the channels of io (stdin from /dev/null when io is NULL). */
int ka_bench_proc_run_io(char *const argv[], int timeout_s, ka_buf *out, const ka_bench_proc_io *io,
			 ka_bench_proc *res);

#endif
