/* recipes/recipe_launch.c: the launch-tune recipe (rules launch-tiny-blocks,
 * launch-tail-effect, launch-block-not-multiple-of-warp): another block
 * size for a kernel whose launches read
 *     k<<<(...(COUNT + K - 1) / K...), K, ...>>>
 * with K an integer literal; both K's become B (and K - 1 becomes B - 1).
 * It declines when the kernel could depend on its block size: shared
 * memory, barriers, __launch_bounds__, a use of the thread, block or grid
 * ids other than the global index its first statement declares, a literal
 * K, or an identifier it cannot resolve (a macro or a constexpr could be
 * the block size); when a launch of it is not one it can read; or when the
 * kernel does not guard its index by the COUNT of each launch (the threads
 * past COUNT, whose number the block changes, would not all be idle).
 * A block size held in a variable (any scope, const, constexpr or not, its
 * initializer folded: `1 << 10`), or read through a grid variable
 * `int g = (COUNT + B - 1) / B;`, or a `#define B N`, is read from the
 * analyzer's model of the file (the launch's call, the declaration its
 * block names) and set where it is defined, so every launch that reads it
 * follows; that is done only when nothing but the launches of this kernel
 * and their grid variables reads the name, and declines otherwise, naming
 * the line (a parameter of the launching function, a template parameter,
 * a value that does not fold decline as such). */
#include "recipes/recipe.h"
#include "analyzer/kmodel.h"
#include "util/error.h"
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static int in_list(const char *const *list, const char *w, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && !memcmp(*list, w, n))
			return 1;
	return 0;
}

static const char *const type_words[] = {
	"const",    "volatile", "float",  "double",  "int",          "long",    "short",    "char",
	"unsigned", "signed",   "bool",   "auto",    "size_t",       "int64_t", "uint64_t", "int32_t",
	"uint32_t", "float2",   "float4", "double2", "__restrict__", NULL};
static const char *const known_words[] = {"if",
					  "else",
					  "for",
					  "while",
					  "do",
					  "return",
					  "break",
					  "continue",
					  "switch",
					  "case",
					  "default",
					  "sizeof",
					  "true",
					  "false",
					  "nullptr",
					  "static_cast",
					  "reinterpret_cast",
					  "warpSize",
					  "INFINITY",
					  "NAN",
					  "FLT_MAX",
					  "FLT_MIN",
					  "FLT_EPSILON",
					  "DBL_MAX",
					  "INT_MAX",
					  "INT_MIN",
					  "M_PI",
					  "atomicAdd",
					  "atomicMax",
					  "atomicMin",
					  "atomicExch",
					  "atomicCAS",
					  NULL};

/* The next identifier or number of the squeezed text sq at or after i:
 * its offset, and its length in *n (0 at the end); string and character
 * literals are skipped. */
static size_t next_token(const char *sq, size_t i, size_t *n)
{
	for (;;) {
		while (sq[i] && !is_ident(sq[i]) && sq[i] != '"' && sq[i] != '\'')
			i++;
		if (sq[i] == '"' || sq[i] == '\'') {
			char q = sq[i++];
			while (sq[i] && sq[i] != q)
				i += sq[i] == '\\' && sq[i + 1] ? 2 : 1;
			i += sq[i] != 0;
			continue;
		}
		size_t b = i;
		while (is_ident(sq[i]) || (sq[b] >= '0' && sq[b] <= '9' && sq[i] == '.'))
			i++;
		*n = i - b;
		return b;
	}
}

/* 1 when the comma at sq[at] separates declarators: its statement starts
 * with a type word and the comma is outside every bracket. */
static int declarator_list(const char *sq, size_t at)
{
	int depth = 0;
	size_t b = at;
	for (; b > 0 && !strchr(";{}", sq[b - 1]); b--) {
		depth += sq[b - 1] == ')' || sq[b - 1] == ']';
		depth -= sq[b - 1] == '(' || sq[b - 1] == '[';
		if (depth < 0)
			return 0;
	}
	size_t n = 0;
	while (is_ident(sq[b + n]))
		n++;
	return depth == 0 && in_list(type_words, sq + b, n);
}

