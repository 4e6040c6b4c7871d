/* tests/util/test_proc.c: util/proc.h and util/cleanup.h: the time limit
 * holds after a tool closes its output, what a tool leaves running is
 * killed with its group, SIGTERM takes the tool's group and the registered
 * temporaries along, and only include and macro flags pass the compiler
 * flag filter; exit statuses, the output cap, the harness channels and
 * where tools are found. */
#include "test_util.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/proc.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Running and not a zombie (whose parent may be gone). */
static int alive(pid_t pid)
{
	char path[64], buf[256] = {0};
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *rp = strrchr(buf, ')');
	return rp && rp[1] == ' ' && rp[2] != 'Z';
}

static void limit_holds_after_output_closes(void **state)
{
	(void)state;
	char *argv[] = {"sh", "-c", "exec >/dev/null 2>&1; sleep 30", NULL};
	ka_buf out;
	ka_proc_result res;
	ka_buf_init(&out, 4096);
	/* timed_out is the evidence the 1 s limit ended it (not the sleep) */
	assert_int_equal(ka_proc_run(argv, 1, &out, &res), KA_OK);
	assert_int_equal(res.timed_out, 1);
	assert_int_equal(res.exited, 0);
	ka_buf_free(&out);
}

static void leftovers_are_killed(void **state)
{
	(void)state;
	/* the background sleep keeps the output open after sh exits */
	char *argv[] = {"sh", "-c", "sleep 30 & echo $!; exit 3", NULL};
	ka_buf out;
	ka_proc_result res;
	ka_buf_init(&out, 4096);
	/* had the open output kept it waiting, the 20 s limit would end it:
	 * timed_out 0 is the evidence it did not */
	assert_int_equal(ka_proc_run(argv, 20, &out, &res), KA_OK);
	assert_int_equal(res.timed_out, 0);
	assert_int_equal(res.exited, 1);
	assert_int_equal(res.status, 3);
	assert_non_null(out.data);
	pid_t bg = (pid_t)atoi(out.data);
	assert_true(bg > 0);
	usleep(200000);
	assert_false(alive(bg));
	ka_buf_free(&out);
}

static void last_words_are_kept(void **state)
{
	(void)state;
	char *argv[] = {"sh", "-c", "sleep 0.05; printf 'error: last words'; exit 2", NULL};
	for (int i = 0; i < 20; i++) {
		ka_buf out;
		ka_proc_result res;
		ka_buf_init(&out, 4096);
		assert_int_equal(ka_proc_run(argv, 20, &out, &res), KA_OK);
		assert_int_equal(res.exited, 1);
		assert_int_equal(res.status, 2);
		assert_non_null(out.data);
		assert_string_equal(out.data, "error: last words");
		ka_buf_free(&out);
	}
}

static void sigterm_cleans_up(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *pidfile = tu_path(dir, "pid"),
	     *tmp = tu_path(dir, ".k.cu.kcheck-abc123.cu");
	char script[4400];
	snprintf(script, sizeof script, "sleep 30 & echo $! > '%s'; wait", pidfile);
	FILE *f = fopen(tmp, "w");
	assert_non_null(f);
	fclose(f);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char *argv[] = {"sh", "-c", script, NULL};
		ka_proc_result res;
		ka_cleanup_install();
		ka_cleanup_add_file(tmp);
		ka_proc_run(argv, 60, NULL, &res);
		_exit(0);
	}
	pid_t bg = 0;
	for (int i = 0; i < 200 && bg <= 0; i++) {
		usleep(50000);
		FILE *p = fopen(pidfile, "r");
		if (p) {
			if (fscanf(p, "%d", &bg) != 1)
				bg = 0;
			fclose(p);
		}
	}
	assert_true(bg > 0);
	assert_int_equal(kill(child, SIGTERM), 0);
	int st = 0;
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM); /* it still dies of the signal */
	usleep(200000);
	assert_false(alive(bg));
	assert_int_equal(access(tmp, F_OK), -1);
	tu_rmtree(dir);
	free(tmp);
	free(pidfile);
	free(dir);
}

