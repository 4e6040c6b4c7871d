/* util/arena.c: bump allocator (see arena.h). */
#include "util/arena.h"
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct chunk {
	struct chunk *next;
	size_t used, size;
	_Alignas(16) unsigned char mem[];
};

struct ka_arena {
	struct chunk *head;
	size_t bytes; /* allocated from the system, for budgets */
};

static void oom(void)
{
	fputs("kcheck: error: out of memory\n", stderr);
	abort();
}

ka_arena *ka_arena_new(void)
{
	ka_arena *a = calloc(1, sizeof *a);
	if (!a)
		oom();
	return a;
}

void ka_arena_free(ka_arena *a)
{
	if (!a)
		return;
	struct chunk *c = a->head;
	while (c) {
		struct chunk *n = c->next;
		free(c);
		c = n;
	}
	free(a);
}

void *ka_arena_alloc(ka_arena *a, size_t n)
{
	assert(a);
	n = (n + 15) & ~(size_t)15;
#ifdef KA_ARENA_MALLOC
	size_t want = n;
#else
	size_t want = n > 65536 ? n : 65536;
	if (a->head && a->head->size - a->head->used >= n) {
		void *p = a->head->mem + a->head->used;
		a->head->used += n;
		return p;
	}
#endif
	struct chunk *c = calloc(1, sizeof *c + want);
	if (!c)
		oom();
	c->size = want;
	c->used = n;
	c->next = a->head;
	a->head = c;
	a->bytes += sizeof *c + want;
	return c->mem;
}

size_t ka_arena_bytes(const ka_arena *a)
{
	return a ? a->bytes : 0;
}

char *ka_arena_strndup(ka_arena *a, const char *s, size_t n)
{
	assert(s || n == 0);
	char *p = ka_arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *ka_arena_strdup(ka_arena *a, const char *s)
{
	return s ? ka_arena_strndup(a, s, strlen(s)) : NULL;
}

char *ka_arena_printf(ka_arena *a, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *p = ka_arena_alloc(a, (size_t)(n < 0 ? 0 : n) + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return p;
}
