/* tests/rewriter/test_commit.c: the commit step and the compile gate:
 * atomic in-place writes, read-only files (nothing written), files changed
 * on disk during the run, compilers that fail or hang (fake compiler
 * scripts), a missing compiler, and facts whose offsets no longer match the
 * text.  Registered from test_rewriter.c's main. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture.h"
#include "rewriter/rewriter.h"
#include "util/error.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[64];

static void put(const char *name, const char *text, int mode)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(p, (mode_t)mode), 0);
}

static char *get(const char *name)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return fixture_read(p, NULL);
}

static char *path_of(const char *name)
{
	static char p[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

static void setup_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/ka-commit-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static void cleanup_dir(void)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "chmod -R u+w %s; rm -rf %s", dir, dir);
	assert_int_equal(system(cmd), 0);
}

static int count_entries(void)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* A fixset with one fix on `name`: "x = 1" -> "x = 2". */
static ka_fixset *one_fix(const char *name)
{
	ka_fixset *fs;
	const char *src;
	size_t len;
	assert_int_equal(ka_fixset_new(&fs), KA_OK);
	assert_int_equal(ka_fixset_source(fs, path_of(name), &src, &len), KA_OK);
	const char *at = strstr(src, "x = 1");
	assert_non_null(at);
	ka_fix *f = ka_fixset_add_fix(fs, path_of(name), "r", "xf", KA_FIX_SAFE, 1, -1, "m");
	ka_fix_add_edit(f, (size_t)(at - src) + 4, (size_t)(at - src) + 5, "2");
	return fs;
}

