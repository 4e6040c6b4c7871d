/* analyzer/kmodel_text.c: the kernel model of a source text (kmodel.h),
 * for a rewriter that holds the text, not the file.  The text goes to a
 * temporary file and is parsed with the shim headers; a quoted include that
 * does not resolve in include_dir is blanked (same length, so every offset
 * stays the text's), which costs only the kernels that use what it
 * declares: those fail to parse and get no model. */
#include "analyzer/frontend.h"
#include "analyzer/kmodel.h"
#include "util/cleanup.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Blank `#include "X"` lines whose X is not in dir. */
static void blank_missing_includes(char *t, size_t len, const char *dir)
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
		char path[4096];
		int found = 0;
		if (dir && snprintf(path, sizeof path, "%s/%.*s", dir, (int)(q - p - 1), t + p + 1) <
				   (int)sizeof path)
			found = access(path, R_OK) == 0;
		if (!found)
			memset(t + i, ' ', q + 1 - i);
	}
}

int ka_kmodel_of_text(const char *text, size_t len, const char *lang, const char *name,
		      const char *include_dir, const char *const *extra, int nextra, ka_kmodel_doc *out)
{
	memset(out, 0, sizeof *out);
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
		blank_missing_includes(copy, len, include_dir);
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
	unlink(path);
	ka_cleanup_remove_file(slot);
	if (rc != KA_OK) {
		ka_tu_free(tu);
		return rc;
	}
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
