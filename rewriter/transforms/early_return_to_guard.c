/* rewriter/transforms/early_return_to_guard.c: a thread-dependent early
 * return before a barrier (`if (i >= n) return; ... __syncthreads(); ...`)
 * leaves the returned threads out of the barrier: undefined behaviour.  The
 * recognized simple pattern, an `if (COND) return;` at the top level of the
 * kernel body, becomes guarded stretches with every top-level barrier kept
 * outside:
 *     if (!COND) { stretch 1 }  __syncthreads();  if (!COND) { stretch 2 }
 * Safe: every thread that ran a statement before still runs it, the others
 * skip it as before, and all threads now reach each barrier.  Skipped (with
 * a note) when a barrier sits inside a nested statement or a stretch
 * declares a name used after it.  A plain condition (`i >= n`) is negated in
 * place before each stretch; one that reads memory or that the stretches
 * could change is evaluated once: `const bool active = !(COND);`. */
#include "rewriter/transforms/xform.h"
#include "util/buf.h"
#include "util/text.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SPLITS 64

typedef struct body {
	const char *s;
	size_t b, e;            /* the statements after the if, up to the closing } */
	size_t cut[MAX_SPLITS]; /* starts of top-level `__syncthreads();` */
	size_t cut_end[MAX_SPLITS];
	int n_cut;
} body;

/* Next top-level position after the lexeme at i (brackets jump to their match). */
static size_t step(const char *s, size_t e, size_t i)
{
	if (s[i] == '(' || s[i] == '[' || s[i] == '{') {
		size_t j = xf_match(s, e, i);
		return j == (size_t)-1 ? e : j;
	}
	if (s[i] == '"' || s[i] == '\'') {
		for (size_t j = i + 1; j < e; j++) {
			if (s[j] == '\\')
				j++;
			else if (s[j] == s[i])
				return j + 1;
		}
		return e;
	}
	if (xf_ident_char(s[i])) {
		while (i < e && xf_ident_char(s[i]))
			i++;
		return i;
	}
	return i + 1;
}

static int contains_word(const char *s, size_t b, size_t e, const char *w)
{
	for (size_t i = b; i < e; i++)
		if (xf_word_at(s, e, i, w))
			return 1;
	return 0;
}

/* Split the stretch after the if at its top-level barriers.  0 = a barrier is
 * nested (or not a statement of its own): the pattern is not the simple one. */
static int split(body *bd)
{
	const char *s = bd->s;
	size_t i = xf_skip_ws(s, bd->e, bd->b);
	char prev = ';';
	while (i < bd->e) {
		size_t j = step(s, bd->e, i);
		if (s[i] == '{' && contains_word(s, i, j, "__syncthreads"))
			return 0;
		if (xf_word_at(s, bd->e, i, "__syncthreads")) {
			size_t k = xf_skip_ws(s, bd->e, j);
			if (!strchr(";{}", prev) || k >= bd->e || s[k] != '(' || bd->n_cut == MAX_SPLITS)
				return 0;
			k = xf_skip_ws(s, bd->e, step(s, bd->e, k));
			if (k >= bd->e || s[k] != ';')
				return 0;
			bd->cut[bd->n_cut] = i;
			bd->cut_end[bd->n_cut++] = k + 1;
			j = k + 1;
		}
		prev = s[j - 1];
		i = xf_skip_ws(s, bd->e, j);
	}
	return 1;
}

/* The guard: `a >= b` -> `a < b` for one top-level comparison, else `!(c)`. */
static char *negate(const char *s, size_t b, size_t e)
{
	static const char *const ops[][2] = {{">=", "<"},  {"<=", ">"}, {"==", "!="},
					     {"!=", "=="}, {">", "<="}, {"<", ">="}};
	size_t at = 0, n_ops = 0, op = 0;
	ka_buf out;
	ka_buf_init(&out, 1 << 16);
	for (size_t i = b; i < e; i = step(s, e, i)) {
		if (strchr("&|?:,", s[i]) || (s[i] == '-' && i + 1 < e && s[i + 1] == '>'))
			n_ops += 2;
		for (size_t k = 0; k < 6; k++) {
			size_t n = strlen(ops[k][0]);
			if (i + n <= e && memcmp(s + i, ops[k][0], n) == 0 &&
			    (n == 2 || (s[i + 1] != s[i] && s[i + 1] != '=' && s[i - 1] != s[i]))) {
				at = i, op = k, n_ops++;
				i += n - 1;
				break;
			}
		}
	}
	if (n_ops == 1)
		(void)ka_buf_printf(&out, "%.*s%s%.*s", (int)(at - b), s + b, ops[op][1],
				    (int)(e - at - strlen(ops[op][0])), s + at + strlen(ops[op][0]));
	else
		(void)ka_buf_printf(&out, "!(%.*s)", (int)(e - b), s + b);
	return ka_buf_steal(&out);
}

