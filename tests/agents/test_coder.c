/* tests/agents/test_coder.c: the coder interface and the LLM provider's
 * pieces: the provider registry, the code-block choice in a reply,
 * Retry-After's two forms, the prompt builder, and (against the mock
 * server) that a request carries the kernel, the findings with their
 * evidence and the rules' texts, and that a repair turn carries the
 * failed candidate and the compiler's error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "agents/coder.h"
#include "agents/llm.h"
#include "agents/llm_prompt.h"
#include "mock.h"
#include "util/error.h"

/* ---- registry ---- */

static int echo_create(const ka_coder_opts *o, void **st)
{
	*st = (void *)"state";
	return KA_OK;
}
static void echo_destroy(void *st)
{
	(void)st;
}
static int echo_propose(void *st, const ka_coder_request *r, ka_coder_reply *out)
{
	if (r->failed_error && !strcmp(r->failed_error, "empty"))
		return KA_OK; /* an empty candidate: coder.c must refuse it */
	out->source = strndup(r->failed_source ? r->failed_source : r->source,
			      r->failed_source ? r->failed_len : r->source_len);
	out->source_len = strlen(out->source);
	return KA_OK;
}
static const ka_coder_provider echo = {"echo", "returns its input", echo_create, echo_propose, echo_destroy};

static void test_registry(void **st)
{
	assert_non_null(ka_coder_provider_find("llm"));
	assert_null(ka_coder_provider_find("echo"));
	size_t n = ka_coder_provider_count();
	assert_int_equal(ka_coder_register(&echo), KA_OK);
	assert_int_equal(ka_coder_provider_count(), n + 1);
	assert_int_equal(ka_coder_register(&echo), KA_EINPUT);
	assert_string_equal(ka_error_last(), "coder provider 'echo' is already registered");
	ka_coder_provider bad = {"half", NULL, echo_create, NULL, echo_destroy};
	assert_int_equal(ka_coder_register(&bad), KA_EINPUT);

	ka_coder_opts o = KA_CODER_OPTS_INIT;
	ka_coder *c = NULL;
	o.provider = "nosuch";
	assert_int_equal(ka_coder_new(&c, &o), KA_ENOTFOUND);
	assert_non_null(strstr(ka_error_last(), "unknown coder provider 'nosuch' (known: "));
	assert_non_null(strstr(ka_error_last(), "llm"));
	assert_non_null(strstr(ka_error_last(), "echo)"));

	o.provider = "echo";
	assert_int_equal(ka_coder_new(&c, &o), KA_OK);
	ka_coder_request req = {.path = "a.cu", .source = "int x;\n", .source_len = 7};
	ka_coder_reply rep;
	assert_int_equal(ka_coder_propose(c, &req, &rep), KA_OK);
	assert_string_equal(rep.source, "int x;\n");
	ka_coder_reply_clear(&rep);
	assert_int_equal(ka_coder_repair(c, &req, "int y;\n", 7, "error", &rep), KA_OK);
	assert_string_equal(rep.source, "int y;\n");
	ka_coder_reply_clear(&rep);
	assert_int_equal(ka_coder_repair(c, &req, "int y;\n", 7, "empty", &rep), KA_ERR);
	assert_string_equal(ka_error_last(), "coder echo: the candidate is empty");
	ka_coder_request none = {.path = "a.cu"};
	assert_int_equal(ka_coder_propose(c, &none, &rep), KA_EINPUT);
	ka_coder_free(c);

	o.provider = "llm"; /* no endpoint, no model */
	unsetenv("KERNELARC_LLM_BASE_URL");
	unsetenv("OPENAI_BASE_URL");
	assert_int_equal(ka_coder_new(&c, &o), KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "llm: no endpoint: give --llm-base-url URL"));
	o.llm.base_url = "ftp://example/";
	o.llm.model = "m";
	assert_int_equal(ka_coder_new(&c, &o), KA_EINPUT);
	assert_string_equal(ka_error_last(),
			    "--llm-base-url: 'ftp://example/' is not an http:// or https:// URL");
}

/* ---- the code block of a reply ---- */

static char *code_of(const char *reply, const char *want)
{
	char *code = NULL;
	size_t len;
	return ka_llm_extract_code(reply, want, &code, &len) == KA_OK ? code : NULL;
}