/* A registered temporary folder (kcheck rules test's) is emptied and
 * removed on SIGTERM and on SIGHUP, and the process still dies of it. */
static void signal_removes_folder(void **state)
{
	(void)state;
	static const int sigs[] = {SIGTERM, SIGHUP};
	for (size_t s = 0; s < 2; s++) {
		char *dir = tu_tmpdir(), *sub = tu_path(dir, "t"), *ready = tu_path(dir, "ready");
		assert_int_equal(mkdir(sub, 0700), 0);
		pid_t child = fork();
		assert_true(child >= 0);
		if (child == 0) {
			ka_cleanup_install();
			ka_cleanup_add_dir(sub);
			for (int i = 0; i < 40; i++) { /* what the rule tests write there */
				char p[4400];
				snprintf(p, sizeof p, "%s/rule-%d.cu", sub, i);
				FILE *f = fopen(p, "w");
				if (f)
					fclose(f);
			}
			FILE *f = fopen(ready, "w");
			if (f)
				fclose(f);
			pause();
			_exit(0);
		}
		for (int i = 0; i < 200 && access(ready, F_OK) != 0; i++)
			usleep(20000);
		assert_int_equal(access(ready, F_OK), 0);
		assert_int_equal(kill(child, sigs[s]), 0);
		int st = 0;
		assert_int_equal(waitpid(child, &st, 0), child);
		assert_true(WIFSIGNALED(st) && WTERMSIG(st) == sigs[s]);
		assert_int_equal(access(sub, F_OK), -1);
		tu_rmtree(dir);
		free(sub);
		free(ready);
		free(dir);
	}
}

/* The flags of v that the filter keeps, joined by spaces. */
static void kept(const char *const *v, int n, char *out, size_t cap)
{
	out[0] = '\0';
	for (int i = 0, take; i < n; i += take)
		if (ka_proc_cc_flag(v, n, i, &take))
			for (int k = 0; k < take; k++)
				snprintf(out + strlen(out), cap - strlen(out), "%s%s", *out ? " " : "",
					 v[i + k]);
}

static void only_include_and_macro_flags(void **state)
{
	(void)state;
	const char *v[] = {"-Iinc",
			   "-I",
			   "dir",
			   "-DA=1",
			   "-D",
			   "B",
			   "-UC",
			   "-isystem",
			   "sys",
			   "--include-path=ip",
			   "--define-macro=M",
			   "-include",
			   "pre.h",
			   "-std=c++17",
			   "-ccbin=./evil",
			   "-ccbin",
			   "./evil",
			   "--compiler-bindir=./e",
			   "--compiler-bindir",
			   "./e",
			   "-Xcompiler",
			   "-fplugin=x.so",
			   "-Xcompiler=-fplugin=x.so",
			   "-Xlinker",
			   "-rpath",
			   "--compiler-options=-B.",
			   "--linker-options",
			   "x",
			   "-Xptxas=-v",
			   "-I",
			   "-ccbin=./evil",
			   "-I=x",
			   "-isystem",
			   "--compiler-bindir=e",
			   "-ccbinx",
			   "-Wp,-MD,/tmp/x",
			   "-o",
			   "out",
			   "-DX",
			   "-D"};
	char got[1024];
	kept(v, (int)(sizeof v / sizeof v[0]), got, sizeof got);
	assert_string_equal(got, "-Iinc -I dir -DA=1 -D B -UC -isystem sys --include-path=ip "
				 "--define-macro=M -include pre.h -std=c++17 -DX");
}