static int keyword(const char *s, size_t b, size_t e)
{
	static const char *const kw[] = {"return", "if",    "for",      "while", "do",      "switch", "else",
					 "goto",   "break", "continue", "case",  "default", NULL};
	for (int k = 0; kw[k]; k++)
		if (e - b == strlen(kw[k]) && memcmp(s + b, kw[k], e - b) == 0)
			return 1;
	return 0;
}

/* A name declared at the top level of s[b..e) and used in s[e..end): the
 * identifier before `=`, `;`, `[` or `,` in a statement that starts with a
 * type-like word and has not reached its `=` yet. */
static int leaks_declaration(const char *s, size_t b, size_t e, size_t end, char *name, size_t cap)
{
	int pos = 0, decl = 0, seen_eq = 0;
	for (size_t i = xf_skip_ws(s, e, b); i < e; i = xf_skip_ws(s, e, step(s, e, i))) {
		size_t j = step(s, e, i);
		if (s[i] == ';' || s[i] == '{' || s[i] == '}') {
			pos = decl = seen_eq = 0;
			continue;
		}
		if (pos == 0)
			decl = xf_ident_char(s[i]) && !keyword(s, i, j);
		if (s[i] == '=')
			seen_eq = 1;
		if (decl && !seen_eq && pos > 0 && xf_ident_char(s[i])) {
			size_t k = xf_skip_ws(s, e, j);
			if (k < e && strchr("=;[,", s[k]) && (s[k] != '=' || s[k + 1] != '=')) {
				size_t n = j - i < cap - 1 ? j - i : cap - 1;
				memcpy(name, s + i, n);
				name[n] = '\0';
				if (contains_word(s, e, end, name))
					return 1;
			}
		}
		pos++;
	}
	return 0;
}

/* A name of the condition assigned in s[b..e). */
static int assigns(const char *s, size_t b, size_t e, const char *cond, size_t cb, size_t ce)
{
	for (size_t i = cb; i < ce; i = step(cond, ce, i)) {
		if (!xf_ident_char(cond[i]) || (cond[i] >= '0' && cond[i] <= '9'))
			continue;
		size_t j = step(cond, ce, i);
		char w[128];
		size_t n = j - i < sizeof w - 1 ? j - i : sizeof w - 1;
		memcpy(w, cond + i, n);
		w[n] = '\0';
		for (size_t k = b; k < e; k++) {
			if (!xf_word_at(s, e, k, w))
				continue;
			size_t a = xf_skip_ws(s, e, k + n), p = xf_skip_ws_back(s, k);
			if ((a + 1 < e && (s[a] == '=' ? s[a + 1] != '=' : s[a + 1] == '=') &&
			     strchr("=+-*/%&|^", s[a])) ||
			    (a + 1 < e && (s[a] == '+' || s[a] == '-') && s[a + 1] == s[a]) ||
			    (p >= 2 && (s[p - 1] == '+' || s[p - 1] == '-') && s[p - 2] == s[p - 1]))
				return 1;
		}
	}
	return 0;
}

