/* tests/bench/test_bench.c: unit tests of the bench that need no GPU:
 * shape expressions, task specs (good and bad, exact messages), the
 * statistics on known data, the suite score, the static gate on every
 * forbidden construct, and the process runner's time limit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench/expr.h"
#include "util/proc.h"
#include "bench/runner.h"
#include "bench/scan.h"
#include "bench/score.h"
#include "bench/spec.h"
#include "bench/stats.h"
#include "util/error.h"

static long long ev(const char *e, int *rc)
{
	static const char *const names[] = {"rows", "cols", "n"};
	static const long long vals[] = {1000, 7, 1 << 20};
	long long v = -1;
	*rc = ka_bench_expr_eval(e, names, vals, 3, &v);
	return v;
}

static void test_expr_values(void **state)
{
	int rc;
	(void)state;
	assert_int_equal(ev("rows*cols", &rc), 7000);
	assert_int_equal(ev("4*cdiv(n,256) + 65536", &rc), 4 * 4096 + 65536);
	assert_int_equal(ev("cdiv(rows, 3)", &rc), 334);
	assert_int_equal(ev("min(rows, cols) - max(1, 2)", &rc), 5);
	assert_int_equal(ev("(rows + 1) % 7", &rc), 0);
	assert_int_equal(ev("-cols + 10", &rc), 3);
	assert_int_equal(ev(" 2 * ( rows - 1 ) / 3 ", &rc), 666);
	assert_int_equal(rc, 0);
}

static void test_expr_errors(void **state)
{
	int rc;
	(void)state;
	ev("rows*depth", &rc);
	assert_int_equal(rc, KA_EINPUT);
	assert_string_equal(ka_error_last(), "expression \"rows*depth\": unknown name 'depth' at offset 10");
	ev("rows/(cols-7)", &rc);
	assert_int_equal(rc, KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "division by zero"));
	ev("n*n*n*n", &rc);
	assert_int_equal(rc, KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "overflow"));
	ev("rows +", &rc);
	assert_int_equal(rc, KA_EINPUT);
	ev("rows cols", &rc);
	assert_int_equal(rc, KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "trailing"));
}

static const char good[] =
	"name: t\ncategory: c\nparams: [rows, cols]\n"
	"tensors:\n"
	"  - {name: x, role: in, dtype: f32, shape: [rows, cols], dist: {kind: uniform, lo: -2, hi: 3}}\n"
	"  - {name: k, role: in, dtype: i32, shape: cols, dist: {kind: int, lo: 0, hi: 9},"
	" adversarial: {kind: int, lo: 0, hi: 1}}\n"
	"  - {name: y, role: out, dtype: f64, shape: rows}\n"
	"scalars:\n  - {name: alpha, lo: 1, hi: 2}\n"
	"tolerance: {atol: 1e-6, rtol: 1e-5, l2: 1e-4}\n"
	"deterministic: false\nworkspace: 4*rows\nbytes: 4*rows*cols\nflops: 2*rows*cols\n"
	"configs:\n  visible:\n    - {name: a, rows: 3, cols: 5}\n  unseen:\n    - {name: b, rows: 1000, cols: 1001}\n";

static void test_spec_good(void **state)
{
	static ka_bench_spec s;
	(void)state;
	assert_int_equal(ka_bench_spec_parse(good, strlen(good), "t.yaml", &s), 0);
	assert_string_equal(s.name, "t");
	assert_int_equal(s.nparams, 2);
	assert_int_equal(s.ntensors, 3);
	assert_int_equal(s.t[0].dtype, KA_BENCH_F32);
	assert_int_equal(s.t[2].out, 1);
	assert_string_equal(s.t[0].shape, "(rows)*(cols)");
	/* default adversarial draw: 100x the magnitude, both signs */
	assert_true(s.t[0].adversarial.a == -300.0 && s.t[0].adversarial.b == 300.0);
	assert_true(s.t[1].adversarial.b == 1.0);
	assert_int_equal(s.nscalars, 1);
	assert_int_equal(s.deterministic, 0);
	assert_true(s.rtol == 1e-5 && s.l2 == 1e-4);
	assert_int_equal(s.nconfigs, 2);
	assert_int_equal(s.c[0].n[0], 15);
	assert_int_equal(s.c[0].n[1], 5);
	assert_int_equal(s.c[1].n[0], 1001000);
	assert_int_equal(s.c[1].unseen, 1);
	assert_int_equal(s.c[1].work, 4000);
	assert_int_equal(s.c[1].flops, 2002000);
}

