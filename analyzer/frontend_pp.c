/* analyzer/frontend_pp.c: the debug-only regions of a file.  kcheck parses
 * without NDEBUG (a compiler's default), so the text under `#ifndef NDEBUG`
 * is what it sees, while release builds (CMake's Release and RelWithDebInfo
 * pass -DNDEBUG) compile the other branch.  A host call whose text lies in
 * such a region (a `POST_LAUNCH_CHECK()` that syncs only in debug builds) is
 * marked, so that a rule can say what ships. */
#include "analyzer/frontend_int.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct pp_region {
	unsigned begin, end; /* byte offsets, end exclusive */
	int line;            /* of the directive that opens it */
	const char *text;    /* that directive, e.g. `#ifndef NDEBUG` */
} pp_region;

struct pp_file {
	CXFile f;
	pp_region *v;
	int n;
	struct pp_file *next;
};

/* A conditional's frame: whether its current branch is debug-only, and
 * whether its #else branch would be. */
typedef struct frame {
	int debug, else_debug;
} frame;

#define PP_MAX_DEPTH 64

/* The directive's text with its whitespace, line continuations and comments
 * removed, into out (at most cap - 1 bytes). */
static void squeeze(const char *s, size_t n, char *out, size_t cap)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k + 1 < cap; i++) {
		if (s[i] == '/' && i + 1 < n && (s[i + 1] == '/' || s[i + 1] == '*'))
			break;
		if (!isspace((unsigned char)s[i]) && s[i] != '\\')
			out[k++] = s[i];
	}
	out[k] = '\0';
}

static int is_debug_name(const char *m)
{
	size_t n = strlen(m);
	return !strcmp(m, "DEBUG") || !strcmp(m, "_DEBUG") || (n > 6 && !strcmp(m + n - 6, "_DEBUG"));
}

/* `#if` conditions: whether the branch is debug-only, and whether its #else
 * is.  A conjunction with `!defined(NDEBUG)` is debug-only; a disjunction is
 * not read. */
static void if_condition(const char *e, frame *fr)
{
	fr->debug = fr->else_debug = 0;
	if (strstr(e, "||"))
		return;
	if (strstr(e, "!defined(NDEBUG)") || strstr(e, "!definedNDEBUG") || !strcmp(e, "!NDEBUG")) {
		fr->debug = 1;
		return;
	}
	if (!strcmp(e, "defined(NDEBUG)") || !strcmp(e, "definedNDEBUG") || !strcmp(e, "NDEBUG")) {
		fr->else_debug = 1;
		return;
	}
	const char *m = !strncmp(e, "defined(", 8) ? e + 8 : !strncmp(e, "defined", 7) ? e + 7 : e;
	char name[64];
	size_t k = 0;
	while ((isalnum((unsigned char)m[k]) || m[k] == '_') && k + 1 < sizeof name) {
		name[k] = m[k];
		k++;
	}
	name[k] = '\0';
	if (k && (m[k] == '\0' || (m[k] == ')' && m[k + 1] == '\0')) && is_debug_name(name))
		fr->debug = 1;
}

static void add_region(lower_ctx *cx, struct pp_file *pf, int *cap, unsigned begin, unsigned end, int line,
		       const char *text)
{
	if (end <= begin)
		return;
	if (pf->n == *cap) {
		int nc = *cap ? *cap * 2 : 8;
		pp_region *v = ka_arena_alloc(cx->a, sizeof *v * (size_t)nc);
		if (pf->n)
			memcpy(v, pf->v, sizeof *v * (size_t)pf->n);
		pf->v = v;
		*cap = nc;
	}
	pf->v[pf->n++] = (pp_region){begin, end, line, text};
}

