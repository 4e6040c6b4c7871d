/* tests/cli/test_lint.c: lint runs of the kcheck binary on small kernels
 * (tests/cli/fixtures/src): exit status, the three formats, -j, headers,
 * NOLINT, baseline, -o, --checks and .kcheck.yaml, -p and `--` flags. */
#include "cli_run.h"
#include <jansson.h>
#include <sys/stat.h>

#define SRC FIXTURES "/src"
/* The test rules of fixtures/rules only, so that edits to the built-in
 * rules' texts do not change what these tests expect. */
#define OPTS "--no-config --rules-dir " FIXTURES "/rules --checks '-*,test-strided-read,test-legacy-shuffle'"

static const char STRIDED_TEXT[] =
	"strided.cu:5:14: warning: read of in[32 * i]: 32 sectors per request, ideal 4 "
	"[impact 8.0x: 32 sectors over 4] [test-strided-read]\n"
	"    5 |     out[i] = in[32 * i];\n"
	"      |              ^~~~~~~~~~\n"
	"strided.cu: kernel gather: costliest finding test-strided-read (warning, impact 8.0x) "
	"at line 5: 32 sectors over 4\n";

static int status_of(const char *args)
{
	cli_result r = cli_run(SRC, NULL, OPTS " %s", args);
	int s = r.status;
	cli_free(&r);
	return s;
}

static void expect_status_err(cli_result *r, int status, const char *err)
{
	if (r->status != status || strcmp(r->err, err))
		fprintf(stderr, "status %d\nstdout: %s\nstderr: %s\n", r->status, r->out, r->err);
	assert_int_equal(r->status, status);
	assert_string_equal(r->err, err);
	cli_free(r);
}

static void exit_status(void **state)
{
	assert_int_equal(status_of("clean.cu"), 0);
	assert_int_equal(status_of("--checks test-kernel-note clean.cu"), 0); /* a note does not fail */
	assert_int_equal(status_of("--checks test-kernel-note --fail-on note clean.cu"), 1);
	assert_int_equal(status_of("strided.cu"), 1);
	assert_int_equal(status_of("--exit-zero strided.cu"), 0);
	assert_int_equal(status_of("--fail-on error strided.cu"), 0);
	assert_int_equal(status_of("--fail-on error legacy.cu"), 1);
	assert_int_equal(status_of("--fail-on none legacy.cu"), 0);
	assert_int_equal(status_of("--exit-zero syntax.cu"), 2); /* errors still fail */
}

static void text_output(void **state)
{
	cli_result r = cli_run(SRC, "NO_COLOR=1", OPTS " strided.cu");
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, STRIDED_TEXT);
	assert_string_equal(r.err, "kcheck: 0 errors, 1 warning, 0 notes\n");
	cli_free(&r);
	/* --color always forces ANSI colour even into a pipe */
	r = cli_run(SRC, NULL, OPTS " --color always -q strided.cu");
	assert_non_null(strstr(r.out, "\033[1;35mwarning:"));
	assert_string_equal(r.err, "");
	cli_free(&r);
}

static void parse_error_goes_on(void **state)
{
	cli_result r = cli_run(SRC, NULL, OPTS " -q syntax.cu strided.cu");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "syntax.cu:2:26: error: expected ';' after expression "
				   "(function 'broken' not analyzed)\n");
	/* the other file's findings, then the failed file's status */
	size_t n = strlen(STRIDED_TEXT);
	assert_true(strncmp(r.out, STRIDED_TEXT, n) == 0);
	assert_string_equal(r.out + n, "syntax.cu: failed: no function analyzed: 1 clang error; the "
				       "first: syntax.cu:2:26: expected ';' after expression "
				       "(function 'broken' not analyzed)\n");
	cli_free(&r);
}

