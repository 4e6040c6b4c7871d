/* recipes/recipe_unflatten.c: unflatten-rows, a flattened 2-D iteration
 * space walked again as rows.  The shape (ka_recipe_ew_shape_ex, with the
 * kernel model's reading of the index and of a product bound):
 *     long long i = <global thread index>;  if (i >= R * C) return;
 *     long long t = i / C, j = i % C;
 *     out[i] = f(wte[ids[t] * C + j], wpe[(t % seq) * C + j]);
 * a 1-D element index i, split by one integer parameter C into a row
 * `i / C` and a column `i % C`, where every global access is P[g(r) * C +
 * c] (a row base that depends on the row alone, then the column) or
 * Q[h(r)] (uniform in the row), written or read through a local pointer
 * `T *p = P + g(r) * C + c` as well.  The rewrite gives each row to one
 * warp (or, for rows of 8192 elements and more, to one block), grid-stride
 * over the rows: the row-uniform locals (ids[r], r % seq, ...) and the row
 * base pointers are computed once per row, and the lanes walk the columns.
 * Where C is a multiple of the vector width and every row base pointer is
 * aligned to its word (checked per row at run time), each lane moves 16
 * bytes per access (8 two-byte elements, 4 four-byte ones; a narrower type
 * beside a wider one moves the same element count), the body running once
 * per element on the registers' copy; other rows take a scalar loop.  No
 * division by C is left per element, and no index is 64-bit per element
 * beyond the column.  A pointer read is loaded for the whole vector before
 * the body, so the element body must be straight-line code (no branch,
 * ?:, && or ||): a guarded gather of the original would load past what it
 * guarded.  What does not fit declines naming the construct: a column
 * used other than as the contiguous index, an access of another form, a
 * pointer written at two rows, a local written per element that a row
 * value reads. */
#include "recipes/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)
#define UR_ITEMS 48
#define UR_SITES 12
#define UR_TEXT 768
#define UR_BLOCK_ROW 8192 /* a row this long (elements) is a block's, not a warp's */

enum { IT_UNIFORM, IT_COLALIAS, IT_ELEMDECL, IT_PTRALIAS, IT_STMT };

typedef struct ur_item {
	int kind, keep;
	char type[96], name[64];
	char text[UR_TEXT]; /* the initializer (declarations) or the statement */
	char mark[UR_TEXT]; /* element items: text with each site as "\1K\2" */
	int site;           /* IT_PTRALIAS: its site */
} ur_item;

typedef struct ur_site {
	int p; /* parameter index */
	char base[UR_TEXT];
	int read, written, size;
	char elem[32];
} ur_site;

typedef struct ur {
	ka_recipe_ctx *c;
	char var[64], cols[8][64], X[KA_CSRC_NAME];
	int ncols, n, nsites;
	int written[KA_CSRC_MAX_PARAMS];
	ur_item it[UR_ITEMS];
	ur_site s[UR_SITES];
} ur;

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* [s, e) with comments dropped and a blank run kept (as one space) only
 * between two identifier characters. */
static int tighten(const char *t, size_t s, size_t e, char *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = s; i < e;) {
		size_t j = ka_csrc_skip_blank(t, e, i);
		if (j > i) {
			if (n && is_ident(out[n - 1]) && j < e && is_ident(t[j])) {
				if (n + 1 >= cap)
					return 0;
				out[n++] = ' ';
			}
			i = j;
			continue;
		}
		if (n + 1 >= cap)
			return 0;
		out[n++] = t[i++];
	}
	out[n] = 0;
	return 1;
}

/* The word at s[p] (an identifier start) into w; its end. */
static size_t word_at(const char *s, size_t p, char *w, size_t cap)
{
	size_t q = p;
	while (is_ident(s[q]))
		q++;
	size_t n = q - p < cap - 1 ? q - p : cap - 1;
	memcpy(w, s + p, n);
	w[n] = 0;
	return q;
}

/* 1 when s[p] starts a whole identifier that is no member name. */
static int word_start(const char *s, size_t p)
{
	if (!is_ident(s[p]) || isdigit((unsigned char)s[p]))
		return 0;
	if (p && (is_ident(s[p - 1]) || s[p - 1] == '.'))
		return 0;
	return !(p > 1 && s[p - 1] == '>' && s[p - 2] == '-');
}

/* The bracket matching s[p] in the NUL-terminated s, or NPOS. */
static size_t match(const char *s, size_t p)
{
	int d = 0;
	for (size_t q = p; s[q]; q++) {
		if (strchr("([{", s[q]))
			d++;
		else if (strchr(")]}", s[q]) && --d == 0)
			return q;
	}
	return NPOS;
}

/* 1 when what follows at s[p] assigns the operand before it (=, op=, ++, --). */
static int assigns_after(const char *s, size_t p)
{
	if (s[p] == '=')
		return s[p + 1] != '=';
	if (s[p] && strchr("+-*/%&|^", s[p]) && s[p + 1] == '=')
		return 1;
	if ((s[p] == '+' || s[p] == '-') && s[p + 1] == s[p])
		return 1;
	return (s[p] == '<' || s[p] == '>') && s[p + 1] == s[p] && s[p + 2] == '=';
}

static int assigns_before(const char *s, size_t p)
{
	return p >= 2 && (s[p - 1] == '+' || s[p - 1] == '-') && s[p - 2] == s[p - 1];
}

static int is_col(const ur *u, const char *w)
{
	for (int i = 0; i < u->ncols; i++)
		if (!strcmp(u->cols[i], w))
			return 1;
	return 0;
}

