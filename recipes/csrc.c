/* recipes/csrc.c: the offline expert's bracket-level model of a CUDA file
 * (recipes/csrc.h): kernels, their parameters and bodies, and the launch
 * sites with their config and arguments.  Comments, string and character
 * literals and preprocessor lines are skipped as units, so a '{' in a
 * comment never unbalances a body. */
#include "recipes/csrc.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NPOS ((size_t)-1)

static int ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Past the comment or literal at i, or i itself. */
size_t ka_csrc_skip_lexeme(const char *t, size_t len, size_t i)
{
	if (i + 1 < len && t[i] == '/' && t[i + 1] == '/') {
		while (i < len && t[i] != '\n')
			i++;
		return i;
	}
	if (i + 1 < len && t[i] == '/' && t[i + 1] == '*') {
		const char *e = NULL;
		for (size_t j = i + 2; j + 1 < len; j++)
			if (t[j] == '*' && t[j + 1] == '/') {
				e = t + j;
				break;
			}
		return e ? (size_t)(e - t) + 2 : len;
	}
	if (t[i] == '"' || t[i] == '\'') {
		/* a literal ends at its line's end when unterminated (an apostrophe
		 * in a preprocessor line must not hide the lines below) */
		char q = t[i];
		for (i++; i < len && t[i] != q && t[i] != '\n'; i++)
			if (t[i] == '\\' && i + 1 < len)
				i++;
		return i < len && t[i] == q ? i + 1 : i;
	}
	return i;
}

/* Past the comment, literal or preprocessor line at i, or i itself. */
static size_t skip_unit(const char *t, size_t len, size_t i)
{
	size_t j = ka_csrc_skip_lexeme(t, len, i);
	if (j != i)
		return j;
	if (t[i] == '#') {
		size_t b = i;
		while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t'))
			b--;
		if (b == 0 || t[b - 1] == '\n') {
			while (i < len && t[i] != '\n') {
				if (t[i] == '\\' && i + 1 < len)
					i++;
				i++;
			}
			return i;
		}
	}
	return i;
}

size_t ka_csrc_skip_blank(const char *t, size_t len, size_t i)
{
	for (;;) {
		while (i < len && isspace((unsigned char)t[i]))
			i++;
		size_t j = i < len ? skip_unit(t, len, i) : i;
		if (j == i || t[i] == '"' || t[i] == '\'')
			return i;
		i = j;
	}
}

static size_t skip_tabs(const char *t, size_t p, size_t le)
{
	while (p < le && (t[p] == ' ' || t[p] == '\t'))
		p++;
	return p;
}

size_t ka_csrc_directive(const char *t, size_t ls, size_t le, const char *name)
{
	size_t n = strlen(name), p = skip_tabs(t, ls, le);
	if (p >= le || t[p] != '#')
		return (size_t)-1;
	p = skip_tabs(t, p + 1, le);
	if (le - p <= n || strncmp(t + p, name, n) != 0)
		return (size_t)-1;
	return skip_tabs(t, p + n, le);
}

size_t ka_csrc_match(const char *t, size_t len, size_t i)
{
	char open = t[i], close = open == '(' ? ')' : open == '[' ? ']' : '}';
	int depth = 0;
	while (i < len) {
		size_t j = skip_unit(t, len, i);
		if (j != i) {
			i = j;
			continue;
		}
		if (t[i] == open)
			depth++;
		else if (t[i] == close && --depth == 0)
			return i;
		i++;
	}
	return NPOS;
}

static int word_at(const char *t, size_t len, size_t i, const char *w)
{
	size_t n = strlen(w);
	return i + n <= len && !memcmp(t + i, w, n) && (i == 0 || !ident(t[i - 1])) &&
	       (i + n == len || !ident(t[i + n]));
}