static void json_output(void **state)
{
	json_error_t err;
	cli_result r = cli_run(SRC, NULL, OPTS " --format json strided.cu legacy.cu");
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "");
	json_t *root = json_loads(r.out, 0, &err);
	assert_non_null(root);
	json_t *fs = json_object_get(root, "findings");
	assert_int_equal(json_array_size(fs), 2);
	json_t *f = json_array_get(fs, 0); /* sorted: legacy.cu first */
	assert_string_equal(json_string_value(json_object_get(f, "file")), "legacy.cu");
	assert_string_equal(json_string_value(json_object_get(f, "rule")), "test-legacy-shuffle");
	assert_string_equal(json_string_value(json_object_get(f, "severity")), "error");
	assert_string_equal(json_string_value(json_object_get(f, "kernel")), "warp_sum");
	f = json_array_get(fs, 1);
	assert_string_equal(json_string_value(json_object_get(f, "file")), "strided.cu");
	assert_int_equal(json_integer_value(json_object_get(f, "line")), 5);
	assert_int_equal(json_integer_value(json_object_get(f, "column")), 14);
	assert_int_equal(json_integer_value(json_object_get(f, "end_line")), 5);
	assert_int_equal(json_integer_value(json_object_get(f, "end_column")), 24);
	assert_string_equal(json_string_value(json_object_get(f, "kernel")), "gather");
	assert_true(json_real_value(json_object_get(f, "estimate")) == 8.0);
	assert_string_equal(json_string_value(json_object_get(f, "basis")), "32 sectors over 4");
	assert_true(json_is_null(json_object_get(json_array_get(fs, 0), "estimate")));
	json_t *ks = json_object_get(root, "kernels"); /* costliest finding per kernel */
	assert_int_equal(json_array_size(ks), 2);
	json_decref(root);
	cli_free(&r);
}

static void sarif_output(void **state)
{
	json_error_t err;
	cli_result r = cli_run(SRC, NULL, OPTS " --format sarif strided.cu");
	assert_int_equal(r.status, 1);
	json_t *root = json_loads(r.out, 0, &err);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "version")), "2.1.0");
	json_t *run = json_array_get(json_object_get(root, "runs"), 0);
	json_t *rules = json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "rules");
	assert_int_equal(json_array_size(rules), 2); /* the enabled rules */
	json_t *res = json_array_get(json_object_get(run, "results"), 0);
	assert_string_equal(json_string_value(json_object_get(res, "ruleId")), "test-strided-read");
	size_t idx = (size_t)json_integer_value(json_object_get(res, "ruleIndex"));
	assert_string_equal(json_string_value(json_object_get(json_array_get(rules, idx), "id")),
			    "test-strided-read");
	json_t *loc = json_object_get(json_array_get(json_object_get(res, "locations"), 0),
				      "physicalLocation");
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(loc, "artifactLocation"), "uri")),
		"strided.cu");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(loc, "region"), "startColumn")),
			 14);
	json_t *props = json_object_get(res, "properties");
	assert_true(json_real_value(json_object_get(props, "estimate")) == 8.0);
	assert_string_equal(json_string_value(json_object_get(props, "basis")), "32 sectors over 4");
	json_decref(root);
	cli_free(&r);
}

/* --sort impact puts the error (an error ceiling and no estimate) before
 * the warning although its file sorts last; --sort location keeps file
 * order.  A bad value is refused. */
static void sort_impact(void **state)
{
	char *dir = cli_tmpdir();
	char *strided = cli_read(SRC "/strided.cu"), *legacy = cli_read(SRC "/legacy.cu");
	cli_write(dir, "a.cu", strided);
	cli_write(dir, "z.cu", legacy);
	cli_result r = cli_run(dir, "NO_COLOR=1", OPTS " -q --sort impact a.cu z.cu");
	char *e = strstr(r.out, "z.cu:5:10: error: "), *w = strstr(r.out, "a.cu:5:14: warning: ");
	assert_true(e && w && e < w);
	cli_free(&r);
	r = cli_run(dir, "NO_COLOR=1", OPTS " -q --sort location a.cu z.cu");
	e = strstr(r.out, "z.cu:5:10: error: "), w = strstr(r.out, "a.cu:5:14: warning: ");
	assert_true(e && w && w < e);
	assert_non_null(strstr(
		r.out, "\na.cu: kernel gather: costliest finding test-strided-read (warning, impact 8.0x)"));
	cli_free(&r);
	r = cli_run(dir, NULL, OPTS " --sort size a.cu");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--sort: unknown value 'size'"));
	cli_free(&r);
	free(strided);
	free(legacy);
	cli_rmtree(dir);
	free(dir);
}