/* A mixed reduced-precision task: bf16 and f16 inputs, a bf16 output, an
 * fp32 accumulator by default and another when the spec names it; the
 * drawn sizes count 2 bytes per element against max_bytes. */
static void test_spec_lowp(void **state)
{
	static ka_bench_spec s;
	static const char lowp[] =
		"name: t\ncategory: c\nparams: [n]\n"
		"tensors:\n"
		"  - {name: x, role: in, dtype: bf16, shape: n, dist: {kind: normal, mean: 0, std: 1}}\n"
		"  - {name: g, role: in, dtype: f16, shape: n, dist: {kind: uniform, lo: 0, hi: 2}}\n"
		"  - {name: y, role: out, dtype: bf16, shape: n}\n"
		"tolerance: {atol: 0, rtol: 0, l2: 0}\nbytes: 6*n\nflops: n\nreduction: n\n"
		"configs:\n  visible:\n    - {name: a, n: 7}\n  unseen:\n    - {name: b, n: 9}\n"
		"unseen: {draw: 4, n: [1, 100000000], max_bytes: 600000}\n";
	(void)state;
	assert_int_equal(ka_bench_spec_parse(lowp, strlen(lowp), "t.yaml", &s), 0);
	assert_int_equal(s.t[0].dtype, KA_BENCH_BF16);
	assert_int_equal(s.t[1].dtype, KA_BENCH_F16);
	assert_string_equal(ka_bench_dtype_name(s.t[2].dtype), "bf16");
	assert_int_equal(ka_bench_dtype_bytes(KA_BENCH_BF16), 2);
	assert_int_equal(ka_bench_dtype_bytes(KA_BENCH_F16), 2);
	assert_int_equal(ka_bench_dtype_bytes(KA_BENCH_F64), 8);
	assert_int_equal(s.accumulate, KA_BENCH_F32);
	assert_int_equal(ka_bench_spec_draw(&s, 12345), 0);
	for (int i = 2; i < s.nconfigs; i++) /* 6 bytes per n fit 600000 bytes: n <= 100000 */
		assert_true(s.c[i].p[0] <= 100000 && s.c[i].drawn);
	char text[2048];
	snprintf(text, sizeof text, "%saccumulate: bf16\n", lowp);
	assert_int_equal(ka_bench_spec_parse(text, strlen(text), "t.yaml", &s), 0);
	assert_int_equal(s.accumulate, KA_BENCH_BF16);
}

/* Replaces the first `from` in good by `to` and expects that error. */
static void bad_spec(const char *from, const char *to, const char *expect)
{
	static ka_bench_spec s;
	char text[4096];
	const char *p = strstr(good, from);
	assert_non_null(p);
	snprintf(text, sizeof text, "%.*s%s%s", (int)(p - good), good, to, p + strlen(from));
	assert_int_equal(ka_bench_spec_parse(text, strlen(text), "t.yaml", &s), KA_EINPUT);
	assert_string_equal(ka_error_last(), expect);
}

