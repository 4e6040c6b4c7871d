/* analyzer/walk_types.c: types in the kernel walk.  Element sizes of
 * accesses, including dependent types of templates (`const T *`), which are
 * bound from the launch sites and call sites that instantiate them, or else
 * assumed (4 bytes) and said so; template arguments written at call sites;
 * and the calls that move data on records: `operator=` and compound
 * assignments on vector and reduced-precision types (float4, __half2,
 * __nv_bfloat16...), conversions (`float f = h[i]`) and the load/store
 * intrinsics (__ldg, __ldcs, __stcs...). */
#include "analyzer/walk.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bare name of a type: qualifiers, `__restrict`, references and array
 * bounds dropped; with deref, one trailing `*` removed (0 when none). */
static int core_type(const char *t, int deref, char *out, size_t n)
{
	if (!t || !*t)
		return 0;
	char buf[256];
	snprintf(buf, sizeof buf, "%s", t);
	char *b = strchr(buf, '[');
	if (b) {
		if (!deref)
			return 0;
		*b = '\0';
		deref = 0;
	}
	static const char *const drop[] = {"const ",  "volatile ", "__restrict__", "__restrict", "restrict",
					   "struct ", "class ",    "typename ",    NULL};
	for (int i = 0; drop[i]; i++) {
		char *p;
		size_t l = strlen(drop[i]);
		while ((p = strstr(buf, drop[i])) != NULL)
			memmove(p, p + l, strlen(p + l) + 1);
	}
	size_t l = strlen(buf);
	while (l && (isspace((unsigned char)buf[l - 1]) || buf[l - 1] == '&'))
		buf[--l] = '\0';
	if (deref) {
		if (!l || buf[l - 1] != '*')
			return 0;
		buf[--l] = '\0';
		while (l && isspace((unsigned char)buf[l - 1]))
			buf[--l] = '\0';
	}
	if (strchr(buf, '*') || !l)
		return 0;
	const char *s = buf;
	while (isspace((unsigned char)*s))
		s++;
	snprintf(out, n, "%s", s);
	return 1;
}

/* The template parameter of this name visible where the walk is. */
static ka_decl *find_tparam(walk *w, const char *name)
{
	for (int i = w->ctl.inline_depth - 1; i >= -1; i--) {
		ka_decl *f = i >= 0 ? w->ctl.inline_stack[i] : w->fn;
		for (int j = 0; f && j < f->ntparams; j++)
			if (f->tparams[j]->name && strcmp(f->tparams[j]->name, name) == 0)
				return f->tparams[j];
	}
	return NULL;
}

int walk_size_of_type(walk *w, const char *type, int deref)
{
	char core[256];
	if (!core_type(type, deref, core, sizeof core))
		return -1;
	ka_decl *tp = find_tparam(w, core);
	if (!tp || (tp->tflags & KT_INT))
		return -1;
	if (tp->id < w->file.nenv && w->sym.tb[tp->id].state == 1)
		return (int)w->sym.tb[tp->id].v;
	w->sym.elem_assumed = tp->name;
	return 4;
}

int walk_value_size(walk *w, ka_node *n)
{
	if (!n)
		return -1;
	return n->type_bytes > 0 ? n->type_bytes : walk_size_of_type(w, n->type, 0);
}

int walk_pointee_size(walk *w, ka_node *p)
{
	if (!p)
		return -1;
	return p->pointee_bytes > 0 ? p->pointee_bytes : walk_size_of_type(w, p->type, 1);
}

static int64_t tx_eval(walk *w, const char *s, int *ok);

/* The declaration a chain of subscripts starts from (`sum` of
 * `sum[i][j]`), else NULL; *depth: the subscripts on the way. */
const ka_decl *walk_subscript_root(ka_node *n, int *depth)
{
	*depth = 0;
	for (int guard = 0; n && guard < 8; guard++) {
		n = walk_strip(n);
		if (n->kind == KN_DECLREF)
			return n->ref;
		if (n->kind != KN_SUBSCRIPT || n->nkids != 2)
			return NULL;
		++*depth;
		n = n->kids[0];
	}
	return NULL;
}

