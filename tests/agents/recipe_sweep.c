/* tests/agents/recipe_sweep.c: the offline expert's recipes on code from
 * outside the project.  For each CUDA file it tries every recipe, with the
 * first parameter set of its grid, on every kernel the source model
 * (recipes/csrc.h) finds, and prints one tab-separated line per (file,
 * kernel, recipe):
 *
 *     FILE  KERNEL  RECIPE  PARAMS  applied   OUTPUT-PATH
 *     FILE  KERNEL  RECIPE  PARAMS  declined  REASON
 *     FILE  KERNEL  RECIPE  PARAMS  error     MESSAGE
 *     FILE  -       -       -       scan-error MESSAGE
 *
 * An applied rewrite goes to OUTDIR/<FILE with '/' as '+'>.<KERNEL>.<RECIPE>.cu.
 * scripts/recipe_sweep.sh runs it over a tree, compiles what it wrote with
 * nvcc and sums the lines up.  A tool, not a ctest: its input is whatever
 * tree it is pointed at.
 *
 *     recipe_sweep [-o OUTDIR] [-r ROOT] [-R RECIPE] FILE... [-- FLAGS]
 *
 * RECIPE: that recipe alone (all of them by default).
 *
 * ROOT: the FILEs are relative to it (their rows and rewrites are named
 * so), read as ROOT/FILE.  FLAGS: the files' compiler flags (-I, -D,
 * -std, ...), which reach the kernel model the recipes build, as a
 * project's build gives them (relative paths against the working folder).
 *
 * Exit 0 when every file was read (declines and scan errors are data), 2 on
 * a usage or I/O error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "recipes/csrc.h"
#include "recipes/recipe.h"
#include "util/error.h"
#include "util/fs.h"

#define MAX_FILE (16u << 20)

/* Print s with tabs and line breaks as blanks, so a line stays a row. */
static void put_field(const char *s)
{
	for (; *s; s++)
		putchar(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s);
}

static void row(const char *file, const char *kernel, const char *recipe, const char *params,
		const char *status, const char *detail)
{
	/* an empty field would vanish for `read` and awk's blank splitting */
	printf("%s\t%s\t%s\t%s\t%s\t", file, kernel, recipe, params[0] ? params : "-", status);
	put_field(detail);
	putchar('\n');
}

/* OUTDIR/<file with '/' as '+'>.<kernel>.<recipe>.cu into buf; 0 when it
 * does not fit. */
static int out_path(char *buf, size_t cap, const char *outdir, const char *file, const char *kernel,
		    const char *recipe)
{
	while (!strncmp(file, "./", 2))
		file += 2;
	int n = snprintf(buf, cap, "%s/%s.%s.%s.cu", outdir, file, kernel, recipe);
	if (n < 0 || (size_t)n >= cap)
		return 0;
	for (char *p = buf + strlen(outdir) + 1; *p; p++)
		if (*p == '/')
			*p = '+';
	return 1;
}

/* One recipe on one kernel: apply, write, print its row. */
static int try_one(const ka_recipe *r, const char *file, const char *text, size_t len, const char *kernel,
		   const char *outdir)
{
	const char *params = r->grid && r->grid[0] ? r->grid[0] : "";
	char why[256], path[4096];
	char *out = NULL;
	size_t n = 0;
	int rc = ka_recipe_apply(r->name, text, len, kernel, params, &out, &n, why, sizeof why);
	if (rc == KA_RECIPE_DECLINED) {
		/* apply_one puts "KERNEL: " before the reason; the row has a column for it */
		size_t kl = strlen(kernel);
		const char *w = !strncmp(why, kernel, kl) && !strncmp(why + kl, ": ", 2) ? why + kl + 2 : why;
		row(file, kernel, r->name, params, "declined", w);
		rc = KA_OK;
	} else if (rc < 0) {
		row(file, kernel, r->name, params, "error", ka_error_last());
		rc = KA_OK;
	} else if (!out_path(path, sizeof path, outdir, file, kernel, r->name)) {
		rc = ka_error_set(KA_ETOOBIG, "output path too long for %s", file);
	} else if ((rc = ka_fs_write_atomic(path, out, n)) == KA_OK) {
		row(file, kernel, r->name, params, "applied", path);
	}
	free(out);
	return rc;
}

/* Every recipe on every kernel of one file. */
static const char *only; /* -R NAME: that recipe alone */

static int sweep_file(const char *root, const char *file, const char *outdir)
{
	static ka_csrc m; /* large */
	static char names[KA_CSRC_MAX_KERNELS][KA_CSRC_NAME];
	char *text = NULL, path[4096];
	size_t len = 0;
	int nk = 0, rc = KA_OK;
	if (snprintf(path, sizeof path, "%s%s%s", root ? root : "", root ? "/" : "", file) >=
	    (int)sizeof path)
		rc = ka_error_set(KA_ETOOBIG, "path too long");
	if (rc || (rc = ka_fs_read(path, MAX_FILE, &text, &len)))
		goto out;
	ka_recipe_set_source_path(path); /* its includes, for the kernel model */
	if (ka_csrc_scan(&m, text, len) != KA_OK) {
		row(file, "-", "-", "-", "scan-error", ka_error_last());
		goto out;
	}
	/* a name defined twice (overloads, #if branches) is tried once: the
	 * recipes take the first definition */
	for (int i = 0; i < m.nkernels; i++) {
		int seen = 0;
		for (int j = 0; j < nk && !seen; j++)
			seen = !strcmp(names[j], m.k[i].name);
		if (!seen)
			snprintf(names[nk++], KA_CSRC_NAME, "%s", m.k[i].name);
	}
	for (int i = 0; i < nk && rc == KA_OK; i++)
		for (size_t j = 0; j < ka_recipe_count() && rc == KA_OK; j++)
			if (!only || !strcmp(only, ka_recipe_get(j)->name))
				rc = try_one(ka_recipe_get(j), file, text, len, names[i], outdir);
out:
	ka_recipe_kmodel_forget(); /* the next file's text is another */
	free(text);
	return rc;
}

int main(int argc, char **argv)
{
	const char *outdir = "recipe-sweep-out", *root = NULL;
	int i = 1, status = 0, end = argc;
	for (; i + 1 < argc && (!strcmp(argv[i], "-o") || !strcmp(argv[i], "-r") || !strcmp(argv[i], "-R"));
	     i += 2)
		*(argv[i][1] == 'o' ? &outdir : argv[i][1] == 'r' ? &root : &only) = argv[i + 1];
	if (only && !ka_recipe_find(only)) {
		fprintf(stderr, "recipe_sweep: no recipe '%s'\n", only);
		return 2;
	}
	for (int j = i; j < argc; j++)
		if (!strcmp(argv[j], "--")) {
			end = j;
			ka_recipe_set_flags((const char *const *)argv + j + 1, argc - j - 1);
			break;
		}
	if (i >= end) {
		fprintf(stderr, "usage: recipe_sweep [-o OUTDIR] [-r ROOT] [-R RECIPE] FILE... [-- FLAGS]\n");
		return 2;
	}
	if (mkdir(outdir, 0777) && !ka_fs_is_dir(outdir)) {
		fprintf(stderr, "recipe_sweep: cannot create %s\n", outdir);
		return 2;
	}
	for (; i < end; i++)
		if (sweep_file(root, argv[i], outdir) != KA_OK) {
			fprintf(stderr, "recipe_sweep: %s: %s\n", argv[i], ka_error_last());
			status = 2;
		}
	return status;
}