static void test_spec_bad(void **state)
{
	(void)state;
	bad_spec("name: t\n", "", "t.yaml: missing or non-scalar field 'name'");
	bad_spec("dtype: f64", "dtype: fp16", "t.yaml: unknown dtype 'fp16' (f32, f64, i32, u32, f16, bf16)");
	bad_spec("deterministic: false\n", "accumulate: i32\n",
		 "t.yaml: 'accumulate' must be a floating dtype (f32, f64, f16, bf16), not 'i32'");
	bad_spec("deterministic: false\n", "accumulate: half\n",
		 "t.yaml: 'accumulate' must be a floating dtype (f32, f64, f16, bf16), not 'half'");
	bad_spec("role: out", "role: inout", "t.yaml: tensor role must be in or out, not 'inout'");
	bad_spec("kind: uniform", "kind: zipf",
		 "t.yaml: unknown distribution kind 'zipf' (uniform, normal, int)");
	bad_spec("lo: -2, hi: 3", "lo: 3, hi: -2", "t.yaml: tensor 'x': distribution has hi < lo");
	bad_spec("shape: rows}", "shape: rows*depth}",
		 "t.yaml: config 'a', y: expression \"rows*depth\": unknown name 'depth' at offset 10");
	bad_spec("cols: 5}", "}", "t.yaml: a config lacks parameter 'cols'");
	bad_spec("cols: 5}", "cols: five}", "t.yaml: parameter 'cols' must be a non-negative integer");
	bad_spec("cols: 5}", "cols: 0}", "t.yaml: tensor 'x' has no elements in a config");
	bad_spec("atol: 1e-6", "atol: tiny", "t.yaml: 'atol' is not a number");
	bad_spec("tolerance: {atol: 1e-6, rtol: 1e-5, l2: 1e-4}\n", "",
		 "t.yaml: missing 'tolerance' (atol, rtol, l2)");
	bad_spec("  unseen:\n    - {name: b, rows: 1000, cols: 1001}\n", "",
		 "t.yaml: configs need at least one 'unseen' entry");
	bad_spec("name: b,", "name: a,", "t.yaml: duplicate config name 'a'");
	bad_spec("flops: 2*rows*cols\n", "flops: 2*rows*\n",
		 "t.yaml: config 'a', flops: expression \"2*rows*\": unexpected end at offset 7");
	bad_spec("name: t\n", "name: [t\n", "t.yaml:2: YAML error: did not find expected ',' or ']'");
}

static void test_spec_load_missing(void **state)
{
	static ka_bench_spec s;
	(void)state;
	assert_int_equal(ka_bench_spec_load("/nonexistent/task", &s), KA_EIO);
	assert_string_equal(ka_error_last(), "no task spec at /nonexistent/task/task.yaml");
}

static void test_stats_summary(void **state)
{
	const double v[] = {5, 1, 4, 2, 3, 100, 6, 7, 8}; /* sorted: 1..8, 100 */
	(void)state;
	ka_bench_summary m = ka_bench_summarize(v, 9);
	assert_true(m.median == 5.0);
	assert_true(m.q1 == 3.0 && m.q3 == 7.0 && m.iqr == 4.0);
	assert_true(m.min == 1.0 && m.max == 100.0);
	const double e[] = {1, 2, 3, 4};
	assert_true(fabs(ka_bench_quantile(e, 4, 0.5) - 2.5) < 1e-12);
	assert_true(fabs(ka_bench_quantile(e, 4, 0.25) - 1.75) < 1e-12);
}

static void test_stats_bootstrap(void **state)
{
	double a[60], b[60], med, lo, hi;
	(void)state;
	/* b is exactly half of a with +-1% alternating noise: speedup 2, tight CI */
	for (int i = 0; i < 60; i++) {
		a[i] = 100.0 + i % 7;
		b[i] = a[i] / 2.0 * (i % 2 ? 1.01 : 0.99);
	}
	ka_bench_speedup_ci(a, b, 60, 2000, 42, &med, &lo, &hi);
	assert_true(fabs(med - 2.0) < 0.03);
	assert_true(lo <= med && med <= hi);
	assert_true(lo > 1.9 && hi < 2.1);
	/* identical distributions: the CI must contain 1 */
	for (int i = 0; i < 60; i++)
		b[i] = 100.0 + (i * 3) % 7;
	ka_bench_speedup_ci(a, b, 60, 2000, 7, &med, &lo, &hi);
	assert_true(lo <= 1.0 && hi >= 1.0);
	/* deterministic for one seed */
	double lo2, hi2, med2;
	ka_bench_speedup_ci(a, b, 60, 2000, 7, &med2, &lo2, &hi2);
	assert_true(lo == lo2 && hi == hi2);
	const double *pa[2] = {a, a}, *pb[2] = {b, b};
	size_t n[2] = {60, 60};
	ka_bench_geomean_ci(pa, pb, n, 2, 500, 3, &lo, &hi);
	assert_true(lo <= 1.0 && hi >= 1.0);
}

