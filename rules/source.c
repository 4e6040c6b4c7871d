/* rules/source.c: read-once cache of source files and their line starts,
 * and byte -> UTF-16 column conversion (see source.h). */
#include "rules/source.h"
#include "util/error.h"
#include "util/fs.h"
#include <stdlib.h>
#include <string.h>

typedef struct entry {
	char *path;
	char *text; /* NULL when unreadable */
	size_t len;
	size_t *starts; /* offsets of line starts */
	int nlines;
} entry;

struct ka_sources {
	entry *v;
	size_t n, cap;
	size_t last; /* most recent hit: findings come sorted by file */
};

int ka_sources_new(ka_sources **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? KA_OK : ka_error_set(KA_ENOMEM, "out of memory");
}

void ka_sources_free(ka_sources *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].path);
		free(s->v[i].text);
		free(s->v[i].starts);
	}
	free(s->v);
	free(s);
}

static void index_lines(entry *e)
{
	int n = 1;
	for (size_t i = 0; i < e->len; i++)
		n += e->text[i] == '\n';
	e->starts = malloc((size_t)n * sizeof *e->starts);
	if (!e->starts)
		return;
	e->starts[0] = 0;
	e->nlines = 1;
	for (size_t i = 0; i < e->len; i++)
		if (e->text[i] == '\n')
			e->starts[e->nlines++] = i + 1;
}

static entry *lookup(ka_sources *s, const char *path)
{
	if (s->last < s->n && strcmp(s->v[s->last].path, path) == 0)
		return &s->v[s->last];
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].path, path) == 0)
			return &s->v[s->last = i];
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		entry *nv = realloc(s->v, ncap * sizeof *nv);
		if (!nv)
			return NULL;
		s->v = nv;
		s->cap = ncap;
	}
	entry *e = &s->v[s->n];
	memset(e, 0, sizeof *e);
	e->path = strdup(path);
	if (!e->path)
		return NULL;
	if (ka_fs_read(path, 0, &e->text, &e->len) == KA_OK)
		index_lines(e);
	s->last = s->n++;
	return e;
}

const char *ka_sources_text(ka_sources *s, const char *path, size_t *len)
{
	entry *e = lookup(s, path);
	if (len)
		*len = e && e->text ? e->len : 0;
	return e ? e->text : NULL;
}

int ka_sources_line(ka_sources *s, const char *path, int line, const char **p, size_t *len)
{
	entry *e = lookup(s, path);
	if (!e || !e->text || !e->starts || line < 1 || line > e->nlines)
		return 0;
	size_t b = e->starts[line - 1];
	size_t end = line < e->nlines ? e->starts[line] - 1 : e->len;
	if (end > b && e->text[end - 1] == '\r')
		end--;
	if (line == e->nlines && b == e->len)
		return 0; /* after the final newline */
	*p = e->text + b;
	*len = end - b;
	return 1;
}

/* Length of the UTF-8 sequence at p (0 when invalid). */
static int utf8_len(const unsigned char *p, size_t avail)
{
	int n = p[0] < 0x80 ? 1 : (p[0] >> 5) == 6 ? 2 : (p[0] >> 4) == 14 ? 3 : (p[0] >> 3) == 30 ? 4 : 0;
	if (n == 0 || (size_t)n > avail)
		return 0;
	for (int i = 1; i < n; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	return n;
}

int ka_utf16_column(const char *line, size_t len, int byte_col)
{
	const unsigned char *p = (const unsigned char *)line;
	size_t target = byte_col > 1 ? (size_t)(byte_col - 1) : 0;
	size_t i = 0;
	int units = 0;
	while (i < target && i < len) {
		int n = utf8_len(p + i, len - i);
		if (n == 0 || i + (size_t)n > target) {
			units++;
			i++;
			continue;
		}
		units += n == 4 ? 2 : 1;
		i += (size_t)n;
	}
	if (target > i)
		units += (int)(target - i);
	return units + 1;
}