void test_commit_writes_and_is_atomic(void **state)
{
	(void)state;
	setup_dir();
	put("k.cu", "int x = 1;\n", 0640);
	ka_fixset *fs = one_fix("k.cu");
	ka_commit_opts o = {.max_safety = KA_FIX_SAFE, .write = 1};
	ka_commit_result res;
	assert_int_equal(ka_fixset_commit(fs, &o, &res), KA_OK);
	assert_int_equal(res.files_changed, 1);
	assert_int_equal(res.fixes_applied, 1);
	char *t = get("k.cu");
	assert_string_equal(t, "int x = 2;\n");
	free(t);
	struct stat st;
	assert_int_equal(stat(path_of("k.cu"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640); /* the mode survives the rename */
	assert_int_equal(count_entries(), 1);      /* no temporary left behind */
	ka_fixset_free(fs);
	/* --diff: the patch is printed, the file stays */
	put("k.cu", "int x = 1;\n", 0640);
	fs = one_fix("k.cu");
	char *buf = NULL;
	size_t n = 0;
	o.write = 0;
	o.diff = open_memstream(&buf, &n);
	assert_int_equal(ka_fixset_commit(fs, &o, &res), KA_OK);
	fclose(o.diff);
	assert_non_null(strstr(buf, "-int x = 1;\n+int x = 2;\n"));
	t = get("k.cu");
	assert_string_equal(t, "int x = 1;\n");
	free(t);
	free(buf);
	ka_fixset_free(fs);
	cleanup_dir();
}

void test_commit_read_only(void **state)
{
	(void)state;
	setup_dir();
	put("a.cu", "int x = 1;\n", 0644);
	put("b.cu", "int x = 1;\n", 0444);
	ka_fixset *fs = one_fix("a.cu");
	const char *src;
	size_t len;
	assert_int_equal(ka_fixset_source(fs, path_of("b.cu"), &src, &len), KA_OK);
	ka_fix *f = ka_fixset_add_fix(fs, path_of("b.cu"), "r", "xf", KA_FIX_SAFE, 1, -1, "m");
	ka_fix_add_edit(f, 8, 9, "3");
	ka_commit_opts o = {.max_safety = KA_FIX_SAFE, .write = 1};
	ka_commit_result res;
	assert_int_equal(ka_fixset_commit(fs, &o, &res), KA_EIO);
	char want[300];
	snprintf(want, sizeof want, "cannot write %s: permission denied (no file was changed)",
		 path_of("b.cu"));
	assert_string_equal(ka_error_last(), want);
	char *a = get("a.cu"), *b = get("b.cu");
	assert_string_equal(a, "int x = 1;\n"); /* the writable one is not written either */
	assert_string_equal(b, "int x = 1;\n");
	free(a);
	free(b);
	assert_int_equal(count_entries(), 2);
	ka_fixset_free(fs);
	cleanup_dir();
}

void test_commit_stale_file(void **state)
{
	(void)state;
	setup_dir();
	put("k.cu", "int x = 1;\n", 0644);
	ka_fixset *fs = one_fix("k.cu");
	put("k.cu", "int x = 1; // edited meanwhile\n", 0644);
	char *log = NULL;
	size_t n = 0;
	ka_commit_opts o = {.max_safety = KA_FIX_SAFE, .write = 1, .log = open_memstream(&log, &n)};
	ka_commit_result res;
	assert_int_equal(ka_fixset_commit(fs, &o, &res), KA_OK);
	fclose(o.log);
	assert_int_equal(res.files_changed, 0);
	assert_int_equal(res.fixes_rejected, 1);
	assert_int_equal(ka_fixset_get(fs, 0)->status, KA_FIX_STALE);
	assert_non_null(strstr(log, "fixes not applied: the file changed on disk during the run"));
	char *t = get("k.cu");
	assert_string_equal(t, "int x = 1; // edited meanwhile\n");
	free(t);
	free(log);
	ka_fixset_free(fs);
	cleanup_dir();
}

void test_gate_fake_compilers(void **state)
{
	(void)state;
	setup_dir();
	char script[512], *err = NULL;
	snprintf(script, sizeof script, "#!/bin/sh\necho \"$@\" > %s/args\nexit 0\n", dir);
	put("ok.sh", script, 0755);
	put("fail.sh",
	    "#!/bin/sh\nfor a; do f=$a; done\necho \"$f(3): warning: unused\"\n"
	    "echo \"$f(4): error: expected a \\\";\\\"\"\necho \"$f(9): error: second\"\nexit 1\n",
	    0755);
	ka_gate_opts o = {.arch = "sm_80", .nvcc = path_of("ok.sh")};
	assert_int_equal(ka_gate_compile(&o, path_of("k.cu"), "int x;\n", 7, &err), KA_OK);
	char *args = get("args");
	assert_non_null(strstr(args, "-arch=sm_80"));
	assert_non_null(strstr(args, "-c -o /dev/null"));
	/* a private copy named by kcheck, the file's folder as -iquote (util/safesrc.h) */
	assert_non_null(strstr(args, "-Xcompiler -iquote/"));
	assert_non_null(strstr(args, "/kcheck-"));
	assert_non_null(strstr(args, "/d/k.cu\n"));
	assert_null(strstr(args, dir)); /* the user's folder is reached only through the link */
	free(args);
	o.nvcc = path_of("fail.sh");
	assert_int_equal(ka_gate_compile(&o, path_of("k.cu"), "int x\n", 6, &err), KA_ETOOL);
	char want[300]; /* the user's file named, first error */
	snprintf(want, sizeof want, "%s(4): error: expected a \";\"", path_of("k.cu"));
	assert_string_equal(err, want);
	free(err);
	/* KCHECK_NVCC picks the compiler when no option does */
	o.nvcc = NULL;
	setenv("KCHECK_NVCC", path_of("fail.sh"), 1);
	assert_int_equal(ka_gate_compile(&o, path_of("k.cu"), "int x\n", 6, &err), KA_ETOOL);
	free(err);
	unsetenv("KCHECK_NVCC");
	assert_int_equal(count_entries(), 3); /* ok.sh fail.sh args: temporaries removed */
	cleanup_dir();
}

/* A compiler's quote of a file the edit included (a credentials file) never
 * becomes the gate's error: only diagnostics about the compiled file do. */
void test_gate_foreign_quote(void **state)
{
	(void)state;
	setup_dir();
	put("leak.sh",
	    "#!/bin/sh\nfor a; do f=$a; done\n"
	    "echo '/home/u/.aws/credentials(1): error: no storage class'\necho '  key=SECRET123'\necho '  ^'\n"
	    "echo \"$f(2): error: identifier \\\"zz\\\" is undefined\"\necho '  int y = zz;'\nexit 1\n",
	    0755);
	put("leak_only.sh",
	    "#!/bin/sh\necho '/home/u/.aws/credentials(1): error: no storage class'\necho '  key=SECRET123'\n"
	    "echo '1 error detected in the compilation of \"/home/u/.aws/credentials\".'\nexit 1\n",
	    0755);
	ka_gate_opts o = {.arch = "sm_80", .nvcc = path_of("leak.sh")};
	char *err = NULL, want[300];
	assert_int_equal(ka_gate_compile(&o, path_of("k.cu"), "int x\n", 6, &err), KA_ETOOL);
	snprintf(want, sizeof want, "%s(2): error: identifier \"zz\" is undefined", path_of("k.cu"));
	assert_string_equal(err, want);
	free(err);
	o.nvcc = path_of("leak_only.sh");
	assert_int_equal(ka_gate_compile(&o, path_of("k.cu"), "int x\n", 6, &err), KA_ETOOL);
	assert_null(strstr(err, "SECRET123"));
	assert_null(strstr(err, "credentials"));
	free(err);
	cleanup_dir();
}

/* A file kcheck parses as HIP goes to hipcc whatever its name: `-x hip`
 * among the project flags, or a .cu that includes the HIP runtime; a later
 * `-x cu` takes it back to nvcc. */
void test_gate_hip_by_flags(void **state)
{
	(void)state;
	setup_dir();
	char script[512], *err = NULL;
	snprintf(script, sizeof script, "#!/bin/sh\necho \"$0 $@\" > %s/args\nexit 0\n", dir);
	put("hipcc.sh", script, 0755);
	put("nvcc.sh", script, 0755);
	const char *const xhip[] = {"-x", "hip", "-DN=4"};
	char *nvcc = strdup(path_of("nvcc.sh")),
	     *hipcc = strdup(path_of("hipcc.sh")); /* path_of reuses its buffer */
	ka_gate_opts o = {
		.arch = "gfx942", .nvcc = nvcc, .hipcc = hipcc, .extra_args = xhip, .n_extra_args = 3};
	assert_int_equal(ka_gate_compile(&o, path_of("k.cpp"), "int x;\n", 7, &err), KA_OK);
	char *args = get("args");
	assert_non_null(strstr(args, "hipcc.sh -x hip -iquote"));
	assert_non_null(strstr(args, " --offload-arch=gfx942 -DN=4"));
	free(args);
	o.extra_args = NULL;
	o.n_extra_args = 0;
	static const char hip_cu[] = "#include <hip/hip_runtime.h>\n__global__ void k() {}\n";
	assert_int_equal(ka_gate_compile(&o, path_of("k.cu"), hip_cu, sizeof hip_cu - 1, &err), KA_OK);
	args = get("args");
	assert_non_null(strstr(args, "hipcc.sh -x hip"));
	free(args);
	const char *const back[] = {"-x", "hip", "-x", "cu"};
	o.extra_args = back;
	o.n_extra_args = 4;
	o.arch = "sm_90";
	assert_int_equal(ka_gate_compile(&o, path_of("k.cu"), hip_cu, sizeof hip_cu - 1, &err), KA_OK);
	args = get("args");
	assert_non_null(strstr(args, "nvcc.sh -x cu -Xcompiler -iquote"));
	assert_non_null(strstr(args, " -arch=sm_90"));
	free(args);
	free(nvcc);
	free(hipcc);
	cleanup_dir();
}

/* The real hipcc (Debian's libamdhip64-dev + hipcc, no AMD GPU needed):
 * a HIP fix compiles for gfx90a and for gfx942; a broken one does not. */
void test_gate_hipcc(void **state)
{
	(void)state;
	ka_gate_opts o = {.arch = "gfx90a"};
	char *cc = ka_gate_find_compiler(&o, "k.hip");
	if (!cc) {
		fprintf(stderr, "SKIPPED: test_gate_hipcc: no hipcc (scripts/setup.sh installs it)\n");
		return;
	}
	free(cc);
	setup_dir();
	static const char ok[] = "#include <hip/hip_runtime.h>\n"
				 "__global__ void __launch_bounds__(256) scale(float *a, float s, int n) {\n"
				 "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
				 "  if (i < n) a[i] *= s;\n"
				 "}\n";
	char *err = NULL;
	assert_int_equal(ka_gate_compile(&o, path_of("k.hip"), ok, sizeof ok - 1, &err), KA_OK);
	o.arch = "gfx942";
	assert_int_equal(ka_gate_compile(&o, path_of("k.hip"), ok, sizeof ok - 1, &err), KA_OK);
	static const char bad[] = "#include <hip/hip_runtime.h>\n__global__ void k(float *a) { a[0] = b; }\n";
	assert_int_equal(ka_gate_compile(&o, path_of("k.hip"), bad, sizeof bad - 1, &err), KA_ETOOL);
	assert_non_null(err);
	assert_non_null(strstr(err, "undeclared identifier 'b'"));
	free(err);
	cleanup_dir();
}

void test_gate_hang_killed(void **state)
{
	(void)state;
	setup_dir();
	put("hang.sh", "#!/bin/sh\nsleep 30\n", 0755);
	ka_gate_opts o = {.timeout_s = 1, .nvcc = path_of("hang.sh")};
	char *err = NULL;
	/* the message is the evidence the limit ended it (no wall-clock bound) */
	assert_int_equal(ka_gate_compile(&o, path_of("k.cu"), "int x;\n", 7, &err), KA_ETOOL);
	assert_string_equal(err, "compiler killed after 1 s time limit");
	free(err);
	assert_int_equal(count_entries(), 1);
	cleanup_dir();
}

void test_gate_not_found(void **state)
{
	(void)state;
	setup_dir();
	put("k.cu", "int x = 1;\n", 0644);
	ka_gate_opts g = {.nvcc = "/nonexistent/nvcc"};
	char *err = NULL;
	assert_int_equal(ka_gate_compile(&g, path_of("k.cu"), "x", 1, &err), KA_ENOTFOUND);
	assert_string_equal(ka_error_last(), "nvcc not found");
	/* --require-compile-gate: an error, and nothing written */
	ka_fixset *fs = one_fix("k.cu");
	char *log = NULL;
	size_t n = 0;
	ka_commit_opts o = {
		.max_safety = KA_FIX_SAFE, .write = 1, .gate = 1, .require_gate = 1, .gate_opts = g};
	ka_commit_result res;
	assert_int_equal(ka_fixset_commit(fs, &o, &res), KA_ETOOL);
	assert_string_equal(ka_error_last(), "compile gate: nvcc not found (--require-compile-gate)");
	char *t = get("k.cu");
	assert_string_equal(t, "int x = 1;\n");
	free(t);
	ka_fixset_free(fs);
	/* without it: a note, and the fix is applied */
	fs = one_fix("k.cu");
	o.require_gate = 0;
	o.log = open_memstream(&log, &n);
	assert_int_equal(ka_fixset_commit(fs, &o, &res), KA_OK);
	fclose(o.log);
	assert_string_equal(log, "compile gate skipped: nvcc not found\n");
	assert_int_equal(res.gate_skipped, 1);
	t = get("k.cu");
	assert_string_equal(t, "int x = 2;\n");
	free(t);
	free(log);
	ka_fixset_free(fs);
	cleanup_dir();
}

void test_commit_gate_failure_names_fix(void **state)
{
	(void)state;
	setup_dir();
	/* a compiler that rejects any file containing BAD */
	put("cc.sh",
	    "#!/bin/sh\nfor a; do f=$a; done\nif grep -q BAD \"$f\"; then echo \"$f(2): error: BAD is undefined\"; exit 1; fi\n",
	    0755);
	put("k.cu", "int x = 1;\nint y = 1;\n", 0644);
	ka_fixset *fs = one_fix("k.cu");
	ka_fix *bad = ka_fixset_add_fix(fs, path_of("k.cu"), "math-rule", "rsqrt", KA_FIX_UNSAFE, 1, -1, "m");
	ka_fix_add_edit(bad, 19, 20, "BAD");
	char *log = NULL;
	size_t n = 0;
	ka_commit_opts o = {.max_safety = KA_FIX_UNSAFE,
			    .write = 1,
			    .gate = 1,
			    .gate_opts = {.nvcc = path_of("cc.sh")},
			    .log = open_memstream(&log, &n)};
	ka_commit_result res;
	assert_int_equal(ka_fixset_commit(fs, &o, &res), KA_OK);
	fclose(o.log);
	char want[512];
	snprintf(want, sizeof want,
		 "%s: fixes not applied: the edited file does not compile "
		 "(rsqrt [math-rule] at line 2): %s(2): error: BAD is undefined\n",
		 path_of("k.cu"), path_of("k.cu"));
	assert_string_equal(log, want);
	assert_int_equal(res.fixes_rejected, 2);
	assert_int_equal(bad->status, KA_FIX_GATE_FAILED);
	char *t = get("k.cu");
	assert_string_equal(t, "int x = 1;\nint y = 1;\n"); /* left as it was */
	free(t);
	free(log);
	ka_fixset_free(fs);
	cleanup_dir();
}

void test_request_text_mismatch(void **state)
{
	(void)state;
	/* the facts were taken from `sqrt(v)`; the file now says `sqrtf(v)` */
	const char *now = "float f(float v) { return sqrtf(v); }\n";
	sqlite3 *db = fixture_db(now);
	assert_non_null(db);
	assert_int_equal(
		fixture_exec(db,
			     "INSERT INTO call(id, file, line, callee, callee_begin_off, "
			     "callee_end_off, arg_is_float, is_device_code) VALUES (1, 'k.cu', 1, 'sqrt', "
			     "off('qrtf('), off('qrtf(') + 4, 1, 1)"),
		0);
	ka_fixset *fs;
	assert_int_equal(ka_fixset_new(&fs), KA_OK);
	ka_fixset_set_source(fs, "k.cu", now, strlen(now));
	ka_fix_request r = {.rule = "r",
			    .transform = "double-math-to-float",
			    .scope = "call",
			    .rowid = 1,
			    .safety = KA_FIX_UNSAFE};
	assert_int_equal(ka_fixset_request(fs, db, &r), KA_OK);
	assert_int_equal(ka_fixset_count(fs), 0);
	assert_string_equal(
		ka_fixset_note_get(fs, 0),
		"k.cu:1: double-math-to-float skipped [r]: the text at the fact's offsets is not "
		"'sqrt' (inside a macro expansion, or the file changed on disk since it was analysed)");
	ka_fixset_free(fs);
	sqlite3_close(db);
}
