/* tests/agents/test_llm.c: the LLM client against the mock OpenAI server
 * (mock_openai.py on 127.0.0.1): a plain reply, 429 with Retry-After then
 * success, 500s until the retry budget ends, a reply after the timeout,
 * malformed JSON, a truncated body, an oversized body, no code block, a
 * refused connection, a 401 that is not retried, and what the requests
 * carry (key, kernel, rule knowledge, the compiler error of a repair turn).
 * Backoff bases are a few milliseconds so the suite stays fast. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include "agents/coder.h"
#include "agents/llm.h"
#include "agents/llm_int.h"
#include "mock.h"
#include "util/error.h"

#define KEY "sk-test-SECRET-123"
#define KERNEL_OK "```cuda\\n__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\\n```\\nDone."

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static ka_llm_opts opts(const ka_mock *m)
{
	ka_llm_opts o = KA_LLM_OPTS_INIT;
	o.base_url = m ? m->url : NULL;
	o.model = "mock-model";
	o.api_key = KEY;
	o.backoff_base_ms = 5;
	o.backoff_max_ms = 5000;
	o.timeout_ms = 5000;
	o.connect_timeout_ms = 2000;
	return o;
}

/* Run one chat against a script; returns rc, *content and *attempts. */
static int chat(const char *script, ka_llm_opts *o, ka_mock *m, char **content, int *attempts)
{
	assert_int_equal(ka_mock_start(m, script), 0);
	o->base_url = m->url;
	ka_llm *c = NULL;
	assert_int_equal(ka_llm_new(&c, o), KA_OK);
	ka_llm_msg msg[] = {{"system", "be brief"}, {"user", "rewrite this"}};
	int rc = ka_llm_chat(c, msg, 2, content);
	*attempts = ka_llm_attempts(c);
	ka_llm_free(c);
	assert_null(strstr(ka_error_last(), KEY));
	return rc;
}

static void test_plain_reply(void **st)
{
	ka_mock m;
	ka_llm_opts o = opts(NULL);
	char *content = NULL;
	int attempts;
	assert_int_equal(
		chat("{\"responses\": [{\"content\": \"" KERNEL_OK "\"}]}", &o, &m, &content, &attempts),
		KA_OK);
	assert_int_equal(attempts, 1);
	assert_non_null(strstr(content, "__global__ void k"));
	char *code = NULL;
	size_t len;
	assert_int_equal(ka_llm_extract_code(content, "k", &code, &len), KA_OK);
	assert_string_equal(code, "__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\n");
	json_t *req = ka_mock_requests(&m);
	assert_int_equal(json_array_size(req), 1);
	json_t *r0 = json_array_get(req, 0);
	assert_string_equal(json_string_value(json_object_get(r0, "path")), "/v1/chat/completions");
	json_t *h = json_object_get(r0, "headers");
	assert_string_equal(json_string_value(json_object_get(h, "authorization")), "Bearer " KEY);
	assert_string_equal(json_string_value(json_object_get(h, "content-type")), "application/json");
	json_t *b = json_object_get(r0, "body");
	assert_string_equal(json_string_value(json_object_get(b, "model")), "mock-model");
	assert_true(json_is_false(json_object_get(b, "stream")));
	json_t *msgs = json_object_get(b, "messages");
	assert_int_equal(json_array_size(msgs), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(msgs, 1), "content")),
			    "rewrite this");
	json_decref(req);
	free(code);
	free(content);
	ka_mock_stop(&m);
}

static void test_429_retry_after_then_success(void **st)
{
	ka_mock m;
	ka_llm_opts o = opts(NULL);
	char *content = NULL, *log = NULL;
	size_t loglen = 0;
	int attempts;
	o.log = open_memstream(&log, &loglen);
	double t0 = now_s();
	int rc = chat("{\"responses\": [{\"status\": 429, \"headers\": {\"Retry-After\": \"1\"}, "
		      "\"json\": {\"error\": {\"message\": \"rate limited\"}}}, {\"content\": \"" KERNEL_OK
		      "\"}]}",
		      &o, &m, &content, &attempts);
	double dt = now_s() - t0;
	fclose(o.log);
	assert_int_equal(rc, KA_OK);
	assert_int_equal(attempts, 2);
	/* A lower bound only: the 5 ms backoff alone would not wait this long,
	 * and no load can make a sleep shorter.  (No upper bound: a loaded
	 * machine may take any time, and timing belongs in benchmarks.) */
	assert_true(dt >= 0.95);
	assert_non_null(strstr(log, "HTTP 429: rate limited, retry 1/4 in 1.0 s"));
	assert_null(strstr(log, KEY));
	free(log);
	free(content);
	ka_mock_stop(&m);
}