static void exit_status_and_signals(void **state)
{
	(void)state;
	char *ok[] = {"sh", "-c", "echo out; echo err >&2; exit 0", NULL};
	char *killed[] = {"sh", "-c", "kill -9 $$", NULL};
	char *reads[] = {"cat", NULL};
	ka_buf out;
	ka_proc_result res;
	ka_buf_init(&out, 4096);
	assert_int_equal(ka_proc_run(ok, 20, &out, &res), KA_OK);
	assert_int_equal(res.exited, 1);
	assert_int_equal(res.status, 0);
	assert_int_equal(res.signal, 0);
	assert_int_equal(res.timed_out, 0);
	assert_string_equal(out.data, "out\nerr\n"); /* stdout and stderr together */
	assert_true(res.seconds >= 0 && res.seconds < 10);
	ka_buf_reset(&out);
	assert_int_equal(ka_proc_run(killed, 20, &out, &res), KA_OK);
	assert_int_equal(res.exited, 0);
	assert_int_equal(res.signal, SIGKILL);
	assert_int_equal(res.status, 128 + SIGKILL);
	assert_int_equal(ka_proc_run(reads, 20, &out, &res), KA_OK); /* stdin is /dev/null */
	assert_int_equal(res.status, 0);
	assert_int_equal(out.len, 0);
	assert_int_equal(ka_proc_run(ok, 20, NULL, &res), KA_OK); /* output discarded */
	assert_int_equal(res.status, 0);
	ka_buf_free(&out);
}

static void timeout_status(void **state)
{
	(void)state;
	char *argv[] = {"sh", "-c", "echo started; sleep 30", NULL};
	ka_buf out;
	ka_proc_result res;
	ka_buf_init(&out, 4096);
	assert_int_equal(ka_proc_run(argv, 1, &out, &res), KA_OK);
	assert_int_equal(res.timed_out, 1);
	assert_int_equal(res.status, 124);
	assert_int_equal(res.exited, 0);
	assert_true(res.seconds >= 0.9 && res.seconds < 10);
	assert_string_equal(out.data, "started\n"); /* what it said before the limit */
	ka_buf_free(&out);
}

static void missing_program(void **state)
{
	(void)state;
	char *argv[] = {"/nonexistent/ka-tool", "-v", NULL};
	ka_buf out;
	ka_proc_result res;
	ka_buf_init(&out, 4096);
	assert_int_equal(ka_proc_run(argv, 20, &out, &res), KA_ETOOL);
	assert_string_equal(ka_error_last(), "cannot run /nonexistent/ka-tool: not found");
	ka_buf_reset(&out);
	assert_int_equal(ka_proc_run_io(argv, 20, &out, NULL, &res), KA_OK);
	assert_int_equal(res.exited, 1);
	assert_int_equal(res.status, 127);
	assert_string_equal(out.data, "cannot run /nonexistent/ka-tool: No such file or directory\n");
	ka_buf_free(&out);
}

/* Output past the cap is dropped, its start is kept, and the tool is not
 * blocked on a full pipe meanwhile. */
static void output_cap_keeps_the_start(void **state)
{
	(void)state;
	char *argv[] = {"sh", "-c",
			"printf 'error: first line\\n'; head -c 1000000 /dev/zero | tr '\\0' x; exit 5",
			NULL};
	ka_buf out;
	ka_proc_result res;
	ka_buf_init(&out, 100);
	assert_int_equal(ka_proc_run(argv, 20, &out, &res), KA_OK);
	assert_int_equal(res.timed_out, 0);
	assert_int_equal(res.status, 5);
	assert_int_equal(out.len, 100);
	assert_memory_equal(out.data, "error: first line\nxxxx", 22);
	assert_int_equal(out.data[99], 'x');
	ka_buf_free(&out);
}

/* The harness channels: input, then "ready" on fd 3, then the late part. */
static void io_channels(void **state)
{
	(void)state;
	char *argv[] = {"sh", "-c", "read a; echo ready >&3; read b; echo \"$a+$b\" >&3; echo log", NULL};
	ka_buf out, results;
	ka_proc_result res;
	ka_buf_init(&out, 4096);
	ka_buf_init(&results, 4096);
	ka_proc_io io = {"plan\n", "vseed 7\n", &results};
	assert_int_equal(ka_proc_run_io(argv, 20, &out, &io, &res), KA_OK);
	assert_int_equal(res.status, 0);
	assert_string_equal(results.data, "ready\nplan+vseed 7\n");
	assert_string_equal(out.data, "log\n");
	/* a child that never reads a large input: no hang, no SIGPIPE here */
	size_t big = (size_t)4 << 20;
	char *input = malloc(big + 1);
	assert_non_null(input);
	memset(input, 'p', big);
	input[big] = '\0';
	char *quits[] = {"sh", "-c", "exit 0", NULL};
	ka_proc_io io2 = {input, NULL, &results};
	assert_int_equal(ka_proc_run_io(quits, 20, &out, &io2, &res), KA_OK);
	assert_int_equal(res.exited, 1);
	assert_int_equal(res.status, 0);
	free(input);
	/* no io: no fd 3 in the child */
	char *fd3[] = {"sh", "-c", "echo x >&3", NULL};
	assert_int_equal(ka_proc_run(fd3, 20, NULL, &res), KA_OK);
	assert_int_equal(res.exited, 1);
	assert_true(res.status != 0);
	ka_buf_free(&results);
	ka_buf_free(&out);
}

