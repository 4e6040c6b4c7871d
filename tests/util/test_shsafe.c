/* tests/util/test_shsafe.c: util/shsafe.h and util/safesrc.h: which
 * characters may reach nvcc, the process runner refusing an nvcc-family
 * program an argument its /bin/sh would act on (and nothing else), and the
 * private copy: its names, its layout, relative includes resolved through
 * it as from the original, its removal, also by SIGTERM. */
#include "test_util.h"
#include "util/buf.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/proc.h"
#include "util/safesrc.h"
#include "util/shsafe.h"
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void safe_characters(void **state)
{
	(void)state;
	static const char *const ok[] = {"-DN=256",
					 "-DF(a,b)=((a)<<(b))|1",
					 "-I/home/u/My Project/inc",
					 "-I/home/u/caf\xc3\xa9/inc", /* UTF-8 */
					 "--pre-include=x.h",
					 "-DA=x&&y||!z<>?*[]{}#~%^@,:+",
					 ""};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		assert_true(ka_sh_safe(ok[i], NULL, 0));
	static const struct {
		const char *arg, *why;
	} bad[] = {
		{"-DX=$(touch P)", "'$'"},  {"-UX`id`", "'`'"},          {"-DX=\" ; id ; \"", "'\"'"},
		{"-DX=a\\b", "'\\'"},       {"-DX='a'", "single quote"}, {"-DX=a;id", "';'"},
		{"-DX=a\nb", "control"},    {"-DX=\x01", "control"},     {"-DX=\x7f", "control"},
		{"-I/\xff/x", "not UTF-8"}, {"-I/\xc3", "not UTF-8"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char why[128] = "";
		assert_false(ka_sh_safe(bad[i].arg, why, sizeof why));
		if (!strstr(why, bad[i].why))
			fail_msg("%zu: '%s' not in '%s'", i, bad[i].why, why);
	}
	assert_true(ka_sh_safe_name("k_touch_PWNED_.cu"));
	assert_true(ka_sh_safe_name("a.b-c_d"));
	assert_false(ka_sh_safe_name("-rf.cu"));
	assert_false(ka_sh_safe_name("k$(x).cu"));
	assert_false(ka_sh_safe_name("a b.cu"));
	assert_false(ka_sh_safe_name(""));
	char show[32];
	assert_string_equal(ka_sh_show(show, sizeof show, "a\nb\x1b"), "a\\x0ab\\x1b");
	assert_string_equal(ka_sh_show(show, 12, "0123456789abcdef"), "01234567...");
}

static void flags_that_reach_the_compiler(void **state)
{
	(void)state;
	char why[96];
	const char *sep[] = {"-Iinc", "-D", "X=$(id)"};
	assert_int_equal(ka_sh_cc_unsafe(sep, 3, why, sizeof why), 2); /* the separate value */
	const char *dropped[] = {"-Wno-$x", "-fplugin=`id`", "-DX=1"};
	assert_int_equal(ka_sh_cc_unsafe(dropped, 3, why, sizeof why), -1); /* never reach nvcc */
	const char *u[] = {"-DX=1", "-UY`id`"};
	assert_int_equal(ka_sh_cc_unsafe(u, 2, why, sizeof why), 1);
	const char *pre[] = {"--pre-include=`id`"};
	assert_int_equal(ka_sh_cc_unsafe(pre, 1, why, sizeof why), 0);
	const char *fine[] = {"-I", "inc dir", "-isystem", "/opt/x", "-std=c++17", "--define-macro=A=1"};
	assert_int_equal(ka_sh_cc_unsafe(fine, 6, why, sizeof why), -1);
}

static void nvcc_family(void **state)
{
	(void)state;
	assert_true(ka_sh_nvcc_family("/usr/local/cuda/bin/nvcc"));
	assert_true(ka_sh_nvcc_family("hipcc"));
	assert_true(ka_sh_nvcc_family("/usr/bin/clang++-19"));
	assert_true(ka_sh_nvcc_family("/opt/cuda/bin/ptxas"));
	assert_false(ka_sh_nvcc_family("/bin/sh"));
	assert_false(ka_sh_nvcc_family("objcopy"));
	setenv("KCHECK_NVCC", "/opt/w/cc-wrapper", 1);
	assert_true(ka_sh_nvcc_family("/opt/w/cc-wrapper"));
	unsetenv("KCHECK_NVCC");
	assert_false(ka_sh_nvcc_family("/opt/w/cc-wrapper"));
}

/* A stand-in nvcc: hands its arguments to /bin/sh in double quotes, as
 * nvcc does for its sub-tools. */
static char *stand_in(const char *dir)
{
	char *p = tu_path(dir, "nvcc");
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\ncmd=:\nfor a; do cmd=\"$cmd \\\"$a\\\"\"; done\nexec /bin/sh -c \"$cmd\"\n", f);
	fclose(f);
	assert_int_equal(chmod(p, 0755), 0);
	return p;
}

