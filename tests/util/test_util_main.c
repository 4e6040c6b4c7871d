/* tests/util/test_util_main.c: main() of the util unit tests, and helpers. */
#include "test_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *tu_tmpdir(void)
{
	char *d = strdup("/tmp/ka-util-XXXXXX");
	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

void tu_rmtree(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

char *tu_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	assert_non_null(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

int main(void)
{
	int failed = run_mem_tests();
	failed += run_embed_tests();
	failed += run_fs_tests();
	failed += run_proc_tests();
	failed += run_shsafe_tests();
	failed += run_utf8_tests();
	failed += run_wire_tests();
	failed += run_ccdiag_tests();
	failed += run_sha256_tests();
	failed += run_cmdopt_tests();
	return failed != 0;
}