static const ur_item *local_of(const ur *u, const char *w, int upto)
{
	for (int i = 0; i < upto; i++)
		if (u->it[i].kind != IT_STMT && !strcmp(u->it[i].name, w))
			return &u->it[i];
	return NULL;
}

static int type_word(const char *w)
{
	static const char *const k[] = {"const",  "unsigned", "signed",   "long",      "int",
					"short",  "char",     "float",    "double",    "bool",
					"size_t", "int64_t",  "uint64_t", "int32_t",   "uint32_t",
					"sizeof", "true",     "false",    "ptrdiff_t", "static_cast"};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
		if (!strcmp(w, k[i]))
			return 1;
	return 0;
}

/* 1 when text depends on the row alone: its words are integer or type
 * keywords, pure functions, ka_r, parameters (no written pointer) or
 * row-uniform locals of the items before upto, and it writes nothing. */
static int uniform(const ur *u, const char *text, int upto)
{
	if (!ka_recipe_pure_expr(text, strlen(text)))
		return 0;
	for (size_t p = 0; text[p];) {
		if (!word_start(text, p)) {
			if (is_ident(text[p]))
				while (is_ident(text[p]))
					p++;
			else
				p++;
			continue;
		}
		char w[64];
		size_t q = word_at(text, p, w, sizeof w);
		int pi = ka_csrc_param_index(u->c->k, w);
		const ur_item *l = local_of(u, w, upto);
		int ok = !strcmp(w, "ka_r") || type_word(w) || ka_recipe_pure_function(w, strlen(w)) ||
			 (pi >= 0 && !u->written[pi]) || (l && l->kind == IT_UNIFORM);
		if (!ok)
			return 0;
		p = q;
	}
	return 1;
}

/* s with a pair of parentheses around all of it dropped, in place. */
static void strip_parens(char *s)
{
	size_t n = strlen(s);
	while (n >= 2 && s[0] == '(' && match(s, 0) == n - 1) {
		memmove(s, s + 1, n - 2);
		s[n - 2] = 0;
		n -= 2;
	}
}

/* Read index E as <row base> + <column>: terms at the top level, one the
 * column (a column alias, or the element index, which adds ka_r * C), the
 * others products with C as a factor that depend on the row alone.  The
 * row base (or "0") into base; 1 read, 0 not. */
static int col_form(const ur *u, const char *E, int upto, char *base, size_t cap)
{
	char e[UR_TEXT];
	snprintf(e, sizeof e, "%s", E);
	strip_parens(e);
	size_t n = strlen(e), ts = 0, bl = 0;
	int ncol = 0, d = 0;
	base[0] = 0;
	for (size_t p = 0; p <= n; p++) {
		char ch = e[p];
		if (ch == '(' || ch == '[')
			d++;
		else if (ch == ')' || ch == ']')
			d--;
		int cut = !ch ||
			  (d == 0 && p > ts && (ch == '+' || ch == '-') &&
			   (is_ident(e[p - 1]) || e[p - 1] == ')' || e[p - 1] == ']') && e[p + 1] != ch &&
			   (p < 2 || e[p - 1] != 'e' || !isdigit((unsigned char)e[p - 2])));
		if (!cut)
			continue;
		char sign = ts > 0 ? e[ts - 1] : '+', term[UR_TEXT];
		snprintf(term, sizeof term, "%.*s", (int)(p - ts), e + ts);
		strip_parens(term);
		if (is_col(u, term) || !strcmp(term, u->var)) {
			if (sign != '+')
				return 0;
			ncol++;
			if (!strcmp(term, u->var))
				bl += (size_t)snprintf(base + bl, cap - bl, "%s(ka_r * %s)", bl ? "+" : "",
						       u->X);
		} else {
			/* a product with C as a top-level factor, and no / or % at the top */
			int has = 0, dd = 0;
			size_t fs = 0, tn = strlen(term);
			for (size_t q = 0; q <= tn; q++) {
				char c2 = term[q];
				if (c2 == '(' || c2 == '[')
					dd++;
				else if (c2 == ')' || c2 == ']')
					dd--;
				if (dd == 0 && (c2 == '/' || c2 == '%'))
					return 0;
				if (c2 && !(dd == 0 && c2 == '*'))
					continue;
				char f[UR_TEXT];
				snprintf(f, sizeof f, "%.*s", (int)(q - fs), term + fs);
				ka_recipe_drop_casts(f);
				strip_parens(f);
				has |= !strcmp(f, u->X);
				fs = q + 1;
			}
			if (!has || !uniform(u, term, upto))
				return 0;
			bl += (size_t)snprintf(base + bl, cap - bl, "%s(%s)",
					       sign == '-' ? "-"
					       : bl        ? "+"
							   : "",
					       term);
		}
		if (bl >= cap)
			return 0;
		ts = p + 1;
	}
	if (ncol != 1)
		return 0;
	if (!base[0])
		snprintf(base, cap, "0");
	return 1;
}