static void test_stats_geomean(void **state)
{
	const double v[] = {2, 8, 0.5}, w[] = {100, 1.0 / 100};
	(void)state;
	assert_true(fabs(ka_bench_geomean(v, 3, 0, 0) - 2.0) < 1e-12);
	assert_true(fabs(ka_bench_geomean(w, 2, 1.0 / 8, 8) - 1.0) < 1e-12);
	const double x[] = {64, 1};
	assert_true(fabs(ka_bench_geomean(x, 2, 1.0 / 8, 8) - sqrt(8.0)) < 1e-12);
}

static void test_score(void **state)
{
	ka_bench_task_score t[4] = {
		{1, 1, 1, 2.0, 1.6, 2.0, 2.0, 0.5, 0.8},     /* fast_1.0, 1.1, 1.5 */
		{1, 1, 1, 1.05, 0.98, 1.1, 1.0, 0.3, NAN},   /* CI contains 1: counts nowhere */
		{0, 1, 0, 3.0, 2.5, 3.0, 0, 0.9, 0.9},       /* failed unseen: scores 1/8 */
		{1, 1, 1, 64.0, 40.0, 64.0, 64.0, 0.2, 0.4}, /* clipped to 8 */
	};
	ka_bench_suite_score s;
	(void)state;
	ka_bench_score(t, 4, &s);
	assert_int_equal(s.tasks, 4);
	assert_int_equal(s.passed, 3);
	assert_true(s.correct_visible == 1.0 && s.correct_unseen == 0.75);
	assert_true(fabs(s.gap_correct - 0.25) < 1e-12);
	assert_true(s.fast_p[0] == 0.5 && s.fast_p[1] == 0.5 && s.fast_p[2] == 0.5 && s.fast_p[3] == 0.25);
	assert_true(fabs(s.geomean - pow(2.0 * 1.05 * 0.125 * 8.0, 0.25)) < 1e-12);
	assert_true(fabs(s.roof_mean - (0.5 + 0.3 + 0.2) / 3) < 1e-12);
	/* over the passed tasks that have large configs: not the second, nor the failed third */
	assert_true(fabs(s.roof_large_mean - (0.8 + 0.4) / 2) < 1e-12);
	assert_true(fabs(s.gap_speedup - pow(1.1, 1.0 / 3)) < 1e-9);
}

static int scan_one(const char *src, char *what, size_t cap)
{
	ka_bench_finding f[4];
	int n = ka_bench_scan(src, strlen(src), f, 4);
	if (n && what)
		snprintf(what, cap, "%s", f[0].what);
	return n;
}

