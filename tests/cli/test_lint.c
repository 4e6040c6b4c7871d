/* tests/cli/test_lint.c: lint runs on small kernels (filled in below). */
#include "cli_run.h"

int run_lint_tests(void)
{
	const struct CMUnitTest tests[] = {
	};
	return cmocka_run_group_tests_name("cli/lint", tests, NULL, NULL);
}
