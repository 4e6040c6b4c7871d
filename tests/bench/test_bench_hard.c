/* tests/bench/test_bench_hard.c: regression tests of the bench's hardening
 * that need no GPU: the expression evaluator's overflow traps, task spec
 * validation, the process time limit after the child closes its output, the
 * harness channels (plan on stdin, seed after "ready", results on fd 3), the
 * object cache's ownership and content checks, the object check on compiled
 * host objects (built here with the C compiler), the drawn unseen
 * configurations, the exact sample count of a timing run and the nvcc
 * finder. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench/build.h"
#include "bench/cache.h"
#include "bench/expr.h"
#include "bench/objcheck.h"
#include "util/proc.h"
#include "bench/runner.h"
#include "bench/spec.h"
#include "util/error.h"

static int eval(const char *e, long long *v)
{
	static const char *const names[] = {"n"};
	static const long long vals[] = {5};
	return ka_bench_expr_eval(e, names, vals, 1, v);
}

/* LLONG_MIN / -1 and LLONG_MIN % -1 trap with SIGFPE on x86; -LLONG_MIN overflows. */
static void test_expr_llong_min(void **state)
{
	long long v = 0;
	(void)state;
	assert_int_equal(eval("(0-9223372036854775807-1) / -1", &v), KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "overflow"));
	assert_int_equal(eval("(0-9223372036854775807-1) % -1", &v), KA_EINPUT);
	assert_int_equal(eval("-(0-9223372036854775807-1)", &v), KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "overflow"));
	assert_int_equal(eval("(0-9223372036854775807) / -1", &v), 0);
	assert_true(v == LLONG_MAX);
	assert_int_equal(eval("-(n - 7) % -1", &v), 0);
	assert_true(v == 0);
}

static const char good[] =
	"name: t\ncategory: c\nparams: [rows, cols]\n"
	"tensors:\n"
	"  - {name: x, role: in, dtype: f32, shape: [rows, cols], dist: {kind: uniform, lo: -2, hi: 3}}\n"
	"  - {name: y, role: out, dtype: f64, shape: rows}\n"
	"scalars:\n  - {name: alpha, lo: 1, hi: 2}\n"
	"tolerance: {atol: 1e-6, rtol: 1e-5, l2: 1e-4}\n"
	"deterministic: true\nworkspace: 4*rows\nbytes: 4*rows*cols\nflops: 2*rows*cols\nreduction: cols\n"
	"configs:\n  visible:\n    - {name: a, rows: 3, cols: 5}\n  unseen:\n    - {name: b, rows: 1000, cols: 1001}\n"
	"unseen: {draw: 3, rows: [1, 5000], cols: [2, 70000], max_bytes: 4000000}\n";

static int parse_with(const char *from, const char *to, ka_bench_spec *s)
{
	char text[4096];
	const char *p = strstr(good, from);
	assert_non_null(p);
	snprintf(text, sizeof text, "%.*s%s%s", (int)(p - good), good, to, p + strlen(from));
	return ka_bench_spec_parse(text, strlen(text), "t.yaml", s);
}

static void bad(const char *from, const char *to, const char *expect)
{
	static ka_bench_spec s;
	assert_int_equal(parse_with(from, to, &s), KA_EINPUT);
	if (!strstr(ka_error_last(), expect))
		fail_msg("got \"%s\", want \"%s\"", ka_error_last(), expect);
}

