/* util/arena.h: bump allocator for one translation unit's kernel model.
 * Everything allocated from it is dropped in one ka_arena_free().  With
 * KA_ARENA_MALLOC defined (the sanitizer build) each allocation is a plain
 * malloc so ASan and valgrind see every block. */
#ifndef KA_UTIL_ARENA_H
#define KA_UTIL_ARENA_H
#include <stddef.h>

typedef struct ka_arena ka_arena;

ka_arena *ka_arena_new(void);
void ka_arena_free(ka_arena *a);
/* Zeroed memory; aborts on out-of-memory (the model cannot be half-built). */
void *ka_arena_alloc(ka_arena *a, size_t n);
char *ka_arena_strdup(ka_arena *a, const char *s);
/* Bytes taken from the system so far (memory budgets). */
size_t ka_arena_bytes(const ka_arena *a);
char *ka_arena_strndup(ka_arena *a, const char *s, size_t n);
char *ka_arena_printf(ka_arena *a, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

#endif
