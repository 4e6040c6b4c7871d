/* rewriter/diff.c: unified diff generator (`--diff`, and the patch the
 * optimize loop reports).  Myers' O(ND) shortest edit script over lines,
 * printed as hunks with three lines of context in the format `patch -p1`
 * applies from the project root.  Texts over the size cap fall back to one
 * hunk replacing the whole file, which is still a correct patch.  A file
 * name is the repository's: one that holds a control character, a quote, a
 * backslash, bytes that are not UTF-8, a C1 control or a bidirectional
 * override is written C-quoted with octal escapes, as git writes it
 * (`--- "a/x\ny.cu"`), which GNU patch and git apply read back; so no name
 * can end the header line and forge a hunk or another file. */
#include "rewriter/rewriter.h"
#include "util/error.h"
#include "util/utf8.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CONTEXT 3
#define MAX_EDIT_COST 4000 /* D beyond which the trace memory is not worth it */

typedef struct line {
	const char *p;
	size_t n; /* bytes, newline included when present */
} line;

typedef struct lines {
	line *v;
	int n;
} lines;

static int split_lines(const char *s, size_t len, lines *out)
{
	int cap = 16;
	out->n = 0;
	out->v = malloc(cap * sizeof(line));
	if (!out->v)
		return KA_ENOMEM;
	size_t at = 0;
	while (at < len) {
		const char *nl = memchr(s + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - s) + 1 : len;
		if (out->n == cap) {
			if (cap > INT_MAX / 4)
				return KA_ETOOBIG;
			line *v = realloc(out->v, (size_t)cap * 2 * sizeof(line));
			if (!v)
				return KA_ENOMEM;
			out->v = v;
			cap *= 2;
		}
		out->v[out->n++] = (line){s + at, end - at};
		at = end;
	}
	return KA_OK;
}

static int line_eq(const line *a, const line *b)
{
	return a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

/* The edit script as a per-line mark: keep_a[i] / keep_b[j] = 1 when the
 * line is common.  Myers forward pass keeping V for every d, then backtrack. */
static int myers(const lines *a, const lines *b, char *keep_a, char *keep_b)
{
	int n = a->n, m = b->n, max = n + m, off = max + 1, rc = KA_ETOOBIG;
	int limit = max < MAX_EDIT_COST ? max : MAX_EDIT_COST;
	size_t width = (size_t)2 * max + 3;
	int **trace = calloc((size_t)limit + 1, sizeof(int *));
	int *v = calloc(width, sizeof(int));
	int d = 0, found = -1;
	if (!trace || !v) {
		rc = KA_ENOMEM;
		goto out;
	}
	for (d = 0; d <= limit && found < 0; d++) {
		for (int k = -d; k <= d; k += 2) {
			int x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1]
											 : v[off + k - 1] + 1;
			int y = x - k;
			while (x < n && y < m && line_eq(&a->v[x], &b->v[y]))
				x++, y++;
			v[off + k] = x;
			if (x >= n && y >= m) {
				found = d;
				break;
			}
		}
		if (!(trace[d] = malloc(width * sizeof(int)))) {
			rc = KA_ENOMEM;
			goto out;
		}
		memcpy(trace[d], v, width * sizeof(int));
	}
	if (found < 0)
		goto out;
	int x = n, y = m;
	for (d = found; d >= 0; d--) {
		int *vd = trace[d], k = x - y, pk, px, py;
		if (d == 0) {
			pk = 0;
		} else {
			int *vp = trace[d - 1];
			pk = (k == -d || (k != d && vp[off + k - 1] < vp[off + k + 1])) ? k + 1 : k - 1;
		}
		px = d == 0 ? 0 : trace[d - 1][off + pk];
		py = px - pk;
		int sx = d == 0 ? 0 : (pk == k + 1 ? px : px + 1); /* after the non-diagonal step */
		(void)vd;
		while (x > sx && y > sx - k) {
			keep_a[--x] = 1;
			keep_b[--y] = 1;
		}
		x = px;
		y = py;
	}
	rc = KA_OK;
out:
	if (trace)
		for (int i = 0; i <= limit; i++)
			free(trace[i]);
	free(trace);
	free(v);
	return rc;
}

