/* tests/analyzer/test_limits.c: the analyzer on hostile input: expressions
 * too deep for a recursive walk, constants whose folding overflows or traps
 * (INT64_MIN / -1), launch shapes that overflow, substitution that doubles
 * a value's tree at every step.  Each must finish with facts that say
 * "unknown" (NULL) or a warning, never a signal or a wrapped number. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "analyzer/analyzer.h"
#include "analyzer/walk.h"
#include "util/buf.h"
#include "util/checked.h"
#include "util/fs.h"
#include "tests/analyzer/src_util.h"

/* No budget: these tests check that the analysis itself finishes (the
 * sanitizer build runs several times slower than a release build). */
static sqlite3 *analyze(const char *path)
{
	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	sqlite3 *db;
	o.force_shim = 1;
	o.budget_s = -1;
	o.budget_mb = -1;
	assert_int_equal(ka_facts_open(&db), 0);
	assert_int_equal(ka_analyze_file(&o, path, db), 0);
	return db;
}

static void checked_helpers(void **state)
{
	int64_t r = 7;
	assert_false(ka_div64(INT64_MIN, -1, &r));
	assert_false(ka_div64(5, 0, &r));
	assert_true(ka_rem64(INT64_MIN, -1, &r));
	assert_int_equal(r, 0);
	assert_false(ka_rem64(5, 0, &r));
	assert_false(ka_mul64(INT64_MAX / 2 + 1, 2, &r));
	assert_false(ka_add64(INT64_MAX, 1, &r));
	assert_false(ka_neg64(INT64_MIN, &r));
	assert_false(ka_shl64(1, 63, &r));
	assert_false(ka_shl64((int64_t)1 << 40, 30, &r));
	assert_true(ka_shl64(-3, 2, &r));
	assert_int_equal(r, -12);
	assert_true(ka_shr64(-5, 1, &r));
	assert_int_equal(r, -3);
	(void)state;
}

/* Folding never traps and never wraps: the node stays symbolic. */
static void fold_overflow_stays_symbolic(void **state)
{
	ka_arena *a = ka_arena_new();
	sx_ctx c;
	sx_ctx_init(&c, a);
	const sx *min = sx_const(&c, INT64_MIN), *m1 = sx_const(&c, -1);
	int64_t v;
	assert_false(sx_is_const(sx_bin(&c, SX_DIV, min, m1), NULL));
	assert_true(sx_is_const(sx_bin(&c, SX_REM, min, m1), &v));
	assert_int_equal(v, 0);
	assert_false(sx_is_const(sx_mul(&c, sx_const(&c, INT64_MAX), sx_const(&c, 2)), NULL));
	assert_false(sx_is_const(sx_add(&c, sx_const(&c, INT64_MAX), sx_const(&c, 1)), NULL));
	assert_false(sx_is_const(sx_neg(&c, min), NULL));
	assert_null(sx_div_exact(&c, min, -1));
	/* The constant term of tx + MAX + MAX overflows: unknown, not wrapped. */
	int tx = sx_new_sym(&c, SYM_TID_X, "threadIdx.x", D_TX, 0);
	const sx *t = sx_add(&c, sx_add(&c, sx_symref(&c, tx), sx_const(&c, INT64_MAX)), sx_symref(&c, tx));
	t = sx_add(&c, t, sx_const(&c, INT64_MAX));
	assert_false(sx_const_term(t, &v));
	ka_arena_free(a);
	(void)state;
}

/* x = x + x, sixty times: a tree of 2^60 nodes if walked as a tree. */
static void doubling_tree_becomes_opaque(void **state)
{
	ka_arena *a = ka_arena_new();
	sx_ctx c;
	sx_ctx_init(&c, a);
	int tx = sx_new_sym(&c, SYM_TID_X, "threadIdx.x", D_TX, 0);
	const sx *x = sx_symref(&c, tx);
	for (int i = 0; i < 60; i++)
		x = sx_bin(&c, SX_XOR, x, x);
	assert_int_equal(x->k, SX_OPAQUE);
	assert_true(x->dep & D_TX);
	x = sx_symref(&c, tx);
	for (int i = 0; i < 5000; i++)
		x = sx_bin(&c, SX_XOR, x, sx_symref(&c, tx));
	assert_true(x->depth <= SX_MAX_DEPTH);
	ka_arena_free(a);
	(void)state;
}

