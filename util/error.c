/* util/error.c: per-thread last-error message (see error.h). */
#include "util/error.h"
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_msg[1024];

int ka_error_set(int code, const char *fmt, ...)
{
	assert(fmt);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_msg, sizeof last_msg, fmt, ap);
	va_end(ap);
	return code;
}

const char *ka_error_last(void)
{
	return last_msg;
}
void ka_error_clear(void)
{
	last_msg[0] = '\0';
}