/* The element size and spelling of a pointer parameter's type, or 0. */
static int elem_of(const char *type, char *elem, size_t cap)
{
	static const struct {
		const char *sq, *name;
		int size;
	} tab[] = {{"__half*", "__half", 2},
		   {"half*", "half", 2},
		   {"__nv_bfloat16*", "__nv_bfloat16", 2},
		   {"nv_bfloat16*", "nv_bfloat16", 2},
		   {"short*", "short", 2},
		   {"unsignedshort*", "unsigned short", 2},
		   {"uint16_t*", "uint16_t", 2},
		   {"int16_t*", "int16_t", 2},
		   {"float*", "float", 4},
		   {"int*", "int", 4},
		   {"unsigned*", "unsigned", 4},
		   {"unsignedint*", "unsigned int", 4},
		   {"int32_t*", "int32_t", 4},
		   {"uint32_t*", "uint32_t", 4},
		   {"__half2*", "__half2", 4},
		   {"__nv_bfloat162*", "__nv_bfloat162", 4},
		   {"double*", "double", 8},
		   {"longlong*", "long long", 8},
		   {"int64_t*", "int64_t", 8},
		   {"float2*", "float2", 8}};
	char sq[160];
	size_t n = 0;
	for (const char *q = type; *q && n + 1 < sizeof sq; q++)
		if (!isspace((unsigned char)*q))
			sq[n++] = *q;
	sq[n] = 0;
	for (char *q; (q = strstr(sq, "__restrict__"));)
		memmove(q, q + 12, strlen(q + 12) + 1);
	for (char *q; (q = strstr(sq, "const"));)
		memmove(q, q + 5, strlen(q + 5) + 1);
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (!strcmp(sq, tab[i].sq)) {
			snprintf(elem, cap, "%s", tab[i].name);
			return tab[i].size;
		}
	/* a name of a type (a typedef, a template parameter): its size is nvcc's */
	size_t sl = strlen(sq);
	elem[0] = 0;
	if (sl > 1 && sq[sl - 1] == '*' && !isdigit((unsigned char)sq[0])) {
		for (size_t i = 0; i + 1 < sl; i++)
			if (!is_ident(sq[i]))
				return 0;
		snprintf(elem, cap, "%.*s", (int)(sl - 1), sq);
	}
	return 0;
}

/* The site of parameter p at row base base (a new one when none). */
static int site_of(ur *u, int p, const char *base)
{
	for (int i = 0; i < u->nsites; i++)
		if (u->s[i].p == p && !strcmp(u->s[i].base, base))
			return i;
	if (u->nsites == UR_SITES)
		return -1;
	ur_site *s = &u->s[u->nsites];
	memset(s, 0, sizeof *s);
	s->p = p;
	snprintf(s->base, sizeof s->base, "%s", base);
	s->size = elem_of(u->c->k->params[p].type, s->elem, sizeof s->elem);
	return u->nsites++;
}

/* Split statement text (tight, ending in ';') into declarators: 1 with the
 * items appended (kind unset), 0 when it is no plain declaration. */
static int split_decl(ur *u, const char *st)
{
	size_t p = 0;
	while (is_ident(st[p]) || st[p] == ' ' || st[p] == '*')
		p++;
	if (st[p] != '=')
		return 0;
	size_t ne = p, ns = ne;
	while (ns > 0 && is_ident(st[ns - 1]))
		ns--;
	if (ns == ne || ns == 0)
		return 0;
	char type[96];
	snprintf(type, sizeof type, "%.*s", (int)ns, st);
	size_t tl = strlen(type);
	while (tl && type[tl - 1] == ' ')
		type[--tl] = 0;
	if (!tl || !is_ident(type[0]))
		return 0;
	char w[64];
	word_at(type, 0, w, sizeof w);
	static const char *const kw[] = {"return", "if",     "else", "for", "while",
					 "do",     "switch", "goto", "case"};
	for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
		if (!strcmp(w, kw[i]))
			return 0;
	for (;;) {
		if (u->n == UR_ITEMS)
			return 0;
		ur_item *it = &u->it[u->n];
		memset(it, 0, sizeof *it);
		snprintf(it->type, sizeof it->type, "%s", type);
		snprintf(it->name, sizeof it->name, "%.*s", (int)(ne - ns), st + ns);
		if (st[ne] != '=')
			return 0;
		size_t q = ne + 1, is = q;
		int d = 0;
		for (; st[q]; q++) {
			if (strchr("([{", st[q]))
				d++;
			else if (strchr(")]}", st[q]))
				d--;
			else if (d == 0 && (st[q] == ',' || st[q] == ';'))
				break;
		}
		if (!st[q] || q - is >= UR_TEXT)
			return 0;
		snprintf(it->text, sizeof it->text, "%.*s", (int)(q - is), st + is);
		u->n++;
		if (st[q] == ';')
			return st[q + 1] == 0;
		ns = q + 1;
		ne = ns;
		while (is_ident(st[ne]))
			ne++;
		if (ne == ns)
			return 0;
	}
}

/* Replace `I / C` by ka_r and `I % C` by ka_c in s (C the first divisor
 * seen, then that one only); 0 when the text does not fit. */
static int divmod(ur *u, char *s, size_t cap)
{
	char out[UR_TEXT];
	size_t n = 0, vl = strlen(u->var);
	for (size_t p = 0; s[p];) {
		if (word_start(s, p) && !strncmp(s + p, u->var, vl) && !is_ident(s[p + vl]) &&
		    (s[p + vl] == '/' || s[p + vl] == '%') && word_start(s, p + vl + 1) &&
		    (p == 0 || !strchr("*/%~!", s[p - 1])) &&
		    !(p > 0 && s[p - 1] == '-' && (p < 2 || !(is_ident(s[p - 2]) || s[p - 2] == ')')))) {
			char w[KA_CSRC_NAME];
			size_t q = word_at(s, p + vl + 1, w, sizeof w);
			int pi = ka_csrc_param_index(u->c->k, w);
			const char *ty = pi >= 0 ? u->c->k->params[pi].type : "";
			if (!strchr("([.", s[q]) && !(s[q] == '-' && s[q + 1] == '>') && pi >= 0 &&
			    !u->c->k->params[pi].is_pointer && !strstr(ty, "float") &&
			    !strstr(ty, "double") && !strstr(ty, "half") && !strstr(ty, "bfloat") &&
			    (!u->X[0] || !strcmp(u->X, w))) {
				snprintf(u->X, sizeof u->X, "%s", w);
				const char *r = s[p + vl] == '/' ? "ka_r" : "ka_c";
				if (n + 4 >= sizeof out)
					return 0;
				memcpy(out + n, r, 4);
				n += 4;
				p = q;
				continue;
			}
		}
		if (n + 1 >= sizeof out)
			return 0;
		out[n++] = s[p++];
	}
	out[n] = 0;
	if (n + 1 > cap)
		return 0;
	memcpy(s, out, n + 1);
	return 1;
}

