/* agents/llm_json.c: the JSON of OpenAI-compatible chat completions: the
 * request body we send and the reply we read.  The reply is untrusted: every
 * member is checked for presence and type before use, and the messages we
 * derive from it are one printable line, cut to a length. */
#include "agents/llm_int.h"
#include "util/error.h"
#include "util/utf8.h"
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The code point of the valid UTF-8 character s[0..k). */
static unsigned code_point(const unsigned char *s, size_t k)
{
	unsigned cp = k == 1 ? s[0] : s[0] & (0x7Fu >> k);
	for (size_t i = 1; i < k; i++)
		cp = (cp << 6) | (s[i] & 0x3Fu);
	return cp;
}

/* What the character at s[0..n) becomes in a one-line message: its bytes,
 * a space (controls, blanks), '?' (not UTF-8), or \uXXXX for the C1
 * controls and the bidirectional overrides (U+202A..U+202E,
 * U+2066..U+2069), which would act on a terminal.  The bytes it takes. */
static size_t one_char(const char *s, size_t n, char *piece, size_t *pl, int *blank)
{
	unsigned char c = (unsigned char)s[0];
	size_t k = c < 0x80 ? 1 : ka_utf8_char_len(s, n);
	*blank = 0;
	if (c < 0x80) {
		*blank = c < 0x20 || c == 0x7f || c == ' ';
		piece[0] = *blank ? ' ' : (char)c;
		*pl = 1;
		return 1;
	}
	if (!k) {
		piece[0] = '?';
		*pl = 1;
		return 1;
	}
	unsigned cp = code_point((const unsigned char *)s, k);
	if ((cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
		*pl = (size_t)snprintf(piece, 16, "\\u%04x", cp);
		return k;
	}
	memcpy(piece, s, k);
	*pl = k;
	return k;
}

char *ka_llm_one_line(const char *s, size_t len, size_t cap)
{
	if (cap < 4)
		cap = 4;
	char *o = malloc(cap + 1);
	if (!o)
		return NULL;
	size_t k = 0;
	int space = 1; /* drops leading and repeated blanks */
	for (size_t i = 0; i < len && s[i];) {
		char piece[16];
		size_t pl = 0;
		int blank;
		size_t step = one_char(s + i, len - i, piece, &pl, &blank);
		if (blank && space) {
			i += step;
			continue;
		}
		if (k + pl > cap - 3 && (i + step < len || k + pl > cap)) {
			memcpy(o + k, "...", 3); /* k <= cap - 3 here */
			k += 3;
			break;
		}
		memcpy(o + k, piece, pl);
		k += pl;
		space = blank;
		i += step;
	}
	while (k && o[k - 1] == ' ')
		k--;
	o[k] = 0;
	return o;
}

char *ka_llm_json_request(const char *model, const ka_llm_msg *msgs, size_t n, double temperature,
			  int max_tokens)
{
	char *text = NULL;
	json_t *root = json_object(), *arr = json_array();
	if (!root || !arr)
		goto out;
	for (size_t i = 0; i < n; i++) {
		json_t *m = json_pack("{s:s, s:s}", "role", msgs[i].role, "content",
				      msgs[i].content ? msgs[i].content : "");
		if (!m || json_array_append_new(arr, m) != 0)
			goto out;
	}
	if (json_object_set_new(root, "model", json_string(model)) != 0 ||
	    json_object_set(root, "messages", arr) != 0 ||
	    json_object_set_new(root, "stream", json_false()) != 0)
		goto out;
	if (temperature >= 0 && json_object_set_new(root, "temperature", json_real(temperature)) != 0)
		goto out;
	if (max_tokens > 0 && json_object_set_new(root, "max_tokens", json_integer(max_tokens)) != 0)
		goto out;
	text = json_dumps(root, JSON_COMPACT);
out:
	if (!text)
		ka_error_set(KA_ENOMEM, "llm: cannot build the request (out of memory, or a "
					"message that is not UTF-8)");
	json_decref(arr);
	json_decref(root);
	return text;
}

static const char *error_text(json_t *root)
{
	json_t *e = json_object_get(root, "error");
	if (json_is_string(e))
		return json_string_value(e);
	if (json_is_object(e) && json_is_string(json_object_get(e, "message")))
		return json_string_value(json_object_get(e, "message"));
	const char *keys[] = {"message", "detail"};
	for (size_t i = 0; i < 2; i++)
		if (json_is_string(json_object_get(root, keys[i])))
			return json_string_value(json_object_get(root, keys[i]));
	return NULL;
}

char *ka_llm_json_error(const char *body, size_t len, size_t cap)
{
	json_error_t jerr;
	json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	const char *t = json_is_object(root) ? error_text(root) : NULL;
	char *out = t ? ka_llm_one_line(t, strlen(t), cap) : NULL;
	json_decref(root);
	return out;
}

int ka_llm_json_content(const char *body, size_t len, char **content)
{
	*content = NULL;
	json_error_t jerr;
	int rc = KA_OK;
	json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		char *why = ka_llm_one_line(jerr.text, strlen(jerr.text), 120);
		rc = ka_error_set(KA_EPARSE, "llm: the reply is not valid JSON (line %d column %d: %s)",
				  jerr.line, jerr.column, why ? why : "?");
		free(why);
		return rc;
	}
	if (!json_is_object(root)) {
		rc = ka_error_set(KA_EPARSE, "llm: the reply is not a JSON object");
		goto out;
	}
	const char *err = error_text(root);
	if (err && !json_object_get(root, "choices")) {
		char *why = ka_llm_one_line(err, strlen(err), 200);
		rc = ka_error_set(KA_EPARSE, "llm: the server answered with an error: %s", why ? why : "?");
		free(why);
		goto out;
	}
	json_t *choices = json_object_get(root, "choices");
	if (!json_is_array(choices) || json_array_size(choices) == 0) {
		rc = ka_error_set(KA_EPARSE, "llm: the reply has no choices[0] (not a chat completion)");
		goto out;
	}
	json_t *msg = json_object_get(json_array_get(choices, 0), "message");
	json_t *c = json_is_object(msg) ? json_object_get(msg, "content") : NULL;
	if (!json_is_string(c)) {
		rc = ka_error_set(KA_EPARSE, "llm: choices[0].message.content is %s",
				  !json_is_object(msg) ? "missing (no message)"
				  : c                  ? "not a string"
						       : "missing");
		goto out;
	}
	size_t n = json_string_length(c);
	if (!(*content = malloc(n + 1))) {
		rc = ka_error_set(KA_ENOMEM, "out of memory");
		goto out;
	}
	memcpy(*content, json_string_value(c), n);
	(*content)[n] = 0;
out:
	json_decref(root);
	return rc;
}
