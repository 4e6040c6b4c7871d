/* tests/fuzz/fuzz_rules.c: libFuzzer target for the rule loader and the
 * evaluator: YAML front matter, the SQL predicate (read-only authorizer,
 * schema check), regexp() through PCRE2, and message templates.
 *
 * The first input byte picks the mode.  '-' (a rule file starts with its
 * "---" line): the whole input is one rule file, so every built-in rule is a
 * seed as it is.  Any other byte builds a well-formed rule around the rest:
 * the byte picks the scope table, and the rest, split at NUL bytes, gives
 * the `where` predicate, the message template and a `languages` item; this
 * reaches the evaluator far more often than mutated YAML.
 *
 * A rule that loads and passes ka_ruleset_check runs against a small facts
 * database, built once from a kernel file (FUZZ_SOURCE below) analysed with
 * the shim headers.  Errors are data (any return code is fine); a crash,
 * a sanitizer report or a leak is not.
 *
 * Build: cmake -DKA_FUZZ=ON -DCMAKE_C_COMPILER=clang-19 ...; run:
 *   fuzz_rules -max_len=4096 -timeout=10 CORPUS tests/fuzz/seeds_rules */
#include "analyzer/analyzer.h"
#include "rules/engine.h"
#include "rules/rule.h"
#include "util/buf.h"
#include "util/error.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ASan keeps freed memory in a quarantine of 256 MB by default; a long run
 * fills it, and RSS climbs from about 130 MB to about 550 MB without any
 * state of kcheck or libclang surviving a parse (measured: 1,500 runs, 495
 * -> 546 MB by default, 130 -> 138 MB with no quarantine).  64 MB still
 * holds every block freed within one input many times over. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=64";
}

/* Every table a rule can scope, for the structured mode. */
static const char *const scopes[] = {
	"access",       "kernel",  "launch",       "loop",           "branch",
	"barrier",      "call",    "atomic",       "shared_array",   "local_array",
	"param",        "literal", "early_return", "file",           "diag",
	"constant_var", "arch",    "line",         "reduction_loop", "divergent_warp_code",
};

/* A kernel that fills most tables: accesses of every kind, a shared tile,
 * a loop, guards, a barrier, atomics, a launch. */
static const char FUZZ_SOURCE[] =
	"#define TILE 32\n"
	"__constant__ float coef[16];\n"
	"__device__ float sq(float v) { return v * v; }\n"
	"__global__ void __launch_bounds__(256) k(const float *in, float *out, int *hist, int n) {\n"
	"  __shared__ float tile[TILE][TILE];\n"
	"  float loc[8];\n"
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"  if (i >= n) return;\n"
	"  tile[threadIdx.x % TILE][threadIdx.x / TILE] = in[2 * i];\n"
	"  __syncthreads();\n"
	"  float acc = 0.0;\n"
	"  for (int s = 0; s < 8; s++) { loc[s] = tile[s][threadIdx.x % TILE] * coef[s]; acc += loc[s]; }\n"
	"  if (threadIdx.x % 2 == 0) atomicAdd(&hist[i % 16], 1);\n"
	"  out[i] = sq(acc) + __shfl_down_sync(0xffffffff, acc, 1);\n"
	"}\n"
	"void run(const float *a, float *b, int *h, int n) {\n"
	"  float *d; cudaMalloc(&d, n * sizeof(float));\n"
	"  k<<<(n + 255) / 256, 256>>>(a, b, h, n);\n"
	"  cudaDeviceSynchronize();\n"
	"}\n";

static sqlite3 *facts;

/* Build the facts database once; the evaluator only reads it. */
static sqlite3 *facts_db(void)
{
	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (facts)
		return facts;
	snprintf(path, sizeof path, "%s/ka-fuzz-rules-XXXXXX.cu", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemps(path, 3);
	if (fd < 0)
		abort();
	if (write(fd, FUZZ_SOURCE, sizeof FUZZ_SOURCE - 1) != (ssize_t)(sizeof FUZZ_SOURCE - 1))
		abort();
	close(fd);
	o.force_shim = 1;
	if (ka_facts_open(&facts) != KA_OK || ka_analyze_file(&o, path, facts) != KA_OK) {
		fprintf(stderr, "fuzz_rules: cannot build the facts database: %s\n", ka_error_last());
		abort();
	}
	unlink(path);
	return facts;
}

/* Part k of the NUL-separated input (empty when absent). */
static const char *part(const uint8_t *data, size_t size, int k, size_t *len)
{
	size_t start = 0;
	for (size_t i = 0; i <= size; i++) {
		if (i == size || data[i] == 0) {
			if (k-- == 0) {
				*len = i - start;
				return (const char *)data + start;
			}
			start = i + 1;
		}
	}
	*len = 0;
	return "";
}

/* A YAML block scalar: every line of the text indented under `key: |-`. */
static void block_scalar(ka_buf *b, const char *key, const char *s, size_t n)
{
	ka_buf_printf(b, "%s: |-\n  ", key);
	for (size_t i = 0; i < n; i++) {
		ka_buf_addc(b, s[i]);
		if (s[i] == '\n')
			ka_buf_adds(b, "  ");
	}
	ka_buf_addc(b, '\n');
}

static void structured_rule(const uint8_t *data, size_t size, ka_buf *b)
{
	size_t nw, nm, nl;
	const char *where = part(data + 1, size - 1, 0, &nw);
	const char *msg = part(data + 1, size - 1, 1, &nm);
	const char *lang = part(data + 1, size - 1, 2, &nl);

	ka_buf_adds(b, "---\nid: fuzz-rule\ntitle: Fuzzed rule\nseverity: warning\n"
		       "category: memory\n");
	ka_buf_printf(b, "scope: %s\n", scopes[data[0] % (sizeof scopes / sizeof scopes[0])]);
	block_scalar(b, "where", where, nw);
	block_scalar(b, "message", msg, nm);
	ka_buf_adds(b, "fix: none\nfix_safety: suggest\nlanguages: [cuda");
	if (nl) {
		ka_buf_adds(b, ", \"");
		for (size_t i = 0; i < nl; i++)
			if (lang[i] != '"' && lang[i] != '\\' && lang[i] != '\n')
				ka_buf_addc(b, lang[i]);
		ka_buf_adds(b, "\"");
	}
	ka_buf_adds(b, "]\narchitectures: [all]\n---\n## Why\n\nFuzzed.\n");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ka_ruleset *rs = NULL;
	ka_findings found = KA_FINDINGS_INIT;
	ka_eval_opts eo = KA_EVAL_OPTS_INIT;
	sqlite3 *db = facts_db();
	ka_buf text;

	if (size == 0)
		return 0;
	ka_buf_init(&text, 1 << 20);
	if (data[0] == '-') {
		if (ka_buf_add(&text, data, size) != KA_OK)
			goto out;
	} else {
		structured_rule(data, size, &text);
	}
	if (ka_ruleset_new(&rs) != KA_OK)
		goto out;
	/* Errors are data: a rule that does not load or check is skipped. */
	if (ka_ruleset_add_text(rs, "fuzz.md", text.data ? text.data : "", text.len, 0, 0) != KA_OK ||
	    ka_ruleset_check(rs) != KA_OK || ka_ruleset_count(rs) == 0)
		goto out;
	(void)ka_rules_eval(rs, db, &eo, &found);
out:
	ka_findings_free(&found);
	ka_ruleset_free(rs);
	ka_buf_free(&text);
	return 0;
}