/* Which pointer parameters the body writes (through p[...] or a local
 * pointer computed from p). */
static void find_written(ur *u)
{
	const ka_csrc_kernel *k = u->c->k;
	for (int j = 0; j < u->n; j++) {
		const char *tx = u->it[j].text;
		for (size_t p = 0; tx[p]; p++) {
			if (!word_start(tx, p))
				continue;
			char w[64];
			size_t q = word_at(tx, p, w, sizeof w);
			int pi = ka_csrc_param_index(k, w);
			if (pi < 0 || !k->params[pi].is_pointer || tx[q] != '[')
				continue;
			size_t m = match(tx, q);
			if (m != NPOS && (assigns_after(tx, m + 1) || assigns_before(tx, p)))
				u->written[pi] = 1;
		}
	}
	/* through a local pointer: `T *x = P + ...;` then `*x = ...` or `x[...] = ...` */
	for (int i = 0; i < u->n; i++) {
		if (u->it[i].kind == IT_STMT || !strchr(u->it[i].type, '*'))
			continue;
		const char *nm = u->it[i].name;
		for (int j = 0; j < u->n; j++) {
			const char *tx = u->it[j].text;
			size_t len = strlen(tx), l = strlen(nm);
			for (size_t p = ka_csrc_find_word_pp(tx, 0, len, nm); p != NPOS;
			     p = ka_csrc_find_word_pp(tx, p + l, len, nm)) {
				size_t q = p + l;
				int wr = (p > 0 && tx[p - 1] == '*' &&
					  (assigns_after(tx, q) || assigns_before(tx, p - 1)));
				if (tx[q] == '[') {
					size_t m = match(tx, q);
					wr |= m != NPOS && assigns_after(tx, m + 1);
				}
				if (!wr)
					continue;
				for (int pi = 0; pi < k->nparams; pi++)
					if (k->params[pi].is_pointer &&
					    ka_csrc_has_word(u->it[i].text, 0, strlen(u->it[i].text),
							     k->params[pi].name))
						u->written[pi] = 1;
			}
		}
	}
}

/* 1 when the '*' at tx[star] is a dereference, not a product: nothing
 * before it that ends an operand, or a cast `(T)` (a parenthesized run of
 * words and '*' that no name or bracket precedes). */
static int deref_at(const char *tx, size_t star)
{
	if (star == 0)
		return 1;
	char b = tx[star - 1];
	if (is_ident(b) || b == ']')
		return 0;
	if (b != ')')
		return 1;
	size_t q = star - 1;
	while (q > 0 && tx[q - 1] != '(') {
		char ch = tx[q - 1];
		if (!is_ident(ch) && ch != ' ' && ch != '*')
			return 0;
		q--;
	}
	if (q == 0 || q == star - 1)
		return 0;
	return q < 2 || !(is_ident(tx[q - 2]) || tx[q - 2] == ')' || tx[q - 2] == ']');
}

/* Mark an element text: each site access as "\1K\2"; KA_OK or a decline. */
static int mark(ur *u, int upto, const char *tx, char *out, size_t cap)
{
	ka_recipe_ctx *c = u->c;
	const ka_csrc_kernel *k = c->k;
	size_t n = 0;
	for (size_t p = 0; tx[p];) {
		char w[64];
		if (!word_start(tx, p)) {
			size_t q = p + 1;
			if (is_ident(tx[p]))
				while (is_ident(tx[q]))
					q++;
			if (n + (q - p) >= cap)
				return ka_recipe_decline(c, "the element body is too long");
			memcpy(out + n, tx + p, q - p);
			n += q - p;
			p = q;
			continue;
		}
		size_t q = word_at(tx, p, w, sizeof w);
		int pi = ka_csrc_param_index(k, w), si = -1, store = 0, upd = 0;
		const ur_item *l = local_of(u, w, upto);
		size_t from = p, to = q;
		if (pi >= 0 && k->params[pi].is_pointer) {
			if (tx[q] != '[')
				return ka_recipe_decline(c, "%s is used other than as %s[...] (in `%s`)", w,
							 w, tx);
			size_t m = match(tx, q);
			if (m == NPOS)
				return ka_recipe_decline(c, "cannot read `%s`", tx);
			char E[UR_TEXT], base[UR_TEXT];
			snprintf(E, sizeof E, "%.*s", (int)(m - q - 1), tx + q + 1);
			if (p > 0 && tx[p - 1] == '&' && (p < 2 || tx[p - 2] != '&'))
				return ka_recipe_decline(c, "the address of %s[%s] is taken", w, E);
			to = m + 1;
			if (col_form(u, E, upto, base, sizeof base)) {
				si = site_of(u, pi, base);
				if (si < 0)
					return ka_recipe_decline(c, "more than %d accesses", UR_SITES);
				store = tx[to] == '=' && tx[to + 1] != '=' && from == 0;
				upd = !store && (assigns_after(tx, to) || assigns_before(tx, from));
			} else if (!uniform(u, E, upto) || assigns_after(tx, to) ||
				   assigns_before(tx, from)) {
				return ka_recipe_decline(
					c,
					"%s[%s]: the index is neither <row> * %s + <column> nor "
					"uniform in the row",
					w, E, u->X);
			} else {
				/* a row-uniform read stays as written */
				if (n + (to - from) >= cap)
					return ka_recipe_decline(c, "the element body is too long");
				memcpy(out + n, tx + from, to - from);
				n += to - from;
				p = to;
				continue;
			}
		} else if (l && l->kind == IT_PTRALIAS) {
			if (p > 0 && tx[p - 1] == '*' && deref_at(tx, p - 1)) {
				from = p - 1;
				n--; /* the '*' already copied */
			} else if (tx[q] == '[' && tx[q + 1] == '0' && tx[q + 2] == ']') {
				to = q + 3;
			} else {
				return ka_recipe_decline(
					c, "the pointer %s is used other than as *%s (in `%s`)", w, w, tx);
			}
			si = l->site;
			store = tx[to] == '=' && tx[to + 1] != '=' && from == 0;
			upd = !store && (assigns_after(tx, to) || assigns_before(tx, from));
		} else if (is_col(u, w) || !strcmp(w, u->var)) {
			return ka_recipe_decline(
				c, "the column %s is used other than as the contiguous index (in `%s`)", w,
				tx);
		}
		if (si < 0) {
			if (n + (q - p) >= cap)
				return ka_recipe_decline(c, "the element body is too long");
			memcpy(out + n, tx + p, q - p);
			n += q - p;
			p = q;
			continue;
		}
		if (store || upd)
			u->s[si].written = 1;
		if (!store || upd)
			u->s[si].read = 1;
		if (n + 8 >= cap)
			return ka_recipe_decline(c, "the element body is too long");
		n += (size_t)snprintf(out + n, cap - n, "\1%d\2", si);
		p = to;
	}
	out[n] = 0;
	return KA_OK;
}