/* An executable script at dir/name (malloc'ed path). */
static char *tool_in(const char *dir, const char *name, int mode)
{
	char *p = tu_path(dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\nexit 0\n", f);
	fclose(f);
	assert_int_equal(chmod(p, (mode_t)mode), 0);
	return p;
}

static void finding_tools(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *bin = tu_path(dir, "bin"), *old_path = strdup(getenv("PATH"));
	assert_int_equal(mkdir(bin, 0755), 0);
	char *cc = tool_in(bin, "ka-cc", 0755), *plain = tool_in(dir, "plain", 0644);
	char *nvcc = tool_in(bin, "nvcc", 0755);
	char *f;
	setenv("PATH", bin, 1);
	unsetenv("KA_TEST_TOOL");
	assert_string_equal(f = ka_proc_find_tool("KA_TEST_TOOL", "ka-cc", NULL), cc);
	free(f);
	assert_null(ka_proc_find_tool("KA_TEST_TOOL", "ka-none", NULL));
	assert_string_equal(f = ka_proc_find_tool("KA_TEST_TOOL", "ka-none", cc), cc); /* fallback */
	free(f);
	assert_null(ka_proc_find_tool("KA_TEST_TOOL", "ka-none", plain)); /* not executable */
	setenv("KA_TEST_TOOL", "/bin/sh", 1);
	assert_string_equal(f = ka_proc_find_tool("KA_TEST_TOOL", "ka-cc", NULL), "/bin/sh");
	free(f);
	setenv("KA_TEST_TOOL", plain, 1); /* named, but no tool: not another one */
	assert_null(ka_proc_find_tool("KA_TEST_TOOL", "ka-cc", cc));
	unsetenv("KA_TEST_TOOL");
	/* nvcc: $KCHECK_NVCC, $CUDA_HOME/bin, $CUDA_PATH/bin, PATH */
	setenv("KCHECK_NVCC", "/bin/sh", 1);
	setenv("CUDA_HOME", dir, 1);
	assert_string_equal(ka_proc_find_nvcc(), "/bin/sh");
	setenv("KCHECK_NVCC", plain, 1);
	assert_null(ka_proc_find_nvcc());
	unsetenv("KCHECK_NVCC");
	setenv("CUDA_HOME", "/nonexistent", 1);
	setenv("CUDA_PATH", dir, 1);
	assert_string_equal(ka_proc_find_nvcc(), nvcc);
	unsetenv("CUDA_HOME");
	unsetenv("CUDA_PATH");
	assert_string_equal(ka_proc_find_nvcc(), nvcc); /* on PATH */
	setenv("PATH", old_path, 1);
	tu_rmtree(dir);
	free(nvcc);
	free(plain);
	free(cc);
	free(old_path);
	free(bin);
	free(dir);
}

int run_proc_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(limit_holds_after_output_closes),
		cmocka_unit_test(leftovers_are_killed),
		cmocka_unit_test(last_words_are_kept),
		cmocka_unit_test(signal_removes_folder),
		cmocka_unit_test(sigterm_cleans_up),
		cmocka_unit_test(only_include_and_macro_flags),
		cmocka_unit_test(exit_status_and_signals),
		cmocka_unit_test(timeout_status),
		cmocka_unit_test(missing_program),
		cmocka_unit_test(output_cap_keeps_the_start),
		cmocka_unit_test(io_channels),
		cmocka_unit_test(finding_tools),
	};
	return cmocka_run_group_tests_name("util_proc", tests, NULL, NULL);
}
