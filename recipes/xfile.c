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
 * text, between two marker lines (through up to two headers of the project
 * between them, each inlined the same way, in the preprocessor's order,
 * each header once; those must come back unchanged).  Every recipe then sees the definition
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

/* dir/name's real path into out: 1, or 0 when there is no such file. */
static int resolve_in(const char *dir, const char *name, size_t n, char *out)
{
	char p[PATH_MAX];
	return snprintf(p, sizeof p, "%s/%.*s", dir, (int)n, name) < (int)sizeof p && realpath(p, out) &&
	       ka_fs_is_regular(out);
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

/* The next #include line of t (the file at path) from *pos whose name
 * resolves to a file, as the preprocessor looks it up (a quoted name in the
 * file's folder first, then the flags' -I folders, the first that has it):
 * 1 with the line [*s, *e) (without its newline) and the file's real path
 * in real; 0 past the last. */
static int next_include(const char *path, const char *t, size_t len, size_t *pos, size_t *s, size_t *e,
			char *real)
{
	char dir[PATH_MAX];
	dir_of(path, dir, sizeof dir);
	const char *dirs[KA_RECIPE_MAX_FLAGS];
	int nd = include_dirs(dirs, KA_RECIPE_MAX_FLAGS);
	for (size_t i = *pos; i < len;) {
		size_t le = i;
		while (le < len && t[le] != '\n')
			le++;
		*pos = le + 1;
		size_t p = ka_csrc_directive(t, i, le, "include");
		char close = p < le && t[p] == '"' ? '"' : p < le && t[p] == '<' ? '>' : 0;
		const char *q = close ? memchr(t + p + 1, close, le - p - 1) : NULL;
		if (q) {
			const char *name = t + p + 1;
			size_t n = (size_t)(q - name);
			int hit = close == '"' && resolve_in(dir, name, n, real);
			for (int d = 0; d < nd && !hit; d++)
				hit = resolve_in(dirs[d], name, n, real);
			if (hit) {
				*s = i;
				*e = le;
				return 1;
			}
		}
		i = le + 1;
	}
	return 0;
}

int ka_recipe_include_at(const char *inc_path, const char *inc_text, size_t inc_len, const char *file,
			 size_t *s, size_t *e)
{
	char want[PATH_MAX], real[PATH_MAX];
	size_t pos = 0, ls, le;
	int count = 0;
	if (!realpath(file, want))
		return 0;
	while (next_include(inc_path, inc_text, inc_len, &pos, &ls, &le, real))
		if (!strcmp(real, want) && count++ == 0) {
			*s = ls;
			*e = le;
		}
	return count;
}

/* ---- the chain of includes from the includer to the file --------------------------- */

/* The includer, the headers between it and the file (at most
 * KA_RECIPE_VIA_DEPTH - 1), the file; link i's text includes link i+1 on
 * its line [s, e). */
#define MAX_LINKS (KA_RECIPE_VIA_DEPTH + 1)
#define MAX_VISITED 256

typedef struct inc_link {
	char path[PATH_MAX]; /* real */
	const char *text;    /* the includer's and the file's: the caller's */
	char *own;           /* a header's between them: read here */
	size_t len, s, e;
} inc_link;

typedef struct chain {
	int n; /* links, the file the last */
	inc_link l[MAX_LINKS];
	const char *want, *scope; /* the file's real path; headers are followed under scope only */
	int reached;              /* times the file is reached (the first is the chain) */
	int found;
	char (*visited)[PATH_MAX];
	int nvisited;
	inc_link stack[MAX_LINKS];
} chain;

static void follow(chain *c, int d);

static void chain_free(chain *c)
{
	if (!c)
		return;
	for (int i = 0; i < MAX_LINKS; i++)
		free(c->l[i].own);
	free(c->visited);
	free(c);
}

/* A chain from the includer (its real path ri, its text) to the file
 * (want), headers followed under scope: the links to c->l when c->reached;
 * NULL out of memory. */
static chain *chain_find(const char *want, const char *scope, const char *ri, const char *text, size_t len)
{
	chain *c = calloc(1, sizeof *c);
	if (!c || !(c->visited = malloc(MAX_VISITED * sizeof *c->visited))) {
		free(c);
		return NULL;
	}
	c->want = want;
	c->scope = scope;
	snprintf(c->stack[0].path, sizeof c->stack[0].path, "%s", ri);
	c->stack[0].text = text;
	c->stack[0].len = len;
	follow(c, 0);
	return c;
}

/* Depth-first through the includes of stack[d] in the order of its lines
 * (the preprocessor's order; each header once, as include guards make it),
 * the first path to the file kept in c->l. */
static void follow(chain *c, int d)
{
	inc_link *k = &c->stack[d];
	size_t pos = 0, s, e;
	char real[PATH_MAX];
	while (next_include(k->path, k->text, k->len, &pos, &s, &e, real)) {
		k->s = s;
		k->e = e;
		if (!strcmp(real, c->want)) {
			if (c->reached++ == 0) {
				c->n = d + 2;
				for (int i = 0; i <= d; i++) {
					c->l[i] = c->stack[i];
					c->l[i].own = NULL;
				}
				snprintf(c->l[d + 1].path, sizeof c->l[d + 1].path, "%s", c->want);
			}
			continue;
		}
		size_t sl = strlen(c->scope);
		int seen = 0;
		for (int i = 0; i < c->nvisited && !seen; i++)
			seen = !strcmp(c->visited[i], real);
		if (seen || d + 2 >= MAX_LINKS || c->nvisited >= MAX_VISITED || strncmp(real, c->scope, sl) ||
		    real[sl] != '/')
			continue;
		snprintf(c->visited[c->nvisited++], PATH_MAX, "%s", real);
		inc_link *nk = &c->stack[d + 1];
		memset(nk, 0, sizeof *nk);
		snprintf(nk->path, sizeof nk->path, "%s", real);
		char *t = NULL;
		if (ka_fs_read(real, MAX_TEXT, &t, &nk->len) != KA_OK)
			continue;
		nk->text = t;
		int before = c->reached;
		follow(c, d + 1);
		if (before == 0 && c->reached > 0 && !c->l[d + 1].own && c->n > d + 2) {
			/* the chain runs through this header: it keeps the text */
			c->l[d + 1].own = t;
			c->l[d + 1].text = t;
		} else {
			free(t);
		}
		k->s = s;
		k->e = e;
	}
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
	const char *skip[MAX_LINKS]; /* real paths */
	int nskip;
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
		int skip = !realpath(p, rp);
		for (int k = 0; k < w->nskip && !skip; k++)
			skip = !strcmp(rp, w->skip[k]);
		if (skip || ka_fs_read(p, MAX_TEXT, &t, &len) != KA_OK)
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

/* ---- the joined text --------------------------------------------------------------- */

/* A run of the joined text copied from one file's text. */
typedef struct piece {
	size_t j, n; /* where in the joined text, how long */
	int link;    /* whose text */
	size_t at;   /* where in it */
} piece;

#define MAX_PIECES (2 * MAX_LINKS + 1)
typedef struct joined {
	const chain *c;
	const char *jt; /* the joined text */
	piece p[MAX_PIECES];
	int np;
} joined;

static const char *const mark_begin[] = {"/* <ka-xfile-begin-0> */\n", "/* <ka-xfile-begin-1> */\n",
					 "/* <ka-xfile-begin-2> */\n", "/* <ka-xfile-begin-3> */\n"};
static const char *const mark_end[] = {"/* <ka-xfile-end-0> */", "/* <ka-xfile-end-1> */",
				       "/* <ka-xfile-end-2> */", "/* <ka-xfile-end-3> */"};

static int add_piece(joined *j, ka_buf *b, int li, size_t at, size_t n)
{
	const inc_link *k = &j->c->l[li];
	if (j->np < MAX_PIECES)
		j->p[j->np++] = (piece){.j = b->len, .n = n, .link = li, .at = at};
	return ka_buf_add(b, k->text + at, n);
}

/* Link i's text with link i+1's in place of its include line, between
 * markers (a newline added before the end marker when the text has none
 * at its end). */
static int join(joined *j, ka_buf *b, int i)
{
	const inc_link *k = &j->c->l[i];
	if (i == j->c->n - 1) {
		int rc = add_piece(j, b, i, 0, k->len);
		return rc ? rc : k->len && k->text[k->len - 1] != '\n' ? ka_buf_addc(b, '\n') : KA_OK;
	}
	int rc = add_piece(j, b, i, 0, k->s);
	rc = rc ? rc : ka_buf_adds(b, mark_begin[i]);
	rc = rc ? rc : join(j, b, i + 1);
	rc = rc ? rc : ka_buf_adds(b, mark_end[i]);
	rc = rc ? rc : add_piece(j, b, i, k->e, k->len - k->e);
	if (!rc && i > 0 && k->len && k->text[k->len - 1] != '\n')
		rc = ka_buf_addc(b, '\n');
	return rc;
}

/* Line n of the joined text as "line M of NAME" into out. */
static void map_line(const joined *j, int n, char *out, size_t cap)
{
	size_t off = 0;
	for (int l = 1; l < n && j->jt[off]; off++)
		if (j->jt[off] == '\n')
			l++;
	for (int i = 0; i < j->np; i++)
		if (off >= j->p[i].j && off < j->p[i].j + j->p[i].n) {
			const inc_link *k = &j->c->l[j->p[i].link];
			snprintf(out, cap, "line %d of %.200s",
				 ka_csrc_line_of(k->text, j->p[i].at + off - j->p[i].j), base_of(k->path));
			return;
		}
	snprintf(out, cap, "an include line of %.200s", base_of(j->c->l[0].path));
}

/* why with every "line N" of the joined text named by file, and "in this
 * file" as "in FILE or INCLUDER". */
static void map_reason(const joined *j, char *why, size_t cap)
{
	char out[512];
	size_t o = 0;
	const char *p = why;
	const char *fb = base_of(j->c->l[j->c->n - 1].path), *ib = base_of(j->c->l[0].path);
	while (*p && o + 1 < sizeof out) {
		int at_word = p == why || !((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z'));
		if (at_word && !strncmp(p, "line ", 5) && p[5] >= '0' && p[5] <= '9') {
			char *end;
			long n = strtol(p + 5, &end, 10);
			char m[256];
			map_line(j, (int)n, m, sizeof m);
			o += (size_t)snprintf(out + o, sizeof out - o, "%s", m);
			p = end;
		} else if (!strncmp(p, "in this file", 12)) {
			o += (size_t)snprintf(out + o, sizeof out - o, "in %s or %s", fb, ib);
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

/* The recipe's output [t, t + n) for link i (between its markers when i >
 * 0) split: the file's new text to *fs, *fn; the includer's rest checked
 * by the caller.  A header between them must come back as it was. */
static int split(const chain *c, int i, const char *t, size_t n, const char **fs, size_t *fn, char *why,
		 size_t cap, const char *kernel)
{
	const inc_link *k = &c->l[i];
	if (i == c->n - 1) {
		if (k->len && k->text[k->len - 1] != '\n' && n && t[n - 1] == '\n')
			n--;
		*fs = t;
		*fn = n;
		return KA_OK;
	}
	int nb, ne;
	char *b = find_once(t, n, mark_begin[i], &nb), *e = find_once(t, n, mark_end[i], &ne);
	if (nb != 1 || ne != 1 || e < b + strlen(mark_begin[i]))
		return xdecline(why, cap, "%s: the rewrite does not keep %s's text apart from %s's", kernel,
				base_of(c->l[i + 1].path), base_of(k->path));
	if (i > 0) {
		/* a header between the includer and the file: unchanged */
		const char *tail = e + strlen(mark_end[i]);
		size_t tl = (size_t)(t + n - tail);
		if (k->len && k->text[k->len - 1] != '\n' && tl && tail[tl - 1] == '\n')
			tl--;
		if ((size_t)(b - t) != k->s || memcmp(t, k->text, k->s) || tl != k->len - k->e ||
		    memcmp(tail, k->text + k->e, tl))
			return xdecline(why, cap, "%s: the rewrite edits %s, which only passes %s on", kernel,
					base_of(k->path), base_of(c->l[c->n - 1].path));
	}
	const char *in = b + strlen(mark_begin[i]);
	return split(c, i + 1, in, (size_t)(e - in), fs, fn, why, cap, kernel);
}

int ka_recipe_include_depth(const char *inc_path, const char *inc_text, size_t inc_len, const char *file)
{
	char rf[PATH_MAX], ri[PATH_MAX], sc[PATH_MAX];
	if (!realpath(file, rf) || !realpath(inc_path, ri))
		return 0;
	common_dir(rf, ri, sc, sizeof sc);
	chain *c = chain_find(rf, sc, ri, inc_text, inc_len);
	int depth = c && c->reached == 1 ? c->n - 1 : 0;
	chain_free(c);
	return depth;
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
	char rf[PATH_MAX], ri[PATH_MAX], sc[PATH_MAX];
	if (!realpath(file, rf) || !realpath(includer, ri))
		return ka_error_set(KA_EIO, "cannot resolve %s or %s", file, includer);
	if (scope) {
		if (!realpath(scope, sc))
			return ka_error_set(KA_EIO, "cannot resolve the folder %s", scope);
	} else {
		common_dir(rf, ri, sc, sizeof sc);
	}

	/* the includes from the includer to the file */
	chain *c = chain_find(rf, sc, ri, inc_text, inc_len);
	if (!c)
		return ka_error_set(KA_ENOMEM, "out of memory");
	if (c->reached == 0) {
		chain_free(c);
		return xdecline(why, why_cap,
				"%s does not include %s (directly or through at most %d headers under %s)",
				ib, fb, KA_RECIPE_VIA_DEPTH - 1, sc);
	}
	if (c->reached > 1) {
		int times = c->reached;
		chain_free(c);
		return xdecline(why, why_cap, "%s includes %s %d times", ib, fb, times);
	}
	c->l[c->n - 1].text = text;
	c->l[c->n - 1].len = len;
	snprintf(c->l[0].path, sizeof c->l[0].path, "%s", includer);
	snprintf(c->l[c->n - 1].path, sizeof c->l[c->n - 1].path, "%s", file);
	int rc = KA_OK;
	for (int i = 0; i < c->n && rc == KA_OK; i++) {
		int m;
		if (find_once(c->l[i].text, c->l[i].len, "<ka-xfile-", &m), m)
			rc = xdecline(why, why_cap, "%s holds the marker text '<ka-xfile-'",
				      base_of(c->l[i].path));
	}
	/* the rest of the project must not name the kernel */
	scope_walk w = {.kernel = kernel};
	char reals[MAX_LINKS][PATH_MAX];
	for (int i = 0; i < c->n && rc == KA_OK; i++)
		if (realpath(c->l[i].path, reals[i]))
			w.skip[w.nskip++] = reals[i];
	if (rc == KA_OK)
		walk(&w, sc, 0);
	if (rc == KA_OK && w.too_many)
		rc = xdecline(why, why_cap, "more than %d source files under %s to search for %s",
			      MAX_SCOPE_FILES, sc, kernel);
	if (rc == KA_OK && w.hit[0]) {
		size_t sl = strlen(sc);
		const char *rel = !strncmp(w.hit, sc, sl) && w.hit[sl] == '/' ? w.hit + sl + 1 : w.hit;
		rc = xdecline(
			why, why_cap,
			"%s names %s too (line %d): a use outside the files of the rewrite would not be "
			"rewritten",
			rel, kernel, w.line);
	}
	if (rc != KA_OK) {
		chain_free(c);
		return rc;
	}

	/* the includer's translation unit, the file's text in place of its include */
	ka_buf jb;
	ka_buf_init(&jb, 64 << 20);
	joined j = {.c = c};
	rc = join(&j, &jb, 0);
	if (rc) {
		ka_buf_free(&jb);
		chain_free(c);
		return rc;
	}
	j.jt = jb.data;

	/* parsed as the includer, with the file's folder (and the headers'
	 * between) for their own includes */
	char old_path[PATH_MAX], dirs[MAX_LINKS][PATH_MAX];
	snprintf(old_path, sizeof old_path, "%s", ka_recipe_source_path() ? ka_recipe_source_path() : "");
	const char *const *of;
	int on = ka_recipe_flags(&of);
	char *saved[KA_RECIPE_MAX_FLAGS];
	const char *flags[KA_RECIPE_MAX_FLAGS + 2 * MAX_LINKS];
	int ns = 0, nf;
	for (int i = 0; i < on && i < KA_RECIPE_MAX_FLAGS; i++)
		if ((saved[ns] = strdup(of[i])))
			flags[ns] = saved[ns], ns++;
	nf = ns;
	for (int i = c->n - 1; i > 0; i--) {
		dir_of(c->l[i].path, dirs[i], sizeof dirs[i]);
		flags[nf++] = "-I";
		flags[nf++] = dirs[i];
	}
	ka_recipe_set_flags(flags, nf);
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

	/* split at the markers */
	const inc_link *inc = &c->l[0];
	if (rc == KA_OK) {
		int nb, ne;
		char *b = find_once(out, out_len, mark_begin[0], &nb);
		(void)find_once(out, out_len, mark_end[0], &ne);
		if (nb != 1 || ne != 1)
			rc = xdecline(why, why_cap, "%s: the rewrite does not keep %s's text apart from %s's",
				      kernel, base_of(c->l[1].path), ib);
		else if ((size_t)(b - out) != inc->s || memcmp(out, inc_text, inc->s))
			rc = xdecline(
				why, why_cap,
				"%s: the rewrite edits %s before its include of %s (other includers would "
				"not see it)",
				kernel, ib, base_of(c->l[1].path));
	}
	const char *fs = NULL;
	size_t fn = 0;
	if (rc == KA_OK)
		rc = split(c, 0, out, out_len, &fs, &fn, why, why_cap, kernel);
	if (rc == KA_OK) {
		ka_buf fo, io;
		ka_buf_init(&fo, 64 << 20);
		ka_buf_init(&io, 64 << 20);
		const char *e = find_once(out, out_len, mark_end[0], &(int){0}) + strlen(mark_end[0]);
		rc = ka_buf_add(&fo, fs, fn);
		rc = rc ? rc : ka_buf_add(&io, inc_text, inc->e);
		rc = rc ? rc : ka_buf_add(&io, e, (size_t)(out + out_len - e));
		if (rc == KA_OK) {
			res->file_changed = fo.len != len || memcmp(fo.data, text, len);
			res->includer_changed = io.len != inc_len || memcmp(io.data, inc_text, inc_len);
			res->file_len = fo.len;
			res->file_text = ka_buf_steal(&fo);
			res->includer_len = io.len;
			res->includer_text = ka_buf_steal(&io);
			if (!res->file_text || !res->includer_text)
				rc = ka_error_set(KA_ENOMEM, "out of memory");
			for (int i = 1; i < c->n - 1 && i <= KA_RECIPE_VIA_DEPTH; i++)
				snprintf(res->through[i - 1], sizeof res->through[i - 1], "%s", c->l[i].path);
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
	chain_free(c);
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
