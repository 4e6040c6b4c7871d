/* tests/util/test_ccdiag.c: util/ccdiag.h keeps compiler diagnostics about
 * the compiled files and leaves out those quoting any other file. */
#include "test_util.h"
#include "util/ccdiag.h"
#include <string.h>

static const char *filter(const char *text, const char *const *allowed, ka_buf *b, int *dropped)
{
	ka_buf_init(b, 1 << 16);
	*dropped = ka_ccdiag_filter(text, strlen(text), allowed, b);
	return b->data ? b->data : "";
}

/* nvcc's own layout, as it prints an included credentials file */
static void test_nvcc_foreign_quote(void **state)
{
	static const char out[] =
		"/w/h/ka_task.h(3): error: identifier \"q\" is undefined\n"
		"  int x = q;\n"
		"          ^\n"
		"\n"
		"/home/u/.aws/credentials(1): error: this declaration has no storage class\n"
		"  aws_secret_access_key=SECRET123\n"
		"  ^\n"
		"\n"
		"cand.cu(4): error: identifier \"zz\" is undefined\n"
		"  int y = zz;\n"
		"          ^\n"
		"\n"
		"3 errors detected in the compilation of \"cand.cu\".\n";
	const char *const allowed[] = {"cand.cu", "/w/h/", NULL};
	ka_buf b;
	int dropped;
	(void)state;
	const char *got = filter(out, allowed, &b, &dropped);
	assert_null(strstr(got, "SECRET123"));
	assert_null(strstr(got, ".aws"));
	assert_non_null(strstr(got, "cand.cu(4): error: identifier \"zz\" is undefined\n  int y = zz;\n"));
	assert_non_null(strstr(got, "/w/h/ka_task.h(3): error"));
	assert_non_null(strstr(got, "3 errors detected in the compilation of \"cand.cu\"."));
	assert_int_equal(dropped, 4);
	ka_buf_free(&b);
}

/* gcc and clang layouts, include chains, and paths that only look allowed */
static void test_gcc_layouts(void **state)
{
	static const char out[] = "In file included from cand.cu:2:\n"
				  "/etc/shadow:1:5: error: expected ';'\n"
				  "    1 | root:$6$hash:19000\n"
				  "      |     ^\n"
				  "cand.cu: In function 'void f()':\n"
				  "cand.cu:7:3: warning: unused variable 'v'\n"
				  "    7 |   int v;\n"
				  "/w/h/../../etc/passwd:1: error: no\n"
				  "    1 | root:x:0:0\n"
				  "cand.cu.evil(1): error: x\n"
				  "  leaked line\n";
	const char *const allowed[] = {"cand.cu", "/w/h/", NULL};
	ka_buf b;
	int dropped;
	(void)state;
	const char *got = filter(out, allowed, &b, &dropped);
	assert_string_equal(got, "In file included from cand.cu:2:\n"
				 "cand.cu: In function 'void f()':\n"
				 "cand.cu:7:3: warning: unused variable 'v'\n"
				 "    7 |   int v;\n");
	assert_int_equal(dropped, 7);
	ka_buf_free(&b);
}

/* output with no location (nvcc fatal, ptxas) is kept whole */
static void test_tool_lines_kept(void **state)
{
	static const char out[] = "nvcc fatal   : Unsupported gpu architecture 'compute_1'\n"
				  "ptxas error   : Entry function 'k' uses too much shared data";
	const char *const allowed[] = {"cand.cu", NULL};
	ka_buf b;
	int dropped;
	(void)state;
	const char *got = filter(out, allowed, &b, &dropped);
	assert_string_equal(got, "nvcc fatal   : Unsupported gpu architecture 'compute_1'\n"
				 "ptxas error   : Entry function 'k' uses too much shared data\n");
	assert_int_equal(dropped, 0);
	ka_buf_free(&b);
}

int run_ccdiag_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvcc_foreign_quote),
		cmocka_unit_test(test_gcc_layouts),
		cmocka_unit_test(test_tool_lines_kept),
	};
	return cmocka_run_group_tests_name("ccdiag", tests, NULL, NULL);
}
