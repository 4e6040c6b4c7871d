/* bench/scan.c: the static gate of bench/scan.h.  One pass: a small lexer
 * strips comments, strings and character literals, handles preprocessor
 * lines (include allowlist, no #pragma omp, no token pasting) and looks every
 * identifier up in the deny table.  Prefix entries (cu[A-Z]..., cudaEvent...,
 * cudaGraph...) cover whole API families. */
#include "bench/scan.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

struct deny {
	const char *name;
	int prefix;
	const char *reason;
};

static const char R_STREAM[] = "creates or names a stream: launch only on the harness's stream";
static const char R_HOST[] = "host callbacks and threads can hide work from the timer";
static const char R_L2[] = "changes L2 persistence or device limits";
static const char R_FILE[] = "touches files, the environment or the process";
static const char R_LIB[] = "loads code at run time";
static const char R_TIMER[] = "events, graphs and clocks belong to the harness";
static const char R_ERR[] = "consumes the launch-error state the harness checks";
static const char R_MEM[] = "host-visible or managed memory can be written behind the timer";
static const char R_REF[] = "the reference and harness symbols are off limits";
static const char R_DEV[] = "device and context control belong to the harness";
static const char R_ASM[] = "inline assembly cannot be checked by the static gate";

static const struct deny deny[] = {
	{"cudaStreamCreate", 1, R_STREAM},
	{"cudaStreamPerThread", 0, R_STREAM},
	{"cudaStreamLegacy", 0, R_STREAM},
	{"cudaStreamNonBlocking", 0, R_STREAM},
	{"cudaStreamBeginCapture", 0, R_TIMER},
	{"cudaStreamEndCapture", 0, R_TIMER},
	{"hipStreamCreate", 1, R_STREAM},
	{"cudaLaunchHostFunc", 0, R_HOST},
	{"cudaStreamAddCallback", 0, R_HOST},
	{"pthread_", 1, R_HOST},
	{"thread", 0, R_HOST},
	{"jthread", 0, R_HOST},
	{"async", 0, R_HOST},
	{"fork", 0, R_FILE},
	{"vfork", 0, R_FILE},
	{"clone", 0, R_HOST},
	{"cudaStreamSetAttribute", 0, R_L2},
	{"cudaCtxResetPersistingL2Cache", 0, R_L2},
	{"cudaDeviceSetLimit", 0, R_L2},
	{"accessPolicyWindow", 0, R_L2},
	{"cudaAccessPolicyWindow", 0, R_L2},
	{"cudaLimitPersistingL2CacheSize", 0, R_L2},
	{"cudaAccessPropertyPersisting", 0, R_L2},
	{"fopen", 0, R_FILE},
	{"freopen", 0, R_FILE},
	{"open", 0, R_FILE},
	{"openat", 0, R_FILE},
	{"creat", 0, R_FILE},
	{"ofstream", 0, R_FILE},
	{"ifstream", 0, R_FILE},
	{"fstream", 0, R_FILE},
	{"unlink", 0, R_FILE},
	{"remove", 0, R_FILE},
	{"rename", 0, R_FILE},
	{"getenv", 0, R_FILE},
	{"secure_getenv", 0, R_FILE},
	{"setenv", 0, R_FILE},
	{"putenv", 0, R_FILE},
	{"unsetenv", 0, R_FILE},
	{"environ", 0, R_FILE},
	{"system", 0, R_FILE},
	{"popen", 0, R_FILE},
	{"exec", 1, R_FILE},
	{"kill", 0, R_FILE},
	{"signal", 0, R_FILE},
	{"sigaction", 0, R_FILE},
	{"atexit", 0, R_FILE},
	{"at_quick_exit", 0, R_FILE},
	{"exit", 0, R_FILE},
	{"_exit", 0, R_FILE},
	{"abort", 0, R_FILE},
	{"setjmp", 0, R_FILE},
	{"longjmp", 0, R_FILE},
	{"constructor", 0, R_FILE},
	{"destructor", 0, R_FILE},
	{"init_priority", 0, R_FILE},
	{"mmap", 0, R_MEM},
	{"mprotect", 0, R_MEM},
	{"dlopen", 0, R_LIB},
	{"dlsym", 0, R_LIB},
	{"dlmopen", 0, R_LIB},
	{"dlvsym", 0, R_LIB},
	{"cudaEvent", 1, R_TIMER},
	{"hipEvent", 1, R_TIMER},
	{"cudaGraph", 1, R_TIMER},
	{"clock_gettime", 0, R_TIMER},
	{"gettimeofday", 0, R_TIMER},
	{"chrono", 0, R_TIMER},
	{"cudaProfilerStart", 0, R_TIMER},
	{"cudaProfilerStop", 0, R_TIMER},
	{"cudaGetLastError", 0, R_ERR},
	{"cudaPeekAtLastError", 0, R_ERR},
	{"hipGetLastError", 0, R_ERR},
	{"cudaMallocManaged", 0, R_MEM},
	{"cudaMallocHost", 0, R_MEM},
	{"cudaHostAlloc", 0, R_MEM},
	{"cudaHostRegister", 0, R_MEM},
	{"cudaHostGetDevicePointer", 0, R_MEM},
	{"cudaSetDevice", 0, R_DEV},
	{"cudaSetDeviceFlags", 0, R_DEV},
	{"cudaDeviceReset", 0, R_DEV},
	{"cudaDeviceSetCacheConfig", 0, R_DEV},
	{"cudaDeviceSetSharedMemConfig", 0, R_DEV},
	{"cudaLaunchCooperativeKernelMultiDevice", 0, R_DEV},
	{"ka_impl_a", 0, R_REF},
	{"ka_impl_b", 0, R_REF},
	{"ka_task_reference", 0, R_REF},
	{"ka_ref_parallel_for", 0, R_REF},
	{"main", 0, R_REF},
	{"asm", 0, R_ASM},
	{"__asm__", 0, R_ASM},
	{"__asm", 0, R_ASM},
};

