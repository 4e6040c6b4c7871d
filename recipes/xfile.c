/* recipes/xfile.c: a recipe on a kernel whose launches live in another file
 * of the project, one that includes the kernel's file (a header, or a
 * `_kernel.cu` written to be included).
 *
 * The recipes read a file through two models whose ranges are byte offsets
 * of one text: the source model (csrc.h) and the kernel model and facts
 * from clang (analyzer/kmodel.h, recipe_facts.c), which keep the main
 * file's offsets and nothing of a header's.  So the rewrite runs on the
 * includer's translation unit as the preprocessor would start it: the
 * includer's text with its `#include` line replaced by the included file's
 * text, between two marker lines.  Every recipe then sees the definition
 * and the launches in one text, with what the includer declares before the
 * include and what it does after it, as the compiler does; its checks that
 * the kernel's name is used nowhere it cannot read cover both files.  The
 * result is split again at the markers into the two files' new texts (the
 * include line put back); a rewrite that moved a marker, or edited the
 * includer before its include (what other includers of the file would not
 * see), is declined.  The rest of the project is searched for the kernel's
 * name: a use outside the two files (another includer's launch, a
 * declaration) would not be rewritten, so it declines too, naming the file
 * and line.  Line numbers in a decline's reason name the file they are in. */
#define _GNU_SOURCE /* memmem */
#include "recipes/recipe.h"
#include "util/error.h"
#include "util/fs.h"
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MARK_BEGIN "/* <ka-xfile-begin> */\n"
#define MARK_END "/* <ka-xfile-end> */"
#define MAX_SCOPE_FILES 4000
#define MAX_TEXT (16u << 20)