static void runner_refuses(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *nvcc = stand_in(dir), *mark = tu_path(dir, "PWNED"), arg[600];
	ka_proc_result res;
	snprintf(arg, sizeof arg, "-DX=$(touch %s)", mark);
	char *argv[] = {nvcc, "-c", arg, NULL};
	assert_int_equal(ka_proc_run(argv, 20, NULL, &res), KA_EINPUT);
	assert_int_equal(access(mark, F_OK), -1); /* never started */
	assert_non_null(strstr(ka_error_last(), "refusing to run nvcc: its argument '-DX=$(touch "));
	assert_non_null(strstr(ka_error_last(), "holds '$'"));
	snprintf(arg, sizeof arg, "-DX=`touch %s`", mark);
	assert_int_equal(ka_proc_run_io(argv, 20, NULL, NULL, &res), KA_EINPUT);
	assert_int_equal(access(mark, F_OK), -1);
	/* the stand-in does run what it is handed: a safe argument runs */
	char *ok[] = {nvcc, "-c", "-DX=1", NULL};
	assert_int_equal(ka_proc_run(ok, 20, NULL, &res), KA_OK);
	assert_int_equal(res.status, 0);
	/* other programs (sh, the harness) get their arguments as they are */
	snprintf(arg, sizeof arg, "touch '%s'; echo $((1+1))", mark);
	char *sh[] = {"sh", "-c", arg, NULL};
	ka_buf out;
	ka_buf_init(&out, 4096);
	assert_int_equal(ka_proc_run(sh, 20, &out, &res), KA_OK);
	assert_string_equal(out.data, "2\n");
	assert_int_equal(access(mark, F_OK), 0);
	ka_buf_free(&out);
	free(mark);
	free(nvcc);
	tu_rmtree(dir);
	free(dir);
}

static int depth(const char *p)
{
	int d = 0;
	for (const char *q = p; *q; q++)
		d += *q != '/' && (q == p || q[-1] == '/');
	return d;
}