static void test_spec_validation(void **state)
{
	static ka_bench_spec s;
	(void)state;
	assert_int_equal(ka_bench_spec_parse(good, strlen(good), "t.yaml", &s), 0);
	assert_int_equal(s.c[1].reduction, 1001);
	bad("workspace: 4*rows", "workspace: 0-4*rows", "t.yaml: config 'a': workspace is negative");
	bad("bytes: 4*rows*cols", "bytes: 0-1", "t.yaml: config 'a': bytes is negative");
	bad("flops: 2*rows*cols", "flops: 0-rows", "t.yaml: config 'a': flops is negative");
	bad("shape: rows}", "shape: rows*100000000000000000}", "tensor 'y' is too large to address in bytes");
	bad("atol: 1e-6", "atol: nan", "t.yaml: 'atol' must be a finite number");
	bad("rtol: 1e-5", "rtol: inf", "t.yaml: 'rtol' must be a finite number");
	bad("l2: 1e-4", "l2: -1e-4", "t.yaml: tolerances must not be negative");
	bad("lo: 1, hi: 2", "lo: 2, hi: 1", "t.yaml: scalar 'alpha' has lo > hi");
	bad("workspace: 4*rows", "workspce: 4*rows", "t.yaml: unknown key 'workspce' in the task");
	bad("role: out", "role: out, dtpe: f32", "unknown key 'dtpe' in a tensor");
	bad("{name: a, rows: 3", "{name: a, row: 3, rows: 3", "unknown key 'row' in a config");
	bad("l2: 1e-4", "l2: 1e-4, rtl: 1", "unknown key 'rtl' in tolerance");
	bad("name: b,", "name: \"b c\",",
	    "t.yaml: config name 'b c' may hold only letters, digits and _ . + -");
	bad("name: x,", "name: \"x\\ny\",", "tensor name 'x\ny' may hold only letters");
	bad("name: t\n", "name: \"t 1\"\n", "task name 't 1' may hold only");
	bad("deterministic: true", "deterministic: maybe", "t.yaml: 'deterministic' must be true or false");
	bad("draw: 3", "draw: 0", "unseen: 'draw' must be an integer from 1 to 8");
	bad("cols: [2, 70000]", "cols: [9, 2]", "unseen: 'cols' needs a range [lo, hi]");
	bad("cols: [2, 70000], ", "", "unseen: 'cols' needs a range [lo, hi]");
	assert_int_equal(parse_with("deterministic: true", "deterministic: yes", &s), 0);
	assert_int_equal(s.deterministic, 1);
	assert_int_equal(parse_with("deterministic: true", "deterministic: No", &s), 0);
	assert_int_equal(s.deterministic, 0);
}

static void test_spec_draw(void **state)
{
	static ka_bench_spec s, s2;
	(void)state;
	assert_int_equal(ka_bench_spec_parse(good, strlen(good), "t.yaml", &s), 0);
	assert_int_equal(ka_bench_spec_draw(&s, 12345), 0);
	assert_int_equal(s.nconfigs, 5);
	for (int i = 2; i < 5; i++) {
		const ka_bench_config *c = &s.c[i];
		assert_true(c->unseen && c->drawn);
		assert_true(c->p[0] >= 1 && c->p[0] <= 5000 && c->p[1] >= 2 && c->p[1] <= 70000);
		assert_true(c->n[0] * 4 + c->n[1] * 8 <= 4000000);
		assert_int_equal(c->n[0], c->p[0] * c->p[1]);
		assert_int_equal(c->reduction, c->p[1]);
		assert_true(c->name[0] == 'd' && !strchr(c->name, ' '));
	}
	/* the same seed draws the same sizes; another seed others */
	assert_int_equal(ka_bench_spec_parse(good, strlen(good), "t.yaml", &s2), 0);
	assert_int_equal(ka_bench_spec_draw(&s2, 12345), 0);
	assert_string_equal(s.c[2].name, s2.c[2].name);
	assert_int_equal(ka_bench_spec_parse(good, strlen(good), "t.yaml", &s2), 0);
	assert_int_equal(ka_bench_spec_draw(&s2, 777), 0);
	assert_true(strcmp(s.c[2].name, s2.c[2].name) || strcmp(s.c[3].name, s2.c[3].name));
	/* limits nothing can meet */
	assert_int_equal(parse_with("max_bytes: 4000000", "max_bytes: 3", &s2), 0);
	assert_int_equal(ka_bench_spec_draw(&s2, 1), KA_EINPUT);
	assert_string_equal(ka_error_last(), "task 't': no drawn configuration fits its unseen limits");
}

/* A child that closes its output and keeps running is still stopped by the
 * limit, with its whole process group. */
static void test_proc_limit_after_close(void **state)
{
	char *argv[] = {"sh", "-c", "exec >/dev/null 2>&1; sleep 30 & sleep 30", NULL};
	ka_proc_result r;
	(void)state;
	assert_int_equal(ka_proc_run_io(argv, 1, NULL, NULL, &r), 0);
	assert_int_equal(r.timed_out, 1);
	assert_int_equal(r.status, 124);
	assert_true(r.seconds < 5.0);
}