static const char *base_of(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* dirname of p into out ("." when it has none). */
static void dir_of(const char *p, char *out, size_t cap)
{
	const char *s = strrchr(p, '/');
	if (!s)
		snprintf(out, cap, ".");
	else
		snprintf(out, cap, "%.*s", s == p ? 1 : (int)(s - p), p);
}

/* dir/name: 1 when it is the file whose real path is want, 0 when it is
 * another file, -1 when there is none. */
static int resolves_to(const char *dir, const char *name, size_t n, const char *want)
{
	char p[PATH_MAX], rp[PATH_MAX];
	if (snprintf(p, sizeof p, "%s/%.*s", dir, (int)n, name) >= (int)sizeof p || !realpath(p, rp))
		return -1;
	return !strcmp(rp, want);
}

/* The -I folders of the flags (`-I DIR`, `-IDIR`, `-isystem DIR`,
 * `--include-path DIR`), in order, into dirs; their count. */
static int include_dirs(const char **dirs, int max)
{
	const char *const *f;
	int n = ka_recipe_flags(&f), k = 0;
	for (int i = 0; i < n && k < max; i++) {
		if ((!strcmp(f[i], "-I") || !strcmp(f[i], "-isystem") || !strcmp(f[i], "--include-path")) &&
		    i + 1 < n)
			dirs[k++] = f[++i];
		else if (!strncmp(f[i], "-I", 2) && f[i][2])
			dirs[k++] = f[i] + 2;
	}
	return k;
}

int ka_recipe_include_at(const char *inc_path, const char *inc_text, size_t inc_len, const char *file,
			 size_t *s, size_t *e)
{
	char want[PATH_MAX], idir[PATH_MAX];
	if (!realpath(file, want))
		return 0;
	dir_of(inc_path, idir, sizeof idir);
	const char *dirs[KA_RECIPE_MAX_FLAGS];
	int nd = include_dirs(dirs, KA_RECIPE_MAX_FLAGS), count = 0;
	for (size_t i = 0; i < inc_len;) {
		size_t le = i;
		while (le < inc_len && inc_text[le] != '\n')
			le++;
		size_t p = i;
		while (p < le && (inc_text[p] == ' ' || inc_text[p] == '\t'))
			p++;
		if (p < le && inc_text[p] == '#') {
			p++;
			while (p < le && (inc_text[p] == ' ' || inc_text[p] == '\t'))
				p++;
			if (le - p > 7 && !strncmp(inc_text + p, "include", 7)) {
				p += 7;
				while (p < le && (inc_text[p] == ' ' || inc_text[p] == '\t'))
					p++;
				char close = p < le && inc_text[p] == '"'   ? '"'
					     : p < le && inc_text[p] == '<' ? '>'
									    : 0;
				const char *q = close ? memchr(inc_text + p + 1, close, le - p - 1) : NULL;
				if (q) {
					const char *name = inc_text + p + 1;
					size_t n = (size_t)(q - name);
					/* the first folder that has the name decides, as in the
					 * preprocessor: a quoted name in the includer's folder first */
					int hit = close == '"' ? resolves_to(idir, name, n, want) : -1;
					for (int d = 0; d < nd && hit < 0; d++)
						hit = resolves_to(dirs[d], name, n, want);
					if (hit > 0 && count++ == 0) {
						*s = i;
						*e = le;
					}
				}
			}
		}
		i = le + 1;
	}
	return count;
}

/* ---- the project's other files ------------------------------------------------- */

static int source_ext(const char *name)
{
	static const char *const ext[] = {".cu", ".cuh", ".h", ".hpp", ".hh",  ".hxx", ".cpp",
					  ".cc", ".cxx", ".c", ".inl", ".inc", ".hip"};
	const char *dot = strrchr(name, '.');
	for (size_t i = 0; dot && i < sizeof ext / sizeof ext[0]; i++)
		if (!strcmp(dot, ext[i]))
			return 1;
	return 0;
}

typedef struct scope_walk {
	const char *kernel;
	const char *skip[2]; /* real paths */
	int files;
	char hit[PATH_MAX]; /* the first file that names the kernel */
	int line;
	int too_many;
} scope_walk;

/* Every source file under dir (symbolic links to folders not followed),
 * sorted: the first that names the kernel outside comments and literals
 * goes to w->hit. */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(scope_walk *w, const char *dir, int depth)
{
	DIR *d = depth < 24 ? opendir(dir) : NULL;
	if (!d)
		return;
	char **names = NULL;
	size_t n = 0, cap = 0;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *nn);
			if (!nn)
				break;
			names = nn;
		}
		if (!(names[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		char p[PATH_MAX];
		struct stat st;
		if (w->hit[0] || w->too_many ||
		    snprintf(p, sizeof p, "%s/%s", dir, names[i]) >= (int)sizeof p || lstat(p, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk(w, p, depth + 1);
			continue;
		}
		if (!source_ext(names[i]) || !ka_fs_is_regular(p))
			continue;
		if (++w->files > MAX_SCOPE_FILES) {
			w->too_many = 1;
			continue;
		}
		char rp[PATH_MAX], *t = NULL;
		size_t len = 0;
		if (!realpath(p, rp) || !strcmp(rp, w->skip[0]) || !strcmp(rp, w->skip[1]) ||
		    ka_fs_read(p, MAX_TEXT, &t, &len) != KA_OK)
			continue;
		size_t at = ka_csrc_find_word_pp(t, 0, len, w->kernel);
		if (at != (size_t)-1) {
			snprintf(w->hit, sizeof w->hit, "%s", p);
			w->line = ka_csrc_line_of(t, at);
		}
		free(t);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The longest common folder of two real paths into out. */
static void common_dir(const char *a, const char *b, char *out, size_t cap)
{
	size_t i = 0, slash = 0;
	while (a[i] && a[i] == b[i]) {
		if (a[i] == '/')
			slash = i;
		i++;
	}
	snprintf(out, cap, "%.*s", slash ? (int)slash : 1, a);
}

/* ---- line numbers of the joined text ----------------------------------------- */

typedef struct joined {
	const char *file, *includer; /* as given */
	const char *text, *inc_text; /* the originals */
	size_t s, e;                 /* the include line in inc_text */
	size_t h_s, h_e;             /* the file's text in the joined one */
	size_t t_s;                  /* the includer's rest (from e) in the joined one */
	const char *jt;              /* the joined text */
} joined;

/* Line n of the joined text as "line M of NAME" into out. */
static void map_line(const joined *j, int n, char *out, size_t cap)
{
	size_t off = 0;
	for (int l = 1; l < n && j->jt[off]; off++)
		if (j->jt[off] == '\n')
			l++;
	if (off >= j->h_s && off < j->h_e)
		snprintf(out, cap, "line %d of %s", ka_csrc_line_of(j->text, off - j->h_s), base_of(j->file));
	else if (off >= j->t_s)
		snprintf(out, cap, "line %d of %s", ka_csrc_line_of(j->inc_text, off - j->t_s + j->e),
			 base_of(j->includer));
	else if (off < j->s)
		snprintf(out, cap, "line %d of %s", ka_csrc_line_of(j->inc_text, off), base_of(j->includer));
	else
		snprintf(out, cap, "the include line of %s", base_of(j->includer));
}

/* why with every "line N" of the joined text named by file, and "in this
 * file" as "in FILE or INCLUDER". */
static void map_reason(const joined *j, char *why, size_t cap)
{
	char out[512];
	size_t o = 0;
	const char *p = why;
	while (*p && o + 1 < sizeof out) {
		int at_word = p == why || !((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z'));
		if (at_word && !strncmp(p, "line ", 5) && p[5] >= '0' && p[5] <= '9') {
			char *end;
			long n = strtol(p + 5, &end, 10);
			char m[300];
			map_line(j, (int)n, m, sizeof m);
			o += (size_t)snprintf(out + o, sizeof out - o, "%s", m);
			p = end;
		} else if (!strncmp(p, "in this file", 12)) {
			o += (size_t)snprintf(out + o, sizeof out - o, "in %s or %s", base_of(j->file),
					      base_of(j->includer));
			p += 12;
		} else {
			out[o++] = *p++;
		}
		if (o >= sizeof out)
			o = sizeof out - 1;
	}
	out[o] = 0;
	snprintf(why, cap, "%s", out);
}

/* ---- the rewrite --------------------------------------------------------------- */

static char *find_once(const char *t, size_t len, const char *mark, int *count)
{
	char *first = NULL;
	size_t ml = strlen(mark);
	*count = 0;
	for (const char *p = t; p + ml <= t + len;) {
		const char *q = memmem(p, (size_t)(t + len - p), mark, ml);
		if (!q)
			break;
		if (!first)
			first = (char *)q;
		(*count)++;
		p = q + ml;
	}
	return first;
}

static int xdecline(char *why, size_t cap, const char *fmt, ...) KA_PRINTF(3, 4);
static int xdecline(char *why, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, cap, fmt, ap);
	va_end(ap);
	return KA_RECIPE_DECLINED;
}

int ka_recipe_apply_via(const char *name, const char *kernel, const char *params, const char *file,
			const char *text, size_t len, const char *includer, const char *inc_text,
			size_t inc_len, const char *scope, ka_recipe_via_out *res, char *why, size_t why_cap)
{
	memset(res, 0, sizeof *res);
	why[0] = 0;
	if (!ka_recipe_find(name))
		return ka_error_set(KA_ENOTFOUND, "unknown recipe '%s'", name ? name : "(none)");
	if (!kernel || !file || !includer)
		return ka_error_set(KA_EINPUT, "apply_via needs a kernel, its file and an includer");
	const char *fb = base_of(file), *ib = base_of(includer);
	size_t s = 0, e = 0;
	int n = ka_recipe_include_at(includer, inc_text, inc_len, file, &s, &e);
	if (n == 0)
		return xdecline(why, why_cap, "%s does not include %s itself (an #include line of its own)",
				ib, fb);
	if (n > 1)
		return xdecline(why, why_cap, "%s includes %s %d times", ib, fb, n);
	int c1, c2;
	if (find_once(text, len, "<ka-xfile-", &c1),
	    c1 || (find_once(inc_text, inc_len, "<ka-xfile-", &c2), c2))
		return xdecline(why, why_cap, "%s or %s holds the marker text '<ka-xfile-'", fb, ib);
	/* the rest of the project must not name the kernel */
	char rf[PATH_MAX], ri[PATH_MAX], sc[PATH_MAX];
	if (!realpath(file, rf) || !realpath(includer, ri))
		return ka_error_set(KA_EIO, "cannot resolve %s or %s", file, includer);
	if (scope) {
		if (!realpath(scope, sc))
			return ka_error_set(KA_EIO, "cannot resolve the folder %s", scope);
	} else {
		common_dir(rf, ri, sc, sizeof sc);
	}
	scope_walk w = {.kernel = kernel, .skip = {rf, ri}};
	walk(&w, sc, 0);
	if (w.too_many)
		return xdecline(why, why_cap, "more than %d source files under %s to search for %s",
				MAX_SCOPE_FILES, sc, kernel);
	if (w.hit[0]) {
		size_t sl = strlen(sc);
		const char *rel = !strncmp(w.hit, sc, sl) && w.hit[sl] == '/' ? w.hit + sl + 1 : w.hit;
		return xdecline(why, why_cap,
				"%s names %s too (line %d): a use outside %s and %s would not be rewritten",
				rel, kernel, w.line, fb, ib);
	}

	/* the includer's translation unit, the file's text in place of its include */
	ka_buf jb;
	ka_buf_init(&jb, 64 << 20);
	int rc = ka_buf_add(&jb, inc_text, s);
	rc = rc ? rc : ka_buf_adds(&jb, MARK_BEGIN);
	size_t h_s = jb.len;
	rc = rc ? rc : ka_buf_add(&jb, text, len);
	size_t h_e = jb.len;
	rc = rc ? rc : len && text[len - 1] != '\n' ? ka_buf_addc(&jb, '\n') : KA_OK;
	rc = rc ? rc : ka_buf_adds(&jb, MARK_END);
	size_t t_s = jb.len;
	rc = rc ? rc : ka_buf_add(&jb, inc_text + e, inc_len - e);
	if (rc) {
		ka_buf_free(&jb);
		return rc;
	}
	joined j = {.file = file,
		    .includer = includer,
		    .text = text,
		    .inc_text = inc_text,
		    .s = s,
		    .e = e,
		    .h_s = h_s,
		    .h_e = h_e,
		    .t_s = t_s,
		    .jt = jb.data};

	/* parsed as the includer, with the file's folder for its own includes */
	char old_path[PATH_MAX], fdir[PATH_MAX];
	snprintf(old_path, sizeof old_path, "%s", ka_recipe_source_path() ? ka_recipe_source_path() : "");
	const char *const *of;
	int on = ka_recipe_flags(&of);
	char *saved[KA_RECIPE_MAX_FLAGS];
	const char *flags[KA_RECIPE_MAX_FLAGS + 2];
	int ns = 0;
	for (int i = 0; i < on && i < KA_RECIPE_MAX_FLAGS; i++)
		if ((saved[ns] = strdup(of[i])))
			flags[ns] = saved[ns], ns++;
	dir_of(file, fdir, sizeof fdir);
	flags[ns] = "-I";
	flags[ns + 1] = fdir;
	ka_recipe_set_flags(flags, ns + 2);
	ka_recipe_set_source_path(includer);

	char *out = NULL;
	size_t out_len = 0;
	rc = ka_recipe_apply(name, jb.data, jb.len, kernel, params, &out, &out_len, why, why_cap);

	ka_recipe_set_flags(flags, ns);
	ka_recipe_set_source_path(old_path[0] ? old_path : NULL);
	for (int i = 0; i < ns; i++)
		free(saved[i]);
	if (rc == KA_RECIPE_DECLINED)
		map_reason(&j, why, why_cap);
	if (rc != KA_OK) {
		ka_buf_free(&jb);
		free(out);
		return rc;
	}

	/* split at the markers */
	int nb, ne;
	char *b = find_once(out, out_len, MARK_BEGIN, &nb), *en = find_once(out, out_len, MARK_END, &ne);
	if (nb != 1 || ne != 1 || en < b + strlen(MARK_BEGIN))
		rc = xdecline(why, why_cap, "%s: the rewrite does not keep %s's text apart from %s's", kernel,
			      fb, ib);
	else if ((size_t)(b - out) != s || memcmp(out, inc_text, s))
		rc = xdecline(why, why_cap,
			      "%s: the rewrite edits %s before its include of %s (other includers would not "
			      "see it)",
			      kernel, ib, fb);
	if (rc == KA_OK) {
		const char *hs = b + strlen(MARK_BEGIN);
		size_t hl = (size_t)(en - hs);
		/* the newline added before the end marker */
		if (len && text[len - 1] != '\n' && hl && hs[hl - 1] == '\n')
			hl--;
		ka_buf fo, io;
		ka_buf_init(&fo, 64 << 20);
		ka_buf_init(&io, 64 << 20);
		const char *tail = en + strlen(MARK_END);
		rc = ka_buf_add(&fo, hs, hl);
		rc = rc ? rc : ka_buf_add(&io, inc_text, e);
		rc = rc ? rc : ka_buf_add(&io, tail, (size_t)(out + out_len - tail));
		if (rc == KA_OK && (fo.len != len || memcmp(fo.data, text, len))) {
			res->file_changed = 1;
		}
		if (rc == KA_OK && (io.len != inc_len || memcmp(io.data, inc_text, inc_len)))
			res->includer_changed = 1;
		if (rc == KA_OK) {
			res->file_len = fo.len;
			res->file_text = ka_buf_steal(&fo);
			res->includer_len = io.len;
			res->includer_text = ka_buf_steal(&io);
			if (!res->file_text || !res->includer_text)
				rc = ka_error_set(KA_ENOMEM, "out of memory");
		}
		ka_buf_free(&fo);
		ka_buf_free(&io);
	}
	if (rc == KA_OK) {
		res->unit_text = out;
		res->unit_len = out_len;
	} else {
		free(out);
	}
	ka_buf_free(&jb);
	if (rc != KA_OK)
		ka_recipe_via_free(res);
	return rc;
}

void ka_recipe_via_free(ka_recipe_via_out *res)
{
	free(res->file_text);
	free(res->includer_text);
	free(res->unit_text);
	memset(res, 0, sizeof *res);
}