static void test_500_until_budget_ends(void **st)
{
	ka_mock m;
	ka_llm_opts o = opts(NULL);
	char *content = NULL;
	int attempts;
	o.max_retries = 2;
	int rc = chat(
		"{\"responses\": [{\"status\": 500, \"json\": {\"error\": {\"message\": \"overloaded\"}}}]}",
		&o, &m, &content, &attempts);
	assert_int_equal(rc, KA_ETOOL);
	assert_null(content);
	assert_int_equal(attempts, 3);
	assert_non_null(strstr(ka_error_last(), "HTTP 500: overloaded (3 attempts, POST http://127.0.0.1:"));
	assert_null(strchr(ka_error_last(), '\n'));
	json_t *req = ka_mock_requests(&m);
	assert_int_equal(json_array_size(req), 3);
	json_decref(req);
	ka_mock_stop(&m);
}

static void test_reply_after_timeout(void **st)
{
	ka_mock m;
	ka_llm_opts o = opts(NULL);
	char *content = NULL;
	int attempts;
	o.timeout_ms = 300;
	o.max_retries = 1;
	int rc = chat("{\"responses\": [{\"delay\": 3, \"content\": \"" KERNEL_OK "\"}]}", &o, &m, &content,
		      &attempts);
	assert_int_equal(rc, KA_ETOOL);
	assert_int_equal(attempts, 2); /* a timeout is transient: retried once */
	/* The error names the 0.3 s limit, so the reply was cut short there
	 * rather than waited for (no wall-clock bound: see above). */
	assert_non_null(strstr(ka_error_last(), "no complete reply within 0.3 s (timeout)"));
	ka_mock_stop(&m);
}

static void test_malformed_json(void **st)
{
	ka_mock m;
	ka_llm_opts o = opts(NULL);
	char *content = NULL;
	int attempts;
	int rc = chat("{\"responses\": [{\"body\": \"{\\\"choices\\\": [{\\\"message\\\": \"}]}", &o, &m,
		      &content, &attempts);
	assert_int_equal(rc, KA_EPARSE);
	assert_int_equal(attempts, 1);
	assert_non_null(strstr(ka_error_last(), "llm: the reply is not valid JSON (line 1"));
	ka_mock_stop(&m);

	rc = chat("{\"responses\": [{\"json\": {\"choices\": [{\"message\": {\"content\": null}}]}}]}", &o,
		  &m, &content, &attempts);
	assert_int_equal(rc, KA_EPARSE);
	assert_string_equal(ka_error_last(), "llm: choices[0].message.content is not a string");
	ka_mock_stop(&m);

	rc = chat("{\"responses\": [{\"json\": [1, 2]}]}", &o, &m, &content, &attempts);
	assert_int_equal(rc, KA_EPARSE);
	assert_string_equal(ka_error_last(), "llm: the reply is not a JSON object");
	ka_mock_stop(&m);
}

static void test_truncated_body(void **st)
{
	ka_mock m;
	ka_llm_opts o = opts(NULL);
	char *content = NULL;
	int attempts;
	o.max_retries = 1;
	int rc = chat("{\"responses\": [{\"content\": \"" KERNEL_OK "\", \"content_length\": 100000}]}", &o,
		      &m, &content, &attempts);
	assert_int_equal(rc, KA_ETOOL);
	assert_int_equal(attempts, 2);
	assert_non_null(strstr(ka_error_last(), "the reply was cut short"));
	ka_mock_stop(&m);
}