/* The bounds an array type's text names (`T[m0][m1][m2]`: 3); the pointer
 * of `T (*)[m1][m2]` counts as one. */
static int type_bounds(const char *type)
{
	int bounds = strstr(type, "(*)") != NULL;
	for (const char *p = type; *p; p++)
		bounds += *p == '[';
	return bounds;
}

int walk_dependent_subarray(ka_node *n)
{
	int depth;
	const ka_decl *r = (n->tflags & KT_DEPENDENT) ? walk_subscript_root(n, &depth) : NULL;
	return r && r->type && depth < type_bounds(r->type);
}

/* The size of an array type whose bounds depend on template parameters
 (`T[m1][m2]`, `magmaDoubleComplex[BLK_M + 1][BLK_N + 1]`): each bound
 * evaluated with the template arguments bound where the walk is, times the
 * element's size (a bound type parameter, else elem); -1 when a bound or
 * the element is unknown. */
static int dependent_array_size(walk *w, const char *type, int elem)
{
	const char *lb = type ? strchr(type, '[') : NULL;
	if (!lb)
		return -1;
	char core[256];
	size_t cl = (size_t)(lb - type);
	if (cl >= sizeof core)
		return -1;
	memcpy(core, type, cl);
	core[cl] = '\0';
	int64_t size = walk_size_of_type(w, core, 0);
	if (size <= 0 || w->sym.elem_assumed)
		size = elem;
	w->sym.elem_assumed = NULL;
	if (size <= 0)
		return -1;
	for (const char *p = lb; *p == '[';) {
		const char *rb = strchr(p, ']');
		if (!rb || rb - p - 1 >= 128)
			return -1;
		char dim[128];
		snprintf(dim, sizeof dim, "%.*s", (int)(rb - p - 1), p + 1);
		int ok = 1;
		int64_t v = tx_eval(w, dim, &ok);
		if (!ok || v <= 0 || v > (1 << 20))
			return -1;
		size *= v;
		if (size > (1 << 30))
			return -1;
		for (p = rb + 1; isspace((unsigned char)*p);)
			p++;
	}
	return (int)size;
}

int walk_elem_size(walk *w, ka_node *n, ka_node *ptr)
{
	if (n && n->type_bytes > 0)
		return n->type_bytes;
	if (ptr && ptr->pointee_bytes > 0)
		return ptr->pointee_bytes;
	int s = n ? walk_size_of_type(w, n->type, 0) : -1;
	if (s <= 0 && ptr)
		s = walk_size_of_type(w, ptr->type, 1);
	return s;
}

/* The element size of a subscript of an array whose bounds depend on
 * template parameters (`sum[tx]` of `sum[BK][BM + 1][BN + 1]`, `x[i][j]`
 * of a helper's `T x[m0][m1][m2]`), from the declared type and the number
 * of subscripts (the subscript's own type may be only `<dependent type>`).
 * A type parameter the walk has not bound takes the innermost element of
 * the array the subscript reaches (base: the kernel's `sum` passed as
 * `x`).  -1 when not such a subscript, or when a bound inside the element
 * is unknown: then every subscript of the chain keeps the same assumed
 * element. */
