/* tests/rules/test_report.c: text, JSON and SARIF reports, parsed back. */
#include "test_rules.h"
#include "rules/report.h"
#include "rules/source.h"
#include "util/fs.h"
#include <jansson.h>
#include <unistd.h>

static char dir[] = "/tmp/ka-test-report-XXXXXX";
static char path[256];

/* Line 2 holds a 2-byte (é) and a 4-byte (emoji) character before the access. */
static const char SRC[] = "__global__ void k(float *in, float *out) {\n"
			  "  /* \xc3\xa9\xf0\x9f\x98\x80 */ out[threadIdx.x] = in[32 * threadIdx.x];\n"
			  "}\n";

static int setup(void **state)
{
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/k.cu", dir);
	assert_int_equal(ka_fs_write_atomic(path, SRC, strlen(SRC)), KA_OK);
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	rmdir(dir);
	return 0;
}

/* One finding on `in[32 * threadIdx.x]` of line 2 (byte columns). */
static void one_finding(ka_findings *fs, const char *rule)
{
	ka_finding f = {0};
	const char *line2 = strchr(SRC, '\n') + 1;
	const char *at = strstr(line2, "in[32");
	f.file = strdup(path);
	f.line = f.end_line = 2;
	f.col = (int)(at - line2) + 1;
	f.end_col = f.col + (int)strlen("in[32 * threadIdx.x]");
	f.begin_off = f.end_off = -1;
	f.rule = strdup(rule);
	f.severity = KA_SEV_WARNING;
	f.message = strdup("read of in[32 * threadIdx.x] touches 32 sectors per warp request (ideal 4)");
	f.kernel = strdup("k");
	f.row_id = 7;
	assert_int_equal(ka_findings_push(fs, &f), KA_OK);
}

static void utf16_columns(void **state)
{
	const char *l = "\xc3\xa9\xf0\x9f\x98\x80x"; /* é (2 bytes), 😀 (4 bytes), x */
	assert_int_equal(ka_utf16_column(l, strlen(l), 1), 1);
	assert_int_equal(ka_utf16_column(l, strlen(l), 3), 2); /* after é: 1 unit */
	assert_int_equal(ka_utf16_column(l, strlen(l), 7), 4); /* after 😀: 2 more */
	assert_int_equal(ka_utf16_column(l, strlen(l), 8), 5); /* past the end: 1 per byte */
	assert_int_equal(ka_utf16_column("\xff\xfe"
					 "a",
					 3, 3),
			 3); /* invalid UTF-8: 1 per byte */
	assert_int_equal(ka_utf16_column("abc", 3, 2), 2);
}

static void text_report(void **state)
{
	ka_findings fs = KA_FINDINGS_INIT;
	ka_sources *src;
	ka_buf out;
	one_finding(&fs, "gmem-uncoalesced-access");
	assert_int_equal(ka_sources_new(&src), KA_OK);
	ka_buf_init(&out, 0);
	ka_report_opts o = {.excerpt = 1, .src = src};
	assert_int_equal(ka_report_text(&out, &fs, &o), KA_OK);
	char want[1024];
	snprintf(
		want, sizeof want,
		"%s:2:%d: warning: read of in[32 * threadIdx.x] touches 32 sectors per warp request (ideal 4) [gmem-uncoalesced-access]\n"
		"    2 |   /* \xc3\xa9\xf0\x9f\x98\x80 */ out[threadIdx.x] = in[32 * threadIdx.x];\n"
		"      | %30s^%s\n",                           /* 30 characters (not bytes) before `in` */
		path, fs.v[0].col, "", "~~~~~~~~~~~~~~~~~~~"); /* 1 + 19 = 20 bytes */
	assert_string_equal(out.data, want);
	/* colour: ANSI sequences only when asked */
	ka_buf_reset(&out);
	o.color = 1;
	assert_int_equal(ka_report_text(&out, &fs, &o), KA_OK);
	assert_non_null(strstr(out.data, "\033[1;35mwarning:"));
	ka_buf_free(&out);
	ka_sources_free(src);
	ka_findings_free(&fs);
}