/* Append a marked text with site K written as pre K post. */
static void expand(ka_buf *b, const char *m, const char *pre, const char *post)
{
	for (const char *q = m; *q; q++) {
		if (*q != '\1') {
			ka_buf_addc(b, *q);
			continue;
		}
		int k = atoi(q + 1);
		ka_buf_printf(b, "%s%d%s", pre, k, post);
		q = strchr(q, '\2');
	}
}

/* The element body (its declarations and statements), each access site
 * written as pre<N>post (ka_a0[ka_k] on the register copy, ka_p0[ka_c] on
 * the row pointer), one a line after indent. */
static void element_body(ka_buf *b, const ur *u, const char *indent, const char *pre, const char *post)
{
	for (int i = 0; i < u->n; i++) {
		const ur_item *it = &u->it[i];
		if (it->kind != IT_ELEMDECL && it->kind != IT_STMT)
			continue;
		ka_buf_adds(b, indent);
		if (it->kind == IT_ELEMDECL)
			ka_buf_printf(b, "%s %s = ", it->type, it->name);
		expand(b, it->mark, pre, post);
		ka_buf_adds(b, it->kind == IT_ELEMDECL ? ";\n" : "\n");
	}
}

static const char *word_type(int bytes)
{
	return bytes == 16 ? "uint4" : bytes == 8 ? "uint2" : bytes == 4 ? "unsigned int" : "unsigned short";
}

/* The row count over the parameters, for the launch: the bound's product
 * with one factor C dropped, or the count rounded up to whole rows. */
static void rows_host(const ka_recipe_ew *sh, const char *X, char *out, size_t cap)
{
	char sq[300], pc[256];
	ka_recipe_poly p;
	snprintf(sq, sizeof sq, "%s", sh->count);
	ka_recipe_drop_casts(sq);
	if (ka_recipe_poly_read(sq, NULL, &p) && p.n == 1 && p.t[0].coef > 0) {
		ka_recipe_poly_term *t = &p.t[0];
		for (int f = 0; f < t->nf; f++)
			if (!strcmp(t->f[f], X)) {
				memmove(&t->f[f], &t->f[f + 1], (size_t)(t->nf - f - 1) * sizeof t->f[0]);
				t->nf--;
				if (ka_recipe_poly_c(&p, pc, sizeof pc)) {
					snprintf(out, cap, "(%s)", pc);
					return;
				}
				break;
			}
	}
	snprintf(out, cap, "((long long)%s > 0 ? ((long long)%s + (long long)%s - 1) / (long long)%s : 0)", X,
		 sh->count, X, X);
}

static const char *const grid[] = {"block=256 cap=2112", "block=512 cap=1056", "block=128 cap=4224", NULL};