static void jobs_output_identical(void **state)
{
	cli_result one = cli_run(SRC, NULL, OPTS " --format json -j 1 .");
	cli_result four = cli_run(SRC, NULL, OPTS " --format json -j 4 .");
	assert_int_equal(one.status, 2); /* syntax.cu */
	assert_int_equal(four.status, 2);
	assert_string_equal(one.out, four.out);
	assert_string_equal(one.err, four.err);
	assert_non_null(strstr(one.out, "\"file\": \"proj/kern.cuh\""));
	assert_non_null(strstr(one.out, "\"file\": \"legacy.cu\""));
	cli_free(&one);
	cli_free(&four);
}

static void header_reported_once(void **state)
{
	cli_result r = cli_run(SRC, NULL, OPTS " -q proj");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "proj/kern.cuh:5:12: warning: read of in[8 * i]"));
	assert_null(strstr(strstr(r.out, "kern.cuh") + 1, "kern.cuh:5:12"));
	cli_free(&r);
	/* NOLINT comments of included project headers count too */
	r = cli_run(SRC, NULL, OPTS " -q --report-unused-suppressions proj");
	assert_non_null(strstr(
		r.out, "proj/kern.cuh:7:4: warning: unused suppression NOLINTNEXTLINE(test-legacy-shuffle) "
		       "[unused-suppression]\n"));
	cli_free(&r);
	/* a folder with nothing to check says so */
	char *dir = cli_tmpdir();
	r = cli_run(dir, NULL, OPTS " .");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "kcheck: warning: no .cu, .cuh or .hip files to check\n");
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

static void nolint(void **state)
{
	cli_result r = cli_run(SRC, NULL, OPTS " nolint.cu");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	cli_free(&r);
	r = cli_run(SRC, NULL, OPTS " -q --report-unused-suppressions nolint.cu");
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "nolint.cu:6:6: warning: unused suppression NOLINTNEXTLINE(test-legacy-*) "
				   "[unused-suppression]\n"
				   "    6 |   // NOLINTNEXTLINE(test-legacy-*)\n"
				   "      |      ^~~~~~~~~~~~~~\n");
	cli_free(&r);
}

/* A NOLINT that names no kcheck rule but looks like one warns (with the
 * near miss); clang-tidy's names and real ids stay quiet. */
static void nolint_unknown_rule(void **state)
{
	char *dir = cli_tmpdir();
	cli_write(dir, "n.cu",
		  "__global__ void k(float *p) {\n"
		  "  p[0] = 1.f; // NOLINT(gmem-scalar-not-vectorised)\n"
		  "  p[1] = 2.f; // NOLINT(gmem-bogus-thing, readability-magic-numbers)\n"
		  "  p[2] = 3.f; // NOLINT(gmem-scalar-not-vectorized)\n"
		  "}\n");
	cli_result r = cli_run(dir, NULL, "--no-config --no-db --exit-zero --format concise n.cu");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "kcheck: warning: n.cu:2:18: NOLINT names no kcheck rule "
				      "'gmem-scalar-not-vectorised' (did you mean "
				      "'gmem-scalar-not-vectorized'?); it suppresses nothing\n"));
	assert_non_null(strstr(r.err, "n.cu:3:18: NOLINT names no kcheck rule 'gmem-bogus-thing'; it "
				      "suppresses nothing\n"));
	assert_null(strstr(r.err, "readability"));
	assert_null(strstr(r.err, "n.cu:4:"));
	cli_free(&r);
	r = cli_run(dir, NULL, "--no-config --no-db --exit-zero -q n.cu");
	assert_null(strstr(r.err, "NOLINT"));
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