static void json_report(void **state)
{
	ka_findings fs = KA_FINDINGS_INIT;
	ka_buf out;
	json_error_t err;
	one_finding(&fs, "gmem-uncoalesced-access");
	ka_buf_init(&out, 0);
	ka_report_opts o = {.version = "1.2.3"};
	assert_int_equal(ka_report_json(&out, &fs, &o), KA_OK);
	json_t *root = json_loads(out.data, 0, &err);
	assert_non_null(root);
	json_t *arr = json_object_get(root, "findings");
	assert_int_equal(json_array_size(arr), 1);
	json_t *f = json_array_get(arr, 0);
	assert_string_equal(json_string_value(json_object_get(f, "file")), path);
	assert_int_equal(json_integer_value(json_object_get(f, "line")), 2);
	assert_int_equal(json_integer_value(json_object_get(f, "column")), fs.v[0].col);
	assert_int_equal(json_integer_value(json_object_get(f, "end_line")), 2);
	assert_int_equal(json_integer_value(json_object_get(f, "end_column")), fs.v[0].end_col);
	assert_string_equal(json_string_value(json_object_get(f, "rule")), "gmem-uncoalesced-access");
	assert_string_equal(json_string_value(json_object_get(f, "severity")), "warning");
	assert_string_equal(json_string_value(json_object_get(f, "kernel")), "k");
	assert_true(json_is_null(json_object_get(f, "begin_offset")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(root, "summary"), "warning")), 1);
	json_decref(root);
	ka_buf_free(&out);
	ka_findings_free(&fs);
}

/* One place and rule reported in a cold kernel's context (a periodic
 * output pass) and in one that is not cold (from another translation
 * unit): the cold copy goes, whatever its message says.  Two cold copies
 * with nothing hotter stay (merged by kernel as usual). */
static void cold_copy_dropped(void **state)
{
	ka_findings fs = KA_FINDINGS_INIT;
	for (int i = 0; i < 2; i++) {
		one_finding(&fs, "gmem-indirect-gather");
		free(fs.v[i].kernel);
		fs.v[i].kernel = strdup(i ? "dump_rdf" : "force");
		fs.v[i].severity = KA_SEV_NOTE;
	}
	free(fs.v[1].message);
	fs.v[1].message = strdup("gather [cold: dump_rdf is launched only on every Nth pass]");
	fs.v[1].cold = 1;
	ka_findings_sort_unique(&fs);
	assert_int_equal(fs.n, 1);
	assert_string_equal(fs.v[0].kernel, "force");
	assert_int_equal(fs.v[0].cold, 0);
	ka_findings_free(&fs);

	for (int i = 0; i < 2; i++) {
		one_finding(&fs, "gmem-indirect-gather");
		free(fs.v[i].kernel);
		fs.v[i].kernel = strdup(i ? "dump_rdf" : "dump_adf");
		fs.v[i].cold = 1;
	}
	ka_findings_sort_unique(&fs);
	assert_int_equal(fs.n, 1);
	assert_int_equal(fs.v[0].nalso, 1);
	ka_findings_free(&fs);
}

/* A helper line reached from kernels k, k3 and k2 (k3 twice, as from two
 * translation units): one finding, the others named in `also`, in every
 * format, and still a summary line per kernel.  A finding that differs in
 * more than its kernel (here the severity) stays apart. */
static void shared_helper_line(void **state)
{
	ka_findings fs = KA_FINDINGS_INIT;
	ka_sources *src;
	ka_buf out;
	json_error_t err;
	const char *kernels[] = {"k3", "k", "k2", "k3"};
	for (int i = 0; i < 5; i++) {
		one_finding(&fs, "gmem-uncoalesced-access");
		free(fs.v[i].kernel);
		fs.v[i].kernel = strdup(i < 4 ? kernels[i] : "k4");
		if (i == 4)
			fs.v[i].severity = KA_SEV_NOTE;
	}
	ka_findings_sort_unique(&fs);
	assert_int_equal(fs.n, 2);
	const ka_finding *f = fs.v[0].severity == KA_SEV_WARNING ? &fs.v[0] : &fs.v[1];
	assert_string_equal(f->kernel, "k");
	assert_int_equal(f->nalso, 2);
	assert_string_equal(f->also[0], "k2");
	assert_string_equal(f->also[1], "k3");

	assert_int_equal(ka_sources_new(&src), KA_OK);
	ka_buf_init(&out, 0);
	ka_report_opts o = {.excerpt = 1, .src = src, .summary = 1};
	assert_int_equal(ka_report_text(&out, &fs, &o), KA_OK);
	assert_non_null(strstr(out.data, "\n      = also in kernels k2, k3\n"));
	for (int i = 0; i < 4; i++) {
		char line[64];
		snprintf(line, sizeof line, ": kernel %s: costliest finding", i < 3 ? kernels[i] : "k4");
		assert_non_null(strstr(out.data, line));
	}

	ka_buf_reset(&out);
	o = (ka_report_opts){.version = "1.2.3"};
	assert_int_equal(ka_report_json(&out, &fs, &o), KA_OK);
	json_t *root = json_loads(out.data, 0, &err);
	assert_non_null(root);
	json_t *arr = json_object_get(root, "findings"), *also = NULL;
	assert_int_equal(json_array_size(arr), 2);
	for (size_t i = 0; i < 2; i++)
		if (json_object_get(json_array_get(arr, i), "also_kernels"))
			also = json_object_get(json_array_get(arr, i), "also_kernels");
	assert_int_equal(json_array_size(also), 2);
	assert_string_equal(json_string_value(json_array_get(also, 1)), "k3");
	assert_int_equal(json_array_size(json_object_get(root, "kernels")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(root, "summary"), "warning")), 1);
	json_decref(root);

	ka_buf_reset(&out);
	o = (ka_report_opts){.version = "1.2.3", .src = src};
	assert_int_equal(ka_report_sarif(&out, &fs, &o), KA_OK);
	assert_non_null(strstr(out.data, "\"alsoKernels\""));
	ka_buf_free(&out);
	ka_sources_free(src);
	ka_findings_free(&fs);
}