/* Read the body into items; KA_OK or a decline. */
static int read_body(ur *u, const ka_recipe_ew *sh)
{
	ka_recipe_ctx *c = u->c;
	const char *t = c->m->text;
	size_t s = ka_csrc_skip_blank(t, sh->body_e, sh->body_s), e = sh->body_e;
	if (s < e && t[s] == '{') {
		size_t m = ka_csrc_match(t, c->m->len, s);
		if (m != NPOS && ka_csrc_skip_blank(t, e, m + 1) >= e) {
			e = m;
			s = s + 1;
		}
	}
	/* the declarations replayed before the body, then its statements */
	size_t rs[KA_RECIPE_EW_REP + 64], re[KA_RECIPE_EW_REP + 64];
	int nr = 0;
	for (int i = 0; i < sh->nrep; i++, nr++) {
		rs[nr] = sh->rep_s[i];
		re[nr] = sh->rep_e[i];
	}
	for (size_t i = ka_csrc_skip_blank(t, e, s), j; i < e; i = ka_csrc_skip_blank(t, e, j)) {
		j = ka_csrc_stmt_end(t, e, i);
		if (j == NPOS || j > e)
			return ka_recipe_decline(c, "cannot read the body's statements");
		if (nr == (int)(sizeof rs / sizeof rs[0]))
			return ka_recipe_decline(c, "the body has too many statements");
		rs[nr] = i;
		re[nr++] = j;
	}
	for (int i = 0; i < nr; i++) {
		char st[UR_TEXT];
		if (!tighten(t, rs[i], re[i], st, sizeof st) || !divmod(u, st, sizeof st))
			return ka_recipe_decline(c, "a statement of the body is too long");
		if (!st[0] || !strcmp(st, ";"))
			continue;
		int n0 = u->n;
		if (!split_decl(u, st)) {
			u->n = n0;
			if (u->n == UR_ITEMS)
				return ka_recipe_decline(c, "the body has too many statements");
			ur_item *it = &u->it[u->n++];
			memset(it, 0, sizeof *it);
			it->kind = IT_STMT;
			snprintf(it->text, sizeof it->text, "%s", st);
		} else {
			for (int j = n0; j < u->n; j++)
				u->it[j].kind = -1;
		}
	}
	return KA_OK;
}

static int classify(ur *u)
{
	ka_recipe_ctx *c = u->c;
	snprintf(u->cols[0], sizeof u->cols[0], "ka_c");
	u->ncols = 1;
	for (int i = 0; i < u->n; i++) {
		ur_item *it = &u->it[i];
		if (it->kind == IT_STMT)
			continue;
		char base[UR_TEXT];
		if (strchr(it->type, '*')) {
			/* T *x = P + <row> * C + <column>, or &P[...] */
			char pn[64] = "", E[UR_TEXT] = "";
			const char *x = it->text;
			if (x[0] == '&' && word_start(x, 1)) {
				size_t q = word_at(x, 1, pn, sizeof pn), m = x[q] == '[' ? match(x, q) : NPOS;
				if (m != NPOS && !x[m + 1])
					snprintf(E, sizeof E, "%.*s", (int)(m - q - 1), x + q + 1);
			} else if (word_start(x, 0)) {
				size_t q = word_at(x, 0, pn, sizeof pn);
				if (x[q] == '+')
					snprintf(E, sizeof E, "%s", x + q + 1);
			}
			int pi = ka_csrc_param_index(c->k, pn);
			if (!E[0] || pi < 0 || !c->k->params[pi].is_pointer ||
			    !col_form(u, E, i, base, sizeof base))
				return ka_recipe_decline(
					c, "the local pointer %s = %s is not P + <row> * %s + <column>",
					it->name, it->text, u->X);
			it->kind = IT_PTRALIAS;
			it->site = site_of(u, pi, base);
			if (it->site < 0)
				return ka_recipe_decline(c, "more than %d accesses", UR_SITES);
		} else if (is_col(u, it->text) && u->ncols < 8) {
			it->kind = IT_COLALIAS;
			/* a copy, not snprintf: the name lives inside *u too */
			size_t len = strnlen(it->name, sizeof u->cols[0] - 1);
			memcpy(u->cols[u->ncols], it->name, len);
			u->cols[u->ncols++][len] = '\0';
		} else {
			it->kind = uniform(u, it->text, i) ? IT_UNIFORM : IT_ELEMDECL;
		}
	}
	/* a row-uniform or column local assigned after its declaration is no longer either */
	for (int i = 0; i < u->n; i++) {
		const ur_item *it = &u->it[i];
		if (it->kind != IT_UNIFORM && it->kind != IT_COLALIAS && it->kind != IT_PTRALIAS)
			continue;
		for (int j = 0; j < u->n; j++) {
			const char *tx = u->it[j].text;
			size_t len = strlen(tx), l = strlen(it->name);
			for (size_t p = ka_csrc_find_word_pp(tx, 0, len, it->name); p != NPOS;
			     p = ka_csrc_find_word_pp(tx, p + l, len, it->name))
				if (assigns_before(tx, p) ||
				    (assigns_after(tx, p + l) && !(p > 0 && tx[p - 1] == '*')))
					return ka_recipe_decline(c, "the local %s is assigned in `%s`",
								 it->name, tx);
		}
	}
	return KA_OK;
}

