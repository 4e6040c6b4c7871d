/* agents/recipe.c: the recipe table of the offline expert and the helpers
 * its recipes share (agents/recipe.h): parameter reading, the global
 * thread-index pattern, an edit list, and rewriting a kernel's launches.
 * Each recipe lives in its own agents/recipe_*.c and is one line of
 * `table` below. */
#include "agents/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)

extern const ka_recipe ka_recipe_warp_per_row;        /* recipe_rowwarp.c */
extern const ka_recipe ka_recipe_vectorize;           /* recipe_elementwise.c */
extern const ka_recipe ka_recipe_grid_stride;         /* recipe_elementwise.c */
extern const ka_recipe ka_recipe_smem_histogram;      /* recipe_histogram.c */
extern const ka_recipe ka_recipe_launch_tune;         /* recipe_launch.c */
extern const ka_recipe ka_recipe_smem_tile_transpose; /* recipe_tile.c */
extern const ka_recipe ka_recipe_fuse_elementwise;    /* recipe_fuse.c */
extern const ka_recipe ka_recipe_smem_tile_gemm;      /* recipe_gemm.c */
extern const ka_recipe ka_recipe_seq_reduction;       /* recipe_reduce.c */
extern const ka_recipe ka_recipe_stencil_column;      /* recipe_stencil.c */
extern const ka_recipe ka_recipe_launch_tune_2d;      /* recipe_launch2d.c */
extern const ka_recipe ka_recipe_parallel_scan;       /* recipe_scan.c */
extern const ka_recipe ka_recipe_shuffle_block_scan;  /* recipe_blockscan.c */

static const ka_recipe *const table[] = {
	&ka_recipe_warp_per_row,       &ka_recipe_smem_tile_gemm, &ka_recipe_smem_tile_transpose,
	&ka_recipe_stencil_column,     &ka_recipe_smem_histogram, &ka_recipe_parallel_scan,
	&ka_recipe_shuffle_block_scan, &ka_recipe_seq_reduction,  &ka_recipe_fuse_elementwise,
	&ka_recipe_vectorize,          &ka_recipe_grid_stride,    &ka_recipe_launch_tune,
	&ka_recipe_launch_tune_2d,
};
#define N_RECIPES (sizeof table / sizeof table[0])

size_t ka_recipe_count(void)
{
	return N_RECIPES;
}
const ka_recipe *ka_recipe_get(size_t i)
{
	return i < N_RECIPES ? table[i] : NULL;
}

const ka_recipe *ka_recipe_find(const char *name)
{
	for (size_t i = 0; name && i < N_RECIPES; i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

int ka_recipe_serves(const ka_recipe *r, const char *rule)
{
	size_t n = rule ? strlen(rule) : 0;
	if (!n) /* "" is found everywhere and never moves past */
		return 0;
	for (const char *p = r->rules; p && (p = strstr(p, rule)); p += n)
		if ((p == r->rules || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

long ka_recipe_param(const char *params, const char *key, long dflt)
{
	size_t n = strlen(key);
	for (const char *p = params; p && *p;) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, key, n) && p[n] == '=')
			return strtol(p + n + 1, NULL, 10);
		p = strchr(p, ' ');
	}
	return dflt;
}

int ka_recipe_decline(ka_recipe_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof c->why, fmt, ap);
	va_end(ap);
	return KA_RECIPE_DECLINED;
}

void ka_recipe_unused_name(const ka_recipe_ctx *c, const char *stem, char *out, size_t cap)
{
	snprintf(out, cap, "%s", stem);
	for (int n = 1; ka_csrc_has_word(c->m->text, c->k->start, c->k->body_close, out); n++)
		snprintf(out, cap, "%s%d", stem, n);
}

int ka_recipe_pure_function(const char *name, size_t n)
{
	static const char *const fns[] = {
		"expf",   "exp",   "__expf", "exp2f",  "expm1f",    "logf",       "log",
		"__logf", "log2f", "log10f", "log1pf", "sqrtf",     "sqrt",       "rsqrtf",
		"cbrtf",  "fabsf", "fabs",   "fmaxf",  "fmax",      "fminf",      "fmin",
		"max",    "min",   "erff",   "erfcf",  "tanhf",     "tanh",       "sinf",
		"cosf",   "tanf",  "__sinf", "__cosf", "powf",      "__powf",     "fmaf",
		"floorf", "ceilf", "roundf", "truncf", "copysignf", "__fdividef", "__frcp_rn",
		"__ldg",  "abs",   "float",  "double", "int",       "unsigned",   "sizeof"};
	for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
		if (strlen(fns[i]) == n && !memcmp(fns[i], name, n))
			return 1;
	return 0;
}

int ka_recipe_pure_expr(const char *sq, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = sq[i], nx = i + 1 < n ? sq[i + 1] : 0, pv = i ? sq[i - 1] : 0;
		if ((c == '+' || c == '-') && nx == c)
			return 0; /* ++ -- */
		if (c == '=' && nx != '=' && !(pv && strchr("=!<>", pv)))
			return 0; /* = op= */
		if (c == '=' && (pv == '<' || pv == '>') && i >= 2 && sq[i - 2] == pv)
			return 0; /* <<= >>= */
		if (c == '(' && i && (isalnum((unsigned char)pv) || pv == '_')) {
			size_t b = i;
			while (b > 0 && (isalnum((unsigned char)sq[b - 1]) || sq[b - 1] == '_'))
				b--;
			if (!ka_recipe_pure_function(sq + b, i - b))
				return 0; /* a call that may write */
		}
	}
	return 1;
}