static void test_extract_code(void **st)
{
	char *c;
	c = code_of("Sure.\n```cuda\n__global__ void k() {}\n```\nThat is all.\n", NULL);
	assert_string_equal(c, "__global__ void k() {}\n");
	free(c);
	/* a snippet first, the whole file second: the one with the kernel's name wins */
	c = code_of("Change:\n```cuda\nx[i] = y;\n```\nWhole file:\n```cuda\n#include <a.h>\n"
		    "__global__ void softmax(float *x) {}\n```\n",
		    "softmax");
	assert_non_null(strstr(c, "#include <a.h>"));
	free(c);
	/* a shell block is never the candidate, even when it is longer */
	c = code_of("```bash\nnvcc -arch=sm_90 -O3 -c k.cu -o k.o && ./run --all --the --things\n```\n"
		    "```\n__global__ void k() {}\n```\n",
		    "k");
	assert_string_equal(c, "__global__ void k() {}\n");
	free(c);
	/* a CUDA fence beats a bare one of the same standing */
	c = code_of(
		"```\n__global__ void k() { int a_longer_body; }\n```\n```cpp\n__global__ void k() {}\n```\n",
		"k");
	assert_string_equal(c, "__global__ void k() {}\n");
	free(c);
	/* tildes, indented fences, an info string with attributes */
	c = code_of("  ~~~cuda {.numberLines}\nint a;\n  ~~~\n", NULL);
	assert_string_equal(c, "int a;\n");
	free(c);
	/* a longer fence holds ``` inside */
	c = code_of("````cuda\n// ``` in a comment\nint a;\n````\n", NULL);
	assert_string_equal(c, "// ``` in a comment\nint a;\n");
	free(c);
	/* cut off by max_tokens: the open block runs to the end */
	c = code_of("```cuda\n__global__ void k() {\n", NULL);
	assert_string_equal(c, "__global__ void k() {\n");
	free(c);
	char *code = NULL;
	size_t len;
	assert_int_equal(ka_llm_extract_code("no code here", NULL, &code, &len), KA_EPARSE);
	assert_string_equal(ka_error_last(), "llm: the reply has no code block (expected the whole kernel "
					     "file in a ```cuda fence)");
	assert_int_equal(ka_llm_extract_code("```python\nprint(1)\n```\n", NULL, &code, &len), KA_EPARSE);
	assert_string_equal(ka_error_last(), "llm: the reply has no CUDA/C++ code block (only blocks in "
					     "other languages)");
	assert_null(code);
}

static void test_retry_after(void **st)
{
	long long at = 1792567680LL; /* Wed, 21 Oct 2026 07:28:00 GMT */
	assert_int_equal(ka_llm_retry_after(" 7\r\n", at), 7);
	assert_int_equal(ka_llm_retry_after("0", at), 0);
	assert_int_equal(ka_llm_retry_after("Wed, 21 Oct 2026 07:28:00 GMT\r\n", at - 5), 5);
	assert_int_equal(ka_llm_retry_after("Wed, 21 Oct 2026 07:28:00 GMT", at + 100), 0);
	assert_int_equal(ka_llm_retry_after("soon", at), -1);
	assert_int_equal(ka_llm_retry_after("5 minutes", at), -1);
}

/* ---- the prompt ---- */

static const char kernel_src[] =
	"__global__ void softmax_naive(const float *x, float *y, long long rows, long long cols)\n"
	"{ /* one thread per row */ }\n";
static const ka_coder_finding findings[] = {
	{.rule = "gmem-row-per-thread",
	 .message = "x[r * cols + j] is read one row per thread",
	 .line = 1,
	 .kernel = "softmax_naive",
	 .evidence = "fixed 7 times on sm_90, median 4.3x [3.1, 6.0]"},
};
static const ka_coder_rule rules[] = {
	{.id = "gmem-row-per-thread",
	 .title = "A row per thread",
	 .fix = "warp-per-row",
	 .text = "Give each row to a warp and reduce with __shfl_xor_sync."},
};
static const char *const configs[] = {"v_4096x1024: rows=4096 cols=1024", "u_7x3: rows=7 cols=3"};
static const ka_coder_attempt tried[] = {
	{.strategy = "block-size", .params = "block=512", .outcome = "slower", .speedup = 0.91},
	{.strategy = "llm",
	 .outcome = "compile_error",
	 .error = "k.cu(9): error: identifier \"w\" is undefined"},
};

static ka_coder_request full_request(void)
{
	ka_coder_request r = {
		.path = "bench/tasks/softmax/baseline.cu",
		.source = kernel_src,
		.source_len = sizeof kernel_src - 1,
		.kernel = "softmax_naive",
		.arch = "sm_90",
		.findings = findings,
		.n_findings = 1,
		.rules = rules,
		.n_rules = 1,
		.strategy = "warp-per-row",
		.params = "block=256",
		.abi = "extern \"C\" int ka_task_run(const ka_task_args *a, cudaStream_t s);",
		.configs = configs,
		.n_configs = 2,
		.tried = tried,
		.n_tried = 2,
	};
	return r;
}

