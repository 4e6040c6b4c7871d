/* recipes/recipe_affine.c: index expressions as sums of products
 * (recipes/recipe.h, ka_recipe_poly).  An index such as
 *     (size_t)row * cols + col,   col + cols * row,   off + col  (off = row * cols)
 * is read into one canonical form, a sum of terms coef * f1 * f2 * ...
 * with the factors sorted, so that a recipe compares what an index means
 * rather than how it is spelled: integer casts (C-style, functional,
 * static_cast) and parentheses drop out, products distribute over sums,
 * and a helper variable is replaced by its definition.  Anything else
 * (division, modulo, a call, a subscript) is not a sum of products and
 * makes the reading fail, so that the recipe declines. */
#include "recipes/recipe.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct prs {
	const char *p;
	const ka_recipe_poly_env *env;
	int depth;
} prs;

static int ident_start(char ch)
{
	return ch == '_' || isalpha((unsigned char)ch);
}

static int ident_char(char ch)
{
	return ch == '_' || isalnum((unsigned char)ch);
}

/* The integer type words a cast may name (const and blanks allowed). */
static int int_type_words(const char *s, size_t n)
{
	static const char *const words[] = {"const",    "unsigned", "signed",      "int",       "long",
					    "short",    "size_t",   "std::size_t", "ptrdiff_t", "int64_t",
					    "uint64_t", "int32_t",  "uint32_t",    "uint"};
	int any = 0;
	for (size_t i = 0; i < n;) {
		if (s[i] == ' ') {
			i++;
			continue;
		}
		size_t b = i;
		while (i < n && (ident_char(s[i]) || s[i] == ':'))
			i++;
		if (i == b)
			return 0;
		int ok = 0;
		for (size_t w = 0; w < sizeof words / sizeof words[0] && !ok; w++)
			ok = strlen(words[w]) == i - b && !memcmp(words[w], s + b, i - b);
		if (!ok)
			return 0;
		any = 1;
	}
	return any;
}

static int cmp_factor(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

static int term_same(const ka_recipe_poly_term *a, const ka_recipe_poly_term *b)
{
	if (a->nf != b->nf)
		return 0;
	for (int i = 0; i < a->nf; i++)
		if (strcmp(a->f[i], b->f[i]))
			return 0;
	return 1;
}

/* p += t (like terms merged, zero terms dropped); 0 when p is full. */
static int add_term(ka_recipe_poly *p, const ka_recipe_poly_term *t)
{
	if (!t->coef)
		return 1;
	for (int i = 0; i < p->n; i++)
		if (term_same(&p->t[i], t)) {
			p->t[i].coef += t->coef;
			if (!p->t[i].coef)
				p->t[i] = p->t[--p->n];
			return 1;
		}
	if (p->n == KA_RECIPE_POLY_TERMS)
		return 0;
	p->t[p->n++] = *t;
	return 1;
}

static int poly_mul(const ka_recipe_poly *a, const ka_recipe_poly *b, ka_recipe_poly *out)
{
	ka_recipe_poly r = {0};
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++) {
			ka_recipe_poly_term t = a->t[i];
			if (t.nf + b->t[j].nf > KA_RECIPE_POLY_FACTORS)
				return 0;
			for (int k = 0; k < b->t[j].nf; k++)
				memcpy(t.f[t.nf++], b->t[j].f[k], sizeof t.f[0]);
			t.coef *= b->t[j].coef;
			qsort(t.f, (size_t)t.nf, sizeof t.f[0], cmp_factor);
			if (!add_term(&r, &t))
				return 0;
		}
	*out = r;
	return 1;
}

static int poly_add(ka_recipe_poly *a, const ka_recipe_poly *b, long long sign)
{
	for (int i = 0; i < b->n; i++) {
		ka_recipe_poly_term t = b->t[i];
		t.coef *= sign;
		if (!add_term(a, &t))
			return 0;
	}
	return 1;
}

static int parse_sum(prs *s, ka_recipe_poly *out);

/* A name (a.b.c allowed: blockIdx.x), replaced by its definition when
 * the environment has one. */
static int parse_name(prs *s, ka_recipe_poly *out)
{
	const char *b = s->p;
	while (ident_char(*s->p) || (*s->p == '.' && ident_start(s->p[1])))
		s->p++;
	size_t n = (size_t)(s->p - b);
	if (n >= sizeof out->t[0].f[0])
		return 0;
	char name[sizeof out->t[0].f[0]];
	memcpy(name, b, n);
	name[n] = 0;
	const char *def = s->env && s->env->lookup ? s->env->lookup(s->env->ctx, name) : NULL;
	if (def) {
		if (s->depth >= 6)
			return 0;
		prs sub = {def, s->env, s->depth + 1};
		return parse_sum(&sub, out) && !*sub.p;
	}
	memset(out, 0, sizeof *out);
	out->n = 1;
	out->t[0].coef = 1;
	out->t[0].nf = 1;
	memcpy(out->t[0].f[0], name, n + 1);
	return 1;
}