/* `if (NEG) {` + the stretch indented one more step + `}` */
static int wrap(ka_fix *f, const char *s, size_t b, size_t e, const char *neg, const char *indent)
{
	const char *unit = strchr(indent, '\t') ? "\t" : "    ";
	ka_buf out;
	ka_buf_init(&out, 1 << 20);
	int rc = ka_buf_printf(&out, "if (%s) {\n%s%s", neg, indent, unit);
	for (size_t i = b; rc >= 0 && i < e; i++) {
		rc = ka_buf_addc(&out, s[i]);
		if (s[i] == '\n' && i + 1 < e && s[i + 1] != '\n')
			rc = ka_buf_adds(&out, unit);
	}
	if (rc >= 0)
		rc = ka_buf_printf(&out, "\n%s}", indent);
	if (rc >= 0)
		rc = ka_fix_add_edit(f, b, e, out.data);
	ka_buf_free(&out);
	return rc;
}

/* The condition can be re-evaluated before each stretch: names, numbers and
 * comparisons only (no memory reads, calls or side effects); the stretches
 * must not assign its names either.  Otherwise it is evaluated once into a
 * `const bool`. */
static int plain_condition(const char *s, size_t b, size_t e)
{
	for (size_t i = b; i < e; i++)
		if (s[i] == '[' || s[i] == '*' || (s[i] == '-' && i + 1 < e && s[i + 1] == '>'))
			return 0;
	return xf_pure_expr(s, b, e);
}

/* `active`, or `active_N` when the kernel already uses the name. */
static const char *guard_name(const char *s, size_t b, size_t e)
{
	static _Thread_local char name[32];
	for (int k = 0; k < 100; k++) {
		snprintf(name, sizeof name, k ? "active_%d" : "active", k);
		int used = 0;
		for (size_t i = b; i < e && !used; i++)
			used = xf_word_at(s, e, i, name);
		if (!used)
			break;
	}
	return name;
}

/* `if (COND) return;` -> `const bool active = !(COND);` */
static int keep_guard(ka_fix *f, size_t ib, size_t ie, const char *guard, const char *neg)
{
	ka_buf out;
	ka_buf_init(&out, 1 << 16);
	int rc = ka_buf_printf(&out, "const bool %s = %s;", guard, neg);
	if (rc >= 0)
		rc = ka_fix_add_edit(f, ib, ie, out.data);
	ka_buf_free(&out);
	return rc;
}

/* Delete the `if (...) return;` with its line when it stands alone there. */
static int drop_if(ka_fix *f, const char *s, size_t len, size_t b, size_t e)
{
	ka_text_whole_line(s, len, &b, &e);
	return ka_fix_add_edit(f, b, e, "");
}

/* The text from the condition's end to the if's end reads `) return;` or `) { return; }`. */
static int just_return(const char *s, size_t ce, size_t ie)
{
	size_t i = xf_skip_ws(s, ie, ce);
	if (i >= ie || s[i] != ')')
		return 0;
	i = xf_skip_ws(s, ie, i + 1);
	int brace = i < ie && s[i] == '{';
	if (brace)
		i = xf_skip_ws(s, ie, i + 1);
	if (!xf_word_at(s, ie, i, "return"))
		return 0;
	i = xf_skip_ws(s, ie, i + 6);
	if (i >= ie || s[i] != ';')
		return 0;
	i = xf_skip_ws(s, ie, i + 1);
	if (brace && (i >= ie || s[i++] != '}'))
		return 0;
	return i == ie;
}