static void put_line(FILE *out, char tag, const line *l)
{
	fputc(tag, out);
	fwrite(l->p, 1, l->n, out);
	if (l->n == 0 || l->p[l->n - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", out);
}

/* Hunks: walk both files; a change run is a maximal stretch of dropped or
 * added lines; hunks merge when fewer than 2*CONTEXT common lines part them. */
static void print_hunks(const lines *a, const lines *b, const char *ka, const char *kb, FILE *out)
{
	int i = 0, j = 0;
	while (i < a->n || j < b->n) {
		if (i < a->n && j < b->n && ka[i] && kb[j]) {
			i++, j++;
			continue;
		}
		/* a change starts at (i, j): find the hunk's end */
		int si = i - CONTEXT < 0 ? 0 : i - CONTEXT;
		int sj = j - (i - si);
		int ei = i, ej = j;
		for (;;) {
			while (ei < a->n && !ka[ei])
				ei++;
			while (ej < b->n && !kb[ej])
				ej++;
			int common = 0;
			while (ei + common < a->n && ej + common < b->n && ka[ei + common] &&
			       kb[ej + common] && common < 2 * CONTEXT + 1)
				common++;
			int more = ei + common < a->n || ej + common < b->n;
			if (common <= 2 * CONTEXT && more) {
				ei += common;
				ej += common;
				continue;
			}
			int tail = common < CONTEXT ? common : CONTEXT;
			ei += tail;
			ej += tail;
			break;
		}
		fprintf(out, "@@ -%d,%d +%d,%d @@\n", ei - si ? si + 1 : si, ei - si, ej - sj ? sj + 1 : sj,
			ej - sj);
		int x = si, y = sj;
		while (x < ei || y < ej) {
			if (x < ei && y < ej && ka[x] && kb[y]) {
				put_line(out, ' ', &a->v[x++]);
				y++;
			} else if (x < ei && !ka[x]) {
				put_line(out, '-', &a->v[x++]);
			} else {
				put_line(out, '+', &b->v[y++]);
			}
		}
		i = ei;
		j = ej;
	}
}

/* 1 when the name must be quoted in a header line (see the top). */
static int needs_quotes(const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		const unsigned char *u = (const unsigned char *)s + i;
		if (u[0] < 0x20 || u[0] == 0x7f || u[0] == '"' || u[0] == '\\')
			return 1;
		size_t k = u[0] < 0x80 ? 1 : ka_utf8_char_len(s + i, n - i);
		if (!k)
			return 1;
		unsigned cp = k == 1 ? u[0] : u[0] & (0x7Fu >> k);
		for (size_t j = 1; j < k; j++)
			cp = (cp << 6) | (u[j] & 0x3Fu);
		if ((cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
		    (cp >= 0x2066 && cp <= 0x2069))
			return 1;
		i += k;
	}
	return 0;
}

/* "--- a/NAME" (prefix "--- a/"), C-quoted when needs_quotes. */
static void header_line(FILE *out, const char *prefix, const char *label)
{
	if (!needs_quotes(label)) {
		fprintf(out, "%s%s\n", prefix, label);
		return;
	}
	fprintf(out, "%.4s\"%s", prefix, prefix + 4); /* "--- " then "\"a/" */
	for (const unsigned char *u = (const unsigned char *)label; *u; u++) {
		if (*u == '"' || *u == '\\')
			fprintf(out, "\\%c", *u);
		else if (*u == '\n')
			fputs("\\n", out);
		else if (*u == '\t')
			fputs("\\t", out);
		else if (*u < 0x20 || *u >= 0x7f)
			fprintf(out, "\\%03o", *u);
		else
			fputc(*u, out);
	}
	fputs("\"\n", out);
}

int ka_diff_unified(const char *label, const char *old, size_t old_len, const char *new_text, size_t new_len,
		    FILE *out)
{
	lines a = {0}, b = {0};
	char *ka = NULL, *kb = NULL;
	int rc = KA_OK;
	if (old_len == new_len && memcmp(old, new_text, old_len) == 0)
		return KA_OK;
	if ((rc = split_lines(old, old_len, &a)) < 0 || (rc = split_lines(new_text, new_len, &b)) < 0)
		goto out;
	ka = calloc((size_t)a.n + 1, 1);
	kb = calloc((size_t)b.n + 1, 1);
	if (!ka || !kb) {
		rc = KA_ENOMEM;
		goto out;
	}
	rc = myers(&a, &b, ka, kb);
	if (rc == KA_ETOOBIG) { /* too different: replace everything */
		memset(ka, 0, (size_t)a.n);
		memset(kb, 0, (size_t)b.n);
		rc = KA_OK;
	}
	if (rc < 0)
		goto out;
	header_line(out, "--- a/", label);
	header_line(out, "+++ b/", label);
	print_hunks(&a, &b, ka, kb, out);
out:
	if (rc == KA_ENOMEM)
		ka_error_set(rc, "out of memory computing a diff of %s", label);
	else if (rc < 0)
		ka_error_set(rc, "cannot diff %s", label);
	free(a.v);
	free(b.v);
	free(ka);
	free(kb);
	return rc;
}

char *ka_diff_label(const char *path)
{
	char cwd[4096];
	const char *p = path;
	if (path[0] == '/' && getcwd(cwd, sizeof cwd)) {
		size_t n = strlen(cwd);
		if (strncmp(path, cwd, n) == 0 && path[n] == '/')
			p = path + n + 1;
	}
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return strdup(p);
}
