/* util/embed.c: lookup in embedded file tables (see embed.h). */
#include "util/embed.h"
#include <assert.h>
#include <string.h>

const struct ka_embedded *ka_embed_find(const struct ka_embedded *t, const char *path)
{
	assert(path);
	for (; t && t->path; t++)
		if (strcmp(t->path, path) == 0)
			return t;
	return NULL;
}
