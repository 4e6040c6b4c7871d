/* util/wire.c: see wire.h.  A string is its length + 1 (0 for NULL) and
 * its bytes; bytes are their length and the bytes. */
#include "util/wire.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int ka_wire_int(ka_buf *b, long long v)
{
	return ka_buf_add(b, &v, sizeof v);
}

int ka_wire_real(ka_buf *b, double v)
{
	return ka_buf_add(b, &v, sizeof v);
}

int ka_wire_str(ka_buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	int rc = ka_wire_int(b, s ? (long long)n + 1 : 0);
	return rc == KA_OK && n ? ka_buf_add(b, s, n) : rc;
}

int ka_wire_bytes(ka_buf *b, const void *p, size_t n)
{
	int rc = ka_wire_int(b, (long long)n);
	return rc == KA_OK && n ? ka_buf_add(b, p, n) : rc;
}

/* n bytes of in, left where they are; NULL with bad set past its end. */
static const char *wire_take(ka_wire_in *in, long long n)
{
	if (in->bad || n < 0 || (unsigned long long)n > in->left) {
		in->bad = 1;
		return NULL;
	}
	const char *p = in->p;
	in->p += n;
	in->left -= (size_t)n;
	return p;
}

/* A fixed-size value into out (zeros past the end, bad set). */
static void read_fixed(ka_wire_in *in, void *out, size_t n)
{
	const char *p = wire_take(in, (long long)n);
	if (p)
		memcpy(out, p, n);
	else
		memset(out, 0, n);
}

long long ka_wire_get_int(ka_wire_in *in)
{
	long long v;
	read_fixed(in, &v, sizeof v);
	return v;
}

double ka_wire_get_real(ka_wire_in *in)
{
	double v;
	read_fixed(in, &v, sizeof v);
	return v;
}

/* n bytes from in, copied and NUL-terminated. */
static char *copy_out(ka_wire_in *in, long long n)
{
	const char *p = wire_take(in, n);
	char *s = p ? malloc((size_t)n + 1) : NULL;
	if (!s) {
		in->bad = 1;
		return NULL;
	}
	memcpy(s, p, (size_t)n);
	s[n] = '\0';
	return s;
}

char *ka_wire_get_str(ka_wire_in *in)
{
	long long n = ka_wire_get_int(in);
	return n == 0 ? NULL : copy_out(in, n - 1);
}

char *ka_wire_get_bytes(ka_wire_in *in, size_t *n)
{
	long long len = ka_wire_get_int(in);
	char *s = copy_out(in, len);
	*n = s ? (size_t)len : 0;
	return s;
}

const char *ka_wire_get_view(ka_wire_in *in, size_t *n)
{
	long long len = ka_wire_get_int(in);
	const char *s = wire_take(in, len);
	*n = s ? (size_t)len : 0;
	return s;
}