int walk_subscript_elem_size(walk *w, ka_node *n, const ka_decl *base)
{
	int depth;
	const ka_decl *root = n && n->type_bytes <= 0 ? walk_subscript_root(n, &depth) : NULL;
	const char *lb = root && root->type ? strchr(root->type, '[') : NULL;
	if (!lb)
		return -1;
	const char *star = strstr(root->type, "(*)");
	int ptr = star && star < lb;
	char core[256];
	size_t cl = (size_t)((ptr ? star : lb) - root->type);
	if (cl >= sizeof core)
		return -1;
	memcpy(core, root->type, cl);
	core[cl] = '\0';
	/* the bounds inside the element: past the first `depth` ones (the
	 * pointer of `T (*)[m1][m2]` counts as one) */
	if (depth > type_bounds(root->type))
		return -1;
	const char *rest = lb;
	for (int k = ptr; k < depth; k++) {
		const char *rb = strchr(rest, ']');
		if (!rb)
			return -1;
		rest = rb + 1;
	}
	int hint = root->elem_bytes > 0 ? root->elem_bytes : base ? base->elem_bytes : -1;
	if (depth > 0 && *rest == '[') {
		char t[384];
		snprintf(t, sizeof t, "%s%s", core, rest);
		return dependent_array_size(w, t, hint);
	}
	/* the element itself: only when every inner bound is known */
	const char *inner = strchr(lb + 1, '[');
	if (inner && dependent_array_size(w, inner, 1) <= 0)
		return -1;
	int s = walk_size_of_type(w, core, 0);
	if ((s <= 0 || w->sym.elem_assumed) && hint > 0) {
		w->sym.elem_assumed = NULL;
		return hint;
	}
	return s;
}

int walk_vector_lanes(const ka_node *n, int abytes)
{
	if (!(n->tflags & KT_VECTOR) || !n->type || abytes <= 0)
		return 1;
	size_t l = strlen(n->type);
	while (l && (isspace((unsigned char)n->type[l - 1]) || n->type[l - 1] == '&'))
		l--;
	int d = l ? n->type[l - 1] - '0' : 1;
	return d >= 1 && d <= 4 ? d : 1;
}

/* ---- index text ---------------------------------------------------------- */

static const char *text_of(walk *w, ka_node *n)
{
	const char *t = walk_text(w, n);
	return t && *t ? t : NULL;
}

/* The index inside a pointer expression: &p[i] -> i, p + i -> i. */
static const char *ptr_index_text(walk *w, ka_node *p)
{
	p = walk_strip(p);
	for (int guard = 0; p && guard < 8; guard++) {
		if (p->kind == KN_UNOP && p->op == OP_ADDROF && p->nkids == 1) {
			ka_node *q = walk_strip(p->kids[0]);
			if (q && q->kind == KN_SUBSCRIPT && q->nkids == 2)
				return text_of(w, q->kids[1]);
			p = q;
			continue;
		}
		if (p->kind == KN_BINOP && (p->op == OP_ADD || p->op == OP_SUB) && p->nkids == 2) {
			ka_node *l = walk_strip(p->kids[0]), *r = walk_strip(p->kids[1]);
			int lp = l && (l->tflags & (KT_POINTER | KT_ARRAY));
			const char *t = text_of(w, lp ? r : l);
			if (t && p->op == OP_SUB)
				return ka_arena_printf(w->file.a, "-(%s)", t);
			return t;
		}
		break;
	}
	return NULL;
}

const char *walk_index_text(walk *w, ka_node *n, val addr, int elem)
{
	ka_node *m = n;
	if (m->kind == KN_MEMBER && m->nkids == 1 && walk_strip(m->kids[0])->kind == KN_SUBSCRIPT)
		m = walk_strip(m->kids[0]); /* vel[i].x: the index is i */
	const char *t = NULL;
	if (m->kind == KN_SUBSCRIPT && m->nkids == 2 && !m->loc.in_macro &&
	    walk_strip(m->kids[0])->kind != KN_SUBSCRIPT)
		t = text_of(w, m->kids[1]); /* (a 2-D a[i][j] keeps "i][j" below) */
	else if (m->kind == KN_UNOP && m->op == OP_DEREF && m->nkids == 1)
		t = ptr_index_text(w, m->kids[0]);
	else if (m->kind == KN_CALL && m->nkids >= 1)
		t = ptr_index_text(w, m->kids[0]);
	if (!t && m->kind == KN_SUBSCRIPT) {
		const char *s = text_of(w, m);
		const char *lb = s ? strchr(s, '[') : NULL;
		size_t len = s ? strlen(s) : 0;
		if (lb && len && s[len - 1] == ']')
			t = ka_arena_strndup(w->file.a, lb + 1, (size_t)(s + len - 1 - (lb + 1)));
	}
	if (!t && addr.x) {
		/* *p with p a pointer variable: the element offset it holds here */
		const sx *idx = elem > 0 ? sx_div_exact(&w->sym.sx, addr.x, elem) : NULL;
		const char *r = idx ? sx_render(&w->sym.sx, w->file.a, idx) : NULL;
		if (r && *r && !strchr(r, '?'))
			t = r;
	}
	if (!t) {
		/* as written (`*DstPtr`), but never a cast's spelling */
		const char *s = text_of(w, m);
		ka_node *p = m->kind == KN_UNOP && m->nkids == 1 ? walk_strip(m->kids[0]) : NULL;
		if (s && strstr(s, "_cast<") && p && text_of(w, p))
			s = ka_arena_printf(w->file.a, "*%s", text_of(w, p));
		t = s && !strstr(s, "_cast<") ? s : NULL;
	}
	return t;
}