static void test_oversized_body(void **st)
{
	ka_mock m;
	ka_llm_opts o = opts(NULL);
	char *content = NULL;
	int attempts;
	o.max_reply_bytes = 65536;
	int rc = chat("{\"responses\": [{\"body_size\": 3000000}]}", &o, &m, &content, &attempts);
	assert_int_equal(rc, KA_ETOOBIG);
	assert_int_equal(attempts, 1); /* not retried: it would be as big again */
	assert_non_null(strstr(ka_error_last(), "llm: the reply is over the 65536-byte cap (1 attempt"));
	ka_mock_stop(&m);
}

static void test_no_code_block(void **st)
{
	ka_mock m;
	assert_int_equal(
		ka_mock_start(&m, "{\"responses\": [{\"content\": \"I would use shared memory.\"}]}"), 0);
	ka_coder_opts co = KA_CODER_OPTS_INIT;
	co.provider = "llm";
	co.llm = opts(&m);
	ka_coder *c = NULL;
	assert_int_equal(ka_coder_new(&c, &co), KA_OK);
	assert_string_equal(ka_coder_name(c), "llm");
	ka_coder_request req = {.path = "k.cu", .source = "__global__ void k() {}\n", .source_len = 23};
	ka_coder_reply rep;
	assert_int_equal(ka_coder_propose(c, &req, &rep), KA_EPARSE);
	assert_string_equal(ka_error_last(), "llm: the reply has no code block (expected the whole "
					     "kernel file in a ```cuda fence)");
	assert_null(rep.source);
	ka_coder_free(c);
	ka_mock_stop(&m);
}

static void test_401_not_retried(void **st)
{
	ka_mock m;
	ka_llm_opts o = opts(NULL);
	char *content = NULL;
	int attempts;
	int rc = chat(
		"{\"responses\": [{\"status\": 401, \"json\": {\"error\": {\"message\": \"Incorrect API key "
		"provided\"}}}]}",
		&o, &m, &content, &attempts);
	assert_int_equal(rc, KA_ETOOL);
	assert_int_equal(attempts, 1);
	assert_non_null(strstr(ka_error_last(), "llm: HTTP 401: Incorrect API key provided (1 attempt,"));
	ka_mock_stop(&m);
}

static void test_retry_after_over_limit(void **st)
{
	ka_mock m;
	ka_llm_opts o = opts(NULL);
	char *content = NULL;
	int attempts;
	o.backoff_max_ms = 2000;
	int rc = chat("{\"responses\": [{\"status\": 503, \"headers\": {\"Retry-After\": \"120\"}}]}", &o, &m,
		      &content, &attempts);
	assert_int_equal(rc, KA_ETOOL);
	assert_int_equal(attempts, 1);
	assert_non_null(strstr(ka_error_last(), "the server asks to retry after 120 s, over the 2 s limit"));
	ka_mock_stop(&m);
}

static void test_connection_refused(void **st)
{
	/* A port that was free a moment ago: nothing listens there. */
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t al = sizeof a;
	assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(getsockname(s, (struct sockaddr *)&a, &al), 0);
	close(s);
	char url[64];
	snprintf(url, sizeof url, "http://127.0.0.1:%d/v1/", ntohs(a.sin_port));
	ka_llm_opts o = opts(NULL);
	o.base_url = url;
	o.max_retries = 2;
	ka_llm *c = NULL;
	char *content = NULL;
	assert_int_equal(ka_llm_new(&c, &o), KA_OK);
	ka_llm_msg msg = {"user", "hi"};
	assert_int_equal(ka_llm_chat(c, &msg, 1, &content), KA_ETOOL);
	assert_int_equal(ka_llm_attempts(c), 3);
	char want[128];
	snprintf(want, sizeof want,
		 "llm: cannot connect to http://127.0.0.1:%d/v1/chat/completions (3 attempts",
		 ntohs(a.sin_port));
	assert_non_null(strstr(ka_error_last(), want));
	ka_llm_free(c);
}

/* A password in the base URL never reaches a message: the URL is shown
 * with *** in its place (a refused connection, an HTTP error, a URL that
 * is not http). */
