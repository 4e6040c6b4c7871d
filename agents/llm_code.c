/* agents/llm_code.c: reading an LLM's reply: the fenced code block that
 * holds the candidate kernel, and the Retry-After header's two forms.
 *
 * A reply may hold several blocks: a snippet of the changed lines, the whole
 * file, a shell command to build it.  Blocks in a language that cannot be
 * the kernel (```python, ```bash, ```diff, ...) are never chosen; among the
 * rest the order is: mentions the wanted kernel (or any __global__ when no
 * name is given), then a CUDA/C++ fence over a bare one, then the longest. */
#define _XOPEN_SOURCE 700 /* strptime */
#include "agents/llm.h"
#include "util/error.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

typedef struct block {
	const char *begin, *end; /* the code, without the fence lines */
	int lang;                /* 2 CUDA/C/C++/HIP, 1 bare, 0 another language */
} block;

static int lang_score(const char *info, size_t n)
{
	static const char *const code[] = {"cuda", "cu", "cuh", "cpp", "c++", "cxx",
					   "cc",   "c",  "hip", "h",   "hpp"};
	size_t k = 0;
	while (k < n && !isspace((unsigned char)info[k]) && info[k] != '{' && info[k] != ',')
		k++;
	if (k == 0)
		return 1;
	for (size_t i = 0; i < sizeof code / sizeof code[0]; i++)
		if (strlen(code[i]) == k && !strncasecmp(info, code[i], k))
			return 2;
	return 0;
}

/* A fence line: up to 3 spaces, then 3+ backticks or tildes.  Returns the
 * fence length (0: not a fence); *info and *info_n give the rest of the line. */
static size_t fence_at(const char *line, const char *eol, char *ch, const char **info, size_t *info_n)
{
	const char *p = line;
	for (int i = 0; i < 3 && p < eol && *p == ' '; i++)
		p++;
	if (p >= eol || (*p != '`' && *p != '~'))
		return 0;
	const char *q = p;
	while (q < eol && *q == *p)
		q++;
	if (q - p < 3)
		return 0;
	*ch = *p;
	while (q < eol && (*q == ' ' || *q == '\t'))
		q++;
	const char *e = eol;
	while (e > q && isspace((unsigned char)e[-1]))
		e--;
	*info = q;
	*info_n = (size_t)(e - q);
	return (size_t)(q - p) > 0 ? (size_t)(q - p) : 0;
}

static int better(const block *a, const block *b, const char *want)
{
	const char *w = want && *want ? want : "__global__";
	size_t wl = strlen(w);
	int ma = 0, mb = 0;
	for (const char *p = a->begin; !ma && p + wl <= a->end; p++)
		ma = !memcmp(p, w, wl);
	for (const char *p = b->begin; !mb && p + wl <= b->end; p++)
		mb = !memcmp(p, w, wl);
	if (ma != mb)
		return ma > mb;
	if (a->lang != b->lang)
		return a->lang > b->lang;
	return a->end - a->begin > b->end - b->begin;
}

int ka_llm_extract_code(const char *reply, const char *want, char **code, size_t *len)
{
	*code = NULL;
	*len = 0;
	block best = {0}, cur = {0};
	int have = 0, open = 0, others = 0;
	size_t open_n = 0;
	char open_ch = 0;
	for (const char *line = reply; line && *line;) {
		const char *eol = strchr(line, '\n');
		const char *next = eol ? eol + 1 : line + strlen(line);
		if (!eol)
			eol = next;
		char ch = 0;
		const char *info = NULL;
		size_t info_n = 0, n = fence_at(line, eol, &ch, &info, &info_n);
		if (!open && n) {
			open = 1, open_n = n, open_ch = ch;
			cur.lang = lang_score(info, info_n);
			cur.begin = next;
		} else if (open && n >= open_n && ch == open_ch && info_n == 0) {
			open = 0;
			cur.end = line;
			if (cur.lang && (!have || better(&cur, &best, want)))
				best = cur, have = 1;
			others += !cur.lang;
		}
		line = next;
	}
	if (open) { /* cut off (max_tokens): runs to the end */
		cur.end = reply + strlen(reply);
		if (cur.lang && (!have || better(&cur, &best, want)))
			best = cur, have = 1;
		others += !cur.lang;
	}
	if (!have)
		return ka_error_set(KA_EPARSE, others ? "llm: the reply has no CUDA/C++ code block (only "
							"blocks in other languages)"
						      : "llm: the reply has no code block (expected the "
							"whole kernel file in a ```cuda fence)");
	size_t n = (size_t)(best.end - best.begin);
	if (!(*code = malloc(n + 1)))
		return ka_error_set(KA_ENOMEM, "out of memory");
	memcpy(*code, best.begin, n);
	(*code)[n] = 0;
	*len = n;
	return KA_OK;
}

long ka_llm_retry_after(const char *value, long long now)
{
	while (*value == ' ' || *value == '\t')
		value++;
	if (isdigit((unsigned char)*value)) {
		char *end;
		long long s = strtoll(value, &end, 10);
		while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
			end++;
		if (*end)
			return -1;
		return s > 86400 * 365 ? 86400L * 365 : (long)s;
	}
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	const char *end = strptime(value, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	if (!end)
		return -1;
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	if (*end)
		return -1;
	long long at = (long long)timegm(&tm);
	return at <= now ? 0 : at - now > 86400LL * 365 ? 86400L * 365 : (long)(at - now);
}
