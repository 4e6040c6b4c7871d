/* tests/cli/test_fixllm.c: `kcheck --fix/--diff --llm-base-url URL
 * --llm-model M` end to end, against the scripted OpenAI-compatible mock
 * (tests/agents/mock_openai.py) on 127.0.0.1: what the request carries, the
 * patch marked LLM-made, the repair turn with the compiler's error, replies
 * that give no fix (the file untouched, one line on stderr), --fix writing
 * only what compiled, and the option errors.  The compile gate needs nvcc:
 * the tests that go through it print SKIPPED without it. */
#include "cli_run.h"
#include "mock.h"
#include "util/proc.h"
#include <jansson.h>
#include <time.h>
#include <unistd.h>

#define SRC FIXTURES "/src"
/* The test rules only; test-strided-read has no mechanical fix. */
#define OPTS "--no-config --rules-dir " FIXTURES "/rules --checks '-*,test-strided-read'"
/* No knowledge DB of the person running the tests, no slow backoff. */
#define ENV "NO_COLOR=1 XDG_DATA_HOME=/nonexistent KERNELARC_LLM_BACKOFF_MS=10"

static const char HEADER[] = "# kcheck: LLM-made fix (model m) of kernel gather for [test-strided-read]; "
			     "review before applying\n--- a/strided.cu\n+++ b/strided.cu\n";

/* The rewrite the mock returns: it compiles. */
#define GOOD_CODE \
	"// Each lane reads through the read-only cache.\n" \
	"__global__ void gather(float *__restrict__ out, const float *__restrict__ in, int n) {\n" \
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n" \
	"  if (i < n)\n" \
	"    out[i] = __ldg(&in[32 * i]);\n" \
	"}\n\n" \
	"void launch_gather(float *out, const float *in, int n) {\n" \
	"  gather<<<(n + 255) / 256, 256>>>(out, in, n);\n" \
	"}\n"
/* JSON-escaped for the mock's script (the C text has no quotes). */
#define GOOD_JSON \
	"// Each lane reads through the read-only cache.\\n" \
	"__global__ void gather(float *__restrict__ out, const float *__restrict__ in, int n) {\\n" \
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\\n" \
	"  if (i < n)\\n" \
	"    out[i] = __ldg(&in[32 * i]);\\n" \
	"}\\n\\n" \
	"void launch_gather(float *out, const float *in, int n) {\\n" \
	"  gather<<<(n + 255) / 256, 256>>>(out, in, n);\\n" \
	"}\\n"
/* A rewrite with a syntax error on line 5. */
#define BAD_JSON \
	"__global__ void gather(float *__restrict__ out, const float *__restrict__ in, int n) {\\n" \
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\\n" \
	"  if (i < n)\\n" \
	"    // one load\\n" \
	"    out[i] = in[32 * i] +;\\n" \
	"}\\n"

#define REPLY(code) "{\"content\": \"Here it is:\\n```cuda\\n" code "```\\nOne load per lane.\"}"

typedef struct fixture {
	char *dir;
	char *orig; /* strided.cu as the fixtures hold it */
	ka_mock m;
} fixture;

static int have_nvcc(const char *test)
{
	if (ka_proc_find_nvcc())
		return 1;
	fprintf(stderr, "SKIPPED: %s: nvcc not found (the compile gate needs /usr/local/cuda)\n", test);
	return 0;
}

/* A folder holding a copy of strided.cu, and the mock serving script. */
static void start(fixture *f, const char *script)
{
	f->dir = cli_tmpdir();
	f->orig = cli_read(SRC "/strided.cu");
	assert_non_null(f->orig);
	cli_write(f->dir, "strided.cu", f->orig);
	assert_int_equal(ka_mock_start(&f->m, script), 0);
}

static void stop(fixture *f)
{
	ka_mock_stop(&f->m);
	cli_rmtree(f->dir);
	free(f->dir);
	free(f->orig);
}

static char *file_text(const fixture *f)
{
	char path[512];
	snprintf(path, sizeof path, "%s/strided.cu", f->dir);
	return cli_read(path);
}

static int file_unchanged(const fixture *f)
{
	char *now = file_text(f);
	int same = now && !strcmp(now, f->orig);
	free(now);
	return same;
}