static void private_copy(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *sub = tu_path(dir, "p$(touch PWNED)"), real[PATH_MAX], link[PATH_MAX];
	assert_int_equal(mkdir(sub, 0755), 0);
	char *orig = tu_path(sub, "k$(touch PWNED).cu");
	FILE *f = fopen(orig, "w");
	assert_non_null(f);
	fputs("on disk\n", f);
	fclose(f);
	ka_safesrc s;
	assert_int_equal(ka_safesrc_make(orig, "edited\n", 7, &s), KA_OK);
	assert_true(ka_sh_safe(s.file, NULL, 0) && ka_sh_safe(s.quote, NULL, 0));
	const char *base = strrchr(s.file, '/') + 1;
	assert_string_equal(base, "k__touch_PWNED_.cu");
	assert_non_null(realpath(sub, real));
	assert_int_equal(s.levels, depth(real) + 1); /* deeper than the original's folder */
	assert_int_equal(depth(s.file), depth(s.top) + s.levels + 1);
	ssize_t n = readlink(s.quote, link, sizeof link - 1);
	assert_true(n > 0);
	link[n] = '\0';
	assert_string_equal(link, real);
	struct stat st;
	assert_int_equal(stat(s.top, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	char *text = NULL;
	size_t len = 0;
	assert_int_equal(ka_fs_read(s.file, 1 << 20, &text, &len), KA_OK);
	assert_string_equal(text, "edited\n");
	free(text);
	/* a message about the copy names the user's file */
	ka_buf b;
	ka_buf_init(&b, 4096);
	char msg[600];
	snprintf(msg, sizeof msg, "%s(3): error; %s", s.file, base);
	assert_int_equal(ka_safesrc_names(&b, &s, orig, msg, strlen(msg)), KA_OK);
	snprintf(msg, sizeof msg, "%s(3): error; k$(touch PWNED).cu", orig);
	assert_string_equal(b.data, msg);
	ka_buf_free(&b);
	char *top = strdup(s.top);
	ka_safesrc_remove(&s);
	assert_int_equal(access(top, F_OK), -1);
	assert_null(s.file);
	/* without text: the file's own bytes; no extension kept unless it is plain */
	assert_int_equal(ka_safesrc_make(orig, NULL, 0, &s), KA_OK);
	assert_int_equal(ka_fs_read(s.file, 1 << 20, &text, &len), KA_OK);
	assert_string_equal(text, "on disk\n");
	free(text);
	ka_safesrc_remove(&s);
	free(top);
	free(orig);
	free(sub);
	tu_rmtree(dir);
	free(dir);
}

/* `#include "h.h"` and `#include "../inc/u.h"` resolve from the copy as
 * from the original, with -iquote TOP/i (the host compiler's preprocessor,
 * which is what nvcc uses for both sides). */
static void includes_resolve(void **state)
{
	(void)state;
	char *cpp = ka_proc_find_tool(NULL, "cpp", NULL);
	if (!cpp) {
		fprintf(stderr, "SKIPPED: includes_resolve: no cpp (the C preprocessor) on PATH\n");
		return;
	}
	char *dir = tu_tmpdir(), *src = tu_path(dir, "src"), *inc = tu_path(dir, "inc");
	assert_int_equal(mkdir(src, 0755), 0);
	assert_int_equal(mkdir(inc, 0755), 0);
	char *h = tu_path(src, "h.h"), *u = tu_path(inc, "u.h"), *k = tu_path(src, "k.cu");
	FILE *f = fopen(h, "w");
	fputs("beside_the_file\n", f);
	fclose(f);
	f = fopen(u, "w");
	fputs("one_folder_up\n", f);
	fclose(f);
	static const char text[] = "#include \"h.h\"\n#include \"../inc/u.h\"\n";
	ka_safesrc s;
	assert_int_equal(ka_safesrc_make(k, text, sizeof text - 1, &s), KA_OK);
	char iq[PATH_MAX + 16];
	snprintf(iq, sizeof iq, "-iquote%s", s.quote);
	char *argv[] = {cpp, "-P", iq, s.file, NULL};
	ka_buf out;
	ka_buf_init(&out, 1 << 16);
	ka_proc_result res;
	assert_int_equal(ka_proc_run(argv, 60, &out, &res), KA_OK);
	if (res.status != 0)
		fail_msg("cpp failed: %s", out.data ? out.data : "");
	assert_non_null(strstr(out.data, "beside_the_file"));
	assert_non_null(strstr(out.data, "one_folder_up"));
	ka_buf_free(&out);
	ka_safesrc_remove(&s);
	free(h);
	free(u);
	free(k);
	free(src);
	free(inc);
	free(cpp);
	tu_rmtree(dir);
	free(dir);
}

/* SIGTERM while a copy exists: the handler removes the file, the link
 * and every folder of the tree. */
static void sigterm_removes_the_tree(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *k = tu_path(dir, "k.cu"), top[PATH_MAX] = "";
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	pid_t pid = fork();
	if (pid == 0) {
		ka_safesrc s;
		ka_cleanup_install();
		if (ka_safesrc_make(k, "x\n", 2, &s) != KA_OK)
			_exit(3);
		if (write(fd[1], s.top, strlen(s.top)) < 0)
			_exit(4);
		close(fd[1]);
		raise(SIGTERM);
		_exit(5);
	}
	close(fd[1]);
	ssize_t n = read(fd[0], top, sizeof top - 1);
	close(fd[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	assert_true(n > 0);
	top[n] = '\0';
	assert_int_equal(access(top, F_OK), -1);
	free(k);
	tu_rmtree(dir);
	free(dir);
}

int run_shsafe_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(safe_characters),
		cmocka_unit_test(flags_that_reach_the_compiler),
		cmocka_unit_test(nvcc_family),
		cmocka_unit_test(runner_refuses),
		cmocka_unit_test(private_copy),
		cmocka_unit_test(includes_resolve),
		cmocka_unit_test(sigterm_removes_the_tree),
	};
	return cmocka_run_group_tests_name("util_shsafe", tests, NULL, NULL);
}