/* Drop the integer casts an index expression may carry. */
void ka_recipe_drop_casts(char *s)
{
	static const char *const casts[] = {
		"(long long)", "(unsigned long long)", "(size_t)",      "(int64_t)", "(long)",
		"(int)",       "(unsigned)",           "(unsigned int)"};
	for (size_t i = 0; i < sizeof casts / sizeof casts[0]; i++)
		for (char *p; (p = strstr(s, casts[i]));)
			memmove(p, p + strlen(casts[i]), strlen(p + strlen(casts[i])) + 1);
}

/* 1 when base (a type without const, blanks squeezed) is an integer type
 * a global thread index may have: no narrower than the 32-bit product
 * blockIdx * blockDim it is computed from.  The whole text must match one
 * entry, so "unsigned int" is never read as "unsigned" and a name. */
static int index_type(const char *base)
{
	static const char types[] = "|int|signed int|unsigned|unsigned int|uint|long|long int|unsigned long"
				    "|unsigned long int|long long|long long int|unsigned long long"
				    "|unsigned long long int|size_t|std::size_t|ptrdiff_t|int32_t|uint32_t"
				    "|int64_t|uint64_t|";
	char key[72];
	snprintf(key, sizeof key, "|%s|", base);
	return base[0] && !strchr(base, '|') && strstr(types, key) != NULL;
}

static int ident_char(char c)
{
	return c == '_' || isalnum((unsigned char)c);
}

/* "T v=E;" (squeezed) into d and rhs: 1 when T is an index type. */
static int split_tid_decl(const char *sq, ka_recipe_tid *d, char *rhs, size_t rcap)
{
	const char *eq = strchr(sq, '='), *v = eq;
	if (!eq || eq[1] == '=')
		return 0;
	while (v > sq && ident_char(v[-1]))
		v--;
	size_t tl = (size_t)(v - sq);
	if (v == eq || tl < 2 || v[-1] != ' ' || isdigit((unsigned char)*v) || tl >= sizeof d->type ||
	    (size_t)(eq - v) >= sizeof d->var)
		return 0;
	snprintf(d->var, sizeof d->var, "%.*s", (int)(eq - v), v);
	snprintf(d->type, sizeof d->type, "%.*s", (int)(tl - 1), sq);
	if (index_type(d->var)) /* "unsigned int=": no name */
		return 0;
	d->base[0] = 0;
	/* the words of T but const, in their order */
	for (const char *w = d->type; *w;) {
		size_t n = strcspn(w, " ");
		if (!(n == 5 && !strncmp(w, "const", 5)))
			snprintf(d->base + strlen(d->base), sizeof d->base - strlen(d->base), "%s%.*s",
				 d->base[0] ? " " : "", (int)n, w);
		w += n + (w[n] == ' ');
	}
	snprintf(rhs, rcap, "%s", eq + 1);
	return index_type(d->base);
}