static char *sum_source(int terms)
{
	ka_buf b;
	ka_buf_init(&b, 1 << 22);
	ka_buf_adds(&b, "__global__ void k(int *p, int a) {\n  p[threadIdx.x] = a");
	for (int i = 1; i < terms; i++)
		ka_buf_adds(&b, " + a");
	ka_buf_adds(&b, ";\n  p[threadIdx.x + 1] = 2;\n}\n");
	return ka_buf_steal(&b);
}

/* A 20,000-term sum: the walk finishes, the accesses are still there, and
 * the file gets a warning on the cut expression. */
static void deep_sum_is_cut_with_a_warning(void **state)
{
	char *src = sum_source(20000);
	const char *p = write_src("deep.cu", src);
	free(src);
	sqlite3 *db = analyze(p);
	assert_int_equal(q(db, "SELECT count(*) FROM access WHERE base = 'p'"), 2);
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE severity = 'warning' AND"
			       " message LIKE 'expression too deep%' AND line = 2"),
			 1);
	sqlite3_close(db);
	(void)state;
}

/* An else-if chain is deep in statements, not in expressions. */
static void deep_else_if_chain(void **state)
{
	ka_buf b;
	ka_buf_init(&b, 1 << 22);
	ka_buf_adds(&b, "__global__ void k(int *p, int a) {\n");
	for (int i = 0; i < 3000; i++)
		ka_buf_printf(&b, "  if (a == %d) p[threadIdx.x] = %d; else\n", i, i);
	ka_buf_adds(&b, "  p[0] = 0;\n}\n");
	char *src = ka_buf_steal(&b);
	const char *p = write_src("chain.cu", src);
	free(src);
	sqlite3 *db = analyze(p);
	assert_true(q(db, "SELECT count(*) FROM access") > 10);
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE message LIKE 'expression too deep%'"), 1);
	sqlite3_close(db);
	(void)state;
}

/* The walker's fixed depths (loops, conditions, inlining) are not silent:
 * past one a warning names the function and the line, once per function
 * and kind, and the facts of the rest are still written. */
static void walk_limits_are_reported(void **state)
{
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_buf_adds(&b, "__device__ int d0(int x) { return x + 1; }\n");
	for (int i = 1; i <= 8; i++)
		ka_buf_printf(&b, "__device__ int d%d(int x) { return d%d(x) + 1; }\n", i, i - 1);
	ka_buf_adds(&b, "__global__ void deep(float *p, int n) {\n"); /* line 10 */
	for (int i = 0; i < 18; i++)
		ka_buf_printf(&b, "  for (int i%d = 0; i%d < n; i%d++)\n", i, i, i); /* 11..28 */
	ka_buf_adds(&b, "  p[threadIdx.x] += 1.0f;\n");
	for (int i = 0; i < 34; i++)
		ka_buf_printf(&b, "  if (threadIdx.x > %d)\n", i); /* 30..63 */
	ka_buf_adds(&b, "  p[threadIdx.x] = 2.0f;\n  p[0] = d8(n);\n}\n");
	ka_buf_adds(&b, "__global__ void shallow(float *p) { p[threadIdx.x] = 0; }\n");
	char *src = ka_buf_steal(&b);
	const char *path = write_src("walk_limits.cu", src);
	free(src);
	sqlite3 *db = analyze(path);
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE message = 'analysis limit reached in "
			       "deep at line 27: more than 16 nested loops: the inner ones are analysed "
			       "without their loop context' AND line = 27 AND severity = 'warning'"),
			 1);
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE message LIKE 'analysis limit reached in "
			       "deep at line 62: more than 32 nested conditions:%'"),
			 1);
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE message LIKE 'analysis limit reached in "
			       "deep at line % device calls nested more than 6 deep:%'"),
			 1);
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE message LIKE 'analysis limit%in deep %'"), 3);
	/* d8 and d7, walked as device functions of their own, nest 8 and 7 deep */
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE message LIKE 'analysis limit reached in "
			       "d8 at line 3: device calls%'"),
			 1);
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE message LIKE 'analysis limit%'"), 5);
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE message LIKE '%in shallow%'"), 0);
	/* the walk went on: the innermost accesses and every loop row are there */
	assert_int_equal(q(db, "SELECT count(*) FROM access WHERE kernel = 'deep' AND line = 29"), 1);
	assert_int_equal(q(db, "SELECT count(*) FROM loop WHERE kernel = 'deep'"), 16);
	assert_int_equal(q(db, "SELECT count(*) FROM access WHERE kernel = 'shallow'"), 1);
	sqlite3_close(db);
	(void)state;
}