static void scan(lower_ctx *cx, struct pp_file *pf, const char *s, size_t n)
{
	frame st[PP_MAX_DEPTH];
	int depth = 0, cap = 0, open_line = 0, ndebug = 0; /* frames whose branch is debug-only */
	unsigned open_at = 0;
	const char *open_text = NULL;
	int line = 1;
	for (size_t p = 0; p < n;) {
		size_t eol = p; /* the logical line: continuations joined */
		int lines = 1;
		while (eol < n && s[eol] != '\n') {
			if (s[eol] == '\\' && eol + 1 < n && s[eol + 1] == '\n') {
				eol++;
				lines++;
			}
			eol++;
		}
		size_t q = p;
		while (q < eol && (s[q] == ' ' || s[q] == '\t'))
			q++;
		if (q < eol && s[q] == '#') {
			q++;
			while (q < eol && (s[q] == ' ' || s[q] == '\t'))
				q++;
			size_t w = q;
			while (w < eol && isalpha((unsigned char)s[w]))
				w++;
			char arg[256];
			squeeze(s + w, eol - w, arg, sizeof arg);
			int was = ndebug > 0;
			size_t wl = w - q;
			if ((wl == 2 && !strncmp(s + q, "if", 2)) ||
			    (wl == 5 && !strncmp(s + q, "ifdef", 5)) ||
			    (wl == 6 && !strncmp(s + q, "ifndef", 6))) {
				frame fr = {0, 0};
				if (wl == 2)
					if_condition(arg, &fr);
				else if (wl == 5)
					fr = (frame){is_debug_name(arg), !strcmp(arg, "NDEBUG")};
				else
					fr = (frame){!strcmp(arg, "NDEBUG"), is_debug_name(arg)};
				if (depth < PP_MAX_DEPTH)
					st[depth] = fr;
				depth++;
				ndebug += depth <= PP_MAX_DEPTH && fr.debug;
			} else if (depth > 0 && depth <= PP_MAX_DEPTH &&
				   ((wl == 4 && (!strncmp(s + q, "else", 4) || !strncmp(s + q, "elif", 4))) ||
				    (wl == 7 && !strncmp(s + q, "elifdef", 7)) ||
				    (wl == 8 && !strncmp(s + q, "elifndef", 8)))) {
				frame *fr = &st[depth - 1];
				ndebug -= fr->debug;
				fr->debug = wl == 4 && !strncmp(s + q, "else", 4) ? fr->else_debug : 0;
				fr->else_debug = 0;
				ndebug += fr->debug;
			} else if (wl == 5 && !strncmp(s + q, "endif", 5) && depth > 0) {
				depth--;
				if (depth < PP_MAX_DEPTH)
					ndebug -= st[depth].debug;
			}
			int now = ndebug > 0;
			if (!was && now) {
				open_at = (unsigned)(eol < n ? eol + 1 : eol);
				open_line = line;
				open_text = ka_arena_strndup(cx->a, s + p,
							     (size_t)(eol - p) < 80 ? (size_t)(eol - p) : 80);
			} else if (was && !now) {
				add_region(cx, pf, &cap, open_at, (unsigned)p, open_line, open_text);
			}
		}
		line += lines;
		p = eol < n ? eol + 1 : n;
	}
}

static const pp_region *region_at(lower_ctx *cx, CXFile f, unsigned off)
{
	if (!f)
		return NULL;
	struct pp_file *pf = cx->pp;
	for (; pf; pf = pf->next)
		if (clang_File_isEqual(pf->f, f))
			break;
	if (!pf) {
		pf = ka_arena_alloc(cx->a, sizeof *pf);
		memset(pf, 0, sizeof *pf);
		pf->f = f;
		size_t size = 0;
		const char *text = clang_getFileContents(cx->ctu, f, &size);
		if (text && memchr(text, '#', size))
			scan(cx, pf, text, size);
		pf->next = cx->pp;
		cx->pp = pf;
	}
	for (int i = 0; i < pf->n; i++)
		if (off >= pf->v[i].begin && off < pf->v[i].end)
			return &pf->v[i];
	return NULL;
}

const char *fe_debug_guard(lower_ctx *cx, CXCursor c)
{
	CXSourceLocation l = clang_getCursorLocation(c);
	CXFile f;
	unsigned off;
	const pp_region *r = NULL;
	clang_getSpellingLocation(l, &f, NULL, NULL, &off);
	r = region_at(cx, f, off);
	if (!r) {
		clang_getExpansionLocation(l, &f, NULL, NULL, &off);
		r = region_at(cx, f, off);
	}
	if (!r)
		return NULL;
	const char *name = fe_file_name(cx, f);
	const char *base = name ? strrchr(name, '/') : NULL;
	const char *t = r->text;
	while (*t == ' ' || *t == '\t')
		t++;
	return ka_arena_printf(cx->a, "`%s` at %s:%d", t, base ? base + 1 : name ? name : "?", r->line);
}
