/* rewriter/transforms/loop_access.c: what hoist-invariant-load and
 * accumulate-in-register share: finding a global access's loop, checking
 * that every name in the access is defined before the loop and not assigned
 * inside it, choosing a register name, and rewriting each use in the loop. */
#include "rewriter/transforms/xform.h"
#include "rewriter/transforms/loop_access.h"
#include "util/buf.h"
#include <stdlib.h>
#include <string.h>

static const char *const builtin[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", NULL};

/* s[b..e) is assigned somewhere in s[lb..le): `x =`, `x +=`, `x++`, `++x`. */
int xf_assigned(const char *s, size_t lb, size_t le, const char *w)
{
	size_t n = strlen(w);
	for (size_t k = lb; k < le; k++) {
		if (!xf_word_at(s, le, k, w))
			continue;
		size_t a = xf_skip_ws(s, le, k + n), p = xf_skip_ws_back(s, k);
		if (a < le && s[a] == '[') { /* x[...] = : an element, not x itself */
			size_t m = xf_match(s, le, a);
			if (m == (size_t)-1)
				return 1;
			a = xf_skip_ws(s, le, m);
			if (!(a + 1 < le && s[a] == '=' && s[a + 1] != '='))
				continue;
			return 2;
		}
		if (a + 1 < le &&
		    ((s[a] == '=' && s[a + 1] != '=') || (strchr("+-*/%&|^", s[a]) && s[a + 1] == '=') ||
		     ((s[a] == '+' || s[a] == '-') && s[a + 1] == s[a])))
			return 1;
		if (p >= 2 && (s[p - 1] == '+' || s[p - 1] == '-') && s[p - 2] == s[p - 1])
			return 1;
	}
	return 0;
}

int xf_loop_access_load(xf_ctx *c, sqlite3_int64 id, xf_loop_access *la)
{
	sqlite3_stmt *st;
	memset(la, 0, sizeof *la);
	int r = xf_row(c,
		       "SELECT a.file, a.begin_off, a.end_off, a.base, a.space, a.rw, a.loop_invariant, "
		       "l.begin_off, l.end_off, k.begin_off, a.in_loop FROM access a "
		       "JOIN loop l ON l.id = a.loop_id LEFT JOIN kernel k ON k.id = a.kernel_id "
		       "WHERE a.id = ?1",
		       id, &st);
	if (r <= 0)
		return r;
	la->file = strdup(xf_text(st, 0));
	la->base = strdup(xf_text(st, 3));
	la->rw = strdup(xf_text(st, 5));
	la->b = (size_t)sqlite3_column_int64(st, 1);
	la->e = (size_t)sqlite3_column_int64(st, 2);
	la->lb = (size_t)sqlite3_column_int64(st, 7);
	la->le = (size_t)sqlite3_column_int64(st, 8);
	la->kb = xf_null(st, 9) ? 0 : (size_t)sqlite3_column_int64(st, 9);
	la->invariant = sqlite3_column_int(st, 6) == 1 && sqlite3_column_int(st, 10) == 1;
	la->global = strcmp(xf_text(st, 4), "global") == 0;
	sqlite3_finalize(st);
	if (!la->file || !la->base || !la->rw)
		return -1;
	return 1;
}

void xf_loop_access_free(xf_loop_access *la)
{
	free(la->file);
	free(la->base);
	free(la->rw);
	free(la->text);
	free(la->name);
	free(la->indent);
}

/* Every name of the access defined before the loop, none assigned in it. */
static int names_ok(xf_ctx *c, xf_loop_access *la, const char *s)
{
	for (size_t i = la->b; i < la->e;) {
		size_t j = i;
		while (j < la->e && xf_ident_char(s[j]))
			j++;
		if (j == i || (s[i] >= '0' && s[i] <= '9') || (i > la->b && s[i - 1] == '.')) {
			i = j > i ? j : i + 1;
			continue;
		}
		char w[128];
		size_t n = j - i < sizeof w - 1 ? j - i : sizeof w - 1;
		memcpy(w, s + i, n);
		w[n] = '\0';
		int known = 0;
		for (int k = 0; builtin[k]; k++)
			known |= strcmp(builtin[k], w) == 0;
		int before = 0;
		for (size_t k = la->kb; !known && k < la->lb && !before; k++)
			before = xf_word_at(s, la->lb, k, w);
		int as = xf_assigned(s, la->lb, la->le, w);
		if ((!known && !before) || as == 1 || (as == 2 && strcmp(w, la->base) != 0))
			return xf_skip(c, la->file, la->b, "'%s' is defined or changed inside the loop", w);
		i = j;
	}
	return 1;
}

/* Where a statement can go before the loop (above its #pragma lines). */
static size_t insert_point(const char *s, size_t lb)
{
	size_t at = lb;
	for (;;) {
		size_t bol = at;
		while (bol > 0 && s[bol - 1] != '\n')
			bol--;
		if (bol == 0)
			return at;
		size_t pbol = bol - 1;
		while (pbol > 0 && s[pbol - 1] != '\n')
			pbol--;
		size_t k = pbol;
		while (s[k] == ' ' || s[k] == '\t')
			k++;
		if (strncmp(s + k, "#pragma", 7) != 0)
			return at;
		at = k;
	}
}

int xf_loop_access_check(xf_ctx *c, xf_loop_access *la, const char *s, size_t len)
{
	if (!la->invariant || !la->global)
		return xf_skip(c, la->file, la->b, "the access is not a loop-invariant global one");
	if (la->e > len || la->le > len || !(la->lb < la->b && la->e <= la->le) ||
	    !xf_word_at(s, len, la->b, la->base))
		return xf_skip(c, la->file, la->b,
			       "the text at the offsets is not an access of %s "
			       "(a macro, or the file changed on disk since it was analysed)",
			       la->base);
	if (!names_ok(c, la, s))
		return 0;
	la->at = insert_point(s, la->lb);
	size_t p = xf_skip_ws_back(s, la->at);
	if (p > 0 && !strchr(";{}/", s[p - 1]))
		return xf_skip(c, la->file, la->lb, "the loop is not a statement of its own");
	la->text = xf_dup(s, la->b, la->e);
	la->indent = xf_indent_of(s, la->at);
	ka_buf nm;
	ka_buf_init(&nm, 256);
	for (int k = 0; k < 100; k++) {
		ka_buf_reset(&nm);
		(void)ka_buf_printf(&nm, k ? "%s_reg%d" : "%s_reg", la->base, k);
		int used = 0;
		for (size_t i = la->kb; i < la->le && !used; i++)
			used = xf_word_at(s, len, i, nm.data);
		if (!used)
			break;
	}
	la->name = ka_buf_steal(&nm);
	return la->text && la->indent && la->name ? 1 : -1;
}

int xf_loop_access_replace(ka_fix *f, const xf_loop_access *la, const char *s, size_t len)
{
	size_t n = strlen(la->text);
	int rc = 0;
	for (size_t i = la->lb; rc >= 0 && i + n <= la->le; i++)
		if (memcmp(s + i, la->text, n) == 0 && xf_word_at(s, len, i, la->base) &&
		    (i + n >= len || !xf_ident_char(s[i + n]))) {
			rc = ka_fix_add_edit(f, i, i + n, la->name);
			i += n - 1;
		}
	return rc;
}