size_t ka_csrc_stmt_end(const char *t, size_t len, size_t i)
{
	i = ka_csrc_skip_blank(t, len, i);
	if (i >= len)
		return NPOS;
	if (t[i] == '{') {
		size_t c = ka_csrc_match(t, len, i);
		return c == NPOS ? NPOS : c + 1;
	}
	int is_if = word_at(t, len, i, "if"), is_for = word_at(t, len, i, "for");
	int is_while = word_at(t, len, i, "while");
	if (is_if || is_for || is_while) {
		size_t p = ka_csrc_skip_blank(t, len, i + (is_if ? 2 : is_for ? 3 : 5));
		if (p >= len || t[p] != '(')
			return NPOS;
		size_t c = ka_csrc_match(t, len, p);
		if (c == NPOS)
			return NPOS;
		size_t e = ka_csrc_stmt_end(t, len, c + 1);
		if (e == NPOS || !is_if)
			return e;
		size_t n = ka_csrc_skip_blank(t, len, e);
		if (word_at(t, len, n, "else"))
			return ka_csrc_stmt_end(t, len, n + 4);
		return e;
	}
	if (word_at(t, len, i, "do")) {
		size_t e = ka_csrc_stmt_end(t, len, i + 2);
		if (e == NPOS)
			return NPOS;
		i = e;
	}
	int depth = 0;
	while (i < len) {
		size_t j = skip_unit(t, len, i);
		if (j != i) {
			i = j;
			continue;
		}
		char c = t[i];
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == ']' || c == '}') {
			if (--depth < 0)
				return NPOS;
		} else if (c == ';' && depth == 0)
			return i + 1;
		i++;
	}
	return NPOS;
}

int ka_csrc_squeeze(const char *t, size_t s, size_t e, char *buf, size_t cap)
{
	size_t n = 0;
	for (size_t i = s; i < e;) {
		size_t j = skip_unit(t, e, i);
		if (j != i && t[i] != '"' && t[i] != '\'') {
			i = j;
			continue;
		}
		if (j != i) { /* a literal: copied whole */
			if (n + (j - i) + 1 > cap)
				return 0;
			memcpy(buf + n, t + i, j - i);
			n += j - i;
			i = j;
			continue;
		}
		if (!isspace((unsigned char)t[i])) {
			/* keep one blank between two identifier characters ("long long") */
			if (n && ident(buf[n - 1]) && ident(t[i]) && i > s &&
			    isspace((unsigned char)t[i - 1])) {
				if (n + 2 > cap)
					return 0;
				buf[n++] = ' ';
			}
			if (n + 2 > cap)
				return 0;
			buf[n++] = t[i];
		}
		i++;
	}
	buf[n] = 0;
	return 1;
}

int ka_csrc_count_word(const char *t, size_t s, size_t e, const char *word)
{
	int n = 0;
	for (size_t i = s; i < e;) {
		size_t j = skip_unit(t, e, i);
		if (j != i) {
			i = j;
			continue;
		}
		if (word_at(t, e, i, word))
			n++;
		i++;
	}
	return n;
}

size_t ka_csrc_find_word_pp(const char *t, size_t s, size_t e, const char *word)
{
	for (size_t i = s; i < e;) {
		size_t j = ka_csrc_skip_lexeme(t, e, i);
		if (j != i) {
			i = j;
			continue;
		}
		if (word_at(t, e, i, word))
			return i;
		i++;
	}
	return NPOS;
}

int ka_csrc_has_word(const char *t, size_t s, size_t e, const char *word)
{
	return ka_csrc_count_word(t, s, e, word) > 0;
}

/* One parameter declaration [s, e): the last identifier is its name.  A
 * declaration that ends in '>', '*' or '&' has none (`std::bool_constant<A>`
 * as a tag, llm.c): the body cannot use it, so its name stays empty.  An
 * array (`float x[4]`) is not read. */
static int read_param(const char *t, size_t s, size_t e, ka_csrc_param *p)
{
	char sq[256];
	if (!ka_csrc_squeeze(t, s, e, sq, sizeof sq))
		return KA_EINPUT;
	size_t n = strlen(sq), b = n;
	while (b > 0 && ident(sq[b - 1]))
		b--;
	if (b == n && n > 0 && strchr(">*&", sq[n - 1]) && n < sizeof p->type) {
		p->name[0] = 0;
		memcpy(p->type, sq, n + 1);
		p->is_pointer = sq[n - 1] == '*';
		p->is_const = 0;
		return KA_OK;
	}
	if (b == n || n - b >= sizeof p->name || b >= sizeof p->type)
		return KA_EINPUT;
	memcpy(p->name, sq + b, n - b);
	p->name[n - b] = 0;
	memcpy(p->type, sq, b);
	p->type[b] = 0;
	while (b > 0 && p->type[b - 1] == ' ')
		p->type[--b] = 0;
	p->is_pointer = strchr(p->type, '*') != NULL;
	char *star = strchr(p->type, '*');
	p->is_const = star && strstr(p->type, "const") && strstr(p->type, "const") < star;
	return KA_OK;
}