/* ---- calls: names and template arguments --------------------------------- */

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

const char *walk_call_name(walk *w, ka_node *n)
{
	if (n->name && *n->name)
		return n->name;
	ka_node *c = n->callee ? walk_strip(n->callee) : NULL;
	if (c && (c->kind == KN_DECLREF || c->kind == KN_MEMBER) && c->name && *c->name)
		return c->name;
	const char *t = NULL;
	if (n->name_begin >= 0 && n->name_end > n->name_begin)
		t = ka_tu_text(w->file.tu, n->loc.file, n->name_begin, n->name_end);
	if (!t || !*t)
		t = walk_text(w, n);
	if (!t)
		return "";
	/* the last identifier before '<', '(' or the end: ns::k<T> -> k */
	const char *e = t;
	while (*e && *e != '<' && *e != '(')
		e++;
	while (e > t && !is_ident(e[-1]))
		e--;
	const char *b = e;
	while (b > t && is_ident(b[-1]))
		b--;
	return e > b ? ka_arena_strndup(w->file.a, b, (size_t)(e - b)) : "";
}

/* Whether a call with ntargs explicit template arguments can name f: each
 * template parameter past them appears in a parameter's type, where the
 * arguments can deduce it (not `template <uint32 BLOCKDIM, ...>
 * alignment_score(aligner, ...)`, a warp variant that needs BLOCKDIM
 * written out, for an unqualified `alignment_score(aligner, ...)`). */
static int targs_deducible(const ka_decl *f, int ntargs)
{
	for (int j = ntargs; j < f->ntparams; j++) {
		const char *t = f->tparams[j] ? f->tparams[j]->name : NULL;
		size_t tl = t ? strlen(t) : 0;
		int used = tl == 0;
		for (int i = 0; !used && i < f->nparams; i++) {
			const char *ty = f->params[i] ? f->params[i]->type : NULL;
			for (const char *p = ty ? strstr(ty, t) : NULL; p && !used; p = strstr(p + 1, t))
				used = (p == ty || !is_ident(p[-1])) && !is_ident(p[tl]);
		}
		if (!used)
			return 0;
	}
	return 1;
}

ka_decl *walk_find_function_targs(walk *w, const char *name, int nargs, int device, int ntargs)
{
	ka_decl *loose = NULL, *undeducible = NULL;
	ka_decl *const *same;
	if (!name || !*name)
		return NULL;
	int nsame = walk_funcs_named(w, name, &same); /* same name, list order */
	for (int k = 0; k < nsame; k++) {
		ka_decl *f = same[k];
		if (!f->body)
			continue;
		int dev = (f->flags & (KDF_DEVICE | KDF_GLOBAL)) != 0;
		if (device >= 0 && dev != device && !(f->flags & KDF_HOST))
			continue;
		if (f->nparams == nargs && ntargs >= 0 && !targs_deducible(f, ntargs)) {
			if (!undeducible)
				undeducible = f; /* only if nothing else fits (a default we do not see) */
			continue;
		}
		if (f->nparams == nargs)
			return f;
		if (f->nparams > nargs && !loose)
			loose = f;
	}
	return undeducible ? undeducible : loose;
}