/* The content of message i of request r (NULL when there is none). */
static const char *message(json_t *reqs, size_t r, size_t i)
{
	json_t *msgs = json_object_get(json_object_get(json_array_get(reqs, r), "body"), "messages");
	return json_string_value(json_object_get(json_array_get(msgs, i), "content"));
}

static int lines(const char *s)
{
	int n = 0;
	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* --diff: the request carries the kernel and the rule's text; an
 * uncompilable first reply gets a repair turn with nvcc's first error; the
 * compiling second reply is printed as a patch marked LLM-made. */
static void diff_repaired_and_marked(void **state)
{
	(void)state;
	if (!have_nvcc("diff_repaired_and_marked"))
		return;
	fixture f;
	start(&f, "{\"responses\": [" REPLY(BAD_JSON) ", " REPLY(GOOD_JSON) "]}");
	cli_result r = cli_run(f.dir, ENV, OPTS " -q --diff --llm-base-url %s --llm-model m strided.cu",
			       f.m.url);
	assert_int_equal(r.status, 1); /* the finding is still there: nothing changed on disk */
	assert_string_equal(r.err, "");
	assert_memory_equal(r.out, HEADER, strlen(HEADER));
	assert_non_null(strstr(r.out, "\n-    out[i] = in[32 * i];\n+    out[i] = __ldg(&in[32 * i]);\n"));
	assert_true(file_unchanged(&f));

	json_t *reqs = ka_mock_requests(&f.m);
	assert_int_equal(json_array_size(reqs), 2);
	const char *ask = message(reqs, 0, 1);
	assert_non_null(ask);
	assert_non_null(strstr(ask, "out[i] = in[32 * i];"));                 /* the kernel */
	assert_non_null(strstr(ask, "rewrite kernel `gather`"));              /* which one */
	assert_non_null(strstr(ask, "[test-strided-read] line 5"));           /* the finding */
	assert_non_null(strstr(ask, "A rule of the command-line tests, so")); /* the rule's text */
	const char *repair = message(reqs, 1, 3); /* system, user, assistant, user */
	assert_non_null(repair);
	assert_non_null(strstr(message(reqs, 1, 2), "in[32 * i] +;")); /* the failed candidate */
	assert_non_null(strstr(repair, "strided.cu(5): error"));       /* nvcc's first error */
	json_decref(reqs);
	cli_free(&r);

	/* the patch applies after its comment line */
	r = cli_run(f.dir, ENV,
		    OPTS " -q --diff --llm-base-url %s --llm-model m strided.cu > fix.patch; "
			 "patch -s -p1 < fix.patch && cat strided.cu",
		    f.m.url);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, GOOD_CODE);
	cli_free(&r);
	stop(&f);
}

/* --fix writes the rewrite that compiled; the reports say it is LLM-made. */
static void fix_writes_what_compiled(void **state)
{
	(void)state;
	if (!have_nvcc("fix_writes_what_compiled"))
		return;
	fixture f;
	start(&f, "{\"responses\": [" REPLY(GOOD_JSON) "]}");
	cli_result r = cli_run(f.dir, ENV, OPTS " --fix --llm-base-url %s --llm-model m strided.cu", f.m.url);
	assert_int_equal(r.status, 1); /* the rule still fires on the rewrite */
	char *now = file_text(&f);
	assert_string_equal(now, GOOD_CODE);
	free(now);
	assert_non_null(strstr(r.out, "    5 |     out[i] = __ldg(&in[32 * i]);\n")); /* analysed again */
	assert_non_null(strstr(r.out, "strided.cu: kernel gather: LLM-made fix (model m) applied for "
				      "[test-strided-read]; review it\n"));
	assert_non_null(strstr(r.err, "kcheck: strided.cu: kernel gather: applied an LLM-made fix (model m) "
				      "for [test-strided-read]; review it\n"));
	cli_free(&r);

	/* JSON and SARIF, from the original file again (the mock repeats its
	 * last reply) */
	cli_write(f.dir, "strided.cu", f.orig);
	r = cli_run(f.dir, ENV, OPTS " -q --fix --format json --llm-base-url %s --llm-model m strided.cu",
		    f.m.url);
	json_error_t je;
	json_t *root = json_loads(r.out, 0, &je);
	assert_non_null(root);
	json_t *fx = json_array_get(json_object_get(root, "llm_fixes"), 0);
	assert_non_null(fx);
	assert_string_equal(json_string_value(json_object_get(fx, "file")), "strided.cu");
	assert_string_equal(json_string_value(json_object_get(fx, "kernel")), "gather");
	assert_string_equal(json_string_value(json_object_get(fx, "model")), "m");
	assert_true(json_is_true(json_object_get(fx, "llm_made")));
	assert_string_equal(json_string_value(json_array_get(json_object_get(fx, "rules"), 0)),
			    "test-strided-read");
	json_decref(root);
	cli_free(&r);
	cli_write(f.dir, "strided.cu", f.orig);
	r = cli_run(f.dir, ENV, OPTS " -q --fix --format sarif --llm-base-url %s --llm-model m strided.cu",
		    f.m.url);
	root = json_loads(r.out, 0, &je);
	assert_non_null(root);
	json_t *run = json_array_get(json_object_get(root, "runs"), 0);
	json_t *note = json_array_get(json_object_get(json_array_get(json_object_get(run, "invocations"), 0),
						      "toolExecutionNotifications"),
				      0);
	assert_true(json_is_true(json_object_get(json_object_get(note, "properties"), "llmMade")));
	assert_non_null(strstr(json_string_value(json_object_get(json_object_get(note, "message"), "text")),
			       "LLM-made fix (model m)"));
	json_decref(root);
	cli_free(&r);
	stop(&f);
}

