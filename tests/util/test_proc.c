/* tests/util/test_proc.c: util/proc.h and util/cleanup.h: the time limit
 * holds after a tool closes its output, what a tool leaves running is
 * killed with its group, SIGTERM takes the tool's group and the registered
 * temporaries along, and only include and macro flags pass the compiler
 * flag filter. */
#include "test_util.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/proc.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

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
	double t0 = now();
	assert_int_equal(ka_proc_run(argv, 1, &out, &res), KA_OK);
	assert_true(now() - t0 < 10);
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
	double t0 = now();
	assert_int_equal(ka_proc_run(argv, 20, &out, &res), KA_OK);
	assert_true(now() - t0 < 10);
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
	char *dir = tu_tmpdir(), *pidfile = tu_path(dir, "pid"), *tmp = tu_path(dir, ".k.cu.kcheck-abc123.cu");
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
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);   /* it still dies of the signal */
	usleep(200000);
	assert_false(alive(bg));
	assert_int_equal(access(tmp, F_OK), -1);
	tu_rmtree(dir);
	free(tmp);
	free(pidfile);
	free(dir);
}

/* The flags of v that the filter keeps, joined by spaces. */
static void kept(const char *const *v, int n, char *out, size_t cap)
{
	out[0] = '\0';
	for (int i = 0, take; i < n; i += take)
		if (ka_proc_cc_flag(v, n, i, &take))
			for (int k = 0; k < take; k++)
				snprintf(out + strlen(out), cap - strlen(out), "%s%s", *out ? " " : "", v[i + k]);
}

static void only_include_and_macro_flags(void **state)
{
	(void)state;
	const char *v[] = {"-Iinc", "-I", "dir", "-DA=1", "-D", "B", "-UC", "-isystem", "sys",
			   "--include-path=ip", "--define-macro=M", "-include", "pre.h", "-std=c++17",
			   "-ccbin=./evil", "-ccbin", "./evil", "--compiler-bindir=./e", "--compiler-bindir",
			   "./e", "-Xcompiler", "-fplugin=x.so", "-Xcompiler=-fplugin=x.so", "-Xlinker",
			   "-rpath", "--compiler-options=-B.", "--linker-options", "x", "-Xptxas=-v",
			   "-I", "-ccbin=./evil", "-I=x", "-isystem", "--compiler-bindir=e", "-ccbinx",
			   "-Wp,-MD,/tmp/x", "-o", "out", "-DX", "-D"};
	char got[1024];
	kept(v, (int)(sizeof v / sizeof v[0]), got, sizeof got);
	assert_string_equal(got, "-Iinc -I dir -DA=1 -D B -UC -isystem sys --include-path=ip "
			    "--define-macro=M -include pre.h -std=c++17 -DX");
}

int run_proc_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(limit_holds_after_output_closes),
		cmocka_unit_test(leftovers_are_killed),
		cmocka_unit_test(last_words_are_kept),
		cmocka_unit_test(sigterm_cleans_up),
		cmocka_unit_test(only_include_and_macro_flags),
	};
	return cmocka_run_group_tests_name("util_proc", tests, NULL, NULL);
}