ka_decl *walk_find_definition(walk *w, const ka_decl *decl)
{
	ka_decl *const *same;
	if (!decl || !decl->name)
		return NULL;
	int nsame = walk_funcs_named(w, decl->name, &same);
	for (int k = 0; k < nsame; k++) {
		ka_decl *f = same[k];
		int ok = f->body && f->nparams == decl->nparams;
		for (int i = 0; ok && i < f->nparams; i++)
			ok = f->params[i]->type && decl->params[i]->type &&
			     strcmp(f->params[i]->type, decl->params[i]->type) == 0;
		if (ok)
			return f;
	}
	return NULL;
}

ka_decl *walk_find_function(walk *w, const char *name, int nargs, int device)
{
	return walk_find_function_targs(w, name, nargs, device, -1);
}

/* A small integer expression of template-argument text: numbers,
 * + - * / % << >> and parentheses, identifiers bound to constants. */
typedef struct texp {
	walk *w;
	const char *p;
	int ok;
} texp;

static int64_t tx_expr(texp *t);

static int64_t tx_ident(texp *t)
{
	const char *b = t->p;
	while (is_ident(*t->p) || (*t->p == ':' && t->p[1] == ':'))
		t->p += *t->p == ':' ? 2 : 1;
	const char *s = b;
	for (const char *q = b; q < t->p; q++)
		if (*q == ':')
			s = q + 1;
	char name[128];
	snprintf(name, sizeof name, "%.*s", (int)(t->p - s), s);
	ka_decl *d = find_tparam(t->w, name);
	int64_t v;
	if (d && d->id < t->w->file.nenv && t->w->sym.env[d->id].x && sx_is_const(t->w->sym.env[d->id].x, &v))
		return v;
	for (ka_decl *g = t->w->file.tu->globals; g; g = g->next)
		if (strcmp(g->name, name) == 0 && (g->flags & KDF_CONSTQ) && g->init &&
		    walk_fold_int(t->w, g->init, &v))
			return v;
	t->ok = 0;
	return 0;
}

static int64_t tx_atom(texp *t)
{
	while (isspace((unsigned char)*t->p))
		t->p++;
	if (*t->p == '(') {
		t->p++;
		int64_t v = tx_expr(t);
		while (isspace((unsigned char)*t->p))
			t->p++;
		if (*t->p == ')')
			t->p++;
		else
			t->ok = 0;
		return v;
	}
	if (*t->p == '-') {
		t->p++;
		return -tx_atom(t);
	}
	if (isdigit((unsigned char)*t->p)) {
		char *e;
		int64_t v = strtoll(t->p, &e, 0);
		while (*e == 'u' || *e == 'U' || *e == 'l' || *e == 'L')
			e++;
		t->p = e;
		return v;
	}
	if (is_ident(*t->p))
		return tx_ident(t);
	t->ok = 0;
	return 0;
}

static int64_t tx_term(texp *t)
{
	int64_t v = tx_atom(t);
	for (;;) {
		while (isspace((unsigned char)*t->p))
			t->p++;
		char op = *t->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		t->p++;
		int64_t r = tx_atom(t);
		if (op == '*')
			v *= r;
		else if (r == 0)
			t->ok = 0;
		else
			v = op == '/' ? v / r : v % r;
	}
}

static int64_t tx_expr(texp *t)
{
	int64_t v = tx_term(t);
	for (int guard = 0; t->ok && guard < 64; guard++) {
		while (isspace((unsigned char)*t->p))
			t->p++;
		if ((t->p[0] == '<' && t->p[1] == '<') || (t->p[0] == '>' && t->p[1] == '>')) {
			int left = t->p[0] == '<';
			t->p += 2;
			int64_t r = tx_term(t);
			if (r < 0 || r > 62)
				t->ok = 0;
			else
				v = left ? v << r : v >> r;
			continue;
		}
		char op = *t->p;
		if (op != '+' && op != '-')
			return v;
		t->p++;
		int64_t r = tx_term(t);
		v = op == '+' ? v + r : v - r;
	}
	return v;
}

