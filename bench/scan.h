/* bench/scan.h: the static gate.  A token scan of a candidate's source
 * (comments and string literals removed) that rejects what a kernel has no
 * business doing inside the harness: creating streams or graphs, launching
 * host functions, starting threads or processes, touching L2 persistence,
 * files, the environment, timers or dynamic loaders, swallowing launch
 * errors, calling the reference, and including headers off an allowlist.
 * When KernelArc's analyzer can answer the same questions it can replace this
 * scan; until then the scan errs on the side of rejecting. */
#ifndef KA_BENCH_SCAN_H
#define KA_BENCH_SCAN_H
#include <stddef.h>

typedef struct ka_bench_finding {
	int line;
	char what[64];      /* the token or header */
	const char *reason; /* static text */
} ka_bench_finding;

/* Scan src[0..len); fills up to max findings and returns how many there were
 * in total (0 = the gate passes). */
int ka_bench_scan(const char *src, size_t len, ka_bench_finding *out, int max);

/* 1 when the header name[0..n) (no quotes or brackets) is on the gate's
 * #include allowlist. */
int ka_bench_header_allowed(const char *name, size_t n);

#endif