/* The plan goes in on stdin, the late line only after "ready" on fd 3, and
 * fd 3 comes back separately from stdout. */
static void test_proc_channels(void **state)
{
	char *argv[] = {
		"sh", "-c",
		"read plan; echo \"got $plan\" >&3; echo ready >&3; read late; echo \"then $late\" >&3; "
		"echo noise; exit 0",
		NULL};
	ka_buf out, res;
	ka_proc_result r;
	(void)state;
	ka_buf_init(&out, 4096);
	ka_buf_init(&res, 4096);
	ka_proc_io io = {"the-plan\n", "vseed 7\n", &res};
	assert_int_equal(ka_proc_run_io(argv, 10, &out, &io, &r), 0);
	assert_int_equal(r.status, 0);
	assert_string_equal(res.data, "got the-plan\nready\nthen vseed 7\n");
	assert_string_equal(out.data, "noise\n");
	ka_buf_free(&out);
	ka_buf_free(&res);
	/* without the io channels there is no fd 3 and stdin is empty */
	char *probe[] = {"sh", "-c", "read x && exit 5; echo hi >&3 2>/dev/null || exit 7; exit 0", NULL};
	assert_int_equal(ka_proc_run_io(probe, 10, NULL, NULL, &r), 0);
	assert_int_equal(r.status, 7);
}

/* The cache folder must be the user's and writable by nobody else; entries
 * are reused only when their content still matches the recorded hash. */
