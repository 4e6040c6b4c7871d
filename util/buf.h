/* util/buf.h: growable byte buffer with a hard size cap (curl's dynbuf idea).
 * Every buffer that holds outside input (files, HTTP bodies, LLM replies)
 * gets a cap; appending past it fails with KA_ETOOBIG.  The contents are
 * always NUL-terminated. */
#ifndef KA_UTIL_BUF_H
#define KA_UTIL_BUF_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "util/error.h"

typedef struct ka_buf {
	char *data;
	size_t len;
	size_t cap;   /* allocated */
	size_t limit; /* hard cap on len */
} ka_buf;

#define KA_BUF_DEFAULT_LIMIT ((size_t)256 << 20)
/* The largest limit: a bigger one (SIZE_MAX) is lowered to it. */
#define KA_BUF_MAX_LIMIT (SIZE_MAX / 2)

/* limit 0 means KA_BUF_DEFAULT_LIMIT. */

void ka_buf_init(ka_buf *b, size_t limit);
void ka_buf_free(ka_buf *b);
void ka_buf_reset(ka_buf *b);
int ka_buf_add(ka_buf *b, const void *p, size_t n);
int ka_buf_adds(ka_buf *b, const char *s);
int ka_buf_addc(ka_buf *b, char c);
int ka_buf_printf(ka_buf *b, const char *fmt, ...) KA_PRINTF(2, 3);
int ka_buf_vprintf(ka_buf *b, const char *fmt, va_list ap);
/* Take ownership of the bytes (caller frees); the buffer becomes empty. */
char *ka_buf_steal(ka_buf *b);

#endif
