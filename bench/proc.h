/* bench/proc.h: run an external program (nvcc, objcopy, the harness) with a
 * wall-clock limit, capturing its output.  The bench never goes through a
 * shell: arguments are passed as a vector. */
#ifndef KA_BENCH_PROC_H
#define KA_BENCH_PROC_H
#include "util/buf.h"

typedef struct ka_bench_proc {
	int status;        /* exit status; 128+signal when killed by a signal */
	int timed_out;     /* 1 when the limit ended it (status is then 124) */
	double seconds;    /* wall time */
} ka_bench_proc;

/* Run argv (argv[0] looked up in PATH); stdout+stderr go to *out (capped;
 * may be NULL to discard).  0 when the program ran (whatever its status),
 * KA_ETOOL when it could not be started. */
int ka_bench_proc_run(char *const argv[], int timeout_s, ka_buf *out, ka_bench_proc *res);

#endif
