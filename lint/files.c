/* lint/files.c: PATH arguments -> the files to analyze.
 *
 * A folder is searched recursively for .cu .cuh .hip (hidden folders and
 * `exclude` globs of .kcheck.yaml skipped); a file named on the command
 * line is taken whatever its extension.  The list is sorted and
 * de-duplicated by real path, so the order and the output do not depend on
 * readdir() or on how a file was named.  Each folder is entered once (by
 * device and inode), so symbolic-link loops end.  A path that is missing, or
 * that is not a regular file (a FIFO would block the parser), is reported in
 * one line and skipped; the run goes on and counts it (result.failed).  A
 * name that starts with '-' keeps a "./" so no tool reads it as an option. */
#include "lint/lint_int.h"
#include "util/fs.h"
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct flist {
	ka_lint *l;
	ka_lint_file *v;
	int n, cap;
	int bad;         /* paths reported */
	ka_fs_seen seen; /* folders entered */
} flist;

int ka_lint_is_source_ext(const char *path, int *is_header)
{
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');
	*is_header = 0;
	if (!dot || (slash && dot < slash))
		return 0;
	if (!strcmp(dot, ".cu") || !strcmp(dot, ".hip"))
		return 1;
	if (!strcmp(dot, ".cuh") || !strcmp(dot, ".h") || !strcmp(dot, ".hpp")) {
		*is_header = 1;
		return strcmp(dot, ".cuh") == 0; /* folders: CUDA headers only */
	}
	return 0;
}

static int excluded(const ka_lint_opts *c, const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *p = strncmp(path, "./", 2) == 0 ? path + 2 : path;
	for (int i = 0; i < c->nexclude; i++)
		if (fnmatch(c->exclude[i], p, 0) == 0 || fnmatch(c->exclude[i], base, 0) == 0)
			return 1;
	return 0;
}

static void add(flist *l, const char *path, int is_header)
{
	ka_arena *arena = l->l->arena;
	/* the text given on stdin is named by its --stdin-filename */
	char *real = ka_fs_overlay_get(path, NULL) ? strdup(ka_fs_overlay_abs()) : realpath(path, NULL);
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		ka_lint_file *nv = ka_arena_alloc(arena, (size_t)l->cap * sizeof *nv);
		if (l->n)
			memcpy(nv, l->v, (size_t)l->n * sizeof *nv);
		l->v = nv;
	}
	const char *shown = strncmp(path, "./", 2) == 0 && path[2] && path[2] != '-' ? path + 2 : path;
	if (shown[0] == '-')
		shown = ka_arena_printf(arena, "./%s", shown);
	l->v[l->n].path = ka_arena_strdup(arena, shown);
	l->v[l->n].real = ka_arena_strdup(arena, real ? real : path);
	l->v[l->n].is_header = is_header;
	l->n++;
	free(real);
}

/* A file to analyze must be a regular file; else one line, and go on. */
static int regular(flist *l, const char *path)
{
	struct stat st;
	if (ka_fs_overlay_get(path, NULL))
		return 1;
	if (stat(path, &st) != 0)
		ka_lint_log(l->l, "error: cannot read %s: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		ka_lint_log(l->l, "error: cannot read %s: not a regular file", path);
	else
		return 1;
	l->bad++;
	return 0;
}

static int walk(flist *l, const char *dir, int depth)
{
	ka_arena *arena = l->l->arena;
	int fresh = ka_fs_seen_add(&l->seen, dir);
	if (fresh == 0) /* entered already: a link loop, or two names for it */
		return 0;
	if (fresh == KA_ENOMEM)
		return fresh;
	if (fresh < 0) {
		ka_lint_log(l->l, "error: %s", ka_error_last());
		l->bad++;
		return 0;
	}
	DIR *d = opendir(dir);
	struct dirent *de;
	if (!d) {
		ka_lint_log(l->l, "error: cannot open folder %s: %s", dir, strerror(errno));
		l->bad++;
		return 0;
	}
	int rc = 0;
	while ((de = readdir(d)) != NULL && rc == 0) {
		if (de->d_name[0] == '.')
			continue;
		const char *p = strcmp(dir, ".") == 0
					? ka_arena_strdup(arena, de->d_name)
					: ka_arena_printf(arena, "%s%s%s", dir,
							  dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
		if (excluded(&l->l->o, p))
			continue;
		int hdr;
		if (ka_fs_is_dir(p)) {
			if (depth < 64)
				rc = walk(l, p, depth + 1);
		} else if (ka_lint_is_source_ext(p, &hdr) && regular(l, p)) {
			add(l, p, hdr);
		}
	}
	closedir(d);
	return rc;
}

static int cmp_file(const void *a, const void *b)
{
	const ka_lint_file *x = a, *y = b;
	int c = strcmp(x->path, y->path);
	return c ? c : strcmp(x->real, y->real);
}

int ka_lint_files(ka_lint *lint, const char *const *paths, int npaths, ka_lint_file **out, int *n, int *bad)
{
	flist l = {.l = lint};
	int rc = KA_OK;
	for (int i = 0; i < npaths && rc == KA_OK; i++) {
		const char *p = paths[i];
		int hdr;
		if (ka_fs_is_dir(p)) {
			rc = walk(&l, p, 0);
		} else if (regular(&l, p)) {
			ka_lint_is_source_ext(p, &hdr);
			add(&l, p, hdr);
		}
	}
	ka_fs_seen_free(&l.seen);
	*bad = l.bad;
	if (rc != KA_OK)
		return ka_error_set(rc, "out of memory");
	if (l.n > 1)
		qsort(l.v, (size_t)l.n, sizeof *l.v, cmp_file);
	int w = 0;
	for (int i = 0; i < l.n; i++) { /* drop a real path seen before */
		int dup = 0;
		for (int j = 0; j < w && !dup; j++)
			dup = strcmp(l.v[j].real, l.v[i].real) == 0;
		if (!dup)
			l.v[w++] = l.v[i];
	}
	*out = l.v;
	*n = w;
	return KA_OK;
}