static void test_cache(void **state)
{
	char dir[] = "/tmp/ka-cache-test-XXXXXX", sub[200], link[200], file[260], tmp[260];
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof sub, "%s/a/b", dir);
	assert_int_equal(ka_bench_cache_mkdir(sub), 0);
	struct stat st;
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	chmod(sub, 0777); /* a shared folder anyone may plant files in */
	assert_int_equal(ka_bench_cache_mkdir(sub), KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "writable by group or others"));
	chmod(sub, 0700);
	snprintf(link, sizeof link, "%s/l", dir);
	assert_int_equal(symlink(sub, link), 0);
	assert_int_equal(ka_bench_cache_mkdir(link), KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "symbolic link"));
	if (geteuid() == 0) { /* a folder someone else owns (root can make one) */
		char other[200];
		snprintf(other, sizeof other, "%s/other", dir);
		assert_int_equal(mkdir(other, 0700), 0);
		assert_int_equal(chown(other, 12345, 12345), 0);
		assert_int_equal(ka_bench_cache_mkdir(other), KA_EINPUT);
		assert_non_null(strstr(ka_error_last(), "not by this user"));
	}
	snprintf(file, sizeof file, "%s/obj.o", sub);
	snprintf(tmp, sizeof tmp, "%s/obj.o.tmp", sub);
	FILE *f = fopen(tmp, "w");
	fputs("object bytes", f);
	fclose(f);
	assert_int_equal(ka_bench_cache_commit(tmp, file), 0);
	assert_int_equal(ka_bench_cache_valid(file), 1);
	f = fopen(file, "w"); /* planted: same name, other content */
	fputs("evil bytes!!", f);
	fclose(f);
	assert_int_equal(ka_bench_cache_valid(file), 0);
	assert_int_equal(access(file, F_OK), -1); /* removed, to be rebuilt */
	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	assert_int_equal(ka_bench_cache_default(sub, sizeof sub), 0);
	assert_string_equal(sub, "/x/cache/kernelarc/bench");
	setenv("XDG_CACHE_HOME", "relative", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(ka_bench_cache_default(sub, sizeof sub), 0);
	assert_string_equal(sub, "/home/u/.cache/kernelarc/bench");
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* Compiles C source into an object with the host C compiler and checks it. */
static int objcheck_src(const char *src, ka_bench_finding *f, int max)
{
	char dir[] = "/tmp/ka-objcheck-XXXXXX", c[200], o[200], cmd[600];
	assert_non_null(mkdtemp(dir));
	snprintf(c, sizeof c, "%s/x.c", dir);
	snprintf(o, sizeof o, "%s/x.o", dir);
	FILE *fp = fopen(c, "w");
	fputs(src, fp);
	fclose(fp);
	snprintf(cmd, sizeof cmd, "cc -O1 -c %s -o %s", c, o);
	assert_int_equal(system(cmd), 0);
	int n = ka_bench_objcheck(o, f, max);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	return n;
}

static void test_objcheck(void **state)
{
	ka_bench_finding f[8];
	(void)state;
	/* registration-like constructor (nvcc's name) and allowed imports only */
	assert_int_equal(
		objcheck_src("#include <stddef.h>\n"
			     "extern int cudaLaunchKernel(const void *, int, int, void **, size_t, void *);\n"
			     "static void reg(void) __asm__(\"_ZL24__sti____cudaRegisterAllv\");\n"
			     "__attribute__((constructor)) static void reg(void) {}\n"
			     "int ka_impl_b(void *a) { return cudaLaunchKernel(a, 1, 1, 0, 0, 0); }\n",
			     f, 8),
		0);
	/* a libc call nobody listed */
	assert_int_equal(objcheck_src("extern long write(int, const void *, unsigned long);\n"
				      "int ka_impl_b(void) { return (int)write(3, \"x\", 1); }\n",
				      f, 8),
			 1);
	assert_string_equal(f[0].what, "write");
	/* a constructor of its own */
	assert_int_equal(
		objcheck_src("static int x;\n__attribute__((constructor)) static void c(void) { x = 1; }\n"
			     "int ka_impl_b(void) { return x; }\n",
			     f, 8),
		1);
	assert_string_equal(f[0].what, ".init_array");
	assert_non_null(strstr(f[0].reason, "not nvcc's registration"));
	/* a destructor */
	assert_true(objcheck_src("static int x;\n__attribute__((destructor)) static void d(void) { x = 1; }\n"
				 "int ka_impl_b(void) { return x; }\n",
				 f, 8) >= 1);
	assert_string_equal(f[0].what, ".fini_array");
	/* host inline assembly entering the kernel */
	assert_int_equal(
		objcheck_src(
			"int ka_impl_b(void) { long r; __asm__ volatile(\"syscall\" : \"=a\"(r) : \"a\"(39L) "
			": \"rcx\", \"r11\", \"memory\"); return (int)r; }\n",
			f, 8),
		1);
	assert_string_equal(f[0].what, "syscall");
	/* a writable and executable section */
	assert_int_equal(
		objcheck_src("__asm__(\".section .wxs,\\\"awx\\\",@progbits\\n.byte 0xc3\\n.previous\");\n"
			     "int ka_impl_b(void) { return 0; }\n",
			     f, 8),
		1);
	assert_string_equal(f[0].what, ".wxs");
	assert_int_equal(ka_bench_objcheck_allowed("cudaLaunchKernel"), 1);
	assert_int_equal(ka_bench_objcheck_allowed("cudaDeviceSetCacheConfig"), 0);
	assert_int_equal(ka_bench_objcheck_allowed("dlopen"), 0);
	assert_int_equal(ka_bench_objcheck(("/nonexistent.o"), f, 8) < 0, 1);
}

static const char spec2[] =
	"name: t\ncategory: c\nparams: [n]\n"
	"tensors:\n  - {name: x, role: in, dtype: f32, shape: n, dist: {kind: uniform, lo: -1, hi: 1}}\n"
	"  - {name: y, role: out, dtype: f32, shape: n}\n"
	"tolerance: {atol: 1e-6, rtol: 1e-5, l2: 1e-5}\nbytes: 8*n\nflops: n\n"
	"configs:\n  visible:\n    - {name: a, n: 1000}\n  unseen:\n    - {name: b, n: 7}\n";

/* Samples of config a: `count` pairs, candidate tail `tail_b` us; `extra`
 * appends a forged line. */
static void perf(int count, double tail_b, const char *extra, ka_bench_result *r)
{
	static ka_bench_spec s;
	static char text[16384];
	const int timed[2] = {1, 0}, thirty[2] = {30, 30};
	size_t n = 0;
	assert_int_equal(ka_bench_spec_parse(spec2, strlen(spec2), "t.yaml", &s), 0);
	memset(r, 0, sizeof *r);
	n += (size_t)snprintf(text + n, sizeof text - n, "ceiling 4000 60000\nperf a graph 0\n");
	for (int j = 0; j < count; j++)
		n += (size_t)snprintf(text + n, sizeof text - n, "sample a %d %.3f %.3f %.3f %.3f 1.0 %.3f\n",
				      j, 100.0 + j % 3, 100.0 - j % 3, 110.0, 110.0, tail_b);
	n += (size_t)snprintf(text + n, sizeof text - n, "%schecked a %d\nvalidated a 3\ndone\n", extra,
			      count);
	assert_int_equal(ka_bench_result_parse_perf(text, &s, timed, thirty, r), 0);
	ka_bench_result_finish(&s, r, 5);
}

static void test_exact_samples(void **state)
{
	static ka_bench_result r;
	(void)state;
	perf(30, 1.0, "", &r);
	assert_string_equal(r.verdict, "same");
	ka_bench_result_free(&r);
	perf(29, 1.0, "", &r); /* one short: the plan asked for 30 */
	assert_string_equal(r.verdict, "rejected");
	assert_non_null(strstr(r.reason, "as planned"));
	ka_bench_result_free(&r);
	perf(30, 1.0, "sample a 0 100 1 100 1 1 1\n", &r); /* a forged extra sample */
	assert_string_equal(r.verdict, "rejected");
	ka_bench_result_free(&r);
	perf(30, 1.0, "sample b 0 100 1 100 1 1 1\n", &r); /* a config that was not timed */
	assert_string_equal(r.verdict, "rejected");
	ka_bench_result_free(&r);
	perf(30, 40.0, "", &r); /* work finishing after the timed window */
	assert_string_equal(r.verdict, "rejected");
	assert_string_equal(r.gate, "performance");
	assert_non_null(strstr(r.reason, "after the timed window"));
	ka_bench_result_free(&r);
}

/* Short configurations get more timed pairs, the count the plan sends. */
static void test_config_samples(void **state)
{
	ka_bench_config c = {0};
	(void)state;
	c.bytes = 0; /* not declared: the job's count */
	assert_int_equal(ka_bench_config_samples(&c, 40), 40);
	c.bytes = 4LL << 20; /* 4 MiB: a few microseconds on an H200 */
	assert_int_equal(ka_bench_config_samples(&c, 40), 160);
	c.bytes = 64LL << 20;
	assert_int_equal(ka_bench_config_samples(&c, 40), 80);
	c.bytes = 128LL << 20;
	assert_int_equal(ka_bench_config_samples(&c, 40), 40);
	assert_int_equal(ka_bench_config_samples(&c, 10), 30); /* never under 30 */
}

/* One tool finder: --nvcc aside, the bench takes $KCHECK_NVCC, then
 * $CUDA_HOME/bin/nvcc, then $CUDA_PATH/bin/nvcc, then PATH. */
static void make_exe(const char *path)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\nexit 0\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

static void test_find_nvcc(void **state)
{
	char dir[] = "/tmp/ka-nvcc-XXXXXX", a[256], b[256], own[256];
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof a, "%s/a/bin", dir);
	snprintf(b, sizeof b, "%s/b/bin", dir);
	snprintf(own, sizeof own, "%s/own-nvcc", dir);
	char *home_a = strndup(a, strlen(a) - 4), *home_b = strndup(b, strlen(b) - 4);
	assert_int_equal(mkdir(home_a, 0700) | mkdir(a, 0700) | mkdir(home_b, 0700) | mkdir(b, 0700), 0);
	strcat(b, "/nvcc");
	make_exe(b);
	make_exe(own);
	unsetenv("KCHECK_NVCC");
	setenv("CUDA_HOME", home_a, 1); /* no nvcc there: on to CUDA_PATH */
	setenv("CUDA_PATH", home_b, 1);
	assert_string_equal(ka_proc_find_nvcc(), b);
	setenv("CUDA_HOME", home_b, 1);
	unsetenv("CUDA_PATH");
	assert_string_equal(ka_proc_find_nvcc(), b);
	setenv("KCHECK_NVCC", own, 1);
	assert_string_equal(ka_proc_find_nvcc(), own);
	static ka_bench_spec spec;
	ka_bench_job job;
	ka_bench_job_init(&job, &spec);
	assert_string_equal(job.nvcc, own);
	setenv("KCHECK_NVCC", "/nonexistent/nvcc", 1); /* named but missing: none, never a guess */
	assert_null(ka_proc_find_nvcc());
	unsetenv("KCHECK_NVCC");
	unsetenv("CUDA_HOME");
	unlink(b);
	unlink(own);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(home_a);
	free(home_b);
}