static int unflatten_apply(ka_recipe_ctx *c, ka_buf *out)
{
	ka_recipe_ew sh;
	int rc = ka_recipe_ew_shape_ex(c, &sh, KA_RECIPE_EW_PRODUCT | KA_RECIPE_EW_MODEL);
	if (rc)
		return rc;
	long block = ka_recipe_param(c->params, "block", 256), cap = ka_recipe_param(c->params, "cap", 2112);
	if (block < 64 || block > 1024 || block % 32 || cap < 1 || cap > 65535)
		return ka_recipe_decline(c, "bad parameters '%s'", c->params);
	ur *u = calloc(1, sizeof *u);
	if (!u)
		return KA_ENOMEM;
	u->c = c;
	snprintf(u->var, sizeof u->var, "%s", sh.var);
	rc = read_body(u, &sh);
	if (rc == KA_OK && !u->X[0])
		rc = ka_recipe_decline(
			c, "no %s / C and %s %% C with C an integer parameter: no rows to unflatten", sh.var,
			sh.var);
	if (rc == KA_OK) {
		find_written(u);
		rc = classify(u);
	}
	int nmark = 0;
	for (int i = 0; rc == KA_OK && i < u->n; i++) {
		ur_item *it = &u->it[i];
		if (it->kind != IT_ELEMDECL && it->kind != IT_STMT)
			continue;
		const char *tx = it->text;
		if (strstr(tx, "if(") || strstr(tx, "for(") || strstr(tx, "while(") ||
		    strstr(tx, "switch(") || strchr(tx, '?') || strstr(tx, "&&") || strstr(tx, "||") ||
		    strstr(tx, "return"))
			rc = ka_recipe_decline(
				c,
				"a branch in the element body (`%s`): a vector load would read "
				"what it guards",
				tx);
		else
			rc = mark(u, i, tx, it->mark, sizeof it->mark);
		nmark++;
	}
	int vmax = 0, sym = 0;
	for (int i = 0; rc == KA_OK && i < u->nsites; i++) {
		const ur_site *s = &u->s[i];
		const char *pn = c->k->params[s->p].name;
		if (!s->size && (!s->elem[0] || strcmp(s->elem, u->s[0].elem)))
			rc = ka_recipe_decline(
				c,
				"%s: no vector word for its element type '%s' (a type of unknown "
				"size must be every access's)",
				pn, c->k->params[s->p].type);
		sym |= !s->size;
		for (int j = 0; rc == KA_OK && j < i; j++)
			if (u->s[j].p == s->p && (s->written || u->s[j].written))
				rc = ka_recipe_decline(c,
						       "%s is written and accessed at two row bases (%s, %s)",
						       pn, u->s[j].base, s->base);
		if (s->written && c->k->params[s->p].is_const)
			rc = ka_recipe_decline(c, "%s is const and written", pn);
		if (s->size > vmax)
			vmax = s->size;
	}
	int nw = 0;
	for (int i = 0; i < u->nsites; i++)
		nw += u->s[i].written;
	if (rc == KA_OK && (!u->nsites || !nw || !nmark))
		rc = ka_recipe_decline(c, "no output written as P[<row> * %s + <column>]", u->X);
	if (rc) {
		free(u);
		return rc;
	}
	/* the row-uniform locals that nothing left reads are dropped */
	for (int i = u->n - 1; i >= 0; i--) {
		ur_item *it = &u->it[i];
		it->keep = it->kind == IT_ELEMDECL || it->kind == IT_STMT;
		if (it->kind != IT_UNIFORM)
			continue;
		for (int j = i + 1; j < u->n && !it->keep; j++) {
			const ur_item *o = &u->it[j];
			const char *tx = o->kind == IT_UNIFORM ? (o->keep ? o->text : "")
					 : (o->kind == IT_ELEMDECL || o->kind == IT_STMT) ? o->mark
											  : "";
			it->keep = ka_csrc_has_word(tx, 0, strlen(tx), it->name);
		}
		for (int j = 0; j < u->nsites && !it->keep; j++)
			it->keep = ka_csrc_has_word(u->s[j].base, 0, strlen(u->s[j].base), it->name);
	}
	/* the width: 16 bytes of the widest element, or of the one type whose size
	 * only nvcc knows (sizeof, at compile time) */
	int V = sym ? 0 : 16 / vmax;
	char Vs[32], elem0[32];
	snprintf(elem0, sizeof elem0, "%s", u->s[0].elem);
	if (sym)
		snprintf(Vs, sizeof Vs, "ka_V");
	else
		snprintf(Vs, sizeof Vs, "%d", V);
	const ka_csrc_kernel *k = c->k;
	char X[KA_CSRC_NAME];
	snprintf(X, sizeof X, "%s", u->X);
	ka_buf b;
	ka_buf_init(&b, 1 << 16);
	ka_buf_adds(&b, "{\n");
	ka_recipe_ew_pre(&b, c, &sh);
	if (sym)
		ka_buf_printf(
			&b,
			"\t/* 16 / sizeof(%s) elements a lane per step, as 16-byte words, where the size\n"
			"\t * divides 16 */\n"
			"\tconstexpr int ka_V = sizeof(%s) <= 16 && 16 %% sizeof(%s) == 0 ? (int)(16 / "
			"sizeof(%s)) : 1;\n",
			elem0, elem0, elem0, elem0);
	ka_buf_printf(
		&b,
		"\t/* rows of %s elements (the quotient and remainder of %s by %s), grid-stride over\n"
		"\t * (row, segment) items: a warp takes a whole row; a row of %d elements or more is\n"
		"\t * cut into segments of a block's lanes times %s elements, a block's each */\n"
		"\tconst long long ka_n = (long long)%s, ka_cols = (long long)%s;\n"
		"\tconst long long ka_rows = ka_cols > 0 ? (ka_n + ka_cols - 1) / ka_cols : 0;\n"
		"\tconst bool ka_blk = ka_cols >= %d;\n"
		"\tconst int ka_gsz = ka_blk ? (int)blockDim.x : 32;\n"
		"\tconst int ka_lane = ka_blk ? (int)threadIdx.x : (int)(threadIdx.x & 31);\n"
		"\tconst long long ka_seg = ka_blk ? (long long)blockDim.x * %s : (ka_cols > 0 ? ka_cols : 1);\n"
		"\tconst long long ka_nseg = (ka_cols + ka_seg - 1) / ka_seg;\n"
		"\tconst long long ka_i0 = ka_blk ? (long long)blockIdx.x\n"
		"\t\t\t\t\t : (long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;\n"
		"\tconst long long ka_istep = ka_blk ? (long long)gridDim.x : (long long)gridDim.x * (blockDim.x / "
		"32);\n"
		"\tfor (long long ka_it = ka_i0; ka_it < ka_rows * ka_nseg; ka_it += ka_istep) {\n"
		"\t\tconst long long ka_r = ka_nseg == 1 ? ka_it : ka_it / ka_nseg;\n"
		"\t\tconst long long ka_s0 = ka_nseg == 1 ? 0 : (ka_it - ka_r * ka_nseg) * ka_seg;\n",
		X, sh.var, X, UR_BLOCK_ROW, Vs, sh.count, X, UR_BLOCK_ROW, Vs);
	for (int i = 0; i < u->n; i++)
		if (u->it[i].kind == IT_UNIFORM && u->it[i].keep)
			ka_buf_printf(&b, "\t\t%s %s = %s;\n", u->it[i].type, u->it[i].name, u->it[i].text);
	for (int i = 0; i < u->nsites; i++) {
		const ur_site *s = &u->s[i];
		ka_buf_printf(&b, "\t\t%s%s *const ka_p%d = %s + (%s);\n", s->written ? "" : "const ",
			      s->elem, i, k->params[s->p].name, s->base);
	}
	ka_buf_adds(&b,
		    "\t\tconst long long ka_len = ka_n - ka_r * ka_cols < ka_cols ? ka_n - ka_r * ka_cols : "
		    "ka_cols;\n"
		    "\t\tconst long long ka_end = ka_s0 + ka_seg < ka_len ? ka_s0 + ka_seg : ka_len;\n");
	if (sym)
		ka_buf_printf(
			&b,
			"\t\t/* the vector loop where the row is whole, a multiple of the width, and every\n"
			"\t\t * row pointer aligned */\n"
			"\t\tif (sizeof(%s) <= 16 && 16 %% sizeof(%s) == 0 && ",
			elem0, elem0);
	else
		ka_buf_printf(
			&b,
			"\t\t/* %d elements a lane per step, as words of 16 bytes (of %d bytes per element),\n"
			"\t\t * where the row is whole, a multiple of %d, and every row pointer aligned */\n"
			"\t\tif (",
			V, vmax, V);
	ka_buf_printf(&b, "ka_len == ka_cols && ka_cols %% %s == 0 && ((0", Vs);
	for (int i = 0; i < u->nsites; i++)
		ka_buf_printf(&b, " | ((unsigned long long)ka_p%d & %d)", i, sym ? 15 : V * u->s[i].size - 1);
	ka_buf_printf(
		&b,
		") == 0)) {\n\t\t\tfor (long long ka_v = ka_s0 / %s + ka_lane; ka_v < ka_end / %s; ka_v += "
		"ka_gsz) {\n",
		Vs, Vs);
	for (int i = 0; i < u->nsites; i++) {
		const ur_site *s = &u->s[i];
		const char *wt = sym ? "uint4" : word_type(V * s->size);
		ka_buf_printf(&b, "\t\t\t\t%s ka_w%d", wt, i);
		if (s->read)
			ka_buf_printf(&b, " = reinterpret_cast<const %s *>(ka_p%d)[ka_v]", wt, i);
		ka_buf_printf(&b, ";\n\t\t\t\t%s%s *ka_a%d = reinterpret_cast<%s%s *>(&ka_w%d);\n",
			      s->written ? "" : "const ", s->elem, i, s->written ? "" : "const ", s->elem, i);
	}
	ka_buf_printf(&b, "#pragma unroll\n\t\t\t\tfor (int ka_k = 0; ka_k < %s; ka_k++) {\n", Vs);
	element_body(&b, u, "\t\t\t\t\t", "ka_a", "[ka_k]");
	ka_buf_adds(&b, "\t\t\t\t}\n");
	for (int i = 0; i < u->nsites; i++)
		if (u->s[i].written)
			ka_buf_printf(&b, "\t\t\t\treinterpret_cast<%s *>(ka_p%d)[ka_v] = ka_w%d;\n",
				      sym ? "uint4" : word_type(V * u->s[i].size), i, i);
	ka_buf_adds(&b, "\t\t\t}\n\t\t} else {\n"
			"\t\t\tfor (long long ka_c = ka_s0 + ka_lane; ka_c < ka_end; ka_c += ka_gsz) {\n");
	element_body(&b, u, "\t\t\t\t", "ka_p", "[ka_c]");
	ka_buf_adds(&b, "\t\t\t}\n\t\t}\n\t}\n}");
	free(u);
	/* the host: the items / (items a block) blocks, capped; the kernel walks the rest */
	char host[2600], gridf[512], bs[32];
	char rows[1024];
	rows_host(&sh, X, rows, sizeof rows);
	long rpb = block / 32, seg = block * (V ? V : 1);
	snprintf(host, sizeof host,
		 "((long long)%s >= %d ? %s * (((long long)%s + %ld) / %ld) : (%s + %ld) / %ld)", X,
		 UR_BLOCK_ROW, rows, X, seg - 1, seg, rows, rpb - 1, rpb);
	snprintf(gridf, sizeof gridf, "(unsigned)(@N < 1 ? 1 : @N < %ld ? @N : %ld)", cap, cap);
	snprintf(bs, sizeof bs, "%ld", block);
	ka_recipe_edits ed = {0};
	rc = ka_recipe_drop_launch_bounds(c, &ed);
	if (rc == KA_OK)
		rc = ka_recipe_new_body(c, &ed, &b, block);
	if (rc == KA_OK)
		rc = ka_recipe_relaunch(c, &ed, host, gridf, bs);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, c->m->text, c->m->len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&b);
	return rc;
}

const ka_recipe ka_recipe_unflatten_rows = {
	.name = "unflatten-rows",
	.summary = "a flat element index split as i / C, i % C -> a warp (or block) per row, row values once "
		   "per row, 16-byte loads and stores along the row",
	.rules = "gmem-unpacked-2byte gmem-indirect-gather gmem-scalar-not-vectorized",
	.grid = grid,
	.apply = unflatten_apply,
};
