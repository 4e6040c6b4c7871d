/* analyzer/tu.c: the lowered translation unit's lifetime and its table of
 * source files (bytes read once, used for excerpts and rewriting).
 *
 * A file is entered in the table when the front end first meets it (the
 * table's order is the order of the facts' file rows) but its bytes are read
 * only when someone asks for them (ka_tu_file): the front end meets every
 * toolkit header that expands a macro, and reading them all cost more than
 * the rest of the analysis of a small file. */
#include "analyzer/frontend.h"
#include "util/fs.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* data NULL: the bytes are read on first use (load). */
static ka_srcfile *add_file(ka_tu *tu, const char *path, const char *data, size_t len)
{
	ka_srcfile *f = ka_arena_alloc(tu->arena, sizeof *f);
	f->path = ka_arena_strdup(tu->arena, path);
	f->data = data ? ka_arena_strndup(tu->arena, data, len) : NULL;
	f->len = (int)len;
	f->next = tu->files;
	tu->files = f;
	return f;
}

static const ka_srcfile *load(ka_tu *tu, ka_srcfile *f)
{
	if (f->data)
		return f;
	char *data = NULL;
	size_t len = 0;
	if (ka_fs_read(f->path, 0, &data, &len) != 0) { /* virtual (shim) or unreadable */
		f->data = "";
		f->len = 0;
		return f;
	}
	f->data = ka_arena_strndup(tu->arena, data, len);
	f->len = (int)len;
	free(data);
	return f;
}

ka_tu *ka_tu_new(const char *main_file, const char *lang, const char *data, size_t len)
{
	ka_arena *a = ka_arena_new();
	ka_tu *tu = ka_arena_alloc(a, sizeof *tu);
	tu->arena = a;
	tu->lang = ka_arena_strdup(a, lang ? lang : "cuda");
	ka_srcfile *f = add_file(tu, main_file, data ? data : "", data ? len : 0);
	f->is_main = 1;
	tu->main_file = f->path;
	return tu;
}

void ka_tu_free(ka_tu *tu)
{
	if (tu)
		ka_arena_free(tu->arena);
}

const ka_srcfile *ka_tu_file(ka_tu *tu, const char *path)
{
	if (!path)
		return NULL;
	for (ka_srcfile *f = tu->files; f; f = f->next)
		if (f->path == path || strcmp(f->path, path) == 0)
			return load(tu, f);
	return NULL;
}

const char *ka_frontend_intern_file(ka_tu *tu, const char *path)
{
	for (ka_srcfile *f = tu->files; f; f = f->next)
		if (f->path == path || strcmp(f->path, path) == 0)
			return f->path;
	return add_file(tu, path, NULL, 0)->path;
}

const char *ka_tu_text(ka_tu *tu, const char *file, int begin, int end)
{
	const ka_srcfile *f = ka_tu_file(tu, file);
	if (!f || begin < 0 || end < begin || end > f->len)
		return "";
	return ka_arena_strndup(tu->arena, f->data + begin, (size_t)(end - begin));
}

void ka_tu_warn(ka_tu *tu, const ka_loc *at, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ka_diag *d = ka_arena_alloc(tu->arena, sizeof *d);
	d->file = at && at->file ? at->file : tu->main_file;
	d->line = at ? at->line : 0;
	d->col = at ? at->col : 0;
	d->severity = "warning";
	d->message = ka_arena_strdup(tu->arena, msg);
	d->next = tu->diags;
	tu->diags = d;
}