/* Constants that trap (INT64_MIN / -1) or wrap, in indices and launches. */
static void overflowing_constants(void **state)
{
	const char *p = write_src("fpe.cu",
				  "__global__ void k(float *p) {\n"
				  "  long long m = -9223372036854775807LL - 1;\n"
				  "  p[threadIdx.x + m / -1] = 0;\n"
				  "  p[threadIdx.x + m % -1] = 1;\n"
				  "  p[threadIdx.x + 9223372036854775807LL + 9223372036854775807LL] = 2;\n"
				  "  p[threadIdx.x * 4611686018427387904LL * 4] = 3;\n"
				  "}\n"
				  "void h(float *p) {\n"
				  "  k<<<1, 65536 * 65536>>>(p);\n"
				  "  k<<<-16, -16>>>(p);\n"
				  "  k<<<dim3(2147483647, 65535, 65535), dim3(1024, 1024, 1024)>>>(p);\n"
				  "  k<<<1, 32, -1>>>(p);\n"
				  "}\n");
	sqlite3 *db = analyze(p);
	/* m % -1 is 0: a plain coalesced access. */
	assert_int_equal(q(db, "SELECT sectors_per_request FROM access WHERE line = 4"), 4);
	assert_int_equal(q(db, "SELECT count(*) FROM access WHERE ideal_sectors < 1"), 0);
	assert_int_equal(q(db, "SELECT count(*) FROM access WHERE sectors_per_request < 1"), 0);
	assert_int_equal(q(db, "SELECT sectors_per_request FROM access WHERE line = 3"), -1);
	assert_int_equal(q(db, "SELECT sectors_per_request FROM access WHERE line = 5"), -1);
	assert_int_equal(q(db, "SELECT count(*) FROM launch"), 4);
	assert_int_equal(q(db, "SELECT count(*) FROM launch WHERE block_threads IS NOT NULL"
			       " AND block_threads < 1"),
			 0);
	assert_int_equal(q(db, "SELECT count(*) FROM launch WHERE grid_blocks IS NOT NULL"
			       " AND grid_blocks < 1"),
			 0);
	assert_int_equal(q(db, "SELECT block_threads FROM launch WHERE line = 9"), -1);
	assert_int_equal(q(db, "SELECT block_threads FROM launch WHERE line = 10"), -1);
	/* 2^31-1 * 65535^2 blocks fits in 64 bits: kept.  1024^3 threads does
	 * not fit an int: unknown. */
	assert_int_equal(q(db, "SELECT grid_blocks FROM launch WHERE line = 11"),
			 2147483647LL * 65535 * 65535);
	assert_int_equal(q(db, "SELECT block_threads FROM launch WHERE line = 11"), 1024LL * 1024 * 1024);
	assert_int_equal(q(db, "SELECT dyn_smem FROM launch WHERE line = 12"), -1);
	assert_int_equal(q(db, "SELECT count(*) FROM kernel WHERE block_threads < 1"), 0);
	sqlite3_close(db);
	(void)state;
}

/* __launch_bounds__ at INT_MAX and a 3-D launch whose product overflows an
 * int: the kernel row and the warp model stay in range. */