static int parse_unary(prs *s, ka_recipe_poly *out)
{
	const char *p = s->p;
	if (*p == '-' || *p == '+') {
		s->p++;
		if (!parse_unary(s, out))
			return 0;
		if (*p == '-')
			for (int i = 0; i < out->n; i++)
				out->t[i].coef = -out->t[i].coef;
		return 1;
	}
	if (*p == '(') {
		/* a cast to an integer type, or a parenthesized sum */
		const char *close = strchr(p, ')');
		if (close && int_type_words(p + 1, (size_t)(close - p - 1))) {
			s->p = close + 1;
			return parse_unary(s, out);
		}
		s->p++;
		if (!parse_sum(s, out) || *s->p != ')')
			return 0;
		s->p++;
		return 1;
	}
	if (!strncmp(p, "static_cast<", 12)) {
		const char *gt = strchr(p, '>');
		if (!gt || !int_type_words(p + 12, (size_t)(gt - p - 12)) || gt[1] != '(')
			return 0;
		s->p = gt + 1;
		return parse_unary(s, out);
	}
	if (isdigit((unsigned char)*p)) {
		char *end;
		long long v = strtoll(p, &end, 0);
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
			end++;
		if (ident_char(*end) || *end == '.')
			return 0; /* a float literal */
		s->p = end;
		memset(out, 0, sizeof *out);
		if (v) {
			out->n = 1;
			out->t[0].coef = v;
		}
		return 1;
	}
	if (ident_start(*p)) {
		/* a functional cast int(x), size_t(x), ... */
		const char *q = p;
		while (ident_char(*q) || *q == ':')
			q++;
		if (*q == '(' && int_type_words(p, (size_t)(q - p))) {
			s->p = q;
			return parse_unary(s, out);
		}
		if (*q == '(' || *q == '[')
			return 0; /* a call or a subscript */
		return parse_name(s, out);
	}
	return 0;
}

static int parse_product(prs *s, ka_recipe_poly *out)
{
	if (!parse_unary(s, out))
		return 0;
	while (*s->p == '*') {
		s->p++;
		ka_recipe_poly r;
		if (!parse_unary(s, &r) || !poly_mul(out, &r, out))
			return 0;
	}
	return 1;
}

static int parse_sum(prs *s, ka_recipe_poly *out)
{
	if (!parse_product(s, out))
		return 0;
	while (*s->p == '+' || *s->p == '-') {
		long long sign = *s->p == '-' ? -1 : 1;
		s->p++;
		ka_recipe_poly r;
		if (!parse_product(s, &r) || !poly_add(out, &r, sign))
			return 0;
	}
	return 1;
}

int ka_recipe_poly_read(const char *sq, const ka_recipe_poly_env *env, ka_recipe_poly *out)
{
	char buf[512];
	size_t n = 0;
	/* blanks matter only inside a cast's type words, where they stay */
	for (const char *p = sq; *p && n + 1 < sizeof buf; p++)
		if (*p != ' ' || (p > sq && ident_char(p[-1]) && ident_char(p[1])))
			buf[n++] = *p;
	buf[n] = 0;
	prs s = {buf, env, 0};
	memset(out, 0, sizeof *out);
	return n + 1 < sizeof buf && parse_sum(&s, out) && !*s.p;
}

int ka_recipe_poly_has(const ka_recipe_poly_term *t, const char *factor)
{
	int n = 0;
	for (int i = 0; i < t->nf; i++)
		n += !strcmp(t->f[i], factor);
	return n;
}

int ka_recipe_poly_is_unit(const ka_recipe_poly_term *t, const char *factor)
{
	return t->coef == 1 && t->nf == 1 && !strcmp(t->f[0], factor);
}

void ka_recipe_poly_print(const ka_recipe_poly *p, char *out, size_t cap)
{
	size_t n = 0;
	out[0] = 0;
	if (!p->n)
		snprintf(out, cap, "0");
	for (int i = 0; i < p->n && n < cap; i++) {
		const ka_recipe_poly_term *t = &p->t[i];
		int w = snprintf(out + n, cap - n, "%s%lld", i ? " + " : "", t->coef);
		for (int k = 0; k < t->nf && w > 0 && n + (size_t)w < cap; k++)
			w += snprintf(out + n + w, cap - n - (size_t)w, "*%s", t->f[k]);
		if (w < 0)
			return;
		n += (size_t)w;
	}
}

int ka_recipe_poly_c(const ka_recipe_poly *p, char *out, size_t cap)
{
	size_t n = 0;
	out[0] = 0;
	if (!p->n)
		return snprintf(out, cap, "0") < (int)cap;
	for (int i = 0; i < p->n; i++) {
		const ka_recipe_poly_term *t = &p->t[i];
		int w;
		if (!t->nf)
			w = snprintf(out + n, cap - n, "%s%lldLL", i ? " + " : "", t->coef);
		else if (t->coef == 1 || t->coef == -1)
			w = snprintf(out + n, cap - n, "%s(long long)%s",
				     i ? (t->coef < 0 ? " - " : " + ") : (t->coef < 0 ? "-" : ""), t->f[0]);
		else
			w = snprintf(out + n, cap - n, "%s%lldLL * %s", i ? " + " : "", t->coef, t->f[0]);
		if (w < 0 || (size_t)w >= cap - n)
			return 0;
		n += (size_t)w;
		for (int k = 1; k < t->nf; k++) {
			w = snprintf(out + n, cap - n, " * %s", t->f[k]);
			if (w < 0 || (size_t)w >= cap - n)
				return 0;
			n += (size_t)w;
		}
	}
	return 1;
}

int ka_recipe_poly_defs_add(ka_recipe_poly_defs *d, const char *name, const char *rhs)
{
	if (d->n == KA_RECIPE_POLY_DEFS || strlen(name) >= sizeof d->name[0] ||
	    strlen(rhs) >= sizeof d->rhs[0])
		return 0;
	snprintf(d->name[d->n], sizeof d->name[0], "%s", name);
	snprintf(d->rhs[d->n], sizeof d->rhs[0], "%s", rhs);
	d->n++;
	return 1;
}

const char *ka_recipe_poly_defs_lookup(void *ctx, const char *name)
{
	const ka_recipe_poly_defs *d = ctx;
	for (int i = d->n - 1; i >= 0; i--)
		if (!strcmp(d->name[i], name))
			return d->rhs[i];
	return NULL;
}
