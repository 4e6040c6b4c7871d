/* agents/scaffold.h: `kcheck bench init FILE --kernel NAME [--out DIR]`:
 * a bench task (docs/bench.md) scaffolded from one kernel's facts, so that
 * someone with a .cu file and no task can bench and optimize it:
 *   task.yaml     params = the kernel's integer parameters, tensors = its
 *                 pointer parameters (role out when the kernel stores
 *                 through them or an alias of them, else in; dtype from the
 *                 element type; shape from the integer parameters that bound
 *                 or index their accesses), scalars = its floating-point
 *                 parameters, placeholder sizes, tolerance, bytes and FLOPs;
 *   baseline.cu   the file with its host-only parts dropped (main, host
 *                 helpers and timers, headers off the bench's allowlist,
 *                 macros the static gate rejects), each line where it was,
 *                 then a ka_task_run that launches the kernel as the file
 *                 does (its grid and block resolved to the parameters), or
 *                 over its bounds;
 *   expert.cu     a copy of baseline.cu (the best kernel known so far);
 *   reference.cu  a stub that fails until the user writes the reference.
 * A kernel with no size parameter gets one (n, the element count, from
 * the file's grid).  Each guess in task.yaml says "TODO check". */
#ifndef KA_AGENTS_SCAFFOLD_H
#define KA_AGENTS_SCAFFOLD_H
#include "util/buf.h"

/* KA_OK, or a negative KA_E* with a one-line message (no such kernel, a
 * parameter type the bench has no dtype for, DIR exists and is not empty).
 * report (may be NULL) gets what was dropped, how the launch was made, the
 * static gate's findings on baseline.cu and the steps left; *gate_left
 * (may be NULL) the number of those findings. */
int ka_scaffold_task(const char *file, const char *kernel, const char *out_dir, ka_buf *report,
		     int *gate_left);

#endif
