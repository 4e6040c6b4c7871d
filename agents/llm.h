/* agents/llm.h: the LLM client: OpenAI-compatible chat completions over
 * libcurl (`POST {base}/chat/completions`, llama.cpp's server, vLLM and
 * Ollama's `/v1` speak the same protocol).
 *
 * Pipeline position: agents/coder_llm.c (the LLM coder provider) builds the
 * prompt (agents/llm_prompt.c), calls ka_llm_chat, and takes the code block
 * out of the reply with ka_llm_extract_code.
 *
 * The reply is untrusted input: the body is size-capped while it arrives
 * (the transfer is aborted past the cap), the JSON is parsed defensively,
 * and the code is never run except through the compile gate and the bench.
 * Transient failures (connection errors, timeouts, a body cut short, HTTP
 * 408/409/429/5xx) are retried with exponential backoff and full jitter,
 * honouring Retry-After (seconds or an HTTP date).  The API key is sent as
 * `Authorization: Bearer` and never printed or logged.
 *
 * Errors: a negative KA_E* code with a one-line message (ka_error_last):
 *   KA_EINPUT   bad options (no base URL, no model, a URL that is not http(s),
 *               a model name ka_llm_model_ok refuses)
 *   KA_ETOOL    the server could not be reached or kept failing
 *   KA_ETOOBIG  the reply was over max_reply_bytes
 *   KA_EPARSE   the reply was not the JSON of a chat completion, or had no
 *               code block
 */
#ifndef KA_AGENTS_LLM_H
#define KA_AGENTS_LLM_H
#include <stddef.h>
#include <stdio.h>

typedef struct ka_llm_opts {
	const char *base_url;   /* --llm-base-url; NULL: $KERNELARC_LLM_BASE_URL, then $OPENAI_BASE_URL */
	const char *model;      /* --llm-model; NULL: $KERNELARC_LLM_MODEL */
	const char *api_key;    /* NULL: $KERNELARC_LLM_API_KEY, then $OPENAI_API_KEY;
				     * none at all: no Authorization header (local servers) */
	int connect_timeout_ms; /* 0: 10 000 */
	int timeout_ms;         /* whole transfer, per attempt; 0: 300 000 */
	int max_retries;        /* retries after the first attempt; 0: 4; -1: none */
	int backoff_base_ms;    /* first backoff; 0: $KERNELARC_LLM_BACKOFF_MS, else 1000 */
	int backoff_max_ms;     /* cap of one wait, Retry-After included; 0: 60 000 */
	size_t max_reply_bytes; /* cap on the HTTP body; 0: 4 MiB */
	int max_tokens;         /* 0: not sent */
	double temperature;     /* < 0: not sent; the INIT value is 0.2 */
	FILE *log;              /* one line per retry ("llm: HTTP 429, retry 1/4 in 2.0 s"); NULL: quiet */
} ka_llm_opts;

#define KA_LLM_OPTS_INIT {.temperature = 0.2}

typedef struct ka_llm_msg {
	const char *role; /* "system", "user", "assistant" */
	const char *content;
} ka_llm_msg;

typedef struct ka_llm ka_llm;

/* A client for one endpoint and model; options are copied, environment
 * defaults resolved.  KA_EINPUT when no base URL or model is known. */
int ka_llm_new(ka_llm **out, const ka_llm_opts *o);
void ka_llm_free(ka_llm *c);
const char *ka_llm_model(const ka_llm *c);

/* 1 when model is a name a client may use: 1 to 200 bytes of A-Z a-z 0-9
 * and . _ - : / @ + (the names OpenAI, vLLM, llama.cpp and Ollama give,
 * "org/model:tag" included).  Else 0, and why says what is wrong.  The
 * name is printed in patch comments and reports, so nothing else passes. */
int ka_llm_model_ok(const char *model, char *why, size_t cap);

/* One chat completion: *content is choices[0].message.content (caller
 * frees).  *content is NULL on error. */
int ka_llm_chat(ka_llm *c, const ka_llm_msg *msgs, size_t n, char **content);

/* Attempts made by the last ka_llm_chat (tests and the report). */
int ka_llm_attempts(const ka_llm *c);

/* The code block of a reply: the fenced block (```cuda, ```cu, ```cpp,
 * ```c++, ```hip, ```c or a bare ```) most likely to be the kernel: a CUDA
 * or C++ fence over a bare one, then the one that mentions `want` (a kernel
 * name; may be NULL), then the longest.  An unterminated last fence runs to
 * the end of the reply.  KA_EPARSE with "the reply has no code block" when
 * there is none.  *code is malloc'ed. */
int ka_llm_extract_code(const char *reply, const char *want, char **code, size_t *len);

/* Seconds to wait from a Retry-After value ("120" or an IMF-fixdate such as
 * "Wed, 21 Oct 2026 07:28:00 GMT"), relative to `now`; -1 when unparsable. */
long ka_llm_retry_after(const char *value, long long now);

#endif
