/* bench/objcheck.h: the static gate on the compiled object.  A token scan of
 * the source is easy to get past (#define, a backslash-newline inside a
 * name, a libc call nobody listed), so the candidate's host object is
 * checked too, with binutils (nm, readelf, objdump):
 *   - it may import only an allowlist of symbols: nvcc's registration and
 *     launch glue, the C++ runtime glue the host compiler emits, the CUDA
 *     runtime calls a kernel wrapper needs, and host math;
 *   - no constructor or destructor beyond nvcc's registration function:
 *     .init_array holds at most that one entry, and there is no .fini_array,
 *     .preinit_array, .ctors or .dtors;
 *   - no host code that enters the kernel directly (syscall, sysenter,
 *     int $0x80: host inline assembly);
 *   - no section that is both writable and executable, no executable stack.
 * Each violation is a finding naming the symbol or section. */
#ifndef KA_BENCH_OBJCHECK_H
#define KA_BENCH_OBJCHECK_H
#include "bench/scan.h"

/* Checks obj; returns the number of findings (0: it passes; up to max are
 * stored), or a negative KA_E* code when the tools could not run. */
int ka_bench_objcheck(const char *obj, ka_bench_finding *out, int max);
/* 1 when a candidate object may import `name`. */
int ka_bench_objcheck_allowed(const char *name);

#endif