/* A candidate that does not compile after the repair turn: the file stays
 * as it was and one line says why. */
static void fix_keeps_what_does_not_compile(void **state)
{
	(void)state;
	if (!have_nvcc("fix_keeps_what_does_not_compile"))
		return;
	fixture f;
	start(&f, "{\"responses\": [" REPLY(BAD_JSON) "]}");
	cli_result r = cli_run(f.dir, ENV, OPTS " -q --fix --llm-base-url %s --llm-model m strided.cu",
			       f.m.url);
	assert_int_equal(r.status, 1);
	assert_true(file_unchanged(&f));
	assert_int_equal(lines(r.err), 1);
	assert_non_null(strstr(r.err,
			       "kcheck: strided.cu: kernel gather: no LLM-made fix: the rewrite does not "
			       "compile after a repair turn: strided.cu(5): error"));
	json_t *reqs = ka_mock_requests(&f.m);
	assert_int_equal(json_array_size(reqs), 2); /* the first turn and one repair */
	json_decref(reqs);
	cli_free(&r);
	stop(&f);
}

/* Replies that give nothing to compile (or only another kernel): the file untouched, one line on
 * stderr each, the usual exit status. */
static void bad_replies(void **state)
{
	(void)state;
	static const struct {
		const char *script, *err;
	} cases[] = {
		{"{\"responses\": [{\"body\": \"this is not json\"}]}",
		 "kcheck: strided.cu: kernel gather: no LLM-made fix: llm: the reply is not valid JSON"},
		{"{\"responses\": [{\"content\": \"I would rather not.\"}]}",
		 "kcheck: strided.cu: kernel gather: no LLM-made fix: llm: the reply has no code block"},
		{"{\"responses\": [{\"content\": \"```cuda\\n__global__ void other(float *o) { o[0] = 1; }\\n```\"}]}",
		 "kcheck: strided.cu: kernel gather: no LLM-made fix: the rewrite drops kernel gather"},
		{"{\"responses\": [{\"status\": 500, \"body\": \"{}\"}]}",
		 "kcheck: strided.cu: kernel gather: no LLM-made fix: llm: HTTP 500"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fixture f;
		start(&f, cases[i].script);
		cli_result r = cli_run(f.dir, ENV,
				       OPTS " -q --fix --llm-base-url %s --llm-model m strided.cu", f.m.url);
		assert_int_equal(r.status, 1);
		assert_true(file_unchanged(&f));
		assert_int_equal(lines(r.err), 1);
		assert_memory_equal(r.err, cases[i].err, strlen(cases[i].err));
		assert_non_null(strstr(r.out, "[test-strided-read]\n")); /* the report as without the LLM */
		cli_free(&r);
		stop(&f);
	}
}

/* --llm-timeout bounds each attempt: a server slower than it ends in one
 * line for the kernel, the file untouched, in seconds rather than the
 * default's minutes. */
static void llm_timeout_bounds_the_wait(void **state)
{
	(void)state;
	fixture f;
	start(&f, "{\"responses\": [{\"content\": \"late\", \"delay\": 30}]}");
	/* The message naming the 1 s limit is the evidence; no wall-clock
	 * bound (a loaded machine may take any time). */
	cli_result r = cli_run(f.dir, ENV,
			       OPTS " -q --fix --llm-timeout 1 --llm-base-url %s --llm-model m strided.cu",
			       f.m.url);
	assert_int_equal(r.status, 1);
	assert_true(file_unchanged(&f));
	assert_int_equal(lines(r.err), 1);
	assert_non_null(strstr(r.err, "within 1.0 s (timeout)"));
	cli_free(&r);
	stop(&f);
	/* out of range: one line, exit 2 */
	start(&f, "{\"responses\": [{\"content\": \"x\"}]}");
	r = cli_run(f.dir, ENV, OPTS " -q --fix --llm-timeout 0 --llm-base-url %s --llm-model m strided.cu",
		    f.m.url);
	assert_int_equal(r.status, 2);
	assert_int_equal(lines(r.err), 1);
	assert_non_null(strstr(r.err, "--llm-timeout"));
	cli_free(&r);
	stop(&f);
}

/* No compiler to gate the rewrite: it is not offered (an LLM-made fix is
 * never applied unchecked, whatever --require-compile-gate says). */
static void no_compiler_no_fix(void **state)
{
	(void)state;
	fixture f;
	start(&f, "{\"responses\": [" REPLY(GOOD_JSON) "]}");
	cli_result r = cli_run(f.dir, ENV " KCHECK_NVCC=/nonexistent",
			       OPTS " -q --fix --llm-base-url %s --llm-model m strided.cu", f.m.url);
	assert_int_equal(r.status, 1);
	assert_true(file_unchanged(&f));
	assert_string_equal(r.err,
			    "kcheck: strided.cu: kernel gather: no LLM-made fix: no compiler to check it "
			    "(nvcc not found)\n");
	cli_free(&r);
	stop(&f);
}

/* A finding with a mechanical fix (even one --fix does not apply) is the
 * fix loop's, not the LLM's: no request is made. */
static void mechanical_fixes_are_not_asked(void **state)
{
	(void)state;
	fixture f;
	start(&f, "{\"responses\": [" REPLY(GOOD_JSON) "]}");
	char *legacy = cli_read(SRC "/legacy.cu");
	cli_write(f.dir, "legacy.cu", legacy);
	free(legacy);
	cli_result r = cli_run(
		f.dir, ENV,
		"--no-config --checks '-*,sync-legacy-warp-intrinsic' -q --diff --llm-base-url %s "
		"--llm-model m legacy.cu",
		f.m.url);
	assert_int_equal(r.status, 1);
	assert_null(strstr(r.out, "LLM-made"));
	json_t *reqs = ka_mock_requests(&f.m);
	assert_int_equal(json_array_size(reqs), 0);
	json_decref(reqs);
	cli_free(&r);
	stop(&f);
}

/* A repository's .kcheck.yaml never picks the endpoint that gets the key:
 * llm-base-url there is an error at its line, and nothing is asked.  The
 * model may come from it (a plain name; a newline is an error at its line)
 * and acts only with --fix/--diff and an endpoint from the command line or
 * the environment: a plain lint run with that config asks nothing. */
static void config_keys(void **state)
{
	(void)state;
	if (!have_nvcc("config_keys"))
		return;
	fixture f;
	char cfg[512];
	start(&f, "{\"responses\": [" REPLY(GOOD_JSON) "]}");
	snprintf(cfg, sizeof cfg,
		 "rules-dir: [%s/rules]\nchecks: \"-*,test-strided-read\"\nllm-base-url: %s\nllm-model: m\n",
		 FIXTURES, f.m.url);
	cli_write(f.dir, ".kcheck.yaml", cfg);
	for (int diff = 0; diff < 2; diff++) {
		cli_result r = cli_run(f.dir, ENV " OPENAI_API_KEY=sk-SECRET",
				       diff ? "-q --diff strided.cu" : "-q strided.cu");
		assert_int_equal(r.status, 2);
		assert_int_equal(lines(r.err), 1);
		assert_non_null(strstr(
			r.err, ".kcheck.yaml:3: 'llm-base-url' is not read from a configuration file"));
		assert_string_equal(r.out, "");
		cli_free(&r);
	}
	snprintf(
		cfg, sizeof cfg,
		"rules-dir: [%s/rules]\nchecks: \"-*,test-strided-read\"\n\nllm-model: \"m\\n+++ b/.bashrc\"\n",
		FIXTURES);
	cli_write(f.dir, ".kcheck.yaml", cfg);
	cli_result r = cli_run(f.dir, ENV, "-q --diff --llm-base-url %s strided.cu", f.m.url);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, ".kcheck.yaml:4: llm-model: the model name holds byte 0x0a"));
	cli_free(&r);
	json_t *reqs = ka_mock_requests(&f.m);
	assert_int_equal(json_array_size(reqs), 0);
	json_decref(reqs);
	snprintf(cfg, sizeof cfg, "rules-dir: [%s/rules]\nchecks: \"-*,test-strided-read\"\nllm-model: m\n",
		 FIXTURES);
	cli_write(f.dir, ".kcheck.yaml", cfg);
	r = cli_run(f.dir, ENV, "-q strided.cu");
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "");
	cli_free(&r);
	reqs = ka_mock_requests(&f.m);
	assert_int_equal(json_array_size(reqs), 0);
	json_decref(reqs);
	char env[256]; /* the endpoint from the environment, the model from the file */
	snprintf(env, sizeof env, ENV " KERNELARC_LLM_BASE_URL=%s", f.m.url);
	r = cli_run(f.dir, env, "-q --diff strided.cu");
	assert_int_equal(r.status, 1);
	assert_memory_equal(r.out, HEADER, strlen(HEADER));
	reqs = ka_mock_requests(&f.m);
	assert_int_equal(json_array_size(reqs), 1);
	json_decref(reqs);
	cli_free(&r);
	stop(&f);
}