static const char *const allowed_headers[] = {
	"ka_task.h",
	"cuda_runtime.h",
	"cuda_fp16.h",
	"cuda_bf16.h",
	"cooperative_groups.h",
	"cooperative_groups/reduce.h",
	"cooperative_groups/scan.h",
	"mma.h",
	"cuda_pipeline.h",
	"stdint.h",
	"stddef.h",
	"math.h",
	"float.h",
	"limits.h",
	"stdbool.h",
	"cstdint",
	"cstddef",
	"cmath",
	"cfloat",
	"climits",
	"hip/hip_runtime.h",
	"ka_hip.h",
	"cuda/barrier",
	"cuda/pipeline",
	"cub/cub.cuh",
	"cub/block/block_reduce.cuh",
	"cub/block/block_scan.cuh",
	"cub/warp/warp_reduce.cuh",
	"cub/warp/warp_scan.cuh",
	"cub/block/block_load.cuh",
};

static int has(const char *p, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(p + i, needle, k))
			return 1;
	return 0;
}

struct st {
	ka_bench_finding *out;
	int max, count;
};

static void add(struct st *s, int line, const char *what, size_t n, const char *reason)
{
	if (s->count < s->max) {
		ka_bench_finding *f = &s->out[s->count];
		f->line = line;
		snprintf(f->what, sizeof f->what, "%.*s", (int)(n < 63 ? n : 63), what);
		f->reason = reason;
	}
	s->count++;
}

static void check_ident(struct st *s, int line, const char *id, size_t n)
{
	if (n >= 3 && id[0] == 'c' && id[1] == 'u' && isupper((unsigned char)id[2])) {
		add(s, line, id, n, "the CUDA driver API is off limits (the harness owns the context)");
		return;
	}
	for (size_t i = 0; i < sizeof deny / sizeof deny[0]; i++) {
		size_t dn = strlen(deny[i].name);
		if (deny[i].prefix ? (n >= dn && !memcmp(id, deny[i].name, dn))
				   : (n == dn && !memcmp(id, deny[i].name, dn))) {
			add(s, line, id, n, deny[i].reason);
			return;
		}
	}
}

/* A preprocessor line from p (at '#') to its end; returns the end. */
static const char *directive(struct st *s, int line, const char *p, const char *end)
{
	const char *e = p;
	while (e < end && *e != '\n')
		e++;
	const char *q = p + 1;
	while (q < e && isspace((unsigned char)*q))
		q++;
	if (e - q >= 7 && !memcmp(q, "include", 7)) {
		q += 7;
		while (q < e && isspace((unsigned char)*q))
			q++;
		char close = *q == '<' ? '>' : *q == '"' ? '"' : 0;
		const char *h = q + 1, *he = h;
		while (he < e && *he != close)
			he++;
		int ok = 0;
		for (size_t i = 0; close && i < sizeof allowed_headers / sizeof allowed_headers[0]; i++)
			ok |= strlen(allowed_headers[i]) == (size_t)(he - h) &&
			      !memcmp(h, allowed_headers[i], (size_t)(he - h));
		if (!ok)
			add(s, line, h, (size_t)(he - h), "header is not on the bench's allowlist");
	} else if (e - q >= 6 && !memcmp(q, "pragma", 6) && has(q, (size_t)(e - q), "omp")) {
		add(s, line, "#pragma omp", 11, R_HOST);
	} else if (has(q, (size_t)(e - q), "##")) {
		add(s, line, "##", 2, "token pasting can build names the gate cannot see");
	}
	return e;
}

int ka_bench_scan(const char *src, size_t len, ka_bench_finding *out, int max)
{
	struct st s = {out, max, 0};
	const char *p = src, *end = src + len;
	int line = 1, bol = 1;
	while (p < end) {
		char c = *p;
		if (c == '\n') {
			line++;
			bol = 1;
			p++;
			continue;
		}
		if (c == '\\' && p + 1 < end && p[1] == '\n') {
			line++;
			p += 2;
			continue;
		}
		if (isspace((unsigned char)c)) {
			p++;
			continue;
		}
		if (c == '#' && bol) {
			p = directive(&s, line, p, end);
			continue;
		}
		bol = 0;
		if (c == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		if (c == '/' && p + 1 < end && p[1] == '*') {
			for (p += 2; p < end && !(p[0] == '*' && p + 1 < end && p[1] == '/'); p++)
				if (*p == '\n')
					line++;
			p += 2;
			continue;
		}
		if (c == '"' || c == '\'') {
			for (p++; p < end && *p != c && *p != '\n'; p++)
				if (*p == '\\' && p + 1 < end)
					p++;
			p++;
			continue;
		}
		if (isalpha((unsigned char)c) || c == '_') {
			const char *id = p;
			while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
				p++;
			check_ident(&s, line, id, (size_t)(p - id));
			continue;
		}
		p++;
	}
	return s.count;
}