/* Every `from` in s (not right after an identifier character) becomes to,
 * which is no longer. */
static void replace_all(char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to);
	for (char *p = s; (p = strstr(p, from));) {
		if (p > s && ident_char(p[-1])) {
			p++;
			continue;
		}
		memcpy(p, to, tl);
		memmove(p + tl, p + fl, strlen(p + fl) + 1);
		p += tl;
	}
}

/* The index's terms without functional casts (ggml's int64_t(blockDim.x),
 * static_cast<size_t>(blockIdx.x)) or parentheses around their product:
 * the same sum, as C-style casts are (ka_recipe_drop_casts). */
static void plain_terms(char *rhs, char axis)
{
	static const char *const terms[] = {"blockIdx", "blockDim", "threadIdx"};
	static const char *const casts[] = {"int",     "unsigned", "uint",      "long",    "size_t",
					    "int64_t", "uint64_t", "ptrdiff_t", "int32_t", "uint32_t"};
	char from[80], to[40];
	for (size_t i = 0; i < 3; i++) {
		snprintf(to, sizeof to, "%s.%c", terms[i], axis);
		for (size_t c = 0; c < sizeof casts / sizeof casts[0]; c++) {
			snprintf(from, sizeof from, "%s(%s)", casts[c], to);
			replace_all(rhs, from, to);
			snprintf(from, sizeof from, "static_cast<%s>(%s)", casts[c], to);
			replace_all(rhs, from, to);
		}
	}
	for (size_t i = 0; i < 2; i++) {
		snprintf(to, sizeof to, "%s.%c*%s.%c", terms[i], axis, terms[1 - i], axis);
		snprintf(from, sizeof from, "(%s)", to);
		replace_all(rhs, from, to);
	}
}

int ka_recipe_tid_decl(const char *t, size_t s, size_t e, char axis, ka_recipe_tid *d)
{
	char forms[4][64];
	snprintf(forms[0], sizeof forms[0], "blockIdx.%c*blockDim.%c+threadIdx.%c;", axis, axis, axis);
	snprintf(forms[1], sizeof forms[1], "blockDim.%c*blockIdx.%c+threadIdx.%c;", axis, axis, axis);
	snprintf(forms[2], sizeof forms[2], "threadIdx.%c+blockIdx.%c*blockDim.%c;", axis, axis, axis);
	snprintf(forms[3], sizeof forms[3], "threadIdx.%c+blockDim.%c*blockIdx.%c;", axis, axis, axis);
	char sq[256], rhs[200];
	if (!ka_csrc_squeeze(t, s, e, sq, sizeof sq) || !split_tid_decl(sq, d, rhs, sizeof rhs))
		return 0;
	ka_recipe_drop_casts(rhs);
	plain_terms(rhs, axis);
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
		if (!strcmp(rhs, forms[i]))
			return 1;
	return 0;
}

int ka_recipe_is_tid_decl(const char *t, size_t s, size_t e, char *var, size_t cap)
{
	return ka_recipe_is_tid_decl_axis(t, s, e, 'x', var, cap);
}

int ka_recipe_is_tid_decl_axis(const char *t, size_t s, size_t e, char axis, char *var, size_t cap)
{
	ka_recipe_tid d;
	if (!ka_recipe_tid_decl(t, s, e, axis, &d) || strlen(d.var) >= cap)
		return 0;
	memcpy(var, d.var, strlen(d.var) + 1);
	return 1;
}

int ka_recipe_edit(ka_recipe_edits *ed, size_t s, size_t e, const char *text)
{
	if (ed->n == (int)(sizeof ed->e / sizeof ed->e[0]))
		return ka_error_set(KA_ETOOBIG, "recipe: too many edits");
	char *copy = strdup(text);
	if (!copy)
		return ka_error_set(KA_ENOMEM, "out of memory");
	ed->e[ed->n].s = s;
	ed->e[ed->n].e = e;
	ed->e[ed->n].text = copy;
	ed->n++;
	return KA_OK;
}