static void huge_block_shapes(void **state)
{
	const char *p = write_src(
		"lb.cu", "__global__ void __launch_bounds__(2147483647) k(float *p) { p[threadIdx.x] = 0; }\n"
			 "__global__ void j(float *p) { p[threadIdx.x + threadIdx.y] = 0; }\n"
			 "void h(float *p) { j<<<1, dim3(65536, 65536, 2)>>>(p); }\n");
	sqlite3 *db = analyze(p);
	assert_int_equal(q(db, "SELECT block_threads FROM kernel WHERE name = 'k'"), 2147483647);
	assert_int_equal(q(db, "SELECT count(*) FROM kernel WHERE block_threads < 1"), 0);
	assert_int_equal(q(db, "SELECT lanes FROM access WHERE kernel = 'k'"), 32);
	assert_int_equal(q(db, "SELECT count(*) FROM access WHERE ideal_sectors < 1"), 0);
	sqlite3_close(db);
	(void)state;
}

/* Sixty doublings of a local: the analysis finishes quickly. */
static void doubling_locals_finish(void **state)
{
	ka_buf b;
	ka_buf_init(&b, 1 << 16);
	ka_buf_adds(&b, "__global__ void k(int *p) {\n  int x0 = threadIdx.x;\n");
	for (int i = 1; i <= 60; i++)
		ka_buf_printf(&b, "  int x%d = x%d * x%d + x%d;\n", i, i - 1, i - 1, i - 1);
	ka_buf_adds(&b, "  p[x60] = 1;\n}\n");
	char *src = ka_buf_steal(&b);
	const char *p = write_src("double.cu", src);
	free(src);
	/* an exponential walk would not end: ctest's timeout is the bound
	 * (no wall-clock assertion here) */
	sqlite3 *db = analyze(p);
	assert_int_equal(q(db, "SELECT count(*) FROM access"), 1);
	sqlite3_close(db);
	(void)state;
}

static char *many_kernels(int n)
{
	ka_buf b;
	ka_buf_init(&b, 1 << 24);
	for (int i = 0; i < n; i++)
		ka_buf_printf(&b,
			      "__global__ void k%d(const float *in, float *out, int n) {\n"
			      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			      "  float acc = 0.0f;\n"
			      "  if (i < n) acc = in[i];\n"
			      "  for (int j = 0; j < 4; j++) acc += in[i + j];\n"
			      "  if (i < n) out[i] = acc;\n}\n",
			      i);
	ka_buf_adds(&b, "void all(const float *a, float *b, int n) {\n");
	for (int i = 0; i < n; i++)
		ka_buf_printf(&b, "  k%d<<<n / 128, 128>>>(a, b, n);\n", i);
	ka_buf_adds(&b, "}\n");
	return ka_buf_steal(&b);
}

static double cpu_of(int n, sqlite3 **keep)
{
	char name[64];
	snprintf(name, sizeof name, "many%d.cu", n);
	char *src = many_kernels(n);
	const char *p = write_src(name, src);
	free(src);
	clock_t t0 = clock();
	sqlite3 *db = analyze(p);
	double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_int_equal(q(db, "SELECT count(*) FROM kernel"), n);
	assert_int_equal(q(db, "SELECT count(*) FROM launch WHERE block_threads = 128"), n);
	assert_int_equal(q(db, "SELECT count(*) FROM kernel WHERE block_source = 'launch'"), n);
	if (keep)
		*keep = db;
	else
		sqlite3_close(db);
	return s;
}

/* Twelve times the kernels costs about twelve times the CPU, not 144: the
 * walk state was once sized by the whole file and copied at every branch.
 * The bound leaves room for noise and fixed costs. */
static void cost_is_linear_in_kernels(void **state)
{
	double small = cpu_of(500, NULL);
	sqlite3 *db = NULL;
	double big = cpu_of(6000, &db);
	print_message("500 kernels: %.2f s CPU, 6000 kernels: %.2f s CPU (x%.1f)\n", small, big,
		      big / (small > 0.01 ? small : 0.01));
	assert_true(big < 20 * (small > 0.05 ? small : 0.05));
	/* One kernel's facts are what the same kernel alone gives. */
	assert_int_equal(q(db, "SELECT count(*) FROM access WHERE kernel = 'k5999'"),
			 q(db, "SELECT count(*) FROM access WHERE kernel = 'k0'"));
	assert_int_equal(q(db, "SELECT count(*) FROM loop WHERE kernel = 'k5999' AND trip_count = 4"), 1);
	sqlite3_close(db);
	(void)state;
}