/* Two bench runs that need the same objects at the same time (the
 * compile-tasks shares under ctest -j) compile each object and link the
 * binary once between them: a stand-in nvcc that logs each call and takes
 * a while, two processes building the same task into one cache folder.
 * Without the cache's lock both would compile the harness, reference,
 * baseline and candidate and link (10 calls); with it the second finds
 * each one in the cache (5). */
static void test_cache_shared_build(void **state)
{
	char dir[] = "/tmp/ka-cache-lock-XXXXXX", nvcc[200], calls[200], src[200], cache[200], cmd[900];
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(nvcc, sizeof nvcc, "%s/nvcc", dir);
	snprintf(calls, sizeof calls, "%s/calls", dir);
	snprintf(src, sizeof src, "%s/k.cu", dir);
	snprintf(cache, sizeof cache, "%s/cache", dir);
	FILE *f = fopen(nvcc, "w");
	assert_non_null(f);
	/* a real (empty) host object, so that objcopy can localize it */
	fprintf(f,
		"#!/bin/sh\necho \"$*\" >> %s\nsleep 0.3\nout=\nwhile [ $# -gt 0 ]; do "
		"[ \"$1\" = -o ] && out=$2; shift; done\nexec cc -x c -c /dev/null -o \"$out\"\n",
		calls);
	fclose(f);
	assert_int_equal(chmod(nvcc, 0700), 0);
	f = fopen(src, "w");
	assert_non_null(f);
	fputs("// a task source\n", f);
	fclose(f);
	ka_bench_build b = {.build_dir = cache,
			    .nvcc = nvcc,
			    .arch = "sm_90",
			    .reference = src,
			    .baseline = src,
			    .candidate = src,
			    .compile_timeout_s = 60,
			    .compile_only = 1};
	pid_t pid[2];
	for (int i = 0; i < 2; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (pid[i] == 0) {
			ka_bench_build_out o;
			int rc = ka_bench_build_run(&b, &o);
			if (rc)
				fprintf(stderr, "build: %d %s\n", rc, o.log);
			ka_bench_build_out_free(&o);
			_exit(rc ? 1 : 0);
		}
	}
	for (int i = 0; i < 2; i++) {
		int st = 0;
		assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	int n = 0;
	f = fopen(calls, "r");
	assert_non_null(f);
	for (int c; (c = fgetc(f)) != EOF;)
		n += c == '\n';
	fclose(f);
	assert_int_equal(n, 5); /* harness, reference, baseline, candidate, link */
	ka_bench_build_out o;   /* and what they made is in the cache, checked */
	assert_int_equal(ka_bench_build_run(&b, &o), 0);
	assert_int_equal(ka_bench_cache_valid(o.binary), 1);
	ka_bench_build_out_free(&o);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* Paths that do not fit are refused, never cut into another file's name. */
static void test_long_paths(void **state)
{
	char dst[16], longp[1100];
	static ka_bench_spec spec;
	(void)state;
	assert_int_equal(ka_bench_job_path(dst, sizeof dst, "t/x", "expert.cu"), 0);
	assert_string_equal(dst, "t/x/expert.cu");
	assert_int_equal(ka_bench_job_path(dst, sizeof dst, "tasks/gemv", "expert.cu"), KA_EINPUT);
	assert_string_equal(dst, "");
	assert_non_null(strstr(ka_error_last(), "path too long"));
	memset(longp, 'a', sizeof longp - 1);
	longp[sizeof longp - 1] = 0;
	assert_int_equal(ka_bench_spec_load(longp, &spec), KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "task path too long"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expr_llong_min), cmocka_unit_test(test_spec_validation),
		cmocka_unit_test(test_spec_draw),      cmocka_unit_test(test_proc_limit_after_close),
		cmocka_unit_test(test_proc_channels),  cmocka_unit_test(test_cache),
		cmocka_unit_test(test_objcheck),       cmocka_unit_test(test_exact_samples),
		cmocka_unit_test(test_config_samples), cmocka_unit_test(test_find_nvcc),
		cmocka_unit_test(test_long_paths),     cmocka_unit_test(test_cache_shared_build),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