static void test_scan_forbidden(void **state)
{
	static const char *const bad[][2] = {
		{"cudaStream_t t; cudaStreamCreate(&t);", "cudaStreamCreate"},
		{"cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);", "cudaStreamCreateWithFlags"},
		{"k<<<1, 1, 0, cudaStreamPerThread>>>();", "cudaStreamPerThread"},
		{"cudaLaunchHostFunc(s, f, 0);", "cudaLaunchHostFunc"},
		{"cudaStreamAddCallback(s, f, 0, 0);", "cudaStreamAddCallback"},
		{"pthread_create(&t, 0, f, 0);", "pthread_create"},
		{"std::thread t(f);", "thread"},
		{"auto f = std::async(g);", "async"},
		{"#pragma omp parallel for\nint x;", "#pragma omp"},
		{"cudaStreamAttrValue v; v.accessPolicyWindow.num_bytes = 1;", "accessPolicyWindow"},
		{"cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 1);", "cudaDeviceSetLimit"},
		{"cudaCtxResetPersistingL2Cache();", "cudaCtxResetPersistingL2Cache"},
		{"FILE *f = fopen(\"x\", \"w\");", "fopen"},
		{"int fd = open(p, 0);", "open"},
		{"const char *v = getenv(\"X\");", "getenv"},
		{"setenv(\"A\", \"1\", 1);", "setenv"},
		{"void *h = dlopen(\"libx.so\", 1);", "dlopen"},
		{"system(\"ls\");", "system"},
		{"execve(p, a, e);", "execve"},
		{"fork();", "fork"},
		{"cudaEventRecord(e, s);", "cudaEventRecord"},
		{"cudaGraphLaunch(g, s);", "cudaGraphLaunch"},
		{"cudaGetLastError();", "cudaGetLastError"},
		{"cudaMallocManaged(&p, 4);", "cudaMallocManaged"},
		{"cudaHostAlloc(&p, 4, 0);", "cudaHostAlloc"},
		{"cuLaunchKernel(f, 1,1,1,1,1,1,0,0,0,0);", "cuLaunchKernel"},
		{"ka_task_reference(&r);", "ka_task_reference"},
		{"int main(void) { return 0; }", "main"},
		{"__attribute__((constructor)) void f(void) {}", "constructor"},
		{"atexit(f);", "atexit"},
		{"asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t));", "asm"},
		{"#include <pthread.h>\n", "pthread.h"},
		{"#include \"../../secret.h\"\n", "../../secret.h"},
		{"#define CAT(a, b) a##b\n", "##"},
		{"clock_gettime(0, &ts);", "clock_gettime"},
	};
	char what[64];
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int n = scan_one(bad[i][0], what, sizeof what);
		if (n < 1 || strcmp(what, bad[i][1]))
			fail_msg("static gate missed '%s' in: %s (got %d, '%s')", bad[i][1], bad[i][0], n,
				 n ? what : "");
	}
}

static void test_scan_allowed(void **state)
{
	static const char ok[] =
		"/* cudaStreamCreate in a comment is fine */\n"
		"#include \"ka_task.h\"\n#include <cuda_fp16.h>\n#include <cooperative_groups.h>\n"
		"// fopen(\"x\") in a line comment\n"
		"__global__ void k(const float *x, float *y, int n) {\n"
		"  extern __shared__ float sh[]; const char *s = \"getenv system\";\n"
		"  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = __shfl_xor_sync(~0u, x[i], 1);\n"
		"}\n"
		"extern \"C\" int ka_task_run(const ka_task_args *a, cudaStream_t s) {\n"
		"  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);\n"
		"  cudaMemsetAsync(a->t[1], 0, 4, s); k<<<1, 32, 0, s>>>((const float *)a->t[0], (float *)a->t[1], 1);\n"
		"  return 0;\n}\n";
	(void)state;
	assert_int_equal(scan_one(ok, NULL, 0), 0);
}

static void test_scan_lines(void **state)
{
	ka_bench_finding f[4];
	const char src[] = "int a;\n/* multi\nline */\nint b = 1;\ncudaStreamCreate(&s);\n";
	(void)state;
	assert_int_equal(ka_bench_scan(src, strlen(src), f, 4), 1);
	assert_int_equal(f[0].line, 5);
}

/* Spellings that hide a directive or a name from a scan that reads the
 * text as written: the scan must read it as the preprocessor does. */