/* A bound written as text (`BLK_M + 1`), with the template arguments and
 * file-scope constants in view; *ok cleared when it is not a constant. */
static int64_t tx_eval(walk *w, const char *s, int *ok)
{
	texp t = {.p = s, .ok = 1, .w = w};
	int64_t v = tx_expr(&t);
	while (isspace((unsigned char)*t.p))
		t.p++;
	*ok = t.ok && !*t.p;
	return v;
}

/* Template arguments written after the callee's name, by position. */
static int targs_from_text(walk *w, ka_node *n, int64_t *v, int *known, int max)
{
	const ka_srcfile *sf = n->name_begin >= 0 ? ka_tu_file(w->file.tu, n->loc.file) : NULL;
	if (!sf || n->name_end >= sf->len || n->name_begin >= n->name_end || n->loc.in_macro)
		return -1;
	/* the callee's range may hold the arguments (k<BS>) or end before them */
	const char *p = sf->data + n->name_begin, *end = sf->data + sf->len;
	while (p < end && (is_ident(*p) || *p == ':' || isspace((unsigned char)*p)))
		p++;
	if (p >= end || *p != '<')
		return -1;
	int depth = 0, cnt = 0;
	const char *start = ++p;
	char buf[256];
	for (; p < end && cnt < max; p++) {
		if (*p == '<' || *p == '(')
			depth++;
		else if ((*p == ')' || *p == '>') && depth > 0)
			depth--;
		else if ((*p == ',' || *p == '>') && depth == 0) {
			snprintf(buf, sizeof buf, "%.*s", (int)(p - start), start);
			texp t = {.w = w, .p = buf, .ok = 1};
			v[cnt] = tx_expr(&t);
			while (isspace((unsigned char)*t.p))
				t.p++;
			known[cnt] = t.ok && !*t.p;
			cnt++;
			start = p + 1;
			if (*p == '>')
				break;
		}
	}
	return cnt;
}

/* The text of a call's template argument j as written (`NTX` in
 * `k<T, NTX><<<...>>>`), blanks trimmed; 0 when the call is in a macro or
 * has no such argument. */
int walk_call_targ_text(walk *w, ka_node *n, int j, char *buf, size_t cap)
{
	const ka_srcfile *sf = n->name_begin >= 0 ? ka_tu_file(w->file.tu, n->loc.file) : NULL;
	if (!sf || n->name_end >= sf->len || n->name_begin >= n->name_end || n->loc.in_macro || cap < 2)
		return 0;
	const char *p = sf->data + n->name_begin, *end = sf->data + sf->len;
	while (p < end && (is_ident(*p) || *p == ':' || isspace((unsigned char)*p)))
		p++;
	if (p >= end || *p != '<')
		return 0;
	int depth = 0, cnt = 0;
	const char *start = ++p;
	for (; p < end; p++) {
		if (*p == '<' || *p == '(')
			depth++;
		else if ((*p == ')' || *p == '>') && depth > 0)
			depth--;
		else if ((*p == ',' || *p == '>') && depth == 0) {
			if (cnt++ == j) {
				const char *e = p;
				while (start < e && isspace((unsigned char)*start))
					start++;
				while (e > start && isspace((unsigned char)e[-1]))
					e--;
				if ((size_t)(e - start) >= cap || e == start)
					return 0;
				memcpy(buf, start, (size_t)(e - start));
				buf[e - start] = 0;
				return 1;
			}
			start = p + 1;
			if (*p == '>')
				break;
		}
	}
	return 0;
}

