/* util/ccdiag.c: see util/ccdiag.h. */
#include "util/ccdiag.h"
#include <ctype.h>
#include <string.h>

/* The first needle in p[0..n), or NULL. */
static const char *find(const char *p, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(p + i, needle, k))
			return p + i;
	return NULL;
}

static int allowed_path(const char *p, size_t n, const char *const *allowed)
{
	for (; *allowed; allowed++) {
		size_t k = strlen(*allowed);
		if (k && (*allowed)[k - 1] == '/'
			    ? n > k && !memcmp(p, *allowed, k) && !find(p + k, n - k, "..")
			    : n == k && !memcmp(p, *allowed, k))
			return 1;
	}
	return 0;
}

static size_t digits(const char *p, const char *e)
{
	size_t n = 0;
	while (p + n < e && isdigit((unsigned char)p[n]))
		n++;
	return n;
}

/* When line l[0..n) is a location line, sets *path and *plen to its file and
 * returns 1. */
static int location(const char *l, size_t n, const char **path, size_t *plen)
{
	const char *e = l + n, *p = l;
	static const char det[] = " detected in the compilation of \"";
	const char *d = find(l, n, det);
	if (d && isdigit((unsigned char)*l)) {
		const char *f = d + sizeof det - 1, *fe = memchr(f, '"', (size_t)(e - f));
		if (!fe)
			return 0;
		*path = f;
		*plen = (size_t)(fe - f);
		return 1;
	}
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(e - p) > 22 && !memcmp(p, "In file included from ", 22))
		p += 22;
	else if ((size_t)(e - p) > 5 && !memcmp(p, "from ", 5))
		p += 5;
	/* FILE(LINE): or FILE:LINE[:,] or FILE: In/At, the leftmost that parses */
	for (const char *q = p + 1; q < e; q++) {
		if (*q == '(' && digits(q + 1, e)) {
			const char *r = q + 1 + digits(q + 1, e);
			if (r + 1 < e && r[0] == ')' && r[1] == ':') {
				*path = p;
				*plen = (size_t)(q - p);
				return 1;
			}
		}
		if (*q == ':' && digits(q + 1, e)) {
			const char *r = q + 1 + digits(q + 1, e);
			if (r == e || *r == ':' || *r == ',') {
				*path = p;
				*plen = (size_t)(q - p);
				return 1;
			}
		}
		if (*q == ':' && (size_t)(e - q) >= 5 && (!memcmp(q, ": In ", 5) || !memcmp(q, ": At ", 5))) {
			*path = p;
			*plen = (size_t)(q - p);
			return 1;
		}
	}
	return 0;
}

int ka_ccdiag_filter(const char *text, size_t len, const char *const *allowed, ka_buf *out)
{
	const char *p = text, *end = text + len;
	int keep = 1, dropped = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *f;
		size_t fl;
		if (location(p, n, &f, &fl))
			keep = allowed_path(f, fl, allowed);
		if (keep) {
			if (ka_buf_add(out, p, n) || ka_buf_addc(out, '\n'))
				return KA_ETOOBIG;
		} else {
			dropped++;
		}
		p = nl ? nl + 1 : end;
	}
	return dropped;
}