static void test_scan_bypasses(void **state)
{
	static const char *const bad[][2] = {
		{"%:include \"/etc/passwd\"\n", "/etc/passwd"},
		{"#inc\\\nlude \"/etc/passwd\"\n", "/etc/passwd"},
		{"#inc\\ \t\nlude \"/etc/passwd\"\n", "/etc/passwd"},
		{"#/**/include \"/etc/passwd\"\n", "/etc/passwd"},
		{"#include/**/\"/etc/passwd\"\n", "/etc/passwd"},
		{"# /* a\n comment */ include \"/etc/passwd\"\n", "/etc/passwd"},
		{"int a; /*\n*/ #include \"/etc/passwd\"\n", "/etc/passwd"},
		{"%:  include <../../secret.h>\n", "../../secret.h"},
		{"#include HDR\n", "#include"},
		{"#include_next <stdio.h>\n", "include_next"},
		{"#import \"/etc/passwd\"\n", "import"},
		{"#embed \"/etc/passwd\"\n", "embed"},
		{"#ident \"x\"\n", "ident"},
		{"#line 1 \"/etc/passwd\"\n", "#line"},
		{"# 1 \"/etc/passwd\"\n", "1"},
		{"#pragma GCC dependency \"/etc/passwd\"\n", "#pragma dependency"},
		{"_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\") int x;",
		 "\"GCC dependency \\\"/etc/passwd\\\"\""},
		{"#define P _Pragma\nP(\"omp parallel\")", "_Pragma"},
		{"_Pragma(\"omp parallel for\") for (;;);", "\"omp parallel for\""},
		{"#define F fopen\nF(\"x\", \"r\");", "fopen"},
		{"#define F fop%:%:en\n", "##"},
		{"%:define F(a, b) a %:%: b\n", "##"},
		{"int x = 1; \\u0066open(\"x\", \"r\");", "\\"},
		{"?\?=include \"/etc/passwd\"\n", "?\?="},
		{"const char *s = \"?\?/\";\n", "?\?/"},
		{"const char *s = R\"x(a)\"b)x\"; fopen(0, 0);", "fopen"},
		{"const char *s = u8R\"(q)\"; getenv(s);", "getenv"},
		{"const char *s = R\"0123456789abcdefg(x)0123456789abcdefg\";", "R"},
		{"ge\\\ntenv(\"X\");", "getenv"},
		{"#define W(x) x\nW(sys\\\ntem)(\"ls\");", "system"},
	};
	char what[64];
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int n = scan_one(bad[i][0], what, sizeof what);
		if (n < 1 || strcmp(what, bad[i][1]))
			fail_msg("static gate missed '%s' in: %s (got %d, '%s')", bad[i][1], bad[i][0], n,
				 n ? what : "");
	}
	/* a NUL byte ends a C string but not the compiler's reading */
	static const char nul[] = "int a;\n\0\n#include \"/etc/passwd\"\n";
	ka_bench_finding f[4];
	assert_int_equal(ka_bench_scan(nul, sizeof nul - 1, f, 4), 1);
	assert_string_equal(f[0].what, "NUL byte");
	assert_int_equal(f[0].line, 2);
}

/* What the early phases make of ordinary code: none of it is refused. */
static void test_scan_phases_allowed(void **state)
{
	static const char *const ok[] = {
		"#define STR(x) \\\n  #x\nconst char *s = STR(a);\n",
		"#define M(a) \\\n  do { \\\n    a; \\\n  } while (0)\n",
		"%:include <cuda_fp16.h>\n#/**/include \"ka_task.h\"\n",
		"const char *s = \"a\\\"b fopen\"; char c = '\\''; char d = '\"';\n",
		"const char *r = R\"(fopen(\"x\") getenv)\"; const char *q = u8\"system\";\n",
		"const char *r = R\"--(#include \"/etc/passwd\")--\";\n",
		"long n = 1'000'000; float f = 1e+5f; double d = .5e-3; int h = 0x1p-3;\n",
		"#pragma unroll 4\n_Pragma(\"unroll\") for (int i = 0; i < 4; i++) {}\n",
		"#if defined(X) && X > 1\n#elif 0\n#else\n#endif\n#ifdef Y\n#endif\n#undef Y\n#\n",
		"#error \"unsupported\"\n",
		"int a[2] = <% 1, 2 %>; int b = a<:0:>;\n",
		"const char *s = \"what?\"; const char *t = \"??\";\n",
	};
	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char what[64] = "";
		int n = scan_one(ok[i], what, sizeof what);
		if (n)
			fail_msg("static gate refused '%s' in: %s", what, ok[i]);
	}
}