int walk_call_targs(walk *w, ka_node *n, ka_decl *f, int64_t *v, int *known, int max)
{
	int cnt = targs_from_text(w, n, v, known, max);
	/* what the text does not fold, the compiler's resolved arguments of
	 * the specialization give (a constexpr of sizeof, a constant folded
	 * through a trait) */
	if (n->nptargs > 0) {
		if (cnt < 0)
			cnt = 0;
		for (int i = 0; i < n->nptargs && i < max; i++) {
			if (i >= cnt) {
				known[i] = 0;
				cnt = i + 1;
			}
			if (!known[i] && ((n->ptargs_known >> i) & 1)) {
				v[i] = n->ptargs[i];
				known[i] = 1;
			}
		}
		return cnt;
	}
	if (cnt >= 0)
		return cnt;
	/* from the front end's folded integer arguments, in the order of the
	 * integer parameters */
	cnt = 0;
	int ai = 0;
	for (int i = 0; f && i < f->ntparams && cnt < max; i++, cnt++) {
		known[cnt] = 0;
		if ((f->tparams[i]->tflags & KT_INT) && ai < n->ntargs) {
			v[cnt] = n->targs[ai++];
			known[cnt] = 1;
		}
	}
	return cnt;
}

static void tb_merge(tbind *b, int64_t v)
{
	if (b->state == 0) {
		b->v = v;
		b->state = 1;
	} else if (b->state == 1 && b->v != v) {
		b->state = 2;
	}
}

/* The size a type parameter takes from the arguments of one call. */
static int type_arg_size(walk *w, ka_decl *f, ka_decl *tp, ka_node *call, int (*argb)(walk *, ka_node *, int))
{
	char core[256];
	for (int i = 0; i < f->nparams && i < call->nkids; i++) {
		ka_decl *p = f->params[i];
		int ptr = (p->tflags & KT_POINTER) != 0;
		if (!core_type(p->type, ptr, core, sizeof core) || strcmp(core, tp->name) != 0)
			continue;
		int b = argb(w, call, i);
		if (b > 0)
			return b;
	}
	return -1;
}

static int arg_bytes(walk *w, ka_node *call, int i)
{
	ka_node *a = walk_strip(call->kids[i]);
	if (!a)
		return -1;
	return (a->tflags & (KT_POINTER | KT_ARRAY)) ? walk_pointee_size(w, a) : walk_value_size(w, a);
}

static const sx *static_param(walk *w, ka_decl *tp);

void walk_bind_call_tparams(walk *w, ka_node *n, ka_decl *f)
{
	int64_t v[8];
	int known[8];
	int c = f->ntparams ? walk_call_targs(w, n, f, v, known, 8) : 0;
	for (int i = 0; i < f->ntparams; i++) {
		ka_decl *tp = f->tparams[i];
		if (tp->id >= w->file.nenv)
			continue;
		if (tp->tflags & KT_INT) {
			w->sym.env[tp->id].x = i < c && known[i] ? sx_const(&w->sym.sx, v[i])
								 : static_param(w, tp);
			w->sym.env[tp->id].base = NULL;
			continue;
		}
		w->sym.tb[tp->id] = (tbind){0};
		int b = type_arg_size(w, f, tp, n, arg_bytes);
		if (b > 0)
			tb_merge(&w->sym.tb[tp->id], b);
	}
}

static int launch_argb(walk *w, ka_node *call, int i)
{
	(void)w;
	for (int j = 0; j < w->host.nlaunches; j++)
		if (w->host.launches[j].call == call)
			return i < 16 ? w->host.launches[j].argb[i] : -1;
	return -1;
}

void walk_bind_kernel_types(walk *w, ka_decl *k)
{
	for (int i = 0; i < k->ntparams; i++) {
		ka_decl *tp = k->tparams[i];
		if (tp->id >= w->file.nenv)
			continue;
		if (tp->tflags & KT_INT) {
			const sx *x = w->sym.env[tp->id].x;
			if (x && x->k == SX_SYM)
				w->sym.sx.syms[x->sym].is_static = 1;
			continue;
		}
		tbind b = {0};
		for (int j = 0; j < w->host.nlaunches; j++) {
			if (w->host.launches[j].kernel != k)
				continue;
			int s = type_arg_size(w, k, tp, w->host.launches[j].call, launch_argb);
			if (s > 0)
				tb_merge(&b, s);
			else
				b.state = 2;
		}
		w->sym.tb[tp->id] = b;
	}
}

