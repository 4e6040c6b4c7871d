/* lint/compdb.c: compile_commands.json (-p DIR), as CMake, Bear, Meson
 * and Bazel's extractors write it: an array of {directory, file,
 * arguments | command}.
 *
 * For each file the analyzer gets the entry's flags minus the compiler,
 * `-c`, `-o OUT` and the file itself; relative paths resolve against the
 * entry's directory, and a relative directory (Bazel's extractors may write
 * ".") against the database's folder.  Response files (@file) and nvcc's
 * options files (CMake 3.25+ puts the -I flags in
 * CMakeFiles/T.dir/includes_CUDA.rsp) are read by the flag translation
 * (analyzer/frontend_flags.c); when a flag that could carry an include path
 * or a macro has to be dropped, one warning per run names it.  A header
 * with no entry of its own takes the flags of a source beside it (the same
 * stem first) or in a folder above it, as clangd does.  A malformed
 * database is a one-line error. */
#include "analyzer/frontend.h"
#include "lint/lint_int.h"
#include "util/fs.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct centry {
	const char *real; /* realpath of the file */
	const char *file; /* as written */
	const char *directory;
	const char **args;
	int nargs;
} centry;

struct ka_compdb {
	centry *v;
	int n;
};

/* Split a shell-like command line (quotes and backslashes). */
static int split_command(ka_arena *a, const char *cmd, const char ***out, int *n)
{
	const char **v = ka_arena_alloc(a, (strlen(cmd) / 2 + 2) * sizeof *v);
	char *buf = ka_arena_alloc(a, strlen(cmd) + 1);
	int k = 0;
	const char *p = cmd;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		char *w = buf;
		char q = 0;
		for (; *p && (q || (*p != ' ' && *p != '\t' && *p != '\n')); p++) {
			if (q && *p == q)
				q = 0;
			else if (!q && (*p == '"' || *p == '\''))
				q = *p;
			else if (*p == '\\' && p[1] && q != '\'')
				*w++ = *++p;
			else
				*w++ = *p;
		}
		*w = '\0';
		v[k++] = ka_arena_strdup(a, buf);
	}
	*out = v;
	*n = k;
	return 0;
}

/* Keep the flags that matter for parsing. */
static void filter_args(ka_arena *a, centry *e, const char **argv, int argc)
{
	e->args = ka_arena_alloc(a, (size_t)(argc + 1) * sizeof *e->args);
	e->nargs = 0;
	for (int i = 1; i < argc; i++) { /* argv[0] is the compiler */
		const char *s = argv[i];
		if (!strcmp(s, "-c"))
			continue;
		if (!strcmp(s, "-o") && i + 1 < argc) {
			i++;
			continue;
		}
		if (!strncmp(s, "-o", 2) && s[2] && strncmp(s, "-optf", 5) != 0) /* -oOUT, not nvcc's -optf */
			continue;
		if (!strcmp(s, e->file))
			continue;
		e->args[e->nargs++] = s;
	}
}

static int load_entry(ka_arena *a, const char *dbdir, json_t *j, centry *e)
{
	const char *dir = json_string_value(json_object_get(j, "directory"));
	const char *file = json_string_value(json_object_get(j, "file"));
	json_t *args = json_object_get(j, "arguments");
	const char *cmd = json_string_value(json_object_get(j, "command"));
	if (!dir || !file || (!json_is_array(args) && !cmd))
		return -1;
	if (dir[0] != '/') { /* relative: against the database's folder */
		char *rd = realpath(ka_arena_printf(a, "%s/%s", dbdir, dir), NULL);
		dir = rd ? ka_arena_strdup(a, rd) : ka_arena_printf(a, "%s/%s", dbdir, dir);
		free(rd);
	}
	e->directory = ka_arena_strdup(a, dir);
	e->file = ka_arena_strdup(a, file);
	char *joined = file[0] == '/' ? ka_arena_strdup(a, file) : ka_arena_printf(a, "%s/%s", dir, file);
	char *real = realpath(joined, NULL);
	e->real = ka_arena_strdup(a, real ? real : joined);
	free(real);
	const char **argv;
	int argc = 0;
	if (json_is_array(args)) {
		argv = ka_arena_alloc(a, (json_array_size(args) + 1) * sizeof *argv);
		for (size_t i = 0; i < json_array_size(args); i++) {
			const char *s = json_string_value(json_array_get(args, i));
			if (!s)
				return -1;
			argv[argc++] = ka_arena_strdup(a, s);
		}
	} else {
		split_command(a, cmd, &argv, &argc);
	}
	filter_args(a, e, argv, argc);
	return 0;
}

/* One warning for the whole database: the first flag that could carry an
 * include path or a macro and cannot be used, and how many entries had one. */