static void test_proc_timeout(void **state)
{
	char *argv[] = {"sleep", "5", NULL};
	char *echo[] = {"sh", "-c", "echo hello; exit 3", NULL};
	ka_proc_result r;
	ka_buf out;
	(void)state;
	ka_buf_init(&out, 1024);
	assert_int_equal(ka_proc_run_io(argv, 1, NULL, NULL, &r), 0);
	assert_int_equal(r.timed_out, 1);
	assert_int_equal(r.status, 124);
	assert_true(r.seconds < 3.0);
	assert_int_equal(ka_proc_run_io(echo, 10, &out, NULL, &r), 0);
	assert_int_equal(r.status, 3);
	assert_string_equal(out.data, "hello\n");
	ka_buf_free(&out);
}

static const char dev[] = "device NVIDIA_H200 sm_90 sms 132 l2 62914560 mem 1 driver 13000 runtime 13000\n";

static void parse_correct(const char *body, ka_bench_spec *s, ka_bench_result *r)
{
	char text[2048];
	assert_int_equal(ka_bench_spec_parse(good, strlen(good), "t.yaml", s), 0);
	memset(r, 0, sizeof *r);
	snprintf(text, sizeof text, "%s%s", dev, body);
	assert_int_equal(ka_bench_result_parse_correct(text, s, r), 0);
}

static void test_result_correct(void **state)
{
	static ka_bench_spec s;
	static ka_bench_result r;
	(void)state;
	parse_correct("check a a 0.1 0.01\ncheck b a 0.2 0.02\ncheck a b 0 0\ncheck b b 0.5 0\ndone\n", &s,
		      &r);
	assert_string_equal(r.verdict, "");
	assert_int_equal(r.correct_visible, 1);
	assert_int_equal(r.correct_unseen, 1);
	assert_string_equal(r.device, "NVIDIA_H200 sm_90 sms=132 l2=62914560");
	parse_correct("check b a 0.2 0.02\nfail b b wrong-output tensor=y draw=3 tolerance bad=7\ndone\n", &s,
		      &r);
	assert_string_equal(r.verdict, "rejected");
	assert_string_equal(r.gate, "correctness");
	assert_string_equal(r.reason, "config b: wrong-output tensor=y draw=3 tolerance bad=7");
	assert_int_equal(r.correct_visible, 1);
	assert_int_equal(r.correct_unseen, 0);
	parse_correct("check b a 0.2 0.02\n", &s, &r); /* no "done": crashed */
	assert_string_equal(r.verdict, "rejected");
	parse_correct("selfcheck b zeros pass\ncheck b a 0 0\ncheck b b 0 0\ndone\n", &s, &r);
	assert_string_equal(r.verdict, "error");
	assert_string_equal(r.reason,
			    "task 't' fails its self-check: zeros passes the tolerance on config b");
	parse_correct("fail a a launch-error out of memory\ndone\n", &s, &r);
	assert_string_equal(r.verdict, "error");
	assert_non_null(strstr(r.reason, "the baseline fails on its own task"));
	memset(&r, 0, sizeof r);
	assert_int_equal(ka_bench_result_parse_correct("nodevice\n", &s, &r), 1);
}

/* 30 pairs per config: baseline a_us, candidate b_us, wall = event + overhead. */
static void perf_text(char *text, size_t cap, double a_us, double b_us, double b_wall_extra)
{
	size_t n = (size_t)snprintf(text, cap, "%sceiling 4000 60000\n", dev);
	const char *cfg[2] = {"a", "b"};
	for (int c = 0; c < 2; c++) {
		n += (size_t)snprintf(text + n, cap - n, "perf %s graph 0\n", cfg[c]);
		for (int j = 0; j < 30; j++) {
			double wob = 1.0 + 0.01 * ((j % 5) - 2);
			n += (size_t)snprintf(text + n, cap - n, "sample %s %d %.3f %.3f %.3f %.3f 1.0 1.0\n",
					      cfg[c], j, a_us * wob, b_us / wob, a_us * wob + 8,
					      b_us / wob + 8 + b_wall_extra);
		}
		n += (size_t)snprintf(text + n, cap - n, "checked %s 30\nvalidated %s 3\n", cfg[c], cfg[c]);
	}
	snprintf(text + n, cap - n, "done\n");
}

