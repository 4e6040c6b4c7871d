/* tests/rules/test_baseline.c: write a baseline, read it back, filter:
 * old findings vanish even when their line moved, new ones stay. */
#include "test_rules.h"
#include "rules/baseline.h"
#include "util/fs.h"
#include <unistd.h>

static void add(ka_findings *fs, const char *file, int line, const char *rule, const char *msg)
{
	ka_finding f = {0};
	f.file = strdup(file);
	f.line = f.end_line = line;
	f.col = f.end_col = 3;
	f.rule = strdup(rule);
	f.message = strdup(msg);
	assert_int_equal(ka_findings_push(fs, &f), KA_OK);
}

static void round_trip(void **state)
{
	char dir[] = "/tmp/ka-test-baseline-XXXXXX", src_path[256], bl[256];
	assert_non_null(mkdtemp(dir));
	snprintf(src_path, sizeof src_path, "%s/k.cu", dir);
	snprintf(bl, sizeof bl, "%s/baseline.json", dir);
	const char *v1 = "void f() {\n  x = in[32 * i];\n  y = in[2 * i];\n}\n";
	assert_int_equal(ka_fs_write_atomic(src_path, v1, strlen(v1)), KA_OK);
	ka_sources *src;
	ka_findings fs = KA_FINDINGS_INIT;
	assert_int_equal(ka_sources_new(&src), KA_OK);
	add(&fs, src_path, 2, "gmem-a", "strided 32");
	add(&fs, src_path, 3, "gmem-a", "strided 2");
	assert_int_equal(ka_baseline_write(bl, &fs, src), KA_OK);
	ka_findings_free(&fs);
	ka_sources_free(src);

	/* The code moves down two lines and gains a new finding. */
	const char *v2 =
		"// new\n// lines\nvoid f() {\n  x = in[32 * i];\n  y = in[2 * i];\n  z = in[4 * i];\n}\n";
	assert_int_equal(ka_fs_write_atomic(src_path, v2, strlen(v2)), KA_OK);
	assert_int_equal(ka_sources_new(&src), KA_OK);
	add(&fs, src_path, 4, "gmem-a", "strided 32");
	add(&fs, src_path, 5, "gmem-a", "strided 2");
	add(&fs, src_path, 6, "gmem-a", "strided 4");
	add(&fs, src_path, 5, "gmem-b", "strided 2"); /* another rule on an old line: new */
	ka_baseline *b = NULL;
	assert_int_equal(ka_baseline_load(bl, &b), KA_OK);
	assert_int_equal(ka_baseline_count(b), 2);
	assert_int_equal(ka_baseline_filter(b, &fs, src), 2);
	assert_int_equal(fs.n, 2);
	assert_int_equal(fs.v[0].line, 6);
	assert_string_equal(fs.v[1].rule, "gmem-b");
	ka_baseline_free(b);
	ka_findings_free(&fs);
	ka_sources_free(src);
	unlink(src_path);
	unlink(bl);
	rmdir(dir);
}

static void malformed_baseline(void **state)
{
	char dir[] = "/tmp/ka-test-baseline-XXXXXX", bl[256], want[512];
	assert_non_null(mkdtemp(dir));
	snprintf(bl, sizeof bl, "%s/b.json", dir);
	assert_int_equal(ka_fs_write_atomic(bl, "{\"version\": 1,\n \"findings\": [\n", 30), KA_OK);
	ka_baseline *b = NULL;
	assert_int_equal(ka_baseline_load(bl, &b), KA_EINPUT);
	assert_null(b);
	snprintf(want, sizeof want, "%s:3:0: malformed baseline: ']' expected near end of file", bl);
	assert_string_equal(ka_error_last(), want);
	assert_int_equal(ka_fs_write_atomic(bl, "[]", 2), KA_OK);
	assert_int_equal(ka_baseline_load(bl, &b), KA_EINPUT);
	snprintf(want, sizeof want, "%s: not a kcheck baseline (expected version 1 and a findings array)",
		 bl);
	assert_string_equal(ka_error_last(), want);
	unlink(bl);
	rmdir(dir);
}

int run_baseline_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(malformed_baseline),
	};
	return cmocka_run_group_tests_name("rules/baseline", tests, NULL, NULL);
}