/* One line per finding: concise, and GitHub Actions annotations. */
static void line_formats(void **state)
{
	cli_result r = cli_run(SRC, NULL, OPTS " --format concise strided.cu");
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "strided.cu:5:14: warning: read of in[32 * i]: 32 sectors per request, "
				   "ideal 4 [impact 8.0x: 32 sectors over 4] [test-strided-read]\n");
	assert_string_equal(r.err, "kcheck: 0 errors, 1 warning, 0 notes\n");
	cli_free(&r);
	r = cli_run(SRC, NULL, OPTS " --format github strided.cu");
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "::warning file=strided.cu,line=5,col=14,endLine=5,endColumn=24,"
				   "title=test-strided-read::read of in[32 * i]: 32 sectors per request, "
				   "ideal 4 [impact 8.0x: 32 sectors over 4] [test-strided-read]\n");
	cli_free(&r);
}

static void baseline(void **state)
{
	char *dir = cli_tmpdir();
	char *text = cli_read(SRC "/strided.cu");
	cli_write(dir, "s.cu", text);
	/* fails closed: a missing baseline is an error, not an empty one */
	cli_result r = cli_run(dir, NULL, OPTS " --baseline b.json s.cu");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_string_equal(
		r.err, "kcheck: error: --baseline b.json: no such file (create it with --write-baseline)\n");
	char bpath[4200];
	struct stat st;
	snprintf(bpath, sizeof bpath, "%s/b.json", dir);
	assert_int_equal(stat(bpath, &st), -1); /* nothing was written */
	cli_free(&r);
	r = cli_run(dir, NULL, OPTS " --baseline b.json --write-baseline s.cu");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "kcheck: wrote baseline b.json (1 findings)\n");
	cli_free(&r);
	r = cli_run(dir, NULL, OPTS " --baseline b.json s.cu");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "kcheck: 0 findings (1 in baseline)\n");
	cli_free(&r);
	/* a new strided read on top of the old one: only the new one fails */
	char *more = malloc(strlen(text) + 200);
	sprintf(more,
		"%s\n__global__ void g2(float *o, const float *in) {\n"
		"  o[threadIdx.x] = in[16 * threadIdx.x];\n}\n"
		"void l2(float *o, const float *in) { g2<<<1, 128>>>(o, in); }\n",
		text);
	cli_write(dir, "s.cu", more);
	r = cli_run(dir, NULL, OPTS " -q --baseline b.json s.cu");
	assert_int_equal(r.status, 1);
	assert_true(strncmp(r.out, "s.cu:13:20: warning: read of in[16 * threadIdx.x]", 49) == 0);
	assert_null(strstr(r.out, "s.cu:5:"));
	cli_free(&r);
	free(more);
	free(text);
	cli_rmtree(dir);
	free(dir);
}

static void output_file_and_checks(void **state)
{
	char *dir = cli_tmpdir();
	cli_result r = cli_run(SRC, NULL, OPTS " --format json -o %s/out.json strided.cu", dir);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "");
	cli_free(&r);
	char path[4096];
	snprintf(path, sizeof path, "%s/out.json", dir);
	char *json = cli_read(path);
	assert_non_null(json);
	assert_non_null(strstr(json, "\"rule\": \"test-strided-read\""));
	free(json);
	assert_int_equal(status_of("--checks '-*,test-legacy-*' strided.cu"), 0);
	assert_int_equal(status_of("--checks '-*,test-legacy-*' legacy.cu"), 1);
	/* .kcheck.yaml in the folder; the flag wins over it */
	char *text = cli_read(SRC "/strided.cu");
	cli_write(dir, "s.cu", text);
	cli_write(dir, ".kcheck.yaml", "checks: [\"-*\", \"sync-*\"]\nfail-on: warning\n");
	r = cli_run(dir, NULL, "s.cu");
	assert_int_equal(r.status, 0);
	cli_free(&r);
	r = cli_run(dir, NULL, "--checks 'gmem-*' s.cu");
	assert_int_equal(r.status, 1);
	cli_free(&r);
	free(text);
	cli_rmtree(dir);
	free(dir);
}