static int rewrite(xf_ctx *c, const char *file, const char *s, size_t len, size_t ib, size_t ie, size_t cb,
		   size_t ce, size_t kb, size_t ke)
{
	body bd = {s, ie, 0, {0}, {0}, 0};
	char name[128], *neg = NULL, *indent = NULL;
	int rc = 0, inline_ok = plain_condition(s, cb, ce);
	size_t close = xf_match(s, len, kb);
	if (close == (size_t)-1 || close > ke || close <= ie)
		return xf_skip(c, file, ib, "the kernel body's braces do not match");
	bd.e = close - 1;
	for (size_t i = xf_skip_ws(s, ib, kb + 1), j; i < ib; i = xf_skip_ws(s, ib, j))
		if ((j = step(s, len, i)) > ib)
			return xf_skip(c, file, ib, "the return is not at the top level of the kernel body");
	if (!split(&bd))
		return xf_skip(c, file, ib, "a barrier after the return is inside a nested statement");
	size_t seg_b[MAX_SPLITS + 1], seg_e[MAX_SPLITS + 1];
	int n = 0;
	for (int k = 0; k <= bd.n_cut; k++) {
		size_t b = k == 0 ? bd.b : bd.cut_end[k - 1], e = k == bd.n_cut ? bd.e : bd.cut[k];
		b = xf_skip_ws(s, e, b);
		e = xf_skip_ws_back(s, e);
		if (b >= e)
			continue;
		if (leaks_declaration(s, b, e, bd.e, name, sizeof name))
			return xf_skip(c, file, b, "'%s' is declared before a barrier and used after it",
				       name);
		inline_ok &= !assigns(s, b, e, s, cb, ce);
		seg_b[n] = b;
		seg_e[n++] = e;
	}
	neg = negate(s, cb, ce);
	indent = xf_indent_of(s, ib);
	const char *guard = inline_ok ? neg : guard_name(s, kb, close);
	ka_fix *f = neg && indent ? xf_fix(c, file, KA_FIX_SAFE,
					   "early return -> if (%s) { ... } "
					   "around the statements between barriers",
					   guard)
				  : NULL;
	rc = f ? (inline_ok ? drop_if(f, s, len, ib, ie) : keep_guard(f, ib, ie, guard, neg)) : -1;
	for (int k = 0; rc >= 0 && k < n; k++)
		rc = wrap(f, s, seg_b[k], seg_e[k], guard, indent);
	free(neg);
	free(indent);
	return rc;
}

static int early_return_to_guard_row(xf_ctx *c, sqlite3_int64 id)
{
	sqlite3_stmt *st;
	int r = xf_row(c,
		       "SELECT r.file, r.if_begin_off, r.if_end_off, r.cond_begin_off, r.cond_end_off, "
		       "k.body_begin_off, k.end_off, r.thread_dependent FROM early_return r "
		       "JOIN kernel k ON k.id = r.kernel_id WHERE r.id = ?1",
		       id, &st);
	if (r <= 0)
		return r;
	const char *file = xf_text(st, 0), *src;
	size_t ib = (size_t)sqlite3_column_int64(st, 1), ie = (size_t)sqlite3_column_int64(st, 2);
	size_t cb = (size_t)sqlite3_column_int64(st, 3), ce = (size_t)sqlite3_column_int64(st, 4);
	size_t kb = (size_t)sqlite3_column_int64(st, 5), ke = (size_t)sqlite3_column_int64(st, 6), len;
	int rc = 0;
	for (int i = 1; i <= 6; i++)
		if (xf_null(st, i)) {
			xf_skip(c, file, 0, "the early return has no source offsets");
			goto out;
		}
	if ((rc = xf_source(c, file, &src, &len)) < 0)
		goto out;
	/* libclang's extent of `return;` stops before the semicolon */
	if (ie < len && !just_return(src, ce, ie) && src[xf_skip_ws(src, len, ie)] == ';')
		ie = xf_skip_ws(src, len, ie) + 1;
	if (ke > len || !(ib < cb && cb <= ce && ce < ie && kb < ib && ie < ke) ||
	    !xf_word_at(src, len, ib, "if") || src[kb] != '{' || !just_return(src, ce, ie)) {
		xf_skip(c, file, ib < len ? ib : 0,
			"the text at the offsets is not `if (...) return;` "
			"(a macro, or the file changed on disk since it was analysed)");
		goto out;
	}
	rc = rewrite(c, file, src, len, ib, ie, cb, ce, kb, ke);
out:
	sqlite3_finalize(st);
	return rc;
}

XF_TRANSFORM(early_return_to_guard, KA_FIX_SAFE,
	     "if (i >= n) return; body -> if (i < n) { body } with barriers kept outside")
{
	if (strcmp(c->req->scope, "barrier") == 0) { /* the finding is on the barrier */
		sqlite3_stmt *st;
		int r = xf_row(c,
			       "SELECT e.id FROM barrier b JOIN early_return e ON e.kernel_id = "
			       "b.kernel_id AND e.line = b.divergent_return_line WHERE b.id = ?1",
			       c->req->rowid, &st);
		if (r <= 0)
			return r;
		sqlite3_int64 id = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		return early_return_to_guard_row(c, id);
	}
	return xf_each(c, "early_return", early_return_to_guard_row);
}
