/* analyzer/kmodel_text.c: the kernel model of a source text (kmodel.h),
 * for a rewriter that holds the text, not the file.  The text goes to a
 * temporary file and is parsed with the shim headers and the file's
 * compiler flags; a quoted include that resolves neither in include_dir nor
 * in a folder the flags name (-I, -iquote, -isystem, -idirafter, in any
 * spelling frontend_flags.c reads) is blanked (same length, so every offset
 * stays the text's), which costs only the kernels that use what it
 * declares: those fail to parse and get no model.  The shim headers come
 * first (the same model on every machine); a text they leave with errors
 * is parsed again with the CUDA toolkit's headers where it is installed. */
#include "analyzer/frontend.h"
#include "analyzer/kmodel.h"
#include "util/arena.h"
#include "util/cleanup.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 1 when dir/name[0..n) is a readable file. */
static int found_in(const char *dir, const char *name, size_t n)
{
	char path[4096];
	return dir && snprintf(path, sizeof path, "%s/%.*s", dir, (int)n, name) < (int)sizeof path &&
	       access(path, R_OK) == 0;
}

/* Blank `#include "X"` lines whose X is neither in dir nor in a folder of
 * the clang flags fl (translated: "-Idir", or "-isystem" "dir"). */
static void blank_missing_includes(char *t, size_t len, const char *dir, const ka_flags *fl)
{
	for (size_t i = 0; i < len; i++) {
		if (t[i] != '#' || (i && t[i - 1] != '\n' && t[i - 1] != ' ' && t[i - 1] != '\t'))
			continue;
		size_t p = i + 1;
		while (p < len && (t[p] == ' ' || t[p] == '\t'))
			p++;
		if (len - p < 7 || strncmp(t + p, "include", 7))
			continue;
		p += 7;
		while (p < len && (t[p] == ' ' || t[p] == '\t'))
			p++;
		if (p >= len || t[p] != '"')
			continue;
		size_t q = p + 1;
		while (q < len && t[q] != '"' && t[q] != '\n')
			q++;
		if (q >= len || t[q] != '"')
			continue;
		const char *name = t + p + 1;
		size_t n = q - p - 1;
		int found = found_in(dir, name, n);
		for (int k = 0; k < fl->n && !found; k++) {
			const char *f = fl->v[k];
			if (!strncmp(f, "-I", 2) && f[2])
				found = found_in(f + 2, name, n);
			else if ((!strcmp(f, "-isystem") || !strcmp(f, "-iquote") ||
				  !strcmp(f, "-idirafter")) &&
				 k + 1 < fl->n)
				found = found_in(fl->v[++k], name, n);
		}
		if (!found)
			memset(t + i, ' ', q + 1 - i);
	}
}

/* The errors (and fatal errors) among tu's diagnostics. */
static int nerrors(const ka_tu *tu)
{
	int n = 0;
	for (const ka_diag *d = tu->diags; d; d = d->next)
		n += d->severity && (!strcmp(d->severity, "error") || !strcmp(d->severity, "fatal"));
	return n;
}

int ka_kmodel_parse_text(const char *text, size_t len, const char *lang, const char *include_dir,
			 const char *const *extra, int nextra, ka_tu **out)
{
	*out = NULL;
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof path, "%s/ka-kmodel-XXXXXX.%s", tmp && *tmp ? tmp : "/tmp",
		 lang && !strcmp(lang, "hip") ? "hip" : "cu");
	int fd = mkstemps(path, lang && !strcmp(lang, "hip") ? 4 : 3);
	if (fd < 0)
		return ka_error_set(KA_EIO, "kernel model: cannot create a temporary file in %s",
				    tmp && *tmp ? tmp : "/tmp");
	int slot = ka_cleanup_add_file(path);
	char *copy = malloc(len + 1);
	int rc = KA_OK;
	if (!copy) {
		rc = ka_error_set(KA_ENOMEM, "kernel model: out of memory");
	} else {
		memcpy(copy, text, len);
		copy[len] = 0;
		ka_arena *a = ka_arena_new();
		ka_flags fl = {0};
		if (a)
			ka_frontend_flags(a, extra, nextra, NULL, &fl);
		blank_missing_includes(copy, len, include_dir, &fl);
		ka_arena_free(a);
		FILE *f = fdopen(fd, "w");
		if (!f || fwrite(copy, 1, len, f) != len)
			rc = ka_error_set(KA_EIO, "kernel model: cannot write %s", path);
		if (f) {
			fclose(f);
			fd = -1;
		}
	}
	if (fd >= 0)
		close(fd);
	free(copy);
	const char *args[66];
	int na = 0;
	if (include_dir) {
		args[na++] = "-I";
		args[na++] = include_dir;
	}
	for (int i = 0; i < nextra && na < 64; i++)
		args[na++] = extra[i];
	ka_frontend_opts fo = {.lang = lang && !strcmp(lang, "hip") ? "hip" : "cuda",
			       .arch = "sm_90",
			       .force_shim = 1,
			       .extra = args,
			       .nextra = na};
	ka_tu *tu = NULL;
	if (rc == KA_OK)
		rc = ka_frontend_parse(&fo, path, &tu);
	/* the shim declares the runtime's common part only: a file that uses
	 * more (texture objects, occupancy calls, cuRAND, cooperative groups)
	 * or whose system headers clash with it is parsed again with the
	 * toolkit's headers, when they are installed, and that parse is kept
	 * when it has fewer errors */
	int ne = rc == KA_OK ? nerrors(tu) : 0;
	fo.force_shim = 0;
	if (ne && !ka_frontend_uses_shim(&fo)) {
		ka_tu *tk = NULL;
		if (ka_frontend_parse(&fo, path, &tk) == KA_OK && nerrors(tk) < ne) {
			ka_tu_free(tu);
			tu = tk;
		} else {
			ka_tu_free(tk);
		}
	}
	unlink(path);
	ka_cleanup_remove_file(slot);
	if (rc != KA_OK) {
		ka_tu_free(tu);
		return rc;
	}
	*out = tu;
	return KA_OK;
}

int ka_kmodel_of_text(const char *text, size_t len, const char *lang, const char *name,
		      const char *include_dir, const char *const *extra, int nextra, ka_kmodel_doc *out)
{
	memset(out, 0, sizeof *out);
	ka_tu *tu;
	int rc = ka_kmodel_parse_text(text, len, lang, include_dir, extra, nextra, &tu);
	if (rc != KA_OK)
		return rc;
	rc = ka_kmodel_of_tu(tu, name, &out->km);
	if (rc != KA_OK) {
		ka_tu_free(tu);
		return rc;
	}
	out->tu = tu;
	return KA_OK;
}

void ka_kmodel_free(ka_kmodel_doc *d)
{
	if (d && d->tu)
		ka_tu_free(d->tu);
	if (d)
		memset(d, 0, sizeof *d);
}
