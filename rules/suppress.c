/* rules/suppress.c: NOLINT comments (see suppress.h).  Only text inside a
 * comment counts: a string literal holding "NOLINT" does not suppress. */
#include "rules/suppress.h"
#include "util/error.h"
#include <assert.h>
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"NOLINT", "NOLINTNEXTLINE", "NOLINTBEGIN", "NOLINTEND"};

const char *ka_nolint_name(ka_nolint_kind k)
{
	assert((size_t)k < sizeof kind_names / sizeof kind_names[0]);
	return kind_names[k];
}

void ka_suppressions_free(ka_suppressions *s)
{
	for (size_t i = 0; i < s->n; i++) {
		for (int j = 0; j < s->v[i].nrules; j++)
			free(s->v[i].rules[j]);
		free(s->v[i].rules);
		free(s->v[i].reason);
	}
	free(s->v);
	memset(s, 0, sizeof *s);
}

static int push(ka_suppressions *s, ka_suppression *x)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 8;
		ka_suppression *nv = realloc(s->v, ncap * sizeof *nv);
		if (!nv)
			return ka_error_set(KA_ENOMEM, "out of memory");
		s->v = nv;
		s->cap = ncap;
	}
	s->v[s->n++] = *x;
	return KA_OK;
}

/* Parse "(a, b)" at p (up to end); fills x->rules.  Returns the position
 * after the list (p when there is none). */
static const char *parse_list(const char *p, const char *end, ka_suppression *x)
{
	if (p >= end || *p != '(')
		return p;
	const char *close = memchr(p, ')', (size_t)(end - p));
	if (!close)
		return p;
	const char *q = p + 1;
	while (q < close) {
		while (q < close && (isspace((unsigned char)*q) || *q == ','))
			q++;
		const char *e = q;
		while (e < close && *e != ',' && !isspace((unsigned char)*e))
			e++;
		if (e > q) {
			char **nv = realloc(x->rules, (size_t)(x->nrules + 1) * sizeof *nv);
			if (!nv)
				break;
			x->rules = nv;
			x->rules[x->nrules++] = strndup(q, (size_t)(e - q));
		}
		q = e;
	}
	return close + 1;
}

/* The reason: text after "--" up to the comment's end. */
static char *parse_reason(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (end - p < 2 || p[0] != '-' || p[1] != '-')
		return NULL;
	p += 2;
	const char *close = NULL;
	for (const char *q = p; q + 1 < end; q++)
		if (q[0] == '*' && q[1] == '/') {
			close = q;
			break;
		}
	if (close)
		end = close;
	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	return end > p ? strndup(p, (size_t)(end - p)) : NULL;
}

static int same_list(const ka_suppression *a, const ka_suppression *b)
{
	if (a->nrules != b->nrules)
		return 0;
	for (int i = 0; i < a->nrules; i++)
		if (strcmp(a->rules[i], b->rules[i]) != 0)
			return 0;
	return 1;
}

/* One NOLINT* marker at m inside a comment on line `line`. */
static int add_marker(ka_suppressions *s, const char *lstart, const char *m, const char *end, int line)
{
	ka_suppression x = {0};
	const char *p = m + 6;
	static const char *const suffix[] = {"", "NEXTLINE", "BEGIN", "END"};
	for (int k = 3; k >= 0; k--) {
		size_t n = strlen(suffix[k]);
		if ((size_t)(end - p) >= n && strncmp(p, suffix[k], n) == 0) {
			x.kind = (ka_nolint_kind)k;
			p += n;
			break;
		}
	}
	if (p < end && (isalnum((unsigned char)*p) || *p == '_'))
		return KA_OK; /* NOLINTFOO: not ours */
	x.line = line;
	x.col = (int)(m - lstart) + 1;
	x.first = x.last = x.kind == KA_NOLINT_NEXTLINE ? line + 1 : line;
	p = parse_list(p, end, &x);
	x.reason = parse_reason(p, end);
	return push(s, &x);
}

/* Pair BEGIN/END markers; unmatched BEGINs cover to the end of the file. */
static void pair_ranges(ka_suppressions *s, int nlines)
{
	for (size_t i = 0; i < s->n; i++) {
		ka_suppression *e = &s->v[i];
		if (e->kind != KA_NOLINT_END)
			continue;
		e->unmatched = 1;
		for (size_t j = i; j-- > 0;) {
			ka_suppression *b = &s->v[j];
			if (b->kind == KA_NOLINT_BEGIN && b->unmatched == 0 && b->last == b->line &&
			    b->first == b->line && b->used == 0 && same_list(b, e)) {
				b->last = e->line;
				b->used = -1; /* paired (reset below) */
				e->unmatched = 0;
				break;
			}
		}
	}
	for (size_t i = 0; i < s->n; i++) {
		ka_suppression *b = &s->v[i];
		if (b->kind != KA_NOLINT_BEGIN)
			continue;
		if (b->used != -1) {
			b->unmatched = 1;
			b->last = nlines;
		}
		b->used = 0;
	}
}

int ka_suppress_parse(const char *text, size_t len, ka_suppressions *out)
{
	const char *p = text, *end = text + len;
	int line = 1, in_block = 0, rc = KA_OK;
	memset(out, 0, sizeof *out);
	while (p < end && rc == KA_OK) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *comment = in_block ? p : NULL;
		char quote = 0;
		for (const char *q = p; q < eol && rc == KA_OK; q++) {
			if (!comment) {
				if (quote) {
					if (*q == '\\')
						q++;
					else if (*q == quote)
						quote = 0;
				} else if (*q == '"' || *q == '\'') {
					quote = *q;
				} else if (q + 1 < eol && q[0] == '/' && (q[1] == '/' || q[1] == '*')) {
					comment = q;
					in_block = q[1] == '*';
					q++;
				}
				continue;
			}
			if (in_block && q + 1 < eol && q[0] == '*' && q[1] == '/') {
				in_block = 0;
				comment = NULL;
				q++;
				continue;
			}
			if (eol - q >= 6 && strncmp(q, "NOLINT", 6) == 0) {
				rc = add_marker(out, p, q, eol, line);
				q += 5;
			}
		}
		p = eol + 1;
		line++;
	}
	pair_ranges(out, line);
	return rc;
}

int ka_suppress_match(ka_suppressions *s, int line, const char *rule)
{
	int hit = 0;
	for (size_t i = 0; i < s->n; i++) {
		ka_suppression *x = &s->v[i];
		if (x->kind == KA_NOLINT_END || line < x->first || line > x->last)
			continue;
		int ok = x->nrules == 0;
		for (int j = 0; j < x->nrules && !ok; j++)
			ok = fnmatch(x->rules[j], rule, 0) == 0;
		if (ok) {
			x->used = 1;
			hit = 1;
		}
	}
	return hit;
}