static void test_password_hidden(void **st)
{
	(void)st;
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t al = sizeof a;
	assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(getsockname(s, (struct sockaddr *)&a, &al), 0);
	close(s);
	char url[128];
	snprintf(url, sizeof url, "http://bob:pa%%3Ass%%40w0rd@127.0.0.1:%d/v1", ntohs(a.sin_port));
	ka_llm_opts o = opts(NULL);
	o.base_url = url;
	o.max_retries = -1;
	ka_llm *c = NULL;
	char *content = NULL, want[160];
	assert_int_equal(ka_llm_new(&c, &o), KA_OK);
	ka_llm_msg msg = {"user", "hi"};
	assert_int_equal(ka_llm_chat(c, &msg, 1, &content), KA_ETOOL);
	snprintf(want, sizeof want, "cannot connect to http://bob:***@127.0.0.1:%d/v1/chat/completions",
		 ntohs(a.sin_port));
	if (!strstr(ka_error_last(), want))
		fail_msg("%s", ka_error_last());
	assert_null(strstr(ka_error_last(), "w0rd"));
	ka_llm_free(c);
	o.base_url = "ftp://bob:w0rd@host/v1";
	assert_int_equal(ka_llm_new(&c, &o), KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "'ftp://bob:***@host/v1' is not an http"));
	ka_mock m;
	assert_int_equal(
		ka_mock_start(&m, "{\"responses\": [{\"status\": 400, \"json\": {\"error\": \"no\"}}]}"), 0);
	snprintf(url, sizeof url, "http://bob:w0rd@127.0.0.1:%d/v1", m.port);
	o.base_url = url;
	assert_int_equal(ka_llm_new(&c, &o), KA_OK);
	assert_int_equal(ka_llm_chat(c, &msg, 1, &content), KA_ETOOL);
	snprintf(want, sizeof want, "llm: HTTP 400: no (1 attempt, POST http://bob:***@127.0.0.1:%d/v1/",
		 m.port);
	assert_non_null(strstr(ka_error_last(), want));
	assert_null(strstr(ka_error_last(), "w0rd"));
	ka_llm_free(c);
	ka_mock_stop(&m);
}

/* A server's error text reaches the terminal escaped: controls become
 * spaces, the C1 controls and bidirectional overrides \u-escapes. */
static void test_server_text_escaped(void **st)
{
	ka_mock m;
	ka_llm_opts o = opts(NULL);
	char *content = NULL;
	int attempts;
	int rc = chat("{\"responses\": [{\"status\": 400, \"json\": {\"error\": {\"message\": "
		      "\"bad\\u202emodel\\u001b[31m red\\u009b2J\\u2066x\\nforged\"}}}]}",
		      &o, &m, &content, &attempts);
	assert_int_equal(rc, KA_ETOOL);
	const char *e = ka_error_last();
	assert_non_null(strstr(e, "HTTP 400: bad\\u202emodel [31m red\\u009b2J\\u2066x forged ("));
	for (const char *p = e; *p; p++) /* nothing below 0x20, no U+202E (e2 80 ae), no C1 (c2 9b) */
		assert_true((unsigned char)*p >= 0x20 && (unsigned char)*p != 0xe2 &&
			    (unsigned char)*p != 0xc2);
	ka_mock_stop(&m);
}

/* A model name is a plain name: 1 to 200 characters of a safe set; a
 * newline, a quote or a space is refused before any request. */
static void test_model_names(void **st)
{
	(void)st;
	char why[200], longname[260];
	assert_true(ka_llm_model_ok("gpt-4o-mini", why, sizeof why));
	assert_true(ka_llm_model_ok("meta-llama/Llama-3.1-70B-Instruct", why, sizeof why));
	assert_true(ka_llm_model_ok("qwen2.5-coder:32b", why, sizeof why));
	assert_true(ka_llm_model_ok("claude@2024+x_y", why, sizeof why));
	assert_false(ka_llm_model_ok("", why, sizeof why));
	memset(longname, 'm', 201);
	longname[201] = '\0';
	assert_false(ka_llm_model_ok(longname, why, sizeof why));
	assert_non_null(strstr(why, "1 to 200"));
	assert_false(ka_llm_model_ok("m\n+++ b/.bashrc", why, sizeof why));
	assert_non_null(strstr(why, "byte 0x0a"));
	assert_false(ka_llm_model_ok("m x", why, sizeof why));
	assert_false(ka_llm_model_ok("m\"", why, sizeof why));
	assert_non_null(strstr(why, "'\"'"));
	ka_llm_opts o = opts(NULL);
	o.base_url = "http://127.0.0.1:9/v1";
	o.model = "m\nx";
	ka_llm *c = NULL;
	assert_int_equal(ka_llm_new(&c, &o), KA_EINPUT);
	assert_null(c);
	assert_non_null(strstr(ka_error_last(), "llm: the model name holds byte 0x0a"));
}