/* KA_OK when the body computes a function of its global index alone: the
 * first statement is that index along x, nothing after it reads the thread,
 * block or grid ids, no literal equals the old block size kk, and every
 * identifier is a parameter, a local it declares, a keyword, a built-in
 * type or a math function.  An identifier it cannot resolve (a macro, a
 * constexpr, a global, a device function) could hold the block size. */
static int block_free(ka_recipe_ctx *c, long kk)
{
	const char *t = c->m->text;
	const ka_csrc_kernel *k = c->k;
	char var[64];
	size_t s0 = ka_csrc_skip_blank(t, k->body_close, k->body_open + 1),
	       e0 = ka_csrc_stmt_end(t, k->body_close, s0);
	if (e0 == (size_t)-1 || !ka_recipe_is_tid_decl(t, s0, e0, var, sizeof var))
		return ka_recipe_decline(c, "the first statement is not a global thread index along x");
	static const char *const ids[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
	for (size_t i = 0; i < 4; i++)
		if (ka_csrc_has_word(t, e0, k->body_close, ids[i]))
			return ka_recipe_decline(c, "the body uses %s past its index", ids[i]);
	static char sq[16384];
	if (!ka_csrc_squeeze(t, e0, k->body_close, sq, sizeof sq))
		return ka_recipe_decline(c, "the body is too long");
	/* the locals: a name right after a type word, or after `T *` */
	static char locals[64][64];
	int nl = 0;
	snprintf(locals[nl++], sizeof locals[0], "%s", var);
	size_t pb = 0, pn = 0, n;
	for (size_t i = next_token(sq, 0, &n); n; pb = i, pn = n, i = next_token(sq, i + n, &n)) {
		size_t gap = i - pb - pn; /* `T v`, `T *v`, `T &v` */
		int decl = pn && in_list(type_words, sq + pb, pn) && gap &&
			   strspn(sq + pb + pn, " *&") >= gap;
		if (!decl && i && sq[i - 1] == ',') /* `T a = E, b` */
			decl = declarator_list(sq, i - 1);
		if (decl && !in_list(type_words, sq + i, n) && nl < 64 && n < sizeof locals[0])
			snprintf(locals[nl++], sizeof locals[0], "%.*s", (int)n, sq + i);
	}
	for (size_t i = next_token(sq, 0, &n); n; i = next_token(sq, i + n, &n)) {
		const char *w = sq + i;
		if (*w >= '0' && *w <= '9') {
			char num[64], *end;
			snprintf(num, sizeof num, "%.*s", (int)(n < 63 ? n : 63), w);
			double v = (num[0] == '0' && (num[1] == 'x' || num[1] == 'X'))
					   ? (double)strtoull(num, &end, 16)
					   : strtod(num, &end);
			if (v == (double)kk)
				return ka_recipe_decline(
					c, "the body uses the literal %.*s (its block size?)", (int)n, w);
			continue;
		}
		if (i > 0 && (w[-1] == '.' || (w[-1] == '>' && i > 1 && w[-2] == '-')))
			continue; /* a member */
		int ok = in_list(type_words, w, n) || in_list(known_words, w, n) ||
			 (w[n] == '(' && ka_recipe_pure_function(w, n));
		for (int p = 0; p < k->nparams && !ok; p++)
			ok = strlen(k->params[p].name) == n && !memcmp(k->params[p].name, w, n);
		for (int l = 0; l < nl && !ok; l++)
			ok = strlen(locals[l]) == n && !memcmp(locals[l], w, n);
		if (!ok)
			return ka_recipe_decline(c, "the body uses '%.*s', which could hold the block size",
						 (int)n, w);
	}
	return KA_OK;
}

/* s without the parentheses that enclose all of it, in place. */
static char *unparen(char *s)
{
	for (size_t n = strlen(s); n >= 2 && s[0] == '(' && ka_csrc_match(s, n, 0) == n - 1; n -= 2) {
		s[n - 1] = 0;
		s++;
	}
	return s;
}

/* KA_OK when every thread the new block adds or drops past the count is
 * idle: the kernel guards its index, `if (i < n)` or `if (i >= n)
 * return;` (or loops over the grid to n), with n the parameter whose
 * argument in launch l is the COUNT the grid rounds up, grid[..at) being
 * `(COUNT`.  Without that guard the threads past COUNT run the body, and
 * another block size changes how many of them there are (a kernel that
 * writes y[i] unguarded writes other elements). */
static int count_guarded(ka_recipe_ctx *c, const ka_csrc_launch *l, const char *grid, const char *at)
{
	ka_recipe_ew sh;
	char why[sizeof c->why];
	if (ka_recipe_ew_shape(c, &sh) != KA_OK) {
		snprintf(why, sizeof why, "%s", c->why);
		return ka_recipe_decline(c,
					 "no guard of the index by the launch's count, so the threads past "
					 "it would change with the block (%.150s)",
					 why);
	}
	size_t open = (size_t)(at - grid);
	for (int depth = 0; open > 0;) {
		char ch = grid[--open];
		if (ch == ')')
			depth++;
		else if (ch == '(' && depth-- == 0)
			break;
	}
	int pi = ka_csrc_param_index(c->k, sh.count);
	char count[512], arg[512];
	if (grid[open] != '(' || pi < 0 || pi >= l->nargs ||
	    !ka_csrc_squeeze(c->m->text, l->args[pi].s, l->args[pi].e, arg, sizeof arg))
		return ka_recipe_decline(c, "cannot tie the grid '%s' to the guard's bound %s", grid,
					 sh.count);
	snprintf(count, sizeof count, "%.*s", (int)(at - grid - (ptrdiff_t)open - 1), grid + open + 1);
	if (strcmp(unparen(count), unparen(arg)))
		return ka_recipe_decline(c, "the grid covers '%s', not the guard's bound %s (here '%s')",
					 count, sh.count, arg);
	return KA_OK;
}

/* ---- a block size held in a variable, read from the analyzer's model ---- */

/* n without parentheses, casts and the implicit conversion to dim3. */
static const ka_node *peel(const ka_node *n)
{
	for (;;) {
		if (n && n->nkids == 1 &&
		    (n->kind == KN_PAREN || n->kind == KN_CAST || n->kind == KN_OTHER)) {
			n = n->kids[0];
			continue;
		}
		/* dim3(x), its y and z the default arguments or 1 */
		int one_d = n && n->kind == KN_CALL && n->name && !strcmp(n->name, "dim3") && n->nkids >= 1 &&
			    n->nkids <= 3;
		for (int i = 1; one_d && i < n->nkids; i++) {
			const ka_node *k = n->kids[i];
			while (k && (k->kind == KN_CAST || k->kind == KN_PAREN) && k->nkids == 1)
				k = k->kids[0];
			one_d = k && ((k->kind == KN_OTHER && k->nkids == 0) ||
				      (k->kind == KN_CAST && k->nkids == 0) ||
				      (k->kind == KN_INT && k->ival == 1));
		}
		if (!one_d)
			return n;
		n = n->kids[0];
	}
}

/* n's integer value when it is constant: literals, sizeof, enumerators
 * and constexpr, and variables whose initializer is constant (a variable
 * other than the one the launch names must be const). */
static int fold(const ka_node *n, int depth, int64_t *v)
{
	int64_t a, b;
	n = peel(n);
	if (!n || depth > 8)
		return 0;
	switch (n->kind) {
	case KN_INT:
		*v = n->ival;
		return 1;
	case KN_SIZEOF:
		*v = n->ival;
		return n->ival >= 0;
	case KN_DECLREF:
		if (n->const_known) {
			*v = n->ival;
			return 1;
		}
		return n->ref && n->ref->kind == KD_VAR && n->ref->init && (n->ref->tflags & KT_INT) &&
		       (depth == 0 || (n->ref->flags & KDF_CONSTQ)) && fold(n->ref->init, depth + 1, v);
	case KN_UNOP:
		if (n->nkids != 1 || !fold(n->kids[0], depth + 1, &a))
			return 0;
		*v = n->op == OP_MINUS ? -a : a;
		return n->op == OP_MINUS || n->op == OP_PLUS;
	case KN_BINOP:
		if (n->nkids != 2 || !fold(n->kids[0], depth + 1, &a) || !fold(n->kids[1], depth + 1, &b) ||
		    a < -(1 << 30) || a > (1 << 30) || b < -(1 << 30) || b > (1 << 30))
			return 0;
		switch (n->op) {
		case OP_ADD:
			*v = a + b;
			return 1;
		case OP_SUB:
			*v = a - b;
			return 1;
		case OP_MUL:
			*v = a * b;
			return 1;
		case OP_DIV:
			*v = b ? a / b : 0;
			return b != 0;
		case OP_REM:
			*v = b ? a % b : 0;
			return b != 0;
		case OP_SHL:
			*v = b >= 0 && b < 31 ? a << b : 0;
			return b >= 0 && b < 31 && a >= 0;
		case OP_SHR:
			*v = b >= 0 && b < 31 ? a >> b : 0;
			return b >= 0 && b < 31;
		default:
			return 0;
		}
	default:
		return 0;
	}
}

/* The launch call of the TU that starts at s (the kernel's name) or whose
 * block argument starts in [s, e). */
static const ka_node *find_cfg(const ka_node *n, size_t s, size_t e, int depth)
{
	if (!n || depth > 200)
		return NULL;
	if (n->kind == KN_CALL && n->cfg && n->cfg->nkids >= 2 && n->cfg->kids[1] &&
	    ((!n->loc.in_macro && n->loc.begin == (int)s) ||
	     (!n->cfg->kids[1]->loc.in_macro && n->cfg->kids[1]->loc.begin >= (int)s &&
	      n->cfg->kids[1]->loc.begin < (int)e)))
		return n->cfg;
	for (int i = 0; i < n->nkids; i++) {
		const ka_node *r = find_cfg(n->kids[i], s, e, depth + 1);
		if (r)
			return r;
	}
	return NULL;
}

/* The variable config slot q of launch l names (NULL when it names none),
 * from the model of the file; *why says why not when it is a name the
 * model does not tie to a variable of this file. */
static const ka_decl *slot_var(const ka_kmodel_doc *doc, const ka_csrc_launch *l, int q, const char **why,
			       int macro_init)
{
	const ka_node *cfg = NULL;
	*why = "in a launch the kernel model did not lower";
	for (const ka_decl *f = doc->tu->funcs; f && !cfg; f = f->next)
		cfg = find_cfg(f->body, l->start, l->start, 0);
	for (const ka_decl *f = doc->tu->funcs; f && !cfg; f = f->next)
		cfg = find_cfg(f->body, l->cfg[1].s, l->cfg[1].e, 0);
	if (!cfg)
		return NULL;
	const ka_node *n = peel(cfg->kids[q]);
	if (!n || n->kind != KN_DECLREF || !n->ref) {
		*why = "not a variable";
		return NULL;
	}
	const ka_decl *d = n->ref;
	if (d->kind == KD_PARAM) {
		*why = "a parameter of the function that launches (its callers set it)";
		return NULL;
	}
	if (d->kind == KD_TPARAM) {
		*why = "a template parameter";
		return NULL;
	}
	if (d->kind != KD_VAR || !d->init || (d->init->loc.in_macro && !macro_init) || d->loc.in_macro ||
	    !d->loc.file || !doc->tu->main_file || strcmp(d->loc.file, doc->tu->main_file)) {
		*why = "a variable declared in another file, by a macro or without an initializer";
		return NULL;
	}
	return d;
}

/* Where a launch's block size is defined: a variable's initializer or a
 * macro's body, the text the rewrite sets. */
typedef struct defsite {
	char name[KA_CSRC_NAME];
	size_t s, e;             /* the value's text */
	size_t ds, de;           /* the definition, whose own words are no use */
	size_t scope_s, scope_e; /* where the name is visible */
} defsite;

/* The site of the variable d: its block, or the file. */
static void var_site(const ka_recipe_ctx *c, const ka_decl *d, const ka_node *v, defsite *site)
{
	size_t b = (d->flags & KDF_FILE_SCOPE)
			   ? NPOS
			   : ka_csrc_block_of(c->m->text, c->m->len, (size_t)d->loc.begin);
	size_t m = b == NPOS ? NPOS : ka_csrc_match(c->m->text, c->m->len, b);
	snprintf(site->name, sizeof site->name, "%s", d->name);
	site->scope_s = m == NPOS ? 0 : b;
	site->scope_e = m == NPOS ? c->m->len : m;
	site->ds = (size_t)d->decl_begin;
	site->de = (size_t)d->init->loc.end;
	site->s = (size_t)v->loc.begin;
	site->e = (size_t)v->loc.end;
}

/* `#define name N`, N an integer literal, the only definition of name in
 * the file: its site. */
static int macro_site(const ka_recipe_ctx *c, const char *name, defsite *site)
{
	const char *t = c->m->text;
	size_t ls, le, vs;
	if (ka_recipe_define_of(c, name, &ls, &le, &vs) != 1)
		return 0;
	size_t ve = vs;
	while (ve < le && isdigit((unsigned char)t[ve]))
		ve++;
	size_t tail = ve;
	while (tail < le && (t[tail] == ' ' || t[tail] == '\t' || t[tail] == '\r'))
		tail++;
	if (ve == vs || tail != le)
		return 0; /* no literal, a suffix or more text */
	snprintf(site->name, sizeof site->name, "%s", name);
	site->scope_s = 0;
	site->scope_e = c->m->len;
	site->ds = ls;
	site->de = le;
	site->s = vs;
	site->e = ve;
	return 1;
}

/* KA_OK when every use of the site's name, past its definition, lies in a
 * config slot of a launch of this kernel or in one of the grid variables'
 * initializers g[0..ng) (pairs of offsets): changing its value then
 * changes these launches and nothing else. */
static int only_sizes(ka_recipe_ctx *c, const defsite *d, const size_t *g, int ng)
{
	const char *t = c->m->text;
	size_t vn = strlen(d->name);
	for (size_t w = ka_csrc_find_word_pp(t, d->scope_s, d->scope_e, d->name); w != NPOS;
	     w = ka_csrc_find_word_pp(t, w + vn, d->scope_e, d->name)) {
		int ok = w >= d->ds && w < d->de;
		for (int i = 0; i < c->m->nlaunches && !ok; i++) {
			const ka_csrc_launch *l = &c->m->l[i];
			ok = !strcmp(l->kernel, c->k->name) &&
			     ((w >= l->cfg[0].s && w < l->cfg[0].e) || (w >= l->cfg[1].s && w < l->cfg[1].e));
		}
		for (int i = 0; i < ng && !ok; i++)
			ok = w >= g[2 * i] && w < g[2 * i + 1];
		if (!ok) {
			int line = ka_csrc_line_of(t, w);
			return ka_recipe_decline(c, "'%s' is used past the launches of %s (line %d)", d->name,
						 c->k->name, line);
		}
	}
	return KA_OK;
}

/* The COUNT of (COUNT + B - 1) / B, or (COUNT + (B - 1)) / B, in the
 * expanded AST n, B a reference to the variable b; NULL when n is not
 * that. */
static const ka_node *ceil_div_count(const ka_node *n, const ka_decl *b)
{
#define IS_B(x) ((x) && (x)->kind == KN_DECLREF && (x)->ref == b)
#define IS_1(x) ((x) && (x)->kind == KN_INT && (x)->ival == 1)
#define BIN(x, o) ((x) && (x)->kind == KN_BINOP && (x)->op == (o) && (x)->nkids == 2)
	n = peel(n);
	if (!b || !BIN(n, OP_DIV) || !IS_B(peel(n->kids[1])))
		return NULL;
	const ka_node *s = peel(n->kids[0]), *p, *q;
	if (BIN(s, OP_SUB) && IS_1(peel(s->kids[1])) && BIN(peel(s->kids[0]), OP_ADD)) {
		const ka_node *a = peel(s->kids[0]); /* (COUNT + B) - 1 */
		p = peel(a->kids[0]), q = peel(a->kids[1]);
		return IS_B(q) ? p : IS_B(p) ? q : NULL;
	}
	if (!BIN(s, OP_ADD))
		return NULL;
	p = peel(s->kids[0]), q = peel(s->kids[1]); /* COUNT + (B - 1) */
	if (BIN(q, OP_SUB) && IS_B(peel(q->kids[0])) && IS_1(peel(q->kids[1])))
		return p;
	return NULL;
#undef IS_B
#undef IS_1
#undef BIN
}

/* The grid variable d whose initializer is a function-like macro's call,
 * `int g = CEIL_DIV(COUNT, b);`: KA_OK when the expanded initializer is
 * (COUNT + b - 1) / b over the launch's block variable b and COUNT is one
 * of the call's arguments as written; *is, *ie the initializer's text and
 * into grid, "(COUNT+B-1)/B" with B the block's text blk. */
static int macro_grid(ka_recipe_ctx *c, const ka_decl *d, const ka_decl *b, const char *blk, char *grid,
		      size_t cap, size_t *is, size_t *ie)
{
	const char *t = c->m->text;
	size_t e = ka_csrc_stmt_end(t, c->m->len, (size_t)d->decl_begin), s = (size_t)d->decl_begin;
	while (e != NPOS && s < e && t[s] != '=')
		s++;
	if (e == NPOS || s >= e || t[e - 1] != ';')
		return ka_recipe_decline(c, "cannot read the grid variable '%s'", d->name);
	s = ka_csrc_skip_blank(t, e, s + 1);
	size_t p = s;
	while (p < e && is_ident(t[p]))
		p++;
	size_t close = p < e && t[p] == '(' ? ka_csrc_match(t, e, p) : NPOS;
	if (p == s || close == NPOS || ka_csrc_skip_blank(t, e, close + 1) != e - 1)
		return ka_recipe_decline(c, "the grid '%s' is no call of a function-like macro", d->name);
	const ka_node *x = ceil_div_count(d->init, b);
	if (!x || x->loc.begin <= (int)p || x->loc.end > (int)close)
		return ka_recipe_decline(c, "the grid '%s' = %.*s is not (COUNT + %s - 1) / %s once expanded",
					 d->name, (int)(close + 1 - s), t + s, blk, blk);
	ka_csrc_range args[8];
	int na = 0, same = 0;
	char xs[400], as[400];
	if (ka_csrc_split(t, e, p, close, args, 8, &na) != KA_OK ||
	    !ka_csrc_squeeze(t, (size_t)x->loc.begin, (size_t)x->loc.end, xs, sizeof xs))
		return ka_recipe_decline(c, "cannot read the grid '%s'", d->name);
	for (int i = 0; i < na && !same; i++)
		same = ka_csrc_squeeze(t, args[i].s, args[i].e, as, sizeof as) && !strcmp(as, xs);
	if (!same)
		return ka_recipe_decline(c, "the count of the grid '%s' is not an argument of its macro",
					 d->name);
	if (snprintf(grid, cap, "(%s+%s-1)/%s", xs, blk, blk) >= (int)cap)
		return ka_recipe_decline(c, "cannot read the grid '%s'", d->name);
	*is = s;
	*ie = close + 1;
	return KA_OK;
}

int ka_recipe_model_const_block(ka_recipe_ctx *c, const ka_csrc_launch *l, long *value)
{
	ka_kmodel_doc doc = {0};
	const char *why;
	int64_t v;
	if (ka_recipe_kmodel(c->m->text, c->m->len, c->k->name, &doc) != KA_OK)
		return 0;
	const ka_decl *d = slot_var(&doc, l, 1, &why, 0);
	int ok = d && (d->flags & KDF_CONSTQ) && fold(d->init, 1, &v) && v >= 1 && v <= 1024;
	if (ok)
		*value = (long)v;
	ka_recipe_kmodel_free(&doc);
	return ok;
}

static int is_name(const char *s)
{
	return s[0] && !isdigit((unsigned char)s[0]) &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(s);
}

/* The block of launch l is a name (a variable of any scope, a macro) or
 * its grid a variable: read them from the model of the file (*doc, built
 * on first use).  KA_OK with *site where the block size is set, *kk its
 * value and grid the squeezed grid, or the initializer of the grid
 * variable the launch reads; a decline naming the construct otherwise. */
static int model_block(ka_recipe_ctx *c, const ka_csrc_launch *l, ka_kmodel_doc *doc, char *grid, size_t cap,
		       defsite *site, long *kk)
{
	const char *t = c->m->text, *why;
	char blk[64];
	if (!ka_csrc_squeeze(t, l->cfg[1].s, l->cfg[1].e, blk, sizeof blk))
		return ka_recipe_decline(c, "cannot read a launch of %s", c->k->name);
	if (!doc->tu && ka_recipe_kmodel(t, c->m->len, c->k->name, doc) != KA_OK) {
		doc->tu = NULL;
		return ka_recipe_decline(
			c, "the block size '%s' is not a literal, and the file does not parse on its own",
			blk);
	}
	int64_t v;
	const ka_decl *bv = slot_var(doc, l, 1, &why, 0);
	if (bv) {
		const ka_node *vn = peel(bv->init); /* `256` of `dim3 b(256)` */
		if (!fold(bv->init, 0, &v) || v < 1 || v > 1024)
			return ka_recipe_decline(c, "the block size '%s' is not a constant in [1, 1024]",
						 blk);
		if (vn->loc.in_macro || vn->kind == KN_CALL || vn->loc.begin < bv->decl_begin ||
		    vn->loc.end > bv->init->loc.end)
			return ka_recipe_decline(c, "cannot tell where '%s' is set", bv->name);
		var_site(c, bv, vn, site);
	} else if (is_name(blk) && macro_site(c, blk, site)) {
		v = strtol(t + site->s, NULL, 10);
		if (v < 1 || v > 1024)
			return ka_recipe_decline(c, "the block size '%s' is not in [1, 1024]", blk);
	} else {
		return ka_recipe_decline(c, "the block size '%s' is %s", blk, why);
	}
	*kk = (long)v;
	/* the grid variables the launches of the kernel read */
	size_t g[32];
	int ng = 0;
	for (int i = 0; i < c->m->nlaunches; i++) {
		const ka_csrc_launch *o = &c->m->l[i];
		char gs[KA_CSRC_NAME];
		if (strcmp(o->kernel, c->k->name) ||
		    !ka_csrc_squeeze(t, o->cfg[0].s, o->cfg[0].e, gs, sizeof gs) || !is_name(gs))
			continue;
		const ka_decl *d = slot_var(doc, o, 0, &why, 1);
		if (!d)
			return ka_recipe_decline(c, "the grid '%s' is %s", gs, why);
		defsite gd;
		var_site(c, d, d->init, &gd);
		if (d->init->loc.in_macro) { /* int g = CEIL_DIV(COUNT, b); */
			char mg[512];
			char ob[64];
			const ka_decl *ov = slot_var(doc, o, 1, &why, 0);
			int rc = ka_csrc_squeeze(t, o->cfg[1].s, o->cfg[1].e, ob, sizeof ob)
					 ? macro_grid(c, d, ov, ob, mg, sizeof mg, &gd.s, &gd.e)
					 : ka_recipe_decline(c, "cannot read a launch of %s", c->k->name);
			if (rc)
				return rc;
			gd.de = gd.e;
			if (o == l)
				snprintf(grid, cap, "%s", mg);
		} else if (o == l && !ka_csrc_squeeze(t, (size_t)d->init->loc.begin, (size_t)d->init->loc.end,
						      grid, cap)) {
			return ka_recipe_decline(c, "cannot read the grid '%s'", gs);
		}
		int rc = only_sizes(c, &gd, NULL, 0);
		if (rc)
			return rc;
		if (ng < 16) {
			g[2 * ng] = gd.s;
			g[2 * ng + 1] = gd.e;
			ng++;
		}
	}
	return only_sizes(c, site, g, ng);
}

static int launch_apply(ka_recipe_ctx *c, ka_buf *out)
{
	const ka_csrc *m = c->m;
	const ka_csrc_kernel *k = c->k;
	long bnew = ka_recipe_param(c->params, "block", 128);
	if (bnew < 32 || bnew > 1024 || bnew % 32)
		return ka_recipe_decline(c, "bad parameters '%s'", c->params);
	static const char *const banned[] = {"__shared__", "__syncthreads", "__syncwarp"};
	for (size_t i = 0; i < 3; i++)
		if (ka_csrc_has_word(m->text, k->body_open, k->body_close, banned[i]))
			return ka_recipe_decline(c, "the kernel uses %s", banned[i]);
	if (k->has_launch_bounds)
		return ka_recipe_decline(c, "it has __launch_bounds__");
	int rc = ka_recipe_launches_known(c), found = 0;
	if (rc)
		return rc;
	ka_recipe_edits ed = {0};
	ka_kmodel_doc doc = {0};
	size_t set[16];
	int nset = 0;
	for (int i = 0; i < m->nlaunches && rc == KA_OK; i++) {
		const ka_csrc_launch *l = &m->l[i];
		if (strcmp(l->kernel, k->name))
			continue;
		char grid[512], blk[64], *end;
		if (!ka_csrc_squeeze(m->text, l->cfg[0].s, l->cfg[0].e, grid, sizeof grid) ||
		    !ka_csrc_squeeze(m->text, l->cfg[1].s, l->cfg[1].e, blk, sizeof blk)) {
			rc = ka_recipe_decline(c, "cannot read a launch of %s", k->name);
			break;
		}
		long kk = strtol(blk, &end, 10);
		int named = (*end || kk < 1) && ka_recipe_const_var(c, l->start, blk, &kk);
		defsite site;
		int bv = 0; /* the block size is set where it is defined */
		/* a grid variable is read through the model too */
		if ((!named || is_name(grid)) && (*end || kk < 1)) {
			if ((rc = model_block(c, l, &doc, grid, sizeof grid, &site, &kk)) != KA_OK)
				break;
			named = bv = 1;
		}
		if (kk == bnew) {
			rc = ka_recipe_decline(c, "the block is %ld already", kk);
			break;
		}
		char pat[160], ng[600];
		if ((rc = block_free(c, kk)) != KA_OK)
			break;
		snprintf(pat, sizeof pat, "+%ld)/%ld", kk - 1, kk);
		if (bv) { /* the grid must be the rounding and nothing more: min(..., cap) would not cover */
			ka_recipe_drop_casts(grid);
			memmove(grid, unparen(grid), strlen(unparen(grid)) + 1);
		}
		char *at = bv ? NULL : strstr(grid, pat); /* bv: the grid must read the variable */
		if (!at && named) {                       /* (COUNT + block - 1) / block */
			snprintf(pat, sizeof pat, "+%s-1)/%s", blk, blk);
			at = strstr(grid, pat);
			if (at && bv &&
			    (at[strlen(pat)] || grid[0] != '(' ||
			     ka_csrc_match(grid, strlen(grid), 0) != (size_t)(at - grid) + strlen(blk) + 3))
				at = NULL; /* (COUNT + B - 1) / B whole */
		}
		if (!at || strstr(at + 1, pat)) {
			rc = ka_recipe_decline(c, "the grid '%s' is not (COUNT + K - 1) / K", grid);
			break;
		}
		if ((rc = count_guarded(c, l, grid, at)) != KA_OK)
			break;
		found = 1;
		if (bv) { /* the definition: every launch that reads it follows */
			int done = 0;
			for (int q = 0; q < nset && !done; q++)
				done = set[q] == site.s;
			if (!done && nset < 16) {
				set[nset++] = site.s;
				snprintf(ng, sizeof ng, "%ld", bnew);
				rc = ka_recipe_edit(&ed, site.s, site.e, ng);
			}
			continue;
		}
		snprintf(ng, sizeof ng, "%.*s+%ld)/%ld%s", (int)(at - grid), grid, bnew - 1, bnew,
			 at + strlen(pat));
		snprintf(blk, sizeof blk, " %ld", bnew);
		rc = ka_recipe_edit(&ed, l->cfg[0].s, l->cfg[0].e, ng);
		if (rc == KA_OK)
			rc = ka_recipe_edit(&ed, l->cfg[1].s, l->cfg[1].e, blk);
		for (int q = 0; q < 2 && rc == KA_OK && named; q++)
			rc = ka_recipe_drop_dead_config(c, &ed, l, q);
		found = 1;
	}
	if (rc == KA_OK && !found)
		rc = ka_recipe_decline(c, "no launch of %s in this file", k->name);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, m->text, m->len, out);
	ka_recipe_edits_free(&ed);
	if (doc.tu)
		ka_recipe_kmodel_free(&doc);
	return rc;
}

static const char *const launch_grid[] = {"block=128", "block=512", "block=1024", NULL};

const ka_recipe ka_recipe_launch_tune = {
	.name = "launch-tune",
	.summary = "another block size for a (COUNT + K - 1) / K launch",
	.rules = "launch-tiny-blocks launch-tail-effect launch-block-not-multiple-of-warp launch-small-grid",
	.grid = launch_grid,
	.apply = launch_apply,
};