static sqlite3 *analyze_budget(const char *path, double secs, long mb)
{
	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	sqlite3 *db;
	o.force_shim = 1;
	o.budget_s = secs;
	o.budget_mb = mb;
	assert_int_equal(ka_facts_open(&db), 0);
	assert_int_equal(ka_analyze_file(&o, path, db), 0);
	return db;
}

/* A spent budget ends the walk with a warning naming the function, and
 * keeps the facts written before it. */
static void budget_exceeded_is_a_warning(void **state)
{
	char *src = many_kernels(300);
	const char *p = write_src("budget.cu", src);
	free(src);
	sqlite3 *db = analyze_budget(p, 1e-9, 0);
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE severity = 'warning' AND"
			       " message LIKE 'analysis budget exceeded in %'"),
			 1);
	assert_true(q(db, "SELECT count(*) FROM kernel") < 300);
	sqlite3_close(db);
	db = analyze_budget(p, 0, 1);
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE"
			       " message LIKE 'analysis budget exceeded in % MB per file)%'"),
			 1);
	sqlite3_close(db);
	db = analyze_budget(p, -1, -1);
	assert_int_equal(q(db, "SELECT count(*) FROM diag"), 0);
	assert_int_equal(q(db, "SELECT count(*) FROM kernel"), 300);
	sqlite3_close(db);
	(void)state;
}

#if !defined(__SANITIZE_ADDRESS__)
static long rss_kb(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}
#endif

/* Nothing of a parse outlives it: the same file under a new name each time
 * (as the fuzzer writes its inputs), 150 times, and the resident size
 * after warm-up stays put.  Under ASan freed memory sits in the quarantine
 * (256 MB by default) and RSS grows by design, so the check is for builds
 * without it. */
static void parse_state_does_not_persist(void **state)
{
#if defined(__SANITIZE_ADDRESS__)
	skip();
#else
	const char *src = "__global__ void k(const float *a, float *b, int n) {\n"
			  "  __shared__ float t[128];\n"
			  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			  "  if (i < n) t[threadIdx.x] = a[i * 2];\n"
			  "  __syncthreads();\n"
			  "  for (int j = 0; j < 4; j++) b[i] += t[(threadIdx.x + j) % 128];\n"
			  "}\n"
			  "void h(const float *a, float *b, int n) { k<<<n / 128, 128>>>(a, b, n); }\n";
	long warm = 0;
	for (int i = 0; i < 150; i++) {
		char name[64];
		snprintf(name, sizeof name, "persist%d.cu", i);
		const char *p = write_src(name, src);
		sqlite3 *db = analyze(p);
		assert_int_equal(q(db, "SELECT count(*) FROM access"), 4);
		sqlite3_close(db);
		unlink(p);
		if (i == 29)
			warm = rss_kb();
	}
	long grown = rss_kb() - warm;
	print_message("RSS after 30 parses %ld KB, after 150: +%ld KB\n", warm, grown);
	assert_true(grown < 3072);
#endif
	(void)state;
}

int main(void)
{
	if (src_dir_make("/tmp/ka-limits-test-XXXXXX") != 0)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(checked_helpers),
		cmocka_unit_test(fold_overflow_stays_symbolic),
		cmocka_unit_test(doubling_tree_becomes_opaque),
		cmocka_unit_test(deep_sum_is_cut_with_a_warning),
		cmocka_unit_test(deep_else_if_chain),
		cmocka_unit_test(walk_limits_are_reported),
		cmocka_unit_test(overflowing_constants),
		cmocka_unit_test(huge_block_shapes),
		cmocka_unit_test(doubling_locals_finish),
		cmocka_unit_test(cost_is_linear_in_kernels),
		cmocka_unit_test(budget_exceeded_is_a_warning),
		cmocka_unit_test(parse_state_does_not_persist),
	};
	int failed = cmocka_run_group_tests_name("analyzer_limits", tests, NULL, NULL);
	src_dir_remove();
	return failed ? 1 : 0;
}