/* An error message cut to a line's cap never ends inside a UTF-8
 * character (it goes back into the next request's JSON) */
static void test_one_line_utf8(void **st)
{
	(void)st;
	char msg[400] = "error: ";
	while (strlen(msg) + 7 < sizeof msg)
		strcat(msg, "\xe2\x80\x98x\xe2\x80\x99 "); /* ‘x’ */
	for (size_t cap = 20; cap < 40; cap++) {
		char *o = ka_llm_one_line(msg, strlen(msg), cap);
		assert_non_null(o);
		assert_true(strlen(o) <= cap);
		json_t *j = json_string(o);
		if (!j)
			fail_msg("cap %zu: not UTF-8: '%s'", cap, o);
		json_decref(j);
		free(o);
	}
	char *o = ka_llm_one_line("a\xff"
				  "b",
				  3, 80); /* not UTF-8 at all */
	assert_string_equal(o, "a?b");
	free(o);
}

static void test_key_from_environment(void **st)
{
	ka_mock m;
	ka_llm_opts o = opts(NULL);
	char *content = NULL;
	int attempts;
	o.api_key = NULL;
	setenv("OPENAI_API_KEY", "sk-openai", 1);
	setenv("KERNELARC_LLM_API_KEY", "sk-project", 1);
	assert_int_equal(chat("{\"responses\": [{\"content\": \"x\"}]}", &o, &m, &content, &attempts), KA_OK);
	free(content);
	json_t *req = ka_mock_requests(&m);
	json_t *h = json_object_get(json_array_get(req, 0), "headers");
	assert_string_equal(json_string_value(json_object_get(h, "authorization")), "Bearer sk-project");
	json_decref(req);
	ka_mock_stop(&m);

	unsetenv("KERNELARC_LLM_API_KEY");
	assert_int_equal(chat("{\"responses\": [{\"content\": \"x\"}]}", &o, &m, &content, &attempts), KA_OK);
	free(content);
	req = ka_mock_requests(&m);
	h = json_object_get(json_array_get(req, 0), "headers");
	assert_string_equal(json_string_value(json_object_get(h, "authorization")), "Bearer sk-openai");
	json_decref(req);
	ka_mock_stop(&m);

	unsetenv("OPENAI_API_KEY"); /* a local server needs no key: no header at all */
	assert_int_equal(chat("{\"responses\": [{\"content\": \"x\"}]}", &o, &m, &content, &attempts), KA_OK);
	free(content);
	req = ka_mock_requests(&m);
	h = json_object_get(json_array_get(req, 0), "headers");
	assert_null(json_object_get(h, "authorization"));
	json_decref(req);
	ka_mock_stop(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_reply),
		cmocka_unit_test(test_429_retry_after_then_success),
		cmocka_unit_test(test_500_until_budget_ends),
		cmocka_unit_test(test_reply_after_timeout),
		cmocka_unit_test(test_malformed_json),
		cmocka_unit_test(test_truncated_body),
		cmocka_unit_test(test_oversized_body),
		cmocka_unit_test(test_no_code_block),
		cmocka_unit_test(test_401_not_retried),
		cmocka_unit_test(test_retry_after_over_limit),
		cmocka_unit_test(test_connection_refused),
		cmocka_unit_test(test_one_line_utf8),
		cmocka_unit_test(test_password_hidden),
		cmocka_unit_test(test_server_text_escaped),
		cmocka_unit_test(test_model_names),
		cmocka_unit_test(test_key_from_environment),
	};
	unsetenv("KERNELARC_LLM_BASE_URL");
	unsetenv("OPENAI_BASE_URL");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
