/* util/wire.h: values flattened into bytes and read back, for results that
 * cross a pipe from a worker process (lint/worker.c).  Both ends are the
 * same program, so numbers keep the machine's own layout; what is read is
 * checked against what is left, never trusted: a short or garbled message
 * sets `bad` and every later read returns zero or NULL. */
#ifndef KA_UTIL_WIRE_H
#define KA_UTIL_WIRE_H
#include <stddef.h>
#include "util/buf.h"

/* Append; KA_OK or the buffer's error (KA_ENOMEM, KA_ETOOBIG). */
int ka_wire_int(ka_buf *b, long long v);
int ka_wire_real(ka_buf *b, double v);
/* A string (NULL is kept apart from ""). */
int ka_wire_str(ka_buf *b, const char *s);
/* n bytes (read back NUL-terminated). */
int ka_wire_bytes(ka_buf *b, const void *p, size_t n);

typedef struct ka_wire_in {
	const char *p;
	size_t left;
	int bad; /* a read ran past the end or met a malformed length */
} ka_wire_in;

long long ka_wire_get_int(ka_wire_in *in);
double ka_wire_get_real(ka_wire_in *in);
/* malloc'd; NULL for a NULL string, or with bad set (also out of memory). */
char *ka_wire_get_str(ka_wire_in *in);
/* malloc'd and NUL-terminated, *n bytes; NULL with bad set on failure. */
char *ka_wire_get_bytes(ka_wire_in *in, size_t *n);
/* The same bytes left where they are (no copy, no NUL): a pointer into the
 * message, valid while it is; NULL with bad set on failure. */
const char *ka_wire_get_view(ka_wire_in *in, size_t *n);

#endif