void ka_recipe_edits_free(ka_recipe_edits *ed)
{
	for (int i = 0; i < ed->n; i++)
		free(ed->e[i].text);
	ed->n = 0;
}

int ka_recipe_edits_apply(ka_recipe_edits *ed, const char *text, size_t len, ka_buf *out)
{
	/* insertion sort by start: a handful of edits */
	for (int i = 1; i < ed->n; i++)
		for (int j = i; j > 0 && ed->e[j].s < ed->e[j - 1].s; j--) {
			__typeof__(ed->e[0]) tmp = ed->e[j];
			ed->e[j] = ed->e[j - 1];
			ed->e[j - 1] = tmp;
		}
	size_t at = 0;
	int rc = KA_OK;
	for (int i = 0; i < ed->n && rc == KA_OK; i++) {
		if (ed->e[i].s < at || ed->e[i].e > len || ed->e[i].e < ed->e[i].s)
			return ka_error_set(KA_EINPUT, "recipe: overlapping edits");
		rc = ka_buf_add(out, text + at, ed->e[i].s - at);
		if (rc == KA_OK)
			rc = ka_buf_adds(out, ed->e[i].text);
		at = ed->e[i].e;
	}
	if (rc == KA_OK)
		rc = ka_buf_add(out, text + at, len - at);
	return rc ? ka_error_set(rc, "recipe: the candidate is too large") : KA_OK;
}

/* 1 when the name at `at` is followed by '(': a declarator (`__global__
 * void k(...);`, or a host function of the same name, llm.c's launchers)
 * or a call.  A kernel cannot be called without <<<>>>, so a call names
 * another function of that name; the kernel's address is never followed
 * by '(' (`&k,`, `(void *)k)`, `= k;`, `k<T>`). */
static int declarator_or_call(const char *t, size_t len, size_t at, size_t name_len)
{
	size_t p = ka_csrc_skip_blank(t, len, at + name_len);
	return p < len && t[p] == '(';
}

int ka_recipe_launches_known(ka_recipe_ctx *c)
{
	const ka_csrc *m = c->m;
	const char *t = m->text, *name = c->k->name;
	size_t n = strlen(name);
	for (size_t at = ka_csrc_find_word_pp(t, 0, m->len, name); at != (size_t)-1;
	     at = ka_csrc_find_word_pp(t, at + n, m->len, name)) {
		int known = declarator_or_call(t, m->len, at, n);
		for (int i = 0; i < m->nkernels && !known; i++)
			known = m->k[i].name_at == at;
		for (int i = 0; i < m->nlaunches && !known; i++)
			known = m->l[i].start == at && !strcmp(m->l[i].kernel, name);
		if (known)
			continue;
		int line = 1;
		for (size_t i = 0; i < at; i++)
			line += t[i] == '\n';
		return ka_recipe_decline(
			c,
			"line %d names %s outside a launch this recipe can read (a macro, "
			"template arguments, cudaLaunchKernel, a function pointer): not every "
			"launch would be rewritten",
			line, name);
	}
	return KA_OK;
}

/* fmt with "@N" replaced by "(long long)(arg)" of parameter pn and "@B" by
 * that of parameter pb; 0 when an argument is missing or too long. */
static int expand(const ka_csrc *m, const ka_csrc_launch *l, int pn, int pb, const char *fmt, ka_buf *g)
{
	char an[512], ab[512];
	an[0] = ab[0] = 0;
	if (pn >= 0 && !ka_csrc_squeeze(m->text, l->args[pn].s, l->args[pn].e, an, sizeof an))
		return 0;
	if (pb >= 0 && !ka_csrc_squeeze(m->text, l->args[pb].s, l->args[pb].e, ab, sizeof ab))
		return 0;
	for (const char *p = fmt; *p; p++) {
		if (p[0] == '@' && (p[1] == 'N' || p[1] == 'B')) {
			const char *a = p[1] == 'N' ? an : ab;
			if (!*a)
				return 0;
			ka_buf_printf(g, "(long long)(%s)", a);
			p++;
		} else {
			ka_buf_addc(g, *p);
		}
	}
	return g->data != NULL;
}