static void test_prompt(void **st)
{
	ka_coder_request r = full_request();
	ka_llm_prompt p;
	assert_int_equal(ka_llm_prompt_build(&r, &p), KA_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.msgs[0].role, "system");
	assert_string_equal(p.msgs[1].role, "user");
	const char *u = p.msgs[1].content;
	const char *want[] = {
		"## Kernel file `bench/tasks/softmax/baseline.cu`, rewrite kernel `softmax_naive`, target sm_90",
		"```cuda\n__global__ void softmax_naive(",
		"- [gmem-row-per-thread] line 1 in kernel `softmax_naive`: x[r * cols + j] is read one row per thread",
		"Measured evidence: fixed 7 times on sm_90, median 4.3x [3.1, 6.0]",
		"### gmem-row-per-thread: A row per thread",
		"Known fix: warp-per-row",
		"Give each row to a warp and reduce with __shfl_xor_sync.",
		"## Strategy to apply\n\nwarp-per-row with block=256",
		"extern \"C\" int ka_task_run(const ka_task_args *a, cudaStream_t s);",
		"- v_4096x1024: rows=4096 cols=1024\n- u_7x3: rows=7 cols=3",
		"1. block-size block=512: slower, speedup 0.91x",
		"2. llm: compile_error, error: k.cu(9): error: identifier \"w\" is undefined",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!strstr(u, want[i]))
			fail_msg("prompt lacks \"%s\" in:\n%s", want[i], u);
	ka_llm_prompt_free(&p);

	r.failed_source = "__global__ void k() { w; }\n";
	r.failed_len = strlen(r.failed_source);
	r.failed_error = "k.cu(1): error: identifier \"w\" is undefined";
	assert_int_equal(ka_llm_prompt_build(&r, &p), KA_OK);
	assert_int_equal(p.n, 4);
	assert_string_equal(p.msgs[2].role, "assistant");
	assert_string_equal(p.msgs[2].content, "```cuda\n__global__ void k() { w; }\n```\n\n");
	assert_non_null(strstr(p.msgs[3].content, "k.cu(1): error: identifier \"w\" is undefined"));
	ka_llm_prompt_free(&p);

	static char big[KA_LLM_PROMPT_MAX_SOURCE + 2];
	memset(big, 'x', sizeof big - 1);
	r.source = big, r.source_len = sizeof big - 1;
	assert_int_equal(ka_llm_prompt_build(&r, &p), KA_ETOOBIG);
	assert_non_null(strstr(ka_error_last(), "over the 262144-byte limit of a prompt"));
}

/* ---- through the mock: what the requests carry ---- */

static void test_request_and_repair_turn(void **st)
{
	ka_mock m;
	assert_int_equal(
		ka_mock_start(
			&m,
			"{\"responses\": ["
			"{\"content\": \"```cuda\\n__global__ void softmax_naive() { w; }\\n```\\nWarp per row.\"},"
			"{\"content\": \"Fixed:\\n```cuda\\n__global__ void softmax_naive() { }\\n```\\n\"}]}"),
		0);
	ka_coder_opts o = KA_CODER_OPTS_INIT;
	o.provider = "llm";
	o.llm.base_url = m.url;
	o.llm.model = "mock-model";
	o.llm.api_key = "k";
	o.llm.backoff_base_ms = 5;
	ka_coder *c = NULL;
	assert_int_equal(ka_coder_new(&c, &o), KA_OK);
	ka_coder_request r = full_request();
	ka_coder_reply a, b;
	assert_int_equal(ka_coder_propose(c, &r, &a), KA_OK);
	assert_string_equal(a.source, "__global__ void softmax_naive() { w; }\n");
	assert_int_equal(a.llm_made, 1);
	assert_string_equal(a.strategy, "llm:mock-model");
	assert_string_equal(a.note, "Warp per row.");
	const char *err = "baseline.cu(1): error: identifier \"w\" is undefined";
	assert_int_equal(ka_coder_repair(c, &r, a.source, a.source_len, err, &b), KA_OK);
	assert_string_equal(b.source, "__global__ void softmax_naive() { }\n");

	json_t *req = ka_mock_requests(&m);
	assert_int_equal(json_array_size(req), 2);
	json_t *m1 = json_object_get(json_object_get(json_array_get(req, 0), "body"), "messages");
	const char *user = json_string_value(json_object_get(json_array_get(m1, 1), "content"));
	assert_non_null(strstr(user, kernel_src));                    /* the kernel */
	assert_non_null(strstr(user, "reduce with __shfl_xor_sync")); /* the rule's text */
	assert_non_null(strstr(user, "median 4.3x [3.1, 6.0]"));      /* its evidence */
	json_t *m2 = json_object_get(json_object_get(json_array_get(req, 1), "body"), "messages");
	assert_int_equal(json_array_size(m2), 4);
	assert_string_equal(json_string_value(json_object_get(json_array_get(m2, 2), "role")), "assistant");
	assert_non_null(
		strstr(json_string_value(json_object_get(json_array_get(m2, 2), "content")), "{ w; }"));
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(m2, 3), "content")), err));
	json_decref(req);
	ka_coder_reply_clear(&a);
	ka_coder_reply_clear(&b);
	ka_coder_free(c);
	ka_mock_stop(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_extract_code),
		cmocka_unit_test(test_retry_after),
		cmocka_unit_test(test_prompt),
		cmocka_unit_test(test_request_and_repair_turn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
