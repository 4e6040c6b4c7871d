/* analyzer/frontend_chevron.c: launches written with spaced chevrons.
 *
 * nvcc accepts `k << < grid, block >> > (args)`, the form some editors'
 * formatters write; clang does not: to it `<<<` and `>>>` are single
 * tokens, and the launch, with the function around it, is lost to a parse
 * error.  ka_chevron_join rewrites such a launch in a copy of the text that
 * clang parses instead of the file: the third `<` (`>`) moves next to the
 * first two and the blanks that separated them follow it.  Only blanks on
 * one line are crossed, so the copy has the file's length and line breaks,
 * and every token but the moved one keeps its line and column: findings and
 * excerpts, read from the file itself, point where clang's locations do.
 *
 * What is not a launch stays as written: comments, string and character
 * literals, `operator<< <T>` (an explicit specialization of a shift
 * operator), and closers `> >` of nested templates (a closer is joined only
 * after an opener).
 *
 * The parse (frontend_tu.c) hands clang such a copy of the file, and, when
 * clang reports errors in a user header that holds spaced launches, parses
 * again with a copy of that header too (fe_chevron_headers). */
#include "analyzer/frontend_int.h"
#include "util/error.h"
#include "util/fs.h"
#include <stdlib.h>
#include <string.h>

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Past the comment or literal that starts at i (i itself when none does). */
static size_t skip_inert(const char *t, size_t len, size_t i)
{
	if (t[i] == '/' && i + 1 < len && t[i + 1] == '/') {
		while (i < len && t[i] != '\n')
			i += t[i] == '\\' && i + 1 < len ? 2 : 1;
		return i;
	}
	if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
		for (i += 2; i + 1 < len; i++)
			if (t[i] == '*' && t[i + 1] == '/')
				return i + 2;
		return len;
	}
	/* a quote ends a number when the word before it starts with a digit
	 * (1'000, 0xFF'FF): a digit separator; otherwise it opens a literal,
	 * after a prefix (L'x', u8"...") or none */
	if (t[i] == '\'') {
		size_t w = i;
		while (w > 0 && ident_char(t[w - 1]))
			w--;
		if (w < i && t[w] >= '0' && t[w] <= '9')
			return i;
	}
	if (t[i] == '"' || t[i] == '\'') {
		char q = t[i++];
		while (i < len && t[i] != q && t[i] != '\n')
			i += t[i] == '\\' && i + 1 < len ? 2 : 1;
		return i < len ? i + 1 : len;
	}
	return i;
}

/* `operator` right before position i (blanks between allowed). */
static int after_operator(const char *t, size_t i)
{
	while (i > 0 && blank(t[i - 1]))
		i--;
	return i >= 8 && memcmp(t + i - 8, "operator", 8) == 0 && (i == 8 || !ident_char(t[i - 9]));
}

/* A triple of c at i: 3 when written together, the span up to and with the
 * third when blanks on the line separate it from the first two, 0 when
 * there is none. */
static size_t triple(const char *t, size_t len, size_t i, char c)
{
	if (i + 2 >= len || t[i] != c || t[i + 1] != c)
		return 0;
	if (t[i + 2] == c)
		return 3;
	size_t j = i + 2;
	while (j < len && blank(t[j]))
		j++;
	if (j == i + 2 || j >= len || t[j] != c)
		return 0;
	if (j + 1 < len && (t[j + 1] == c || t[j + 1] == '='))
		return 0; /* `<< <<` or `<< <=`: no launch */
	return j - i + 1;
}

/* Moves the third character of a spaced triple next to the first two. */
static void join(char *t, size_t i, size_t n, char c)
{
	memmove(t + i + 3, t + i + 2, n - 3);
	t[i + 2] = c;
}

int ka_chevron_join(char *t, size_t len)
{
	int joined = 0;
	size_t open = 0, open_n = 0; /* the pending opener, when open_n > 0 */
	for (size_t i = 0; i < len;) {
		size_t k = skip_inert(t, len, i);
		if (k != i) {
			i = k;
			continue;
		}
		size_t n;
		if (t[i] == '<' && (n = triple(t, len, i, '<')) > 0 && !after_operator(t, i)) {
			open = i;
			open_n = n;
			i += n;
			continue;
		}
		if (open_n > 0 && t[i] == '>' && (n = triple(t, len, i, '>')) > 0) {
			if (open_n > 3)
				join(t, open, open_n, '<');
			if (n > 3)
				join(t, i, n, '>');
			joined += open_n > 3 || n > 3;
			open_n = 0;
			i += n;
			continue;
		}
		if (t[i] == ';' || t[i] == '{' || t[i] == '}')
			open_n = 0; /* a launch's configuration never spans a statement */
		i++;
	}
	return joined;
}

int ka_chevron_spaced(const char *t, size_t len)
{
	for (size_t i = 0; i + 3 < len; i++)
		if ((t[i] == '<' || t[i] == '>') && t[i + 1] == t[i] && blank(t[i + 2]) &&
		    triple(t, len, i, t[i]) > 3)
			return 1;
	return 0;
}

int ka_chevron_opens(const char *t)
{
	size_t len = strlen(t);
	for (size_t i = 0; i + 2 < len; i++)
		if (t[i] == '<' && triple(t, len, i, '<') > 0 && !after_operator(t, i))
			return 1;
	return 0;
}

/* ---- the parse's copies -------------------------------------------------- */

/* A copy of text with its spaced launches joined (frontend_chevron.c), or
 * NULL when it has none. */
const char *fe_chevrons_joined(ka_arena *a, const char *text, size_t len)
{
	if (!text || !ka_chevron_spaced(text, len))
		return NULL;
	char *copy = ka_arena_strndup(a, text, len);
	return ka_chevron_join(copy, len) > 0 ? copy : NULL;
}

/* The user's headers where clang reported an error and a spaced launch
 * explains it: added to unsaved with their launches joined.  1 when any
 * was, and the file must be parsed again. */
int fe_chevron_headers(lower_ctx *cx, struct CXUnsavedFile *unsaved, int *n, const char *main_path)
{
	int added = 0, nread = 0;
	const char *read[32]; /* the headers read, each once */
	unsigned nd = clang_getNumDiagnostics(cx->ctu);
	for (unsigned i = 0; i < nd && added < FE_CHEVRON_FILES && nread < 32; i++) {
		CXDiagnostic dg = clang_getDiagnostic(cx->ctu, i);
		CXSourceLocation l = clang_getDiagnosticLocation(dg);
		CXFile f;
		clang_getSpellingLocation(l, &f, NULL, NULL, NULL);
		int error = clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error;
		clang_disposeDiagnostic(dg);
		if (!error || !f || clang_Location_isInSystemHeader(l))
			continue;
		CXString s = clang_getFileName(f);
		const char *name = ka_arena_strdup(cx->a, clang_getCString(s));
		clang_disposeString(s);
		int seen = strcmp(name, main_path) == 0;
		for (int k = 0; k < *n && !seen; k++)
			seen = strcmp(unsaved[k].Filename, name) == 0;
		for (int k = 0; k < nread && !seen; k++)
			seen = strcmp(read[k], name) == 0;
		char *data = NULL;
		size_t len = 0;
		if (seen)
			continue;
		read[nread++] = name;
		if (ka_fs_read(name, 0, &data, &len) != KA_OK)
			continue;
		const char *joined = fe_chevrons_joined(cx->a, data, len);
		free(data);
		if (joined) {
			unsaved[(*n)++] = (struct CXUnsavedFile){name, joined, (unsigned long)len};
			added++;
		}
	}
	return added > 0;
}