static void warn_dropped(ka_arena *a, const char *path, const ka_compdb *db)
{
	const char *first = NULL, *file = NULL;
	int n = 0;
	for (int i = 0; i < db->n; i++) {
		ka_flags fl;
		ka_frontend_flags(a, db->v[i].args, db->v[i].nargs, db->v[i].directory, &fl);
		if (fl.dropped && n++ == 0) {
			first = fl.dropped;
			file = db->v[i].file;
		}
	}
	if (n)
		fprintf(stderr,
			"kcheck: warning: %s: flag '%s' (for %s%s) could carry include paths or macros and "
			"is not used; findings in such files may be incomplete\n",
			path, first, file,
			n > 1 ? ka_arena_printf(a, " and %d more entr%s", n - 1, n > 2 ? "ies" : "y") : "");
}

int ka_compdb_load(ka_arena *a, const char *dir, ka_compdb **out)
{
	json_error_t err;
	char *text = NULL;
	size_t len = 0;
	json_t *root = NULL;
	int rc;
	char *path = ka_lint_findfile(a, dir, "compile_commands.json");
	*out = NULL;
	if (!ka_fs_exists(dir))
		return ka_error_set(KA_EIO, "-p %s: No such file or directory", dir);
	if (!path)
		return ka_error_set(KA_EIO, "-p %s: no compile_commands.json in that folder or its parents",
				    dir);
	if ((rc = ka_fs_read(path, 0, &text, &len)) != KA_OK)
		return rc;
	root = json_loadb(text, len, 0, &err);
	if (!root) {
		rc = ka_error_set(KA_EINPUT, "%s:%d:%d: malformed compile database: %s", path, err.line,
				  err.column, err.text);
		goto out;
	}
	if (!json_is_array(root)) {
		rc = ka_error_set(KA_EINPUT, "%s: malformed compile database: expected an array of entries",
				  path);
		goto out;
	}
	char *dbdir = ka_arena_strdup(a, path);
	char *slash = strrchr(dbdir, '/');
	if (slash && slash != dbdir)
		*slash = '\0';
	else
		dbdir = slash ? "/" : ".";
	ka_compdb *db = ka_arena_alloc(a, sizeof *db);
	db->v = ka_arena_alloc(a, (json_array_size(root) + 1) * sizeof *db->v);
	for (size_t i = 0; i < json_array_size(root); i++) {
		if (load_entry(a, dbdir, json_array_get(root, i), &db->v[db->n]) != 0) {
			rc = ka_error_set(KA_EINPUT,
					  "%s: malformed compile database: entry %zu needs \"directory\", "
					  "\"file\" and \"arguments\" or \"command\"",
					  path, i + 1);
			goto out;
		}
		db->n++;
	}
	warn_dropped(a, path, db);
	*out = db;
	rc = KA_OK;
out:
	json_decref(root);
	free(text);
	return rc;
}

/* Length of the folder part of path (up to and with the last '/'). */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? (size_t)(slash - path) + 1 : 0;
}

/* How well a source's entry stands for a header that has none, as clangd
 * guesses: 3 the same folder and stem (ops.cuh, ops.cu), 2 the same
 * folder, 1 a folder above the header's, 0 no use. */
static int header_proxy_score(const char *src, const char *hdr)
{
	size_t ds = dir_len(src), dh = dir_len(hdr);
	if (ds > dh || strncmp(src, hdr, ds) != 0)
		return 0;
	if (ds < dh)
		return 1;
	const char *a = src + ds, *b = hdr + dh, *ea = strrchr(a, '.'), *eb = strrchr(b, '.');
	size_t la = ea ? (size_t)(ea - a) : strlen(a), lb = eb ? (size_t)(eb - b) : strlen(b);
	return la == lb && strncmp(a, b, la) == 0 ? 3 : 2;
}

int ka_compdb_lookup(const ka_compdb *db, const char *real, const char ***args, int *nargs,
		     const char **directory)
{
	int best = -1, best_score = 0, hdr = 0;
	for (int i = 0; db && i < db->n; i++) {
		if (strcmp(db->v[i].real, real) == 0) {
			best = i;
			break;
		}
	}
	/* A header run on its own (kcheck src/ lists them) has no entry of its
	 * own: the flags of a source beside it or above it find its includes. */
	ka_lint_is_source_ext(real, &hdr);
	if (best < 0 && hdr) {
		for (int i = 0; db && i < db->n; i++) {
			int sh, sc = ka_lint_is_source_ext(db->v[i].real, &sh) && !sh
					     ? header_proxy_score(db->v[i].real, real)
					     : 0;
			if (sc > best_score) {
				best = i;
				best_score = sc;
			}
		}
	}
	if (best < 0)
		return 0;
	*args = db->v[best].args;
	*nargs = db->v[best].nargs;
	*directory = db->v[best].directory;
	return 1;
}

int ka_compdb_files(ka_arena *a, const ka_compdb *db, const char ***paths, int *n)
{
	*n = 0;
	*paths = ka_arena_alloc(a, (size_t)(db ? db->n + 1 : 1) * sizeof **paths);
	for (int i = 0; db && i < db->n; i++) {
		int hdr;
		if (ka_lint_is_source_ext(db->v[i].real, &hdr) && !hdr)
			(*paths)[(*n)++] = db->v[i].real;
	}
	return 0;
}
