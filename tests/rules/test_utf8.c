/* tests/rules/test_utf8.c: text that is not UTF-8, or that holds control
 * characters, in file names, messages and source lines: JSON, SARIF and
 * the baseline keep every finding (bad bytes become U+FFFD), and the text
 * report never hands a control character to the terminal. */
#include "test_rules.h"
#include "rules/baseline.h"
#include "rules/report.h"
#include "rules/utf8.h"
#include "util/fs.h"
#include <jansson.h>
#include <unistd.h>

#define FFFD "\xef\xbf\xbd"

static void add(ka_findings *fs, const char *file, int line, int col, const char *msg)
{
	ka_finding f = {0};
	f.file = strdup(file);
	f.line = f.end_line = line;
	f.col = col;
	f.end_col = col + 2;
	f.begin_off = f.end_off = -1;
	f.rule = strdup("gmem-test");
	f.severity = KA_SEV_WARNING;
	f.message = strdup(msg);
	f.kernel = strdup("k\xe9");
	assert_int_equal(ka_findings_push(fs, &f), KA_OK);
}

static void fix_replaces_bad_bytes(void **state)
{
	char *s = ka_utf8_fix("caf\xe9 ok \xc3\xa9 \xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80 \xf0\x9f\x98\x80");
	/* a Latin-1 byte, a surrogate, an overlong '/', past U+10FFFF: one
	 * U+FFFD per byte; é and the emoji stay */
	assert_string_equal(s, "caf" FFFD " ok \xc3\xa9 " FFFD FFFD FFFD " " FFFD FFFD " " FFFD FFFD FFFD FFFD
			       " \xf0\x9f\x98\x80");
	free(s);
	s = ka_utf8_fix("\xe2\x82"); /* cut short */
	assert_string_equal(s, FFFD FFFD);
	free(s);
}

static void json_keeps_file_and_message(void **state)
{
	ka_findings fs = KA_FINDINGS_INIT;
	add(&fs, "caf\xe9.cu", 2, 3, "read of \xff[i]");
	ka_report_opts o = {0};
	ka_buf b;
	ka_buf_init(&b, 0);
	assert_int_equal(ka_report_json(&b, &fs, &o), KA_OK);
	json_t *root = json_loads(b.data, 0, NULL);
	assert_non_null(root);
	json_t *f = json_array_get(json_object_get(root, "findings"), 0);
	assert_string_equal(json_string_value(json_object_get(f, "file")), "caf" FFFD ".cu");
	assert_string_equal(json_string_value(json_object_get(f, "message")), "read of " FFFD "[i]");
	assert_string_equal(json_string_value(json_object_get(f, "kernel")), "k" FFFD);
	json_decref(root);
	ka_buf_free(&b);
	ka_findings_free(&fs);
}

static void sarif_is_written(void **state)
{
	ka_findings fs = KA_FINDINGS_INIT;
	add(&fs, "caf\xe9.cu", 2, 3, "read of \xff[i]");
	ka_report_opts o = {0};
	ka_buf b;
	ka_buf_init(&b, 0);
	assert_int_equal(ka_report_sarif(&b, &fs, &o), KA_OK); /* was "out of memory" */
	json_t *root = json_loads(b.data, 0, NULL);
	assert_non_null(root);
	json_t *res = json_array_get(
		json_object_get(json_array_get(json_object_get(root, "runs"), 0), "results"), 0);
	assert_string_equal(json_string_value(json_object_get(json_object_get(res, "message"), "text")),
			    "read of " FFFD "[i]");
	json_t *loc = json_object_get(
		json_object_get(json_array_get(json_object_get(res, "locations"), 0), "physicalLocation"),
		"artifactLocation");
	assert_string_equal(json_string_value(json_object_get(loc, "uri")), "caf%E9.cu");
	json_decref(root);
	ka_buf_free(&b);
	ka_findings_free(&fs);
}

static void baseline_round_trip(void **state)
{
	char dir[] = "/tmp/ka-test-utf8-XXXXXX", src[256], bl[256];
	assert_non_null(mkdtemp(dir));
	snprintf(src, sizeof src, "%s/caf\xe9.cu", dir);
	snprintf(bl, sizeof bl, "%s/baseline.json", dir);
	const char *text = "void f() {\n  x = in[32 * i]; /* \xff */\n}\n";
	assert_int_equal(ka_fs_write_atomic(src, text, strlen(text)), KA_OK);
	ka_sources *s;
	ka_findings fs = KA_FINDINGS_INIT;
	assert_int_equal(ka_sources_new(&s), KA_OK);
	add(&fs, src, 2, 3, "read of \xff[i]");
	assert_int_equal(ka_baseline_write(bl, &fs, s), KA_OK); /* was "out of memory" */
	ka_baseline *b;
	assert_int_equal(ka_baseline_load(bl, &b), KA_OK);
	assert_int_equal(ka_baseline_count(b), 1);
	assert_int_equal(ka_baseline_filter(b, &fs, s), 1); /* the same finding matches */
	assert_int_equal(fs.n, 0);
	ka_baseline_free(b);
	/* a real failure says what it is */
	add(&fs, src, 2, 3, "m");
	char nodir[300];
	snprintf(nodir, sizeof nodir, "%s/no/such/folder/b.json", dir);
	assert_int_not_equal(ka_baseline_write(nodir, &fs, s), KA_OK);
	assert_null(strstr(ka_error_last(), "out of memory"));
	assert_non_null(strstr(ka_error_last(), "No such file or directory"));
	ka_findings_free(&fs);
	ka_sources_free(s);
	unlink(src);
	unlink(bl);
	rmdir(dir);
}

static void text_escapes_controls(void **state)
{
	char dir[] = "/tmp/ka-test-utf8-XXXXXX", src[256], want[1024];
	assert_non_null(mkdtemp(dir));
	snprintf(src, sizeof src, "%s/a\x1b[2J\nb.cu", dir);
	const char *text = "x\n\x1b[31m\ta = in[i]; \xe2\x80\xae\n";
	assert_int_equal(ka_fs_write_atomic(src, text, strlen(text)), KA_OK);
	ka_sources *s;
	ka_findings fs = KA_FINDINGS_INIT;
	assert_int_equal(ka_sources_new(&s), KA_OK);
	add(&fs, src, 2, 11, "bell\a \xc2\x9b \xff tab\t"); /* in[i] is at byte 11 */
	ka_report_opts o = {.excerpt = 1, .src = s};
	ka_buf b;
	ka_buf_init(&b, 0);
	assert_int_equal(ka_report_text(&b, &fs, &o), KA_OK);
	snprintf(want, sizeof want,
		 "%s/a\\x1b[2J\\nb.cu:2:11: warning: bell\\x07 \\u009b \\xff tab\\t [gmem-test]\n"
		 "    2 | \\x1b[31m\ta = in[i]; \\u202e\n"
		 "      |         \t    ^~\n",
		 dir);
	assert_string_equal(b.data, want);
	ka_buf_free(&b);
	ka_findings_free(&fs);
	ka_sources_free(s);
	unlink(src);
	rmdir(dir);
}

int run_utf8_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fix_replaces_bad_bytes), cmocka_unit_test(json_keeps_file_and_message),
		cmocka_unit_test(sarif_is_written),       cmocka_unit_test(baseline_round_trip),
		cmocka_unit_test(text_escapes_controls),
	};
	return cmocka_run_group_tests_name("utf8", tests, NULL, NULL);
}