/* Hard errors: exit 2, one line, nothing asked or written. */
static void option_errors(void **state)
{
	(void)state;
	fixture f;
	start(&f, "{\"responses\": [" REPLY(GOOD_JSON) "]}");
	cli_result r = cli_run(f.dir, ENV, OPTS " --fix --llm-base-url %s strided.cu", f.m.url);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "kcheck: error: --llm-base-url needs --llm-model\n");
	cli_free(&r);
	r = cli_run(f.dir, ENV, OPTS " --llm-base-url %s --llm-model m strided.cu", f.m.url);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err,
			    "kcheck: error: --llm-base-url and --llm-model work with --fix or --diff\n");
	cli_free(&r);
	r = cli_run(f.dir, ENV, OPTS " --fix --llm-base-url ftp://127.0.0.1/v1 --llm-model m strided.cu");
	assert_int_equal(r.status, 2);
	assert_int_equal(lines(r.err), 1);
	assert_non_null(strstr(r.err, "is not an http:// or https:// URL"));
	cli_free(&r);
	if (access("/dev/nvidiactl", F_OK) != 0 && access("/dev/nvidia0", F_OK) != 0 &&
	    access("/dev/dxg", F_OK) != 0) {
		r = cli_run(f.dir, ENV,
			    OPTS " --fix --task %s/../../../bench/tasks/saxpy --llm-base-url %s "
				 "--llm-model m strided.cu",
			    FIXTURES, f.m.url);
		assert_int_equal(r.status, 2);
		assert_string_equal(r.err,
				    "kcheck: error: --task: no CUDA device found (the bench times each "
				    "LLM-made fix on one)\n");
		cli_free(&r);
	} else {
		fprintf(stderr, "SKIPPED: option_errors: --task without a GPU (this machine has one)\n");
	}
	json_t *reqs = ka_mock_requests(&f.m);
	assert_int_equal(json_array_size(reqs), 0);
	json_decref(reqs);
	assert_true(file_unchanged(&f));
	stop(&f);
}

int run_fixllm_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(diff_repaired_and_marked),
		cmocka_unit_test(fix_writes_what_compiled),
		cmocka_unit_test(fix_keeps_what_does_not_compile),
		cmocka_unit_test(bad_replies),
		cmocka_unit_test(no_compiler_no_fix),
		cmocka_unit_test(llm_timeout_bounds_the_wait),
		cmocka_unit_test(mechanical_fixes_are_not_asked),
		cmocka_unit_test(config_keys),
		cmocka_unit_test(option_errors),
	};
	return cmocka_run_group_tests_name("cli_fix_llm", tests, NULL, NULL);
}
