/* util/workpool.h: jobs in processes that may die.
 *
 * Each job runs in a child forked for it, at most `parallel` at a time.
 * The child (its own process group, /dev/null as stdin, none of the
 * parent's cleanup registrations) calls run(ctx, i, out), which packs the
 * job's result into out (util/wire.h); the bytes come back through a pipe
 * and the parent hands them to take(ctx, i, bytes, n).  Every tick the
 * parent checks each child's resident memory and age: one over memory_mb
 * is killed (SIGKILL, with its group), one over timeout_s gets SIGTERM
 * (so that what it started goes too) and SIGKILL a second later.  A child
 * killed, dead of a signal, ended with a non-zero status or with bytes
 * take() refuses leaves its job to fail(ctx, i, reason), the reason one
 * line ("the analysis crashed (SIGSEGV)").  When no child can be forked,
 * here(ctx, i) runs the job in this process, unprotected.
 *
 * The parent blocks no signal of its own; util/cleanup.h kills the
 * children's groups when it is interrupted. */
#ifndef KA_UTIL_WORKPOOL_H
#define KA_UTIL_WORKPOOL_H
#include <stddef.h>
#include "util/buf.h"

typedef struct ka_workpool {
	int njobs;
	int parallel;     /* at most this many children at once (>= 1) */
	long memory_mb;   /* resident memory limit per child; <= 0: none */
	int timeout_s;    /* wall-clock limit per child; <= 0: none */
	const char *what; /* the work named in reasons: "the analysis" */
	/* the options that set the limits, named in reasons: "--file-memory" (or NULL) */
	const char *memory_opt, *timeout_opt;
	void *ctx;
	/* In the child: do job i, its result into out; KA_OK or < 0. */
	int (*run)(void *ctx, int i, ka_buf *out);
	/* In the parent: job i's bytes; 1 taken, 0 garbled (then fail() follows). */
	int (*take)(void *ctx, int i, const char *bytes, size_t n);
	/* In the parent: job i failed, why (a line, valid during the call). */
	void (*fail)(void *ctx, int i, const char *why);
	/* In the parent, when no child could be forked: do job i here. */
	void (*here)(void *ctx, int i);
} ka_workpool;

void ka_workpool_run(const ka_workpool *wp);

#endif
