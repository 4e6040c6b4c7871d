/* util/error.h: the runtime-error channel.  A fallible function returns a
 * negative KA_E* code and sets a one-line message once, at the failure site;
 * the caller reads it with ka_error_last().  The message is kept per thread
 * so -j N workers do not clobber each other.  Findings in user code are data,
 * never errors. */
#ifndef KA_UTIL_ERROR_H
#define KA_UTIL_ERROR_H

enum {
	KA_OK = 0,
	KA_ERR = -1, /* generic */
	KA_ENOMEM = -2,
	KA_EIO = -3,    /* file missing, unreadable, write failed */
	KA_EINPUT = -4, /* malformed user input: rule, config, spec, source */
	KA_EPARSE = -5, /* the front end could not parse */
	KA_ENOTFOUND = -6,
	KA_ETOOBIG = -7, /* over a size cap */
	KA_ETOOL = -8    /* an external tool (nvcc, ...) failed or is missing */
};

#if defined(__GNUC__)
#define KA_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define KA_PRINTF(a, b)
#endif

/* Set the message; returns code, so `return ka_error_set(KA_EIO, ...)` reads well. */
int ka_error_set(int code, const char *fmt, ...) KA_PRINTF(2, 3);
/* The last message set on this thread ("" when none). */
const char *ka_error_last(void);
void ka_error_clear(void);

#endif
