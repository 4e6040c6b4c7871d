/* agents/llm_int.h: what the LLM client's files share (llm.c: transport and
 * retries; llm_json.c: the request body and the reply's JSON; llm_code.c:
 * the code block).  Not part of the public API. */
#ifndef KA_AGENTS_LLM_INT_H
#define KA_AGENTS_LLM_INT_H
#include <stddef.h>
#include "agents/llm.h"

/* The request body: {"model", "messages", "temperature"?, "max_tokens"?,
 * "stream": false}; malloc'ed JSON text, NULL with a message on failure. */
char *ka_llm_json_request(const char *model, const ka_llm_msg *msgs, size_t n, double temperature,
			  int max_tokens);

/* choices[0].message.content of a 200 reply (malloc'ed).  KA_EPARSE with a
 * one-line message naming what is wrong. */
int ka_llm_json_content(const char *body, size_t len, char **content);

/* The `error.message` (or `error` / `message` / `detail` string) of an
 * error body, made one line and cut to `cap` bytes; NULL when none. */
char *ka_llm_json_error(const char *body, size_t len, size_t cap);

/* Copy s as one printable line of at most cap bytes (control characters
 * become spaces, "..." marks a cut, never inside a UTF-8 character; bytes
 * that are not UTF-8 become '?'; the C1 controls and the bidirectional
 * overrides U+202A..U+202E and U+2066..U+2069 are written \u202e, so a
 * server's error text cannot act on a terminal).  malloc'ed. */
char *ka_llm_one_line(const char *s, size_t len, size_t cap);

#endif