/* 1 when name is a function-like macro the file defines (`#define NAME(`). */
static int fn_macro(const char *t, size_t len, const char *name, size_t n)
{
	for (const char *p = t; (p = strstr(p, "#define")) != NULL && p < t + len; p += 7) {
		const char *q = p + 7;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!strncmp(q, name, n) && q[n] == '(')
			return 1;
	}
	return 0;
}

/* 1 when [s, e) (an initializer) can be dropped unevaluated: no increment,
 * assignment or top-level comma, and nothing called but sizeof, min/max,
 * ceil/floor and the file's function-like macros. */
static int pure_init(const char *t, size_t len, size_t s, size_t e)
{
	static const char *const ok[] = {"sizeof", "min", "max", "ceil", "ceilf", "floor", "floorf", NULL};
	int depth = 0;
	for (size_t i = s; i < e; i++) {
		char ch = t[i], nx = i + 1 < e ? t[i + 1] : 0;
		if (ch == '"' || ch == '\'' || ch == '{' || ch == '[')
			return 0;
		if ((ch == '+' && nx == '+') || (ch == '-' && nx == '-'))
			return 0;
		if (ch == '=' && nx != '=' && (i == s || !strchr("=<>!", t[i - 1])))
			return 0;
		depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
		if (ch == ',' && depth == 0)
			return 0;
		if (!isalpha((unsigned char)ch) && ch != '_')
			continue;
		size_t w = i;
		while (w < e && (isalnum((unsigned char)t[w]) || t[w] == '_'))
			w++;
		if (i > s && (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_'))
			continue; /* inside a number such as 1e3 or 0x1f */
		size_t p = ka_csrc_skip_blank(t, e, w);
		if (p < e && t[p] == '(') {
			int known = fn_macro(t, len, t + i, w - i);
			for (int k = 0; ok[k] && !known; k++)
				known = strlen(ok[k]) == w - i && !memcmp(t + i, ok[k], w - i);
			if (!known)
				return 0;
		}
		i = w - 1;
	}
	return depth == 0;
}

/* [s, e) declares var alone as a plain integer: `[const] TYPE var = INIT;`
 * with TYPE built from int, long, unsigned, size_t and the like; *init_s
 * and *init_e then hold INIT. */
static int scalar_decl(const char *t, size_t len, size_t s, size_t e, const char *var, size_t *init_s,
		       size_t *init_e)
{
	static const char *const words[] = {"const",   "constexpr", "unsigned", "signed",  "int",
					    "long",    "short",     "size_t",   "int32_t", "uint32_t",
					    "int64_t", "uint64_t",  "auto",     NULL};
	size_t p = ka_csrc_skip_blank(t, len, s), vn = strlen(var);
	int types = 0;
	for (;;) {
		size_t w = p;
		while (w < e && (isalnum((unsigned char)t[w]) || t[w] == '_'))
			w++;
		if (w == p)
			return 0;
		if (w - p == vn && !memcmp(t + p, var, vn) && types) {
			p = ka_csrc_skip_blank(t, len, w);
			break;
		}
		int k = 0;
		while (words[k] && !(strlen(words[k]) == w - p && !memcmp(t + p, words[k], w - p)))
			k++;
		if (!words[k])
			return 0;
		types += strcmp(words[k], "const") != 0 && strcmp(words[k], "constexpr") != 0;
		p = ka_csrc_skip_blank(t, len, w);
	}
	if (p >= e || t[p] != '=' || e < 1 || t[e - 1] != ';')
		return 0;
	*init_s = p + 1;
	*init_e = e - 1;
	return pure_init(t, len, *init_s, *init_e);
}

/* After launch l's config slot q was rewritten: drop the declaration of
 * the variable it read when nothing else reads it (see recipe.h). */
static int drop_dead_config(ka_recipe_ctx *c, ka_recipe_edits *ed, const ka_csrc_launch *l, int q)
{
	const char *t = c->m->text;
	size_t len = c->m->len, blk = ka_csrc_block_of(t, len, l->start), is, ie;
	char var[KA_CSRC_NAME];
	if (blk == NPOS || !ka_csrc_squeeze(t, l->cfg[q].s, l->cfg[q].e, var, sizeof var) || !var[0] ||
	    isdigit((unsigned char)var[0]) ||
	    strspn(var, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(var))
		return KA_OK;
	size_t bc = ka_csrc_match(t, len, blk);
	for (size_t s = ka_csrc_skip_blank(t, len, blk + 1); bc != NPOS && s < l->start;) {
		size_t e = ka_csrc_stmt_end(t, len, s);
		if (e == NPOS || e > l->start)
			return KA_OK;
		if (scalar_decl(t, len, s, e, var, &is, &ie)) {
			for (int i = 0; i < ed->n; i++)
				if (ed->e[i].s <= s && s < ed->e[i].e)
					return KA_OK; /* dropped already (a second launch reads it too) */
			/* every other use must sit in text the edits replace (the
			 * launches rewritten, a grid declaration dropped before);
			 * preprocessor lines count too: a macro body may read it */
			for (size_t at = ka_csrc_find_word_pp(t, e, bc, var); at != NPOS;
			     at = ka_csrc_find_word_pp(t, at + 1, bc, var)) {
				int replaced = 0;
				for (int i = 0; i < ed->n && !replaced; i++)
					replaced = ed->e[i].s <= at && at < ed->e[i].e;
				if (!replaced)
					return KA_OK;
			}
			size_t a = s, b = e;
			while (a > 0 && (t[a - 1] == ' ' || t[a - 1] == '\t'))
				a--;
			while (b < len && (t[b] == ' ' || t[b] == '\t'))
				b++;
			if ((a == 0 || t[a - 1] == '\n') && b < len && t[b] == '\n')
				return ka_recipe_edit(ed, a, b + 1, "");
			return ka_recipe_edit(ed, s, e, "");
		}
		s = ka_csrc_skip_blank(t, len, e);
	}
	return KA_OK;
}

int ka_recipe_relaunch_smem(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *count_param,
			    const char *grid_fmt, const char *block, const char *smem_param,
			    const char *smem_fmt)
{
	const ka_csrc *m = c->m;
	int pi = ka_csrc_param_index(c->k, count_param),
	    si = smem_param ? ka_csrc_param_index(c->k, smem_param) : -1;
	int found = 0, rc = KA_OK;
	if (pi < 0)
		return ka_recipe_decline(c, "%s has no parameter '%s'", c->k->name, count_param);
	if (smem_param && si < 0)
		return ka_recipe_decline(c, "%s has no parameter '%s'", c->k->name, smem_param);
	rc = ka_recipe_launches_known(c);
	if (rc)
		return rc;
	for (int i = 0; i < m->nlaunches && rc == KA_OK; i++) {
		const ka_csrc_launch *l = &m->l[i];
		if (strcmp(l->kernel, c->k->name))
			continue;
		if (l->nargs != c->k->nparams)
			return ka_recipe_decline(c, "a launch of %s passes %d arguments for %d parameters",
						 c->k->name, l->nargs, c->k->nparams);
		ka_buf g, b;
		ka_buf_init(&g, 4096);
		ka_buf_init(&b, 4096);
		ka_buf_printf(&b, " %s", block);
		if (!expand(m, l, pi, si, grid_fmt, &g))
			rc = ka_recipe_decline(c, "cannot read a launch of %s", c->k->name);
		if (rc == KA_OK && smem_fmt && l->ncfg < 3) {
			ka_buf_adds(&b, ", ");
			if (!expand(m, l, -1, si, smem_fmt, &b))
				rc = ka_recipe_decline(c, "cannot read a launch of %s", c->k->name);
		} else if (rc == KA_OK && smem_fmt) {
			ka_buf sm;
			ka_buf_init(&sm, 4096);
			ka_buf_addc(&sm, ' ');
			if (!expand(m, l, -1, si, smem_fmt, &sm))
				rc = ka_recipe_decline(c, "cannot read a launch of %s", c->k->name);
			if (rc == KA_OK)
				rc = ka_recipe_edit(ed, l->cfg[2].s, l->cfg[2].e, sm.data);
			ka_buf_free(&sm);
		}
		if (rc == KA_OK && (!g.data || !b.data))
			rc = ka_error_set(KA_ENOMEM, "out of memory");
		if (rc == KA_OK)
			rc = ka_recipe_edit(ed, l->cfg[0].s, l->cfg[0].e, g.data);
		if (rc == KA_OK)
			rc = ka_recipe_edit(ed, l->cfg[1].s, l->cfg[1].e, b.data);
		for (int q = 0; q < 2 && rc == KA_OK; q++)
			rc = drop_dead_config(c, ed, l, q);
		ka_buf_free(&g);
		ka_buf_free(&b);
		found = 1;
	}
	if (rc)
		return rc;
	return found ? KA_OK : ka_recipe_decline(c, "no launch of %s in this file to rewrite", c->k->name);
}

int ka_recipe_relaunch(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *count_param, const char *grid_fmt,
		       const char *block)
{
	return ka_recipe_relaunch_smem(c, ed, count_param, grid_fmt, block, NULL, NULL);
}

/* One kernel: scan, find, apply. */
static int apply_one(const ka_recipe *r, const char *text, size_t len, const char *kernel, const char *params,
		     ka_buf *out, char *why, size_t cap)
{
	static ka_csrc m; /* large; recipes run on one thread */
	if (ka_csrc_scan(&m, text, len)) {
		/* what the model cannot hold, no recipe can prove */
		snprintf(why, cap, "cannot model the file: %s", ka_error_last());
		return KA_RECIPE_DECLINED;
	}
	const ka_csrc_kernel *k = ka_csrc_kernel_find(&m, kernel);
	if (!k) {
		snprintf(why, cap, "no kernel named %s", kernel);
		return KA_RECIPE_DECLINED;
	}
	ka_recipe_ctx c = {.m = &m, .k = k, .params = params};
	int rc = r->apply(&c, out);
	if (rc == KA_RECIPE_DECLINED)
		snprintf(why, cap, "%s: %s", k->name, c.why);
	return rc;
}

int ka_recipe_apply(const char *name, const char *text, size_t len, const char *kernel, const char *params,
		    char **out, size_t *out_len, char *why, size_t why_cap)
{
	*out = NULL;
	*out_len = 0;
	why[0] = 0;
	const ka_recipe *r = ka_recipe_find(name);
	if (!r)
		return ka_error_set(KA_ENOTFOUND, "unknown recipe '%s'", name ? name : "(none)");
	if (!params)
		params = r->grid && r->grid[0] ? r->grid[0] : "";
	ka_buf cur;
	ka_buf_init(&cur, 64 << 20);
	int rc = ka_buf_add(&cur, text, len), applied = 0;
	if (kernel) {
		ka_buf nb;
		ka_buf_init(&nb, 64 << 20);
		rc = rc ? rc : apply_one(r, cur.data, cur.len, kernel, params, &nb, why, why_cap);
		ka_buf_free(&cur);
		cur = nb;
		applied = rc == KA_OK;
	} else {
		/* every kernel the recipe takes, in file order; the names first,
		 * since each rewrite moves the offsets */
		static ka_csrc m;
		char names[KA_CSRC_MAX_KERNELS][KA_CSRC_NAME];
		int nk = 0;
		if (rc == KA_OK && ka_csrc_scan(&m, cur.data, cur.len) != KA_OK)
			snprintf(why, why_cap, "cannot model the file: %s", ka_error_last());
		else if (rc == KA_OK)
			for (int i = 0; i < m.nkernels; i++)
				snprintf(names[nk++], KA_CSRC_NAME, "%s", m.k[i].name);
		for (int i = 0; i < nk && rc >= 0; i++) {
			ka_buf nb;
			ka_buf_init(&nb, 64 << 20);
			char w[256];
			int r1 = apply_one(r, cur.data, cur.len, names[i], params, &nb, w, sizeof w);
			if (r1 == KA_OK) {
				ka_buf_free(&cur);
				cur = nb;
				applied++;
			} else {
				ka_buf_free(&nb);
				if (r1 < 0)
					rc = r1;
				else if (!why[0])
					snprintf(why, why_cap, "%s", w);
			}
		}
	}
	if (rc >= 0 && !applied)
		rc = KA_RECIPE_DECLINED;
	if (rc == KA_OK) {
		*out_len = cur.len;
		*out = ka_buf_steal(&cur);
		why[0] = 0;
	}
	ka_buf_free(&cur);
	return rc;
}
