/* util/buf.c: capped growable buffer (see buf.h). */
#include "util/buf.h"
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ka_buf_init(ka_buf *b, size_t limit)
{
	assert(b);
	b->data = NULL;
	b->len = b->cap = 0;
	b->limit = limit ? limit : KA_BUF_DEFAULT_LIMIT;
	if (b->limit > KA_BUF_MAX_LIMIT)
		b->limit = KA_BUF_MAX_LIMIT; /* len + extra + 1 and the doubling never wrap */
}

void ka_buf_free(ka_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void ka_buf_reset(ka_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

static int grow(ka_buf *b, size_t extra)
{
	if (extra > b->limit - b->len)
		return ka_error_set(KA_ETOOBIG, "buffer over its limit of %zu bytes", b->limit);
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return KA_OK;
	size_t ncap = b->cap ? b->cap : 64;
	while (ncap < need)
		ncap *= 2;
	char *p = realloc(b->data, ncap);
	if (!p)
		return ka_error_set(KA_ENOMEM, "out of memory");
	b->data = p;
	b->cap = ncap;
	return KA_OK;
}

int ka_buf_add(ka_buf *b, const void *p, size_t n)
{
	assert(b && (p || n == 0));
	int rc = grow(b, n);
	if (rc)
		return rc;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return KA_OK;
}

int ka_buf_adds(ka_buf *b, const char *s)
{
	return ka_buf_add(b, s, strlen(s));
}
int ka_buf_addc(ka_buf *b, char c)
{
	return ka_buf_add(b, &c, 1);
}

int ka_buf_vprintf(ka_buf *b, const char *fmt, va_list ap)
{
	assert(b && fmt);
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return ka_error_set(KA_ERR, "bad format");
	int rc = grow(b, (size_t)n);
	if (rc)
		return rc;
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return KA_OK;
}

int ka_buf_printf(ka_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = ka_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return rc;
}

char *ka_buf_steal(ka_buf *b)
{
	char *p = b->data;
	if (!p)
		p = calloc(1, 1);
	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}