/* Split the bracketed list (open, close) at top-level commas. */
static int split_list(const char *t, size_t len, size_t open, size_t close, ka_csrc_range *out, int max,
		      int *n)
{
	*n = 0;
	size_t s = open + 1;
	if (ka_csrc_skip_blank(t, len, s) >= close)
		return KA_OK;
	for (size_t i = s; i <= close;) {
		size_t j = skip_unit(t, len, i);
		if (j != i) {
			i = j;
			continue;
		}
		if (i < close && (t[i] == '(' || t[i] == '[' || t[i] == '{')) {
			i = ka_csrc_match(t, len, i);
			if (i == NPOS || i > close)
				return KA_EINPUT;
			i++;
			continue;
		}
		if (i == close || t[i] == ',') {
			if (*n == max)
				return KA_ETOOBIG;
			out[(*n)++] = (ka_csrc_range){s, i};
			s = i + 1;
		}
		i++;
	}
	return KA_OK;
}

int ka_csrc_split(const char *t, size_t len, size_t open, size_t close, ka_csrc_range *out, int max, int *n)
{
	return split_list(t, len, open, close, out, max, n);
}

size_t ka_csrc_block_of(const char *t, size_t len, size_t at)
{
	size_t open[128];
	int depth = 0;
	for (size_t i = 0; i < at && i < len;) {
		size_t j = skip_unit(t, len, i);
		if (j != i) {
			i = j;
			continue;
		}
		if (t[i] == '{') {
			if (depth == (int)(sizeof open / sizeof open[0]))
				return NPOS; /* deeper than any kernel file we read */
			open[depth++] = i;
		} else if (t[i] == '}' && depth > 0) {
			depth--;
		}
		i++;
	}
	return depth ? open[depth - 1] : NPOS;
}

static int read_kernel(ka_csrc *m, size_t at, size_t *next)
{
	const char *t = m->text;
	size_t len = m->len, i = at + strlen("__global__"), name_end = NPOS, open = NPOS;
	/* read into a local first: a declaration takes no slot, and a full
	 * table must not be written past */
	ka_csrc_kernel kbuf, *k = &kbuf;
	memset(k, 0, sizeof *k);
	while (i < len && t[i] != ';' && t[i] != '{') {
		size_t j = skip_unit(t, len, i);
		if (j != i) {
			i = j;
			continue;
		}
		if (word_at(t, len, i, "__launch_bounds__"))
			k->has_launch_bounds = 1;
		if (t[i] == '(') {
			size_t c = ka_csrc_match(t, len, i);
			if (c == NPOS)
				return KA_EINPUT;
			size_t b = i;
			while (b > at && isspace((unsigned char)t[b - 1]))
				b--;
			size_t ns = b;
			while (ns > at && ident(t[ns - 1]))
				ns--;
			if (ns < b && !word_at(t, len, ns, "__launch_bounds__")) {
				name_end = b;
				open = i;
				k->name_at = ns;
			}
			i = c + 1;
			continue;
		}
		i++;
	}
	*next = i;
	if (i >= len || t[i] != '{' || open == NPOS)
		return KA_OK; /* a declaration */
	size_t nl = name_end - k->name_at;
	if (nl >= sizeof k->name)
		return KA_EINPUT;
	memcpy(k->name, t + k->name_at, nl);
	if (m->nkernels == KA_CSRC_MAX_KERNELS)
		return ka_error_set(KA_ETOOBIG, "more than %d kernels in the file (at %s)",
				    KA_CSRC_MAX_KERNELS, k->name);
	k->start = at;
	k->body_open = i;
	k->body_close = ka_csrc_match(t, len, i);
	if (k->body_close == NPOS)
		return ka_error_set(KA_EINPUT, "kernel %s: unbalanced braces", k->name);
	ka_csrc_range r[KA_CSRC_MAX_PARAMS];
	int n;
	if (split_list(t, len, open, ka_csrc_match(t, len, open), r, KA_CSRC_MAX_PARAMS, &n))
		return ka_error_set(KA_EINPUT, "kernel %s: cannot read its parameters", k->name);
	for (int p = 0; p < n; p++)
		if (read_param(t, r[p].s, r[p].e, &k->params[p]))
			return ka_error_set(KA_EINPUT, "kernel %s: cannot read parameter %d", k->name, p + 1);
	k->nparams = n;
	*next = k->body_close + 1;
	m->k[m->nkernels++] = *k;
	return KA_OK;
}

/* The width of a launch's "<<<" (or ">>>", with c '>') at t[i], also when
 * an old clang-format wrote it "<< <" / ">> >"; 0 when there is none. */
static size_t chevrons(const char *t, size_t len, size_t i, char c)
{
	if (i + 2 > len || t[i] != c || t[i + 1] != c)
		return 0;
	size_t j = i + 2;
	while (j < len && (t[j] == ' ' || t[j] == '\t'))
		j++;
	return j < len && t[j] == c && (j == i + 2 || j + 1 >= len || t[j + 1] != c) ? j + 1 - i : 0;
}

