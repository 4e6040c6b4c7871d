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
 *     FILE  KERNEL  RECIPE  PARAMS  applied   OUTPUT-PATH  INCLUDER  INCLUDER-OUTPUT
 *
 * The last form: the recipe declined "no launch of KERNEL in this file"
 * (or "KERNEL is defined in a header": other files may launch it), and a
 * .cu under ROOT that includes FILE (itself or through headers of
 * the project, ka_recipe_include_depth) launches it: the recipe ran on the includer's
 * translation unit (ka_recipe_apply_via, recipes/xfile.c) and its rewrite
 * edits both files.  INCLUDER is relative to ROOT; INCLUDER-OUTPUT is its
 * new text (OUTPUT-PATH with .via.cu for .cu), or '-' when only FILE
 * changed.  When every includer declines, the row is the first's decline
 * (its reason names the files).  At most four includers are tried, in
 * sorted order.
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
#include <dirent.h>
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

/* ---- includers: the .cu files under ROOT, read once ---- */
static char **cu_files; /* relative to root, sorted */
static size_t n_cu;
static int cu_listed;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_cu(const char *root, const char *rel, int depth)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s%s%s", root, rel[0] ? "/" : "", rel);
	DIR *d = depth < 24 ? opendir(dir) : NULL;
	if (!d)
		return;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		char r[2048], p[4096];
		struct stat st;
		if (snprintf(r, sizeof r, "%s%s%s", rel, rel[0] ? "/" : "", de->d_name) >= (int)sizeof r ||
		    snprintf(p, sizeof p, "%s/%s", root, r) >= (int)sizeof p || lstat(p, &st))
			continue;
		size_t l = strlen(r);
		if (S_ISDIR(st.st_mode))
			list_cu(root, r, depth + 1);
		else if (S_ISREG(st.st_mode) && l > 3 && !strcmp(r + l - 3, ".cu")) {
			char **nn = realloc(cu_files, (n_cu + 1) * sizeof *nn);
			if (nn && (nn[n_cu] = strdup(r)))
				cu_files = nn, n_cu++;
			else if (nn)
				cu_files = nn;
		}
	}
	closedir(d);
}

/* The .cu files under root that include file, at most max, into
 * out (relative names, borrowed); their count. */
static int includers_of(const char *root, const char *file, const char **out, int max)
{
	if (!cu_listed) {
		list_cu(root ? root : ".", "", 0);
		qsort(cu_files, n_cu, sizeof *cu_files, cmp_str);
		cu_listed = 1;
	}
	char fp[4096];
	snprintf(fp, sizeof fp, "%s%s%s", root ? root : "", root ? "/" : "", file);
	int n = 0;
	for (size_t i = 0; i < n_cu && n < max; i++) {
		char p[4096], *t = NULL;
		size_t len = 0;
		snprintf(p, sizeof p, "%s%s%s", root ? root : "", root ? "/" : "", cu_files[i]);
		if (strcmp(cu_files[i], file) && ka_fs_read(p, MAX_FILE, &t, &len) == KA_OK &&
		    ka_recipe_include_depth(p, t, len, fp) > 0)
			out[n++] = cu_files[i];
		free(t);
	}
	return n;
}

/* The recipe through the includers of file (its reason said the launch is
 * elsewhere): 1 with the row printed, 0 when none includes it (the
 * caller's row stands), < 0 on an error. */
static int try_via(const ka_recipe *r, const char *root, const char *file, const char *text, size_t len,
		   const char *kernel, const char *outdir)
{
	const char *params = r->grid && r->grid[0] ? r->grid[0] : "";
	const char *inc[4];
	int ni = includers_of(root, file, inc, 4), rc = 0;
	char first_why[512] = "", fp[4096];
	snprintf(fp, sizeof fp, "%s%s%s", root ? root : "", root ? "/" : "", file);
	for (int i = 0; i < ni && rc == 0; i++) {
		char ip[4096], why[384], path[4096], ipath[4200];
		char *it = NULL;
		size_t il = 0;
		ka_recipe_via_out res;
		snprintf(ip, sizeof ip, "%s%s%s", root ? root : "", root ? "/" : "", inc[i]);
		if ((rc = ka_fs_read(ip, MAX_FILE, &it, &il)) != KA_OK)
			break;
		int a = ka_recipe_apply_via(r->name, kernel, params, fp, text, len, ip, it, il, NULL, &res,
					    why, sizeof why);
		free(it);
		if (a < 0) {
			rc = a;
		} else if (a == KA_RECIPE_DECLINED) {
			if (!first_why[0]) {
				size_t kl = strlen(kernel);
				const char *w = !strncmp(why, kernel, kl) && !strncmp(why + kl, ": ", 2)
							? why + kl + 2
							: why;
				snprintf(first_why, sizeof first_why, "via %s: %s", inc[i], w);
			}
		} else if (!out_path(path, sizeof path, outdir, file, kernel, r->name)) {
			rc = ka_error_set(KA_ETOOBIG, "output path too long for %s", file);
		} else {
			snprintf(ipath, sizeof ipath, "%.*s.via.cu", (int)strlen(path) - 3, path);
			rc = ka_fs_write_atomic(path, res.file_text, res.file_len);
			if (rc == KA_OK && res.includer_changed)
				rc = ka_fs_write_atomic(ipath, res.includer_text, res.includer_len);
			if (rc == KA_OK) {
				printf("%s\t%s\t%s\t%s\tapplied\t%s\t%s\t%s\n", file, kernel, r->name,
				       params[0] ? params : "-", path, inc[i],
				       res.includer_changed ? ipath : "-");
				rc = 1;
			}
		}
		if (a == KA_OK)
			ka_recipe_via_free(&res);
	}
	if (rc == 0 && first_why[0]) {
		row(file, kernel, r->name, params, "declined", first_why);
		rc = 1;
	}
	return rc;
}

/* One recipe on one kernel: apply, write, print its row. */
static int try_one(const ka_recipe *r, const char *root, const char *file, const char *text, size_t len,
		   const char *kernel, const char *outdir)
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
		char here[256], hdr[256];
		snprintf(here, sizeof here, "no launch of %s in this file", kernel);
		snprintf(hdr, sizeof hdr, "%s is defined in a header", kernel);
		int via = !strncmp(w, here, strlen(here)) || !strncmp(w, hdr, strlen(hdr))
				  ? try_via(r, root, file, text, len, kernel, outdir)
				  : 0;
		if (via == 0)
			row(file, kernel, r->name, params, "declined", w);
		rc = via < 0 ? via : KA_OK;
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
				rc = try_one(ka_recipe_get(j), root, file, text, len, names[i], outdir);
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