/* .kcheck.yaml keys: rules-dir (relative to the file), checks, fail-on,
 * exclude; flags still win. */
static void config_keys(void **state)
{
	char *dir = cli_tmpdir(), cmd[8192];
	char *text = cli_read(SRC "/strided.cu");
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/skip' '%s/src' && cp -r '%s/rules' '%s/myrules'", dir, dir,
		 FIXTURES, dir);
	assert_int_equal(system(cmd), 0);
	cli_write(dir, "src/s.cu", text);
	cli_write(dir, "skip/s.cu", text);
	cli_write(dir, ".kcheck.yaml",
		  "rules-dir: myrules\nchecks: \"-*,test-strided-read\"\n"
		  "fail-on: error\nexclude: [skip]\n");
	cli_result r = cli_run(dir, NULL, "-q .");
	assert_int_equal(r.status, 0); /* a warning, but fail-on: error */
	assert_true(strncmp(r.out,
			    "src/s.cu:5:14: warning: read of in[32 * i]: 32 sectors per request, ideal 4 "
			    "[impact 8.0x: 32 sectors over 4] [test-strided-read]\n",
			    128) == 0);
	assert_null(strstr(r.out, "skip/"));
	cli_free(&r);
	r = cli_run(dir, NULL, "-q --fail-on warning src"); /* from a subfolder: found in the parent */
	assert_int_equal(r.status, 1);
	cli_free(&r);
	cli_write(dir, ".kcheck.yaml", "fail-on: sometimes\n");
	r = cli_run(dir, NULL, "-q src");
	assert_int_equal(r.status, 2);
	char *real = realpath(dir, NULL);
	char want[8192];
	snprintf(want, sizeof want,
		 "%s/.kcheck.yaml:1: bad fail-on 'sometimes' (expected one of: error warning note none)\n",
		 real);
	assert_string_equal(r.err, want);
	free(real);
	cli_free(&r);
	free(text);
	cli_rmtree(dir);
	free(dir);
}

/* kcheck - --stdin-filename NAME: the text on stdin is linted as NAME
 * (which need not exist): findings and the JSON file name say NAME, the
 * config is the one nearest NAME, an exclude: glob matching NAME skips it;
 * the misuses are one-line errors. */