static void sarif_report(void **state)
{
	ka_findings fs = KA_FINDINGS_INIT;
	ka_sources *src;
	ka_ruleset *rs;
	ka_buf out;
	json_error_t err;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_load_builtin(rs), KA_OK);
	assert_int_equal(ka_ruleset_select(rs, "-*,gmem-uncoalesced-access,gmem-uncoalesced-store"), KA_OK);
	one_finding(&fs, "gmem-uncoalesced-access");
	one_finding(&fs, "unused-suppression"); /* not a rule of the set */
	assert_int_equal(ka_sources_new(&src), KA_OK);
	ka_buf_init(&out, 0);
	ka_report_opts o = {.rules = rs, .version = "1.2.3", .src = src};
	assert_int_equal(ka_report_sarif(&out, &fs, &o), KA_OK);
	json_t *root = json_loads(out.data, 0, &err);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "version")), "2.1.0");
	json_t *run = json_array_get(json_object_get(root, "runs"), 0);
	json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
	assert_string_equal(json_string_value(json_object_get(driver, "name")), "kcheck");
	json_t *rules = json_object_get(driver, "rules");
	assert_int_equal(json_array_size(rules), 3); /* two enabled + the pseudo-rule */
	json_t *r0 = json_array_get(rules, 0);
	assert_string_equal(json_string_value(json_object_get(r0, "id")), "gmem-uncoalesced-access");
	const char *help = json_string_value(json_object_get(json_object_get(r0, "help"), "text"));
	assert_string_equal(help, ka_ruleset_find(rs, "gmem-uncoalesced-access")->body);
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(r0, "defaultConfiguration"), "level")),
		"warning");
	/* the category leads the tags (code scanning filters by them), then the rule's own */
	const ka_rule *gr = ka_ruleset_find(rs, "gmem-uncoalesced-access");
	json_t *props = json_object_get(r0, "properties");
	json_t *tags = json_object_get(props, "tags");
	assert_int_equal(json_array_size(tags), (size_t)gr->tags.n + 1);
	assert_string_equal(json_string_value(json_array_get(tags, 0)), "memory");
	assert_string_equal(json_string_value(json_array_get(tags, 1)), gr->tags.v[0]);
	assert_string_equal(json_string_value(json_object_get(props, "category")), "memory");
	assert_string_equal(json_string_value(json_object_get(props, "status")), "stable");
	json_t *res = json_array_get(json_object_get(run, "results"), 0);
	assert_string_equal(json_string_value(json_object_get(res, "ruleId")), "gmem-uncoalesced-access");
	assert_int_equal(json_integer_value(json_object_get(res, "ruleIndex")), 0);
	assert_string_equal(json_string_value(json_object_get(res, "level")), "warning");
	json_t *loc = json_object_get(json_array_get(json_object_get(res, "locations"), 0),
				      "physicalLocation");
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(loc, "artifactLocation"), "uri")) + 7,
		path);
	json_t *region = json_object_get(loc, "region");
	assert_int_equal(json_integer_value(json_object_get(region, "startLine")), 2);
	/* é is 2 bytes / 1 unit, 😀 is 4 bytes / 2 units: 3 columns fewer */
	assert_int_equal(json_integer_value(json_object_get(region, "startColumn")), fs.v[0].col - 3);
	assert_int_equal(json_integer_value(json_object_get(region, "endColumn")), fs.v[0].end_col - 3);
	json_t *res1 = json_array_get(json_object_get(run, "results"), 1);
	assert_int_equal(json_integer_value(json_object_get(res1, "ruleIndex")), 2);
	json_decref(root);
	ka_buf_free(&out);
	ka_sources_free(src);
	ka_ruleset_free(rs);
	ka_findings_free(&fs);
}

int run_report_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(utf16_columns),      cmocka_unit_test(text_report),
		cmocka_unit_test(json_report),        cmocka_unit_test(sarif_report),
		cmocka_unit_test(shared_helper_line), cmocka_unit_test(cold_copy_dropped),
	};
	return cmocka_run_group_tests_name("rules/report", tests, setup, teardown);
}