/* Host function templates called with concrete types (a launch wrapper
 * `template <typename T> void run(const T *x) { k<<<...>>>(x); }`): their
 * type and integer parameters, when every call agrees. */
static void scan_host_calls(walk *w, ka_node *n)
{
	if (!n)
		return;
	if (n->kind == KN_CALL && !n->cfg) {
		ka_decl *f = n->ref && n->ref->body
				     ? n->ref
				     : walk_find_function(w, walk_call_name(w, n), n->nkids, 0);
		if (f && (f->flags & KDF_TEMPLATE) && !(f->flags & KDF_GLOBAL) && f->ntparams) {
			int64_t v[8];
			int known[8];
			int c = walk_call_targs(w, n, f, v, known, 8);
			for (int i = 0; i < f->ntparams; i++) {
				ka_decl *tp = f->tparams[i];
				if (tp->id >= w->file.nenv)
					continue;
				if (tp->tflags & KT_INT) {
					if (i < c && known[i])
						tb_merge(&w->sym.tb[tp->id], v[i]);
					else
						w->sym.tb[tp->id].state = 2;
					continue;
				}
				int b = type_arg_size(w, f, tp, n, arg_bytes);
				if (b > 0)
					tb_merge(&w->sym.tb[tp->id], b);
				else
					w->sym.tb[tp->id].state = 2;
			}
		}
	}
	for (int i = 0; i < n->nkids; i++)
		scan_host_calls(w, n->kids[i]);
}

void walk_bind_host_templates(walk *w)
{
	sx_ctx_init(&w->sym.sx, w->file.a);
	for (ka_decl *f = w->file.tu->funcs; f; f = f->next) {
		if ((f->flags & (KDF_GLOBAL | KDF_DEVICE)) && !(f->flags & KDF_HOST))
			continue;
		w->fn = f;
		w->ctl.inline_depth = 0;
		scan_host_calls(w, f->body);
	}
}

/* The symbol of a template parameter whose value no launch or call gives:
 * unknown, yet a compile-time constant. */
static const sx *static_param(walk *w, ka_decl *tp)
{
	int s = sx_new_sym(&w->sym.sx, SYM_PARAM, tp->name, D_PARAM, 0);
	w->sym.sx.syms[s].is_static = 1;
	return sx_symref(&w->sym.sx, s);
}

int walk_loop_is_static(walk *w, ka_node *cond, ka_decl *iv, const sx *start, const sx *step)
{
	ka_node *c = walk_strip(cond);
	if (!start || !sx_is_static(&w->sym.sx, start) || (step && !sx_is_static(&w->sym.sx, step)))
		return 0;
	if (!c || c->kind != KN_BINOP || c->nkids != 2 || c->op < OP_LT || c->op > OP_NE)
		return 0;
	ka_node *l = walk_strip(c->kids[0]);
	if (!l || l->kind != KN_DECLREF || l->ref != iv)
		return 0;
	w->ctl.quiet++;
	const sx *b = walk_ev_int(w, c->kids[1]);
	w->ctl.quiet--;
	return sx_is_static(&w->sym.sx, b);
}

void walk_enter_host_template(walk *w, ka_decl *f)
{
	for (int i = 0; i < f->ntparams; i++) {
		ka_decl *tp = f->tparams[i];
		if (!(tp->tflags & KT_INT) || tp->id >= w->file.nenv)
			continue;
		w->sym.env[tp->id].x = w->sym.tb[tp->id].state == 1
					       ? sx_const(&w->sym.sx, w->sym.tb[tp->id].v)
					       : static_param(w, tp);
	}
}