static void stdin_filename(void **state)
{
	char *dir = cli_tmpdir(), cmd[8192];
	char *text = cli_read(SRC "/strided.cu");
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/src' && cp -r '%s/rules' '%s/myrules'", dir, FIXTURES, dir);
	assert_int_equal(system(cmd), 0);
	cli_write(dir, "in.txt", text);
	cli_write(dir, ".kcheck.yaml",
		  "rules-dir: myrules\nchecks: \"-*,test-strided-read\"\nexclude: [gen]\n");
	/* from a subfolder, NAME relative to it: the parent's config applies */
	snprintf(cmd, sizeof cmd, "%s/src", dir);
	cli_result r = cli_run(cmd, NULL, "-q --fail-on error - --stdin-filename new.cu < ../in.txt");
	assert_int_equal(r.status, 0);
	assert_true(strncmp(r.out, "new.cu:5:14: warning: read of in[32 * i]: ", 42) == 0);
	assert_null(strstr(r.out, "[gmem-")); /* checks: from the config */
	cli_free(&r);
	r = cli_run(dir, NULL, "-q --format json - --stdin-filename src/a.cu < in.txt");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "\"file\": \"src/a.cu\""));
	assert_null(strstr(r.out, "in.txt"));
	cli_free(&r);
	r = cli_run(dir, NULL, "- --stdin-filename gen/a.cu < in.txt");
	expect_status_err(&r, 0, "kcheck: gen/a.cu is excluded (--exclude or exclude:): nothing analyzed\n");
	r = cli_run(dir, NULL, "-q --exclude 'x*.cu' - --stdin-filename src/x1.cu < in.txt");
	expect_status_err(&r, 0, "");
	r = cli_run(dir, NULL, "- < in.txt");
	expect_status_err(&r, 2, "kcheck: error: '-' (stdin) needs --stdin-filename NAME (the file it is)\n");
	r = cli_run(dir, NULL, "--stdin-filename a.cu src < in.txt");
	expect_status_err(
		&r, 2,
		"kcheck: error: --stdin-filename needs the PATH '-' (kcheck - --stdin-filename NAME < "
		"FILE)\n");
	r = cli_run(dir, NULL, "- src --stdin-filename a.cu < in.txt");
	expect_status_err(&r, 2, "kcheck: error: '-' (stdin) is the only PATH of its run\n");
	r = cli_run(dir, NULL, "--fix - --stdin-filename a.cu < in.txt");
	expect_status_err(&r, 2, "kcheck: error: --fix writes files: with '-' (stdin) use --diff\n");
	free(text);
	cli_rmtree(dir);
	free(dir);
}

static int mkdir_sub(const char *dir)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/sub", dir);
	return mkdir(p, 0755);
}

static void compile_db_and_flags(void **state)
{
	char *dir = cli_tmpdir();
	char db[8192];
	cli_write(dir, "m.cu",
		  "#ifndef STRIDE\n#define STRIDE 1\n#endif\n"
		  "__global__ void k(float *__restrict__ o, const float *__restrict__ in) {\n"
		  "  o[threadIdx.x] = in[STRIDE * threadIdx.x];\n}\n"
		  "void l(float *o, const float *in) { k<<<1, 128>>>(o, in); }\n");
	snprintf(db, sizeof db,
		 "[{\"directory\": \"%s\", \"file\": \"m.cu\", "
		 "\"command\": \"nvcc -DSTRIDE=32 -c m.cu -o m.o\"}]\n",
		 dir);
	cli_write(dir, "compile_commands.json", db);
	assert_int_equal(mkdir_sub(dir), 0);
	cli_result r = cli_run(dir, NULL, OPTS " -q m.cu");
	assert_int_equal(r.status, 0);
	cli_free(&r);
	r = cli_run(dir, NULL, OPTS " -q -p sub m.cu"); /* found in a parent folder */
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "in[STRIDE * threadIdx.x]: 32 sectors per request"));
	cli_free(&r);
	r = cli_run(dir, NULL, OPTS " -q -p ."); /* no PATH: the database's files */
	assert_int_equal(r.status, 1);
	cli_free(&r);
	r = cli_run(dir, NULL, OPTS " -q m.cu -- -DSTRIDE=8");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "in[STRIDE * threadIdx.x]: 32 sectors per request"));
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

int run_lint_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exit_status),
		cmocka_unit_test(text_output),
		cmocka_unit_test(parse_error_goes_on),
		cmocka_unit_test(json_output),
		cmocka_unit_test(sarif_output),
		cmocka_unit_test(sort_impact),
		cmocka_unit_test(jobs_output_identical),
		cmocka_unit_test(header_reported_once),
		cmocka_unit_test(nolint),
		cmocka_unit_test(baseline),
		cmocka_unit_test(line_formats),
		cmocka_unit_test(nolint_unknown_rule),
		cmocka_unit_test(output_file_and_checks),
		cmocka_unit_test(config_keys),
		cmocka_unit_test(stdin_filename),
		cmocka_unit_test(compile_db_and_flags),
	};
	return cmocka_run_group_tests_name("cli/lint", tests, NULL, NULL);
}
