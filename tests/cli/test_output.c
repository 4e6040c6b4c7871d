/* tests/cli/test_output.c: names and text from a repository never reach
 * the terminal as control characters: a file whose name holds an escape
 * sequence and a newline, with a clang error and a finding in it. */
#include "cli_run.h"

static const char KERNEL[] = "__global__ void k(float *out, const float *in) {\n"
			     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			     "    out[i] = in[32 * i];\n"
			     "}\n"
			     "void broken() { int x = 1 }\n";

static void no_raw_controls(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 && *p != '\n')
			fail_msg("raw control character 0x%02x in: %s", *p, s);
}

static void names_are_escaped(void **state)
{
	char *dir = cli_tmpdir();
	cli_write(dir, "a\x1b[31m\nb.cu", KERNEL);
	cli_result r = cli_run(dir, "NO_COLOR=1",
			       "--no-config --rules-dir " FIXTURES "/rules "
			       "--checks '-*,test-strided-read' .");
	assert_int_not_equal(r.status, 0);
	no_raw_controls(r.out);
	no_raw_controls(r.err);
	assert_non_null(strstr(r.out, "a\\x1b[31m\\nb.cu:3:14: warning: read of in[32 * i]"));
	/* clang's error: on stderr, and in the file's status line */
	assert_non_null(strstr(r.err, "a\\x1b[31m\\nb.cu:5:26: error: expected ';'"));
	assert_non_null(strstr(r.out, "a\\x1b[31m\\nb.cu: partial: 1 clang error; the first: "
				      "a\\x1b[31m\\nb.cu:5:26: expected ';'"));
	assert_non_null(strstr(r.out, "a\\x1b[31m\\nb.cu: kernel k: costliest finding"));
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

int run_output_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_are_escaped),
	};
	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