static int read_launch(ka_csrc *m, size_t at, size_t ow, size_t *next)
{
	const char *t = m->text;
	size_t len = m->len, b = at;
	*next = at + ow;
	while (b > 0 && isspace((unsigned char)t[b - 1]))
		b--;
	size_t ns = b;
	while (ns > 0 && ident(t[ns - 1]))
		ns--;
	if (ns == b || b - ns >= KA_CSRC_NAME)
		return KA_OK; /* no kernel name: a recipe finds the name unlaunched */
	if (m->nlaunches == KA_CSRC_MAX_LAUNCHES)
		return ka_error_set(KA_ETOOBIG, "more than %d launches in the file (at %.*s)",
				    KA_CSRC_MAX_LAUNCHES, (int)(b - ns), t + ns);
	const char *close = NULL;
	size_t cw = 0;
	for (size_t i = at + ow; i + 2 < len; i++)
		if ((cw = chevrons(t, len, i, '>')) != 0) {
			close = t + i;
			break;
		}
	if (!close)
		return ka_error_set(KA_EINPUT, "a launch of %.*s has no '>>>'", (int)(b - ns), t + ns);
	ka_csrc_launch *l = &m->l[m->nlaunches];
	memset(l, 0, sizeof *l);
	memcpy(l->kernel, t + ns, b - ns);
	l->start = ns;
	size_t c = (size_t)(close - t);
	/* the config list, split on top-level commas: treat "<<<" as '(' */
	size_t s = at + ow;
	int depth = 0;
	for (size_t i = s; i <= c; i++) {
		size_t j = skip_unit(t, len, i);
		if (j != i) {
			i = j - 1;
			continue;
		}
		if (t[i] == '(' || t[i] == '[' || t[i] == '{')
			depth++;
		else if (t[i] == ')' || t[i] == ']' || t[i] == '}')
			depth--;
		else if ((i == c || t[i] == ',') && depth == 0) {
			if (l->ncfg == 4)
				return ka_error_set(KA_EINPUT, "launch of %s: too many config values",
						    l->kernel);
			l->cfg[l->ncfg++] = (ka_csrc_range){s, i};
			s = i + 1;
		}
	}
	size_t p = ka_csrc_skip_blank(t, len, c + cw);
	if (p >= len || t[p] != '(' || l->ncfg < 2)
		return ka_error_set(KA_EINPUT, "launch of %s: cannot read it", l->kernel);
	size_t pc = ka_csrc_match(t, len, p);
	if (pc == NPOS || split_list(t, len, p, pc, l->args, KA_CSRC_MAX_PARAMS, &l->nargs))
		return ka_error_set(KA_EINPUT, "launch of %s: cannot read its arguments", l->kernel);
	l->end = pc + 1;
	*next = l->end;
	m->nlaunches++;
	return KA_OK;
}

int ka_csrc_scan(ka_csrc *m, const char *text, size_t len)
{
	memset(m, 0, sizeof *m);
	ka_error_clear();
	m->text = text;
	m->len = len;
	for (size_t i = 0; i < len;) {
		size_t j = skip_unit(text, len, i), next, ow;
		if (j != i) {
			i = j;
			continue;
		}
		int rc = KA_OK;
		if (word_at(text, len, i, "__global__"))
			rc = read_kernel(m, i, &next);
		else if ((ow = chevrons(text, len, i, '<')) != 0)
			rc = read_launch(m, i, ow, &next);
		else
			next = i + 1;
		if (rc)
			return ka_error_last()[0] ? rc : ka_error_set(rc, "cannot read the kernel source");
		i = next;
	}
	return KA_OK;
}

const ka_csrc_kernel *ka_csrc_kernel_find(const ka_csrc *m, const char *name)
{
	for (int i = 0; i < m->nkernels; i++)
		if (!name || !strcmp(m->k[i].name, name))
			return &m->k[i];
	return NULL;
}

int ka_csrc_param_index(const ka_csrc_kernel *k, const char *name)
{
	if (!*name)
		return -1; /* never an unnamed parameter */
	for (int i = 0; i < k->nparams; i++)
		if (!strcmp(k->params[i].name, name))
			return i;
	return -1;
}

int ka_csrc_line_of(const char *text, size_t at)
{
	int line = 1;
	for (size_t i = 0; i < at; i++)
		line += text[i] == '\n';
	return line;
}
