/* bench/bench.h: KernelArc's bench, the referee that proves a kernel correct
 * and faster on a real GPU (docs/bench.md, BENCH-PROTOCOL).  The kcheck CLI
 * dispatches `kcheck bench ...` here; bench/tool.c wraps it as `ka-bench`. */
#ifndef KA_BENCH_BENCH_H
#define KA_BENCH_BENCH_H
#include "util/cmdopt.h"

/* argv[0] is "bench"; the rest are the `kcheck bench` arguments:
 *   TASK [--candidate FILE] [--baseline FILE] [--configs visible|unseen|all]
 *        [--json] [--compile-only] [--sanitize] [--samples N] [--seed N] [--build-dir DIR]
 *   --suite DIR [--candidate-name FILE] [the same options]
 * Returns the exit status: 0 faster (or compiled with --compile-only),
 * 1 rejected or not faster, 2 error (bad spec, tool failure, no CUDA device). */
int ka_bench_main(int argc, char **argv);
/* Its own options, an option table (util/cmdopt.h) over a struct of
 * bench.c's: for the man page and the completion (cli/tool_complete.c),
 * which print them with the runner's (bench/scale.h). */
const ka_opt *ka_bench_opt_table(void);

#endif