static void run_perf(double a_us, double b_us, double extra, ka_bench_spec *s, ka_bench_result *r)
{
	static char text[16384];
	const int timed[2] = {1, 1}, thirty[2] = {30, 30};
	parse_correct("check b a 0 0\ncheck b b 0 0\ndone\n", s, r);
	perf_text(text, sizeof text, a_us, b_us, extra);
	assert_int_equal(ka_bench_result_parse_perf(text, s, timed, thirty, r), 0);
	ka_bench_result_finish(s, r, 99);
}

static void test_result_perf(void **state)
{
	static ka_bench_spec s;
	static ka_bench_result r;
	(void)state;
	run_perf(100, 50, 0, &s, &r);
	assert_string_equal(r.verdict, "faster");
	assert_true(fabs(r.geomean - 2.0) < 0.05 && r.lo > 1.9 && r.hi < 2.1);
	assert_int_equal(r.cfg[1].n, 30);
	assert_true(fabs(r.cfg[1].sb.median - 50.0) < 1.0);
	assert_true(fabs(r.cfg[1].gbs - 4.0 * 1000 * 1001 / 50e3) < 1.0); /* bytes / (us * 1e3) */
	/* config a moves 60 bytes, b 4 MB: only b is large, and the large-config
	 * roofline is b's alone, while the mean takes a's launch-bound 0.03% too */
	assert_int_equal(r.cfg[0].large, 0);
	assert_int_equal(r.cfg[1].large, 1);
	assert_true(fabs(r.roof_large - r.cfg[1].roof) < 1e-12);
	assert_true(fabs(r.cfg[1].roof - 4.0 * 1000 * 1001 / 50e3 / 4000) < 1e-3);
	assert_true(fabs(r.roof_mean - (r.cfg[0].roof + r.cfg[1].roof) / 2) < 1e-12);
	assert_true(r.roof_mean < r.roof_large);
	ka_bench_result_free(&r);
	run_perf(100, 100, 0, &s, &r);
	assert_string_equal(r.verdict, "same");
	ka_bench_result_free(&r);
	run_perf(50, 100, 0, &s, &r);
	assert_string_equal(r.verdict, "slower");
	ka_bench_result_free(&r);
	run_perf(100, 5, 400, &s, &r); /* work hidden from the events, seen by the wall clock */
	assert_string_equal(r.verdict, "rejected");
	assert_string_equal(r.gate, "performance");
	assert_non_null(strstr(r.reason, "work escapes the timed stream"));
	ka_bench_result_free(&r);
	run_perf(100, 0.05, 0, &s, &r); /* 80 TB/s on config b: far above the 4 TB/s ceiling */
	assert_string_equal(r.verdict, "rejected");
	assert_string_equal(r.gate, "roofline");
	ka_bench_result_free(&r);
}
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expr_values),         cmocka_unit_test(test_expr_errors),
		cmocka_unit_test(test_spec_good),           cmocka_unit_test(test_spec_bad),
		cmocka_unit_test(test_spec_lowp),           cmocka_unit_test(test_spec_load_missing),
		cmocka_unit_test(test_stats_summary),       cmocka_unit_test(test_stats_bootstrap),
		cmocka_unit_test(test_stats_geomean),       cmocka_unit_test(test_score),
		cmocka_unit_test(test_scan_forbidden),      cmocka_unit_test(test_scan_allowed),
		cmocka_unit_test(test_scan_lines),          cmocka_unit_test(test_scan_bypasses),
		cmocka_unit_test(test_scan_phases_allowed), cmocka_unit_test(test_proc_timeout),
		cmocka_unit_test(test_result_correct),      cmocka_unit_test(test_result_perf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
