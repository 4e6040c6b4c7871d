/* agents/scaffold.c: a bench task scaffolded from one kernel (agents/scaffold.h).
 * It reads the kernel through the offline expert's source model
 * (recipes/csrc.h): parameters, the thread-index declarations and their
 * bound checks, and each pointer's accesses (directly or through a local
 * `T *q = p + ...` alias). */
#include "agents/scaffold.h"
#include "recipes/csrc.h"
#include "agents/scaffold_int.h"
#include "bench/scan.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NPOS ((size_t)-1)

typedef struct facts {
	int kind[KA_CSRC_MAX_PARAMS]; /* 0 pointer, 1 integer, 2 floating */
	char dtype[KA_CSRC_MAX_PARAMS][8];
	int written[KA_CSRC_MAX_PARAMS];
	int atomic_only[KA_CSRC_MAX_PARAMS]; /* stored only by atomics on the pointer itself */
	int read[KA_CSRC_MAX_PARAMS];        /* loaded from (also when written: in place) */
	int bounded;                         /* some index is compared with an integer parameter */
	int ndims[KA_CSRC_MAX_PARAMS];       /* dimensions of a shape read from 2-D/3-D indexing */
	char shape[KA_CSRC_MAX_PARAMS][256];
	char xvar[64], yvar[64], xbound[KA_CSRC_NAME], ybound[KA_CSRC_NAME];
	char synth[KA_CSRC_NAME]; /* a size parameter the kernel lacks (the element count), or "" */
	int nint;                 /* the kernel's integer parameters */
} facts;

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static const char *base_type(const char *type, int *kind)
{
	static char t[160];
	snprintf(t, sizeof t, "%s", type);
	for (char *q; (q = strstr(t, "const "));)
		memmove(q, q + 6, strlen(q + 6) + 1);
	for (char *q; (q = strstr(t, "__restrict__"));)
		memmove(q, q + 12, strlen(q + 12) + 1);
	char *star = strchr(t, '*');
	*kind = star ? 0 : -1;
	if (star)
		*star = 0;
	size_t n = strlen(t);
	while (n && t[n - 1] == ' ')
		t[--n] = 0;
	static const char *const ints[] = {"int",      "long long",    "long",   "size_t",
					   "unsigned", "unsigned int", "int64_t"};
	if (!star) {
		for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
			if (!strcmp(t, ints[i]))
				*kind = 1;
		if (!strcmp(t, "float") || !strcmp(t, "double"))
			*kind = 2;
		return t;
	}
	return !strcmp(t, "float")                                        ? "f32"
	       : !strcmp(t, "double")                                     ? "f64"
	       : !strcmp(t, "int")                                        ? "i32"
	       : !strcmp(t, "unsigned") || !strcmp(t, "unsigned int")     ? "u32"
	       : !strcmp(t, "__half") || !strcmp(t, "half")               ? "f16"
	       : !strcmp(t, "__nv_bfloat16") || !strcmp(t, "nv_bfloat16") ? "bf16"
									  : NULL;
}

/* The bound B of a `v < B` or `v >= B` anywhere in the body (an if, a
 * ternary, a loop condition), B an integer parameter. */
static void bound_of(const ka_csrc *m, const ka_csrc_kernel *k, const char *v, char *out, size_t cap)
{
	static char sq[65536];
	out[0] = 0;
	if (!ka_csrc_squeeze(m->text, k->body_open, k->body_close, sq, sizeof sq))
		return;
	size_t vn = strlen(v);
	for (const char *p = strstr(sq, v); p; p = strstr(p + 1, v)) {
		if ((p > sq && is_ident(p[-1])) || is_ident(p[vn]))
			continue;
		const char *hit = p[vn] == '<' && p[vn + 1] != '=' && p[vn + 1] != '<' ? p + vn + 1
				  : p[vn] == '>' && p[vn + 1] == '='                   ? p + vn + 2
										       : NULL;
		if (!hit)
			continue;
		size_t n = 0;
		while (is_ident(hit[n]) && n + 1 < cap)
			n++;
		if (!n || hit[n] == '.' || hit[n] == '(')
			continue;
		snprintf(out, cap, "%.*s", (int)n, hit);
		if (ka_csrc_param_index(k, out) >= 0)
			return;
		out[0] = 0;
	}
}

static void add_dim(char *shape, size_t cap, const char *name)
{
	char w[KA_CSRC_NAME + 4];
	snprintf(w, sizeof w, "%s", name);
	if (ka_csrc_has_word(shape, 0, strlen(shape), w))
		return;
	size_t n = strlen(shape);
	snprintf(shape + n, cap - n, "%s%s", n ? ", " : "", name);
}

/* Loop variables bounded by a parameter: for(T v=...;v<B;...) */
typedef struct lbound {
	int n;
	char v[8][64], b[8][KA_CSRC_NAME];
} lbound;

static void loop_bounds(const char *sq, const ka_csrc_kernel *k, lbound *lb)
{
	lb->n = 0;
	for (const char *p = strstr(sq, "for("); p && lb->n < 8; p = strstr(p + 1, "for(")) {
		const char *semi = strchr(p, ';'), *eq = strchr(p, '=');
		if (!semi || !eq || eq > semi)
			continue;
		const char *vs = eq;
		while (vs > p + 4 && is_ident(vs[-1]))
			vs--;
		char v[64], want[80];
		snprintf(v, sizeof v, "%.*s", (int)(eq - vs), vs);
		snprintf(want, sizeof want, ";%s<", v);
		if (strncmp(semi, want, strlen(want)))
			continue;
		const char *bs = semi + strlen(want);
		size_t n = 0;
		while (is_ident(bs[n]))
			n++;
		char bnd[KA_CSRC_NAME];
		snprintf(bnd, sizeof bnd, "%.*s", (int)n, bs);
		if (ka_csrc_param_index(k, bnd) < 0)
			continue;
		snprintf(lb->v[lb->n], sizeof lb->v[0], "%s", v);
		snprintf(lb->b[lb->n++], sizeof lb->b[0], "%s", bnd);
	}
}

/* The dimensions an index expression implies: the bounds of the thread
 * and loop variables in it and the integer parameters it names; `E % P`
 * is P alone. */
static void dims_of(const char *idx, const ka_csrc_kernel *k, const facts *f, const lbound *lb, char *shape,
		    size_t cap)
{
	const char *pct = strrchr(idx, '%');
	if (pct && ka_csrc_param_index(k, pct + 1) >= 0 && !strchr(pct, ')')) {
		add_dim(shape, cap, pct + 1);
		return;
	}
	size_t n = strlen(idx);
	if (f->yvar[0] && f->ybound[0] && ka_csrc_has_word(idx, 0, n, f->yvar))
		add_dim(shape, cap, f->ybound);
	if (f->xbound[0] && ka_csrc_has_word(idx, 0, n, f->xvar))
		add_dim(shape, cap, f->xbound);
	for (int i = 0; i < lb->n; i++)
		if (ka_csrc_has_word(idx, 0, n, lb->v[i]))
			add_dim(shape, cap, lb->b[i]);
	for (int q = 0; q < k->nparams; q++)
		if (f->kind[q] == 1 && ka_csrc_has_word(idx, 0, n, k->params[q].name))
			add_dim(shape, cap, k->params[q].name);
}

/* --- shapes from 2-D/3-D indexing --------------------------------------- */

typedef struct dimlist {
	int n;
	char d[4][KA_CSRC_NAME];
} dimlist;

/* The dimension a factor names: a thread or loop variable's bound, or an
 * integer parameter itself; NULL when it names neither. */
static const char *factor_dim(const char *w, const ka_csrc_kernel *k, const facts *f, const lbound *lb)
{
	if (f->xvar[0] && !strcmp(w, f->xvar))
		return f->xbound[0] ? f->xbound : NULL;
	if (f->yvar[0] && !strcmp(w, f->yvar))
		return f->ybound[0] ? f->ybound : NULL;
	for (int i = 0; i < lb->n; i++)
		if (!strcmp(w, lb->v[i]))
			return lb->b[i];
	int q = ka_csrc_param_index(k, w);
	return q >= 0 && f->kind[q] == 1 ? k->params[q].name : NULL;
}

static int sdims(const char *e, size_t n, const ka_csrc_kernel *k, const facts *f, const lbound *lb,
		 dimlist *out, int depth);

/* One product term: the dimensions of its factors in order (`y*n` is
 * [bound(y), n], `(z*ny+y)*nx` is [bound(z), ny, nx]); 0 when a factor is
 * neither a literal nor a known dimension. */
static int term_dims(const char *e, size_t n, const ka_csrc_kernel *k, const facts *f, const lbound *lb,
		     dimlist *out, int depth)
{
	out->n = 0;
	for (size_t i = 0; i < n;) {
		if (e[i] == '(') {
			size_t c = ka_csrc_match(e, n, i);
			if (c == NPOS)
				return 0;
			/* a cast: (long long)i */
			int cast = 1;
			for (size_t j = i + 1; j < c && cast; j++)
				cast = is_ident(e[j]) || e[j] == ' ';
			if (!cast) {
				dimlist in;
				if (!sdims(e + i + 1, c - i - 1, k, f, lb, &in, depth + 1))
					return 0;
				for (int a = 0; a < in.n && out->n < 4; a++)
					snprintf(out->d[out->n++], sizeof out->d[0], "%s", in.d[a]);
			}
			i = c + 1;
		} else if (isdigit((unsigned char)e[i])) {
			while (i < n && (is_ident(e[i]) || e[i] == '.'))
				i++;
		} else if (is_ident(e[i])) {
			size_t w = i;
			while (i < n && is_ident(e[i]))
				i++;
			char word[KA_CSRC_NAME];
			snprintf(word, sizeof word, "%.*s", (int)(i - w < 90 ? i - w : 90), e + w);
			const char *d = factor_dim(word, k, f, lb);
			if (!d || out->n == 4)
				return 0;
			snprintf(out->d[out->n++], sizeof out->d[0], "%s", d);
		} else
			return 0;
		if (i < n && e[i] != '*')
			return 0;
		i += i < n;
	}
	return 1;
}

/* An index: its terms at the top level; the one with the most dimensions
 * gives the shape. */
static int sdims(const char *e, size_t n, const ka_csrc_kernel *k, const facts *f, const lbound *lb,
		 dimlist *out, int depth)
{
	out->n = 0;
	if (depth > 4 || !n)
		return 0;
	size_t s = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && e[i] == '(') {
			size_t c = ka_csrc_match(e, n, i);
			if (c == NPOS)
				return 0;
			i = c;
			continue;
		}
		if (i < n && !(e[i] == '+' || (e[i] == '-' && i > s)))
			continue;
		dimlist t;
		if (!term_dims(e + s, i - s, k, f, lb, &t, depth))
			return 0;
		if (t.n > out->n)
			*out = t;
		s = i + 1;
	}
	return out->n > 0;
}

/* Accesses of pointer p (and of locals `T *q = p + E;`): written?, shape. */
static void accesses(const ka_csrc *m, const ka_csrc_kernel *k, facts *f, int p)
{
	static char sq[65536];
	if (!ka_csrc_squeeze(m->text, k->body_open, k->body_close + 1, sq, sizeof sq))
		return;
	lbound lb;
	loop_bounds(sq, k, &lb);
	char names[4][KA_CSRC_NAME];
	int nn = 1, subscripted = 0;
	snprintf(names[0], sizeof names[0], "%s", k->params[p].name);
	char pat[KA_CSRC_NAME + 4];
	snprintf(pat, sizeof pat, "=%s+", names[0]);
	for (const char *q = strstr(sq, pat); q && nn < 4; q = strstr(q + 1, pat)) {
		const char *vs = q;
		while (vs > sq && is_ident(vs[-1]))
			vs--;
		if (vs == q || vs == sq || vs[-1] != '*')
			continue;
		snprintf(names[nn++], sizeof names[0], "%.*s", (int)(q - vs < 95 ? q - vs : 95), vs);
		const char *end = q + strlen(pat);
		char rhs[256];
		snprintf(rhs, sizeof rhs, "%.*s", (int)strcspn(end, ";,"), end);
		dims_of(rhs, k, f, &lb, f->shape[p], sizeof f->shape[p]);
	}
	/* atomicAdd(p, v): a store through the pointer itself (a single accumulator) */
	for (const char *q = strstr(sq, "atomic"); q; q = strstr(q + 1, "atomic")) {
		const char *o = q + 6;
		while (is_ident(*o))
			o++;
		size_t pn = strlen(names[0]);
		if (*o == '(' && !strncmp(o + 1, names[0], pn) && o[1 + pn] == ',')
			f->written[p] = f->atomic_only[p] = 1;
	}
	for (int a = 0; a < nn; a++) {
		char st[KA_CSRC_NAME + 4];
		snprintf(st, sizeof st, "%.95s[", names[a]);
		for (const char *q = strstr(sq, st); q; q = strstr(q + 1, st)) {
			if (q > sq && is_ident(q[-1]))
				continue;
			size_t o = (size_t)(q - sq) + strlen(names[a]), c = ka_csrc_match(sq, strlen(sq), o);
			if (c == NPOS)
				continue;
			subscripted = 1;
			int store = sq[c + 1] == '=' && sq[c + 2] != '=';
			if (store || (strchr("+-*/", sq[c + 1]) && sq[c + 2] == '=') ||
			    (q >= sq + 11 && !strncmp(q - 11, "atomicAdd(&", 11)))
				f->written[p] = 1;
			if (!store)
				f->read[p] = 1;
			char idx[512];
			snprintf(idx, sizeof idx, "%.*s", (int)(c - o - 1), sq + o + 1);
			/* a subscript inside the subscript indexes another array */
			for (char *b = strchr(idx, '['); b; b = strchr(idx, '[')) {
				size_t cb = ka_csrc_match(idx, strlen(idx), (size_t)(b - idx));
				if (cb == NPOS)
					break;
				memmove(b, idx + cb + 1, strlen(idx + cb + 1) + 1);
			}
			dimlist dl;
			if (a == 0 && sdims(idx, strlen(idx), k, f, &lb, &dl, 0)) {
				if (dl.n > f->ndims[p]) { /* the access with the most dimensions */
					f->shape[p][0] = 0;
					for (int d = 0; d < dl.n; d++) {
						size_t sn = strlen(f->shape[p]);
						snprintf(f->shape[p] + sn, sizeof f->shape[p] - sn, "%s%s",
							 d ? ", " : "", dl.d[d]);
					}
					f->ndims[p] = dl.n;
				}
			} else if (f->ndims[p])
				; /* a structured shape stands */
			else if (a == 0 || !f->shape[p][0])
				dims_of(idx, k, f, &lb, f->shape[p], sizeof f->shape[p]);
			else if (a > 0) {
				/* through an alias: only the loop bounds add a dimension */
				facts g = *f;
				g.xbound[0] = g.ybound[0] = 0;
				for (int i = 0; i < k->nparams; i++)
					g.kind[i] = 0;
				dims_of(idx, k, &g, &lb, f->shape[p], sizeof f->shape[p]);
			}
		}
	}
	if (f->atomic_only[p] && !subscripted && nn == 1)
		snprintf(f->shape[p], sizeof f->shape[p], "1");
	else
		f->atomic_only[p] = 0;
}

/* `T v = <an expression of blockIdx.A and threadIdx.A>;`: v, on axis A. */
static int tid_decl(const char *t, size_t s, size_t e, char axis, char *var, size_t cap)
{
	char sq[512], bi[16], ti[16];
	if (!ka_csrc_squeeze(t, s, e, sq, sizeof sq))
		return 0;
	char *eq = strchr(sq, '=');
	if (!eq || eq == sq || eq[1] == '=' || !is_ident(eq[-1]))
		return 0;
	snprintf(bi, sizeof bi, "blockIdx.%c", axis);
	snprintf(ti, sizeof ti, "threadIdx.%c", axis);
	if (!strstr(eq, bi) || !strstr(eq, ti))
		return 0;
	for (const char *o = "xyz"; *o; o++)
		if (*o != axis) {
			char b2[16];
			snprintf(b2, sizeof b2, "Idx.%c", *o);
			if (strstr(eq, b2))
				return 0;
		}
	/* the name: the identifier just before '=' in the unsqueezed text */
	size_t at = s;
	while (at < e && t[at] != '=')
		at++;
	size_t ve = at;
	while (ve > s && (t[ve - 1] == ' ' || t[ve - 1] == '\t'))
		ve--;
	size_t vs = ve;
	while (vs > s && is_ident(t[vs - 1]))
		vs--;
	if (vs == ve || vs == s || ve - vs >= cap)
		return 0;
	snprintf(var, cap, "%.*s", (int)(ve - vs), t + vs);
	return 1;
}

/* --- a template kernel: its instantiation from the file's launch ------- */

static int replace_word(char *s, size_t cap, const char *w, const char *r);

typedef struct tmpl {
	int n;                        /* template parameters; 0: not a template */
	char name[8][KA_CSRC_NAME];   /* each parameter's name */
	char def[8][KA_CSRC_NAME];    /* its default, or "" */
	char arg[8][KA_CSRC_NAME];    /* its argument at the launch used, or "" */
	char targs[8 * KA_CSRC_NAME]; /* "<float, 256>" for the wrapper's launch, or "" */
	char list[8 * KA_CSRC_NAME];  /* the parameter list as written, for messages */
} tmpl;

/* The '>' that closes the '<' at i (nested <>, () and [] skipped), or NPOS. */
static size_t angle_close(const char *t, size_t len, size_t i)
{
	int depth = 0, paren = 0;
	for (size_t j = i; j < len; j++) {
		char c = t[j];
		if (c == '(' || c == '[')
			paren++;
		else if (c == ')' || c == ']')
			paren--;
		else if (paren == 0 && c == '<')
			depth++;
		else if (paren == 0 && c == '>' && --depth == 0)
			return j;
		else if (c == ';' || c == '{' || c == '}')
			return NPOS;
	}
	return NPOS;
}

/* Split t[s, e) at its top-level commas into trimmed pieces: their count,
 * -1 when there are more than 8 or one is too long. */
static int split_args(const char *t, size_t s, size_t e, char out[8][KA_CSRC_NAME])
{
	int n = 0, depth = 0;
	size_t a = s;
	for (size_t j = s; j <= e; j++) {
		char c = j < e ? t[j] : ',';
		if (c == '<' || c == '(' || c == '[')
			depth++;
		else if (c == '>' || c == ')' || c == ']')
			depth--;
		else if (c == ',' && depth == 0) {
			if (n == 8)
				return -1; /* more than the table holds */
			size_t x = a, y = j;
			while (x < y && isspace((unsigned char)t[x]))
				x++;
			while (y > x && isspace((unsigned char)t[y - 1]))
				y--;
			if (y - x >= KA_CSRC_NAME)
				return -1;
			snprintf(out[n++], KA_CSRC_NAME, "%.*s", (int)(y - x), t + x);
			a = j + 1;
		}
	}
	return n;
}

/* The `template <...>` before the kernel, and the template arguments of the
 * file's first launch that names them (`k<float, 256><<<...>>>`), else the
 * defaults.  KA_EINPUT when a parameter has neither. */
static int template_of(const ka_csrc *m, const ka_csrc_kernel *k, tmpl *tp)
{
	const char *t = m->text;
	memset(tp, 0, sizeof *tp);
	size_t b = k->start; /* back over blanks and the words that may come first */
	for (;;) {
		while (b > 0 && isspace((unsigned char)t[b - 1]))
			b--;
		size_t w = b;
		while (w > 0 && is_ident(t[w - 1]))
			w--;
		static const char *const lead[] = {"static", "inline", "__forceinline__", "extern"};
		int skip = 0;
		for (size_t q = 0; q < sizeof lead / sizeof lead[0] && !skip; q++)
			skip = b - w == strlen(lead[q]) && !strncmp(t + w, lead[q], b - w);
		if (skip) {
			b = w;
			continue;
		}
		break;
	}
	if (b == 0 || t[b - 1] != '>')
		return KA_OK;
	/* the '<' that this '>' closes: scan forward from each "template" before it */
	size_t open = NPOS;
	for (size_t w = b; w-- > 0 && b - w < 4096;)
		if (!strncmp(t + w, "template", 8) && (w == 0 || !is_ident(t[w - 1])) &&
		    !is_ident(t[w + 8])) {
			size_t o = ka_csrc_skip_blank(t, m->len, w + 8);
			if (o < b && t[o] == '<' && angle_close(t, m->len, o) == b - 1)
				open = o;
			break;
		}
	if (open == NPOS)
		return KA_OK;
	char parts[8][KA_CSRC_NAME];
	int n = split_args(t, open + 1, b - 1, parts);
	if (n <= 0)
		return ka_error_set(
			KA_EINPUT,
			"kernel %s: cannot read its template parameter list (more than 8 parameters, or one "
			"longer than %d characters)",
			k->name, KA_CSRC_NAME - 1);
	snprintf(tp->list, sizeof tp->list, "template %.*s", (int)(b - open), t + open);
	tp->n = n;
	for (int i = 0; i < n; i++) {
		char *eq = strchr(parts[i], '=');
		if (eq) {
			const char *d = eq + 1;
			while (*d == ' ')
				d++;
			snprintf(tp->def[i], sizeof tp->def[i], "%s", d);
			*eq = 0;
		}
		size_t e = strlen(parts[i]);
		while (e && !is_ident(parts[i][e - 1]))
			e--;
		size_t s0 = e;
		while (s0 && is_ident(parts[i][s0 - 1]))
			s0--;
		snprintf(tp->name[i], sizeof tp->name[i], "%.*s", (int)(e - s0), parts[i] + s0);
	}
	/* the first launch that gives the arguments: NAME<...><<< (the source
	 * model reads launches by the name right before "<<<", so it has none) */
	size_t nl = strlen(k->name);
	for (size_t at = 0; at + nl < m->len; at++) {
		if (strncmp(t + at, k->name, nl) || (at && is_ident(t[at - 1])) || at == k->name_at)
			continue;
		size_t o = ka_csrc_skip_blank(t, m->len, at + nl);
		if (o >= m->len || t[o] != '<' || !strncmp(t + o, "<<<", 3))
			continue;
		size_t c = angle_close(t, m->len, o);
		if (c == NPOS)
			continue;
		size_t ch = ka_csrc_skip_blank(t, m->len, c + 1);
		if (ch + 3 > m->len || strncmp(t + ch, "<<<", 3))
			continue;
		char args[8][KA_CSRC_NAME];
		int na = split_args(t, o + 1, c, args);
		if (na <= 0 || na > n)
			continue;
		for (int i = 0; i < na; i++)
			memcpy(tp->arg[i], args[i], sizeof tp->arg[i]);
		break;
	}
	size_t at = 0;
	for (int i = 0; i < n; i++) {
		const char *v = tp->arg[i][0] ? tp->arg[i] : tp->def[i];
		if (!v[0])
			return ka_error_set(KA_EINPUT,
					    "kernel %s is a template (%s) and no launch in the file gives "
					    "its argument %s: launch it once with explicit arguments, e.g. "
					    "%s<float><<<grid, block>>>(...)",
					    k->name, tp->list, tp->name[i], k->name);
		if (v != tp->arg[i])
			memcpy(tp->arg[i], tp->def[i], sizeof tp->arg[i]);
		at += (size_t)snprintf(tp->targs + at, sizeof tp->targs - at, "%s%s", i ? ", " : "<", v);
		if (at >= sizeof tp->targs)
			return ka_error_set(KA_EINPUT, "kernel %s: template arguments too long", k->name);
	}
	snprintf(tp->targs + at, sizeof tp->targs - at, ">");
	return KA_OK;
}

/* The kernel with each template parameter replaced by its argument in the
 * parameter types (the wrapper declares them with these types). */
static void instantiate(const ka_csrc_kernel *k, const tmpl *tp, ka_csrc_kernel *out)
{
	*out = *k;
	for (int p = 0; p < out->nparams; p++)
		for (int i = 0; i < tp->n; i++)
			replace_word(out->params[p].type, sizeof out->params[p].type, tp->name[i],
				     tp->arg[i]);
}

static int read_facts(const ka_csrc *m, const ka_csrc_kernel *k, facts *f)
{
	memset(f, 0, sizeof *f);
	const char *t = m->text;
	/* the thread-index declarations among the body's first statements */
	size_t s = ka_csrc_skip_blank(t, m->len, k->body_open + 1);
	for (int st = 0; st < 12 && s < k->body_close; st++) {
		size_t e = ka_csrc_stmt_end(t, m->len, s);
		if (e == NPOS || e > k->body_close)
			break;
		if (!f->xvar[0])
			tid_decl(t, s, e, 'x', f->xvar, sizeof f->xvar);
		else if (!f->yvar[0])
			tid_decl(t, s, e, 'y', f->yvar, sizeof f->yvar);
		s = ka_csrc_skip_blank(t, m->len, e);
	}
	static char body[65536];
	if (ka_csrc_squeeze(t, k->body_open, k->body_close, body, sizeof body))
		for (int p = 0; p < k->nparams && !f->bounded; p++) {
			char lt[KA_CSRC_NAME + 2];
			snprintf(lt, sizeof lt, "<%s", k->params[p].name);
			for (const char *q = strstr(body, lt); q && !f->bounded; q = strstr(q + 1, lt))
				f->bounded = q > body && q[-1] != '<' && !is_ident(q[strlen(lt)]);
		}
	if (f->xvar[0])
		bound_of(m, k, f->xvar, f->xbound, sizeof f->xbound);
	if (f->yvar[0])
		bound_of(m, k, f->yvar, f->ybound, sizeof f->ybound);
	if (f->yvar[0] && !f->ybound[0])
		f->yvar[0] = 0;
	for (int p = 0; p < k->nparams; p++) {
		int kind;
		const char *d = base_type(k->params[p].type, &kind);
		if (kind < 0 || (kind == 0 && !d))
			return ka_error_set(
				KA_EINPUT,
				"parameter %s of %s: type '%s' has no bench dtype (f32 f64 i32 u32 f16 bf16, "
				"integer or floating scalars)",
				k->params[p].name, k->name, k->params[p].type);
		f->kind[p] = kind;
		f->nint += kind == 1;
		if (kind == 0)
			snprintf(f->dtype[p], sizeof f->dtype[p], "%.7s", d);
	}
	if (!f->nint) { /* no size parameter: the element count becomes one */
		static const char *const cands[] = {"n", "n_elems", "ka_n"};
		for (size_t c = 0; c < sizeof cands / sizeof cands[0] && !f->synth[0]; c++)
			if (ka_csrc_param_index(k, cands[c]) < 0 && !ka_csrc_has_word(t, 0, m->len, cands[c]))
				snprintf(f->synth, sizeof f->synth, "%s", cands[c]);
		if (f->xvar[0] && !f->yvar[0])
			snprintf(f->xbound, sizeof f->xbound, "%s", f->synth);
	}
	for (int p = 0; p < k->nparams; p++)
		if (f->kind[p] == 0)
			accesses(m, k, f, p);
	for (int p = 0; p < k->nparams; p++)
		if (f->kind[p] == 0 && !f->shape[p][0]) {
			for (int q = 0; q < k->nparams && !f->shape[p][0]; q++)
				if (f->kind[q] == 1)
					snprintf(f->shape[p], sizeof f->shape[p], "%s", k->params[q].name);
			if (!f->shape[p][0])
				snprintf(f->shape[p], sizeof f->shape[p], "%s", f->synth);
		}
	return KA_OK;
}

/* --- the launch the wrapper makes --------------------------------------- */

typedef struct plan {
	char grid[3][700], block[3][256], shmem[256];
	char targs[8 * KA_CSRC_NAME]; /* a template kernel's arguments, "<float>", or "" */
	const char *how;              /* where the launch came from, for the report */
	int sure;                     /* from the file's own launch, resolved */
	long long synth_v;            /* the synthetic size's value in the file, or 0 */
	long long multiple;           /* sizes must be multiples of this (no bound check), or 0 */
} plan;

/* w replaced by r as a whole word in s (in place, cap bytes). */
static int replace_word(char *s, size_t cap, const char *w, const char *r)
{
	size_t wn = strlen(w), rn = strlen(r);
	int done = 0;
	for (size_t at = 0; s[at];) {
		char *p = strstr(s + at, w);
		if (!p)
			break;
		at = (size_t)(p - s);
		if ((p > s && is_ident(p[-1])) || is_ident(p[wn]) || strlen(s) - wn + rn + 1 > cap) {
			at++;
			continue;
		}
		memmove(p + rn, p + wn, strlen(p + wn) + 1);
		memcpy(p, r, rn);
		at += rn;
		done = 1;
	}
	return done;
}

static void make_plan(const ka_csrc *m, const ka_csrc_kernel *k, const facts *f, const ka_scaf_macros *mac,
		      plan *pl)
{
	ka_scaf_launch l;
	memset(pl, 0, sizeof *pl);
	ka_scaf_launch_of(m, k, mac, &l);
	for (int a = 0; a < 3; a++)
		snprintf(pl->block[a], sizeof pl->block[a], "%s", l.ok_block ? l.block[a] : "");
	if (!l.ok_block) {
		snprintf(pl->block[0], sizeof pl->block[0], "%s", f->yvar[0] ? "32" : "256");
		if (f->yvar[0])
			snprintf(pl->block[1], sizeof pl->block[1], "8");
	}
	long long bx = 0;
	if (!ka_scaf_eval(pl->block[0], mac, &bx))
		bx = 0;
	int grid_ok = l.ok_grid && l.ok_block;
	if (grid_ok) {
		for (int a = 0; a < 3; a++)
			snprintf(pl->grid[a], sizeof pl->grid[a], "%s", l.grid[a]);
		snprintf(pl->shmem, sizeof pl->shmem, "%s", l.shmem);
	}
	if (grid_ok && f->synth[0]) {
		/* the element count: a macro of the grid that the block does not name */
		grid_ok = 0;
		for (int i = 0; i < mac->n && !grid_ok; i++) {
			long long v;
			if (ka_csrc_has_word(pl->grid[0], 0, strlen(pl->grid[0]), mac->name[i]) &&
			    !ka_csrc_has_word(pl->block[0], 0, strlen(pl->block[0]), mac->name[i]) &&
			    ka_scaf_eval(mac->body[i], mac, &v) && v > 0 &&
			    replace_word(pl->grid[0], sizeof pl->grid[0], mac->name[i], f->synth)) {
				grid_ok = 1;
				pl->synth_v = v;
			}
		}
	}
	if (grid_ok) {
		pl->sure = 1;
		pl->how = "the grid and block of the file's own launch";
	} else if (f->xbound[0]) {
		const char *b0 = pl->block[0][0] ? pl->block[0] : "1";
		const char *b1 = pl->block[1][0] ? pl->block[1] : "1";
		snprintf(pl->grid[0], sizeof pl->grid[0], "((long long)%s + (%s) - 1) / (%s)", f->xbound, b0,
			 b0);
		if (f->yvar[0])
			snprintf(pl->grid[1], sizeof pl->grid[1], "((long long)%s + (%s) - 1) / (%s)",
				 f->ybound, b1, b1);
		pl->how = l.ok_block ? "the file's block over the kernel's bounds"
				     : "a guessed block over the kernel's bounds";
	} else {
		snprintf(pl->grid[0], sizeof pl->grid[0], "1");
		pl->how = "nothing: one block (TODO check: the grid this kernel needs)";
	}
	if (f->xvar[0] && (!f->xbound[0] || !strcmp(f->xbound, f->synth)) && !f->bounded && bx > 0)
		pl->multiple = bx; /* no bound check: the grid must cover the data exactly */
}

static void wrapper(ka_buf *b, const ka_csrc_kernel *k, const facts *f, const plan *pl)
{
	int ti = 0, pi = 0, si = 0;
	ka_buf_adds(b, "\n/* the task's entry point, scaffolded by kcheck bench init; its launch: ");
	ka_buf_printf(b, "%s */\n#include \"ka_task.h\"\n", pl->how);
	ka_buf_adds(
		b,
		"extern \"C\" int ka_task_run(const ka_task_args *ka_args_, cudaStream_t ka_stream_)\n{\n");
	for (int p = 0; p < k->nparams; p++) {
		const ka_csrc_param *pa = &k->params[p];
		if (f->kind[p] == 1)
			ka_buf_printf(b, "\t%s %s = (%s)ka_args_->p[%d];\n", pa->type, pa->name, pa->type,
				      pi++);
		else if (f->kind[p] == 2)
			ka_buf_printf(b, "\t%s %s = (%s)ka_args_->s[%d];\n", pa->type, pa->name, pa->type,
				      si++);
		else
			ka_buf_printf(b, "\t%s %s = (%s)ka_args_->t[%d];\n", pa->type, pa->name, pa->type,
				      ti++);
	}
	if (f->synth[0])
		ka_buf_printf(b, "\tlong long %s = ka_args_->p[0]; /* the element count */\n", f->synth);
	for (int p = 0, t = 0; p < k->nparams; p++) {
		if (f->kind[p])
			continue;
		if (f->atomic_only[p])
			ka_buf_printf(
				b,
				"\t/* atomics accumulate into %s: it starts at zero */\n"
				"\tcudaMemsetAsync(%s, 0, (size_t)ka_args_->n[%d] * sizeof(*%s), ka_stream_);\n",
				k->params[p].name, k->params[p].name, t, k->params[p].name);
		t++;
	}
	ka_buf_adds(b, "\tdim3 ka_grid_(");
	for (int a = 0; a < 3; a++)
		ka_buf_printf(b, "%s(unsigned)(%s)", a ? ", " : "", pl->grid[a][0] ? pl->grid[a] : "1");
	ka_buf_adds(b, ");\n\tdim3 ka_block_(");
	for (int a = 0; a < 3; a++)
		ka_buf_printf(b, "%s(unsigned)(%s)", a ? ", " : "", pl->block[a][0] ? pl->block[a] : "1");
	ka_buf_printf(b, ");\n\t%s%s<<<ka_grid_, ka_block_, %s, ka_stream_>>>(", k->name, pl->targs,
		      pl->shmem[0] ? pl->shmem : "0");
	for (int p = 0; p < k->nparams; p++)
		ka_buf_printf(b, "%s%s", p ? ", " : "", k->params[p].name);
	ka_buf_adds(b, ");\n\treturn 0;\n}\n");
}

/* --- task.yaml ---------------------------------------------------------- */

static int dims_of_param(const ka_csrc_kernel *k, const facts *f, const char *name)
{
	int most = 0;
	for (int p = 0; p < k->nparams; p++)
		if (f->kind[p] == 0 && ka_csrc_has_word(f->shape[p], 0, strlen(f->shape[p]), name)) {
			int d = 1;
			for (const char *c = f->shape[p]; (c = strchr(c, ',')); c++)
				d++;
			most = d > most ? d : most;
		}
	return most;
}

/* The sizes of a config: visible (v) or unseen. */
static long long size_for(const ka_csrc_kernel *k, const facts *f, const plan *pl, const char *name,
			  int unseen)
{
	int d = dims_of_param(k, f, name);
	long long v = d >= 3   ? (unseen ? 99 : 128)
		      : d == 2 ? (unseen ? 999 : 2048)
			       : (unseen ? 1000003 : 1 << 22);
	if (!unseen && f->synth[0] && !strcmp(name, f->synth) && pl->synth_v > 0)
		v = pl->synth_v;
	if (pl->multiple > 0)
		v = (v + pl->multiple - 1) / pl->multiple * pl->multiple;
	return v;
}

static void dims_product(const char *shape, char *out, size_t cap)
{
	snprintf(out, cap, "%s", shape);
	for (char *q; (q = strstr(out, ", "));) {
		q[0] = '*';
		memmove(q + 1, q + 2, strlen(q + 2) + 1);
	}
}

static void yaml(ka_buf *b, const ka_csrc_kernel *k, const facts *f, const plan *pl, const char *file)
{
	ka_buf_printf(b,
		      "# Scaffolded by `kcheck bench init %s --kernel %s` from the kernel's facts.\n"
		      "# Each guess says \"TODO check\"; reference.cu is still to be written.\n"
		      "name: %s\ncategory: custom\nparams: [",
		      file, k->name, k->name);
	int np = 0, ns = 0;
	for (int p = 0; p < k->nparams; p++)
		if (f->kind[p] == 1)
			ka_buf_printf(b, "%s%s", np++ ? ", " : "", k->params[p].name);
	if (f->synth[0])
		ka_buf_printf(
			b, "%s]   # TODO check: %s is the element count (the kernel has no size parameter)\n",
			f->synth, f->synth);
	else
		ka_buf_adds(b, "]\n");
	ka_buf_adds(b, "tensors:\n");
	for (int p = 0; p < k->nparams; p++) {
		if (f->kind[p])
			continue;
		ka_buf_printf(b, "  - {name: %s, role: %s, dtype: %s, shape: [%s]", k->params[p].name,
			      f->written[p] ? "out" : "in", f->dtype[p], f->shape[p]);
		int fp = f->dtype[p][0] == 'f' || f->dtype[p][0] == 'b'; /* f32 f64 f16 bf16 */
		if (!f->written[p])
			ka_buf_printf(b, ", dist: {kind: %s, lo: %s, hi: %s}", fp ? "uniform" : "int",
				      fp ? "-1" : "0", fp ? "1" : "1000");
		ka_buf_printf(
			b, "}   # TODO check: %s%s\n",
			f->atomic_only[p]  ? "one accumulator (atomics on the pointer)"
			: f->ndims[p] > 1  ? "shape from the 2-D/3-D indexing"
			: f->ndims[p] == 1 ? "shape from the index bound"
					   : "shape guessed (no bound on its index)",
			f->written[p] && f->read[p]
				? ", read and written in place: a bench tensor is in or out; give the kernel an output of its own"
			: f->written[p] ? ", written by the kernel"
					: ", its value range");
	}
	for (int p = 0; p < k->nparams; p++)
		if (f->kind[p] == 2) {
			if (!ns++)
				ka_buf_adds(b, "scalars:\n");
			ka_buf_printf(b, "  - {name: %s, lo: 0.5, hi: 2}   # TODO check: its range\n",
				      k->params[p].name);
		}
	ka_buf_adds(b, "tolerance: {atol: 1.0e-5, rtol: 1.0e-4, l2: 1.0e-5}   # TODO check\nbytes: ");
	int nb = 0;
	for (int p = 0; p < k->nparams; p++) {
		if (f->kind[p])
			continue;
		char dims[256];
		dims_product(f->shape[p], dims, sizeof dims);
		const char *d = f->dtype[p];
		ka_buf_printf(b, "%s%d*%s", nb++ ? " + " : "",
			      !strcmp(d, "f64")                         ? 8
			      : !strcmp(d, "f16") || !strcmp(d, "bf16") ? 2
									: 4,
			      dims);
	}
	ka_buf_adds(b, "   # TODO check: each tensor read or written once\nflops: ");
	int done = 0;
	for (int p = 0; p < k->nparams && !done; p++)
		if (!f->kind[p] && !f->written[p]) { /* one operation per input element read */
			char dims[256];
			dims_product(f->shape[p], dims, sizeof dims);
			ka_buf_printf(b, "%s   # TODO check: one per element of %s", dims, k->params[p].name);
			done = 1;
		}
	if (!done)
		ka_buf_adds(b, "0   # TODO check");
	ka_buf_adds(b, "\nconfigs:   # TODO check: sizes");
	if (pl->multiple)
		ka_buf_printf(b, " (multiples of %lld: the kernel has no bound check)", pl->multiple);
	for (int u = 0; u < 2; u++) {
		ka_buf_printf(b, "\n  %s:\n    - {name: %s", u ? "unseen" : "visible", u ? "u_1" : "v_1");
		for (int p = 0; p < k->nparams; p++)
			if (f->kind[p] == 1)
				ka_buf_printf(b, ", %s: %lld", k->params[p].name,
					      size_for(k, f, pl, k->params[p].name, u));
		if (f->synth[0])
			ka_buf_printf(b, ", %s: %lld", f->synth, size_for(k, f, pl, f->synth, u));
		ka_buf_adds(b, "}");
	}
	ka_buf_adds(b, "\n");
}

static const char reference_stub[] =
	"/* reference.cu (scaffolded by kcheck bench init): TODO: an fp64 CPU reference.\n"
	" * a->in[k] are the input tensors in task.yaml's order (NULL for outputs),\n"
	" * a->out[k] the outputs as doubles, a->n[k] their element counts, a->p the\n"
	" * params, a->s the scalars.  Until it is written the task fails. */\n"
	"#include \"ka_task.h\"\n\n"
	"extern \"C\" int ka_task_reference(const ka_ref_args *a)\n{\n\t(void)a;\n\treturn -1;\n}\n";

static int empty_dir_or_new(const char *dir)
{
	int n = ka_fs_dir_entries(dir);
	if (n < 0) { /* with the folders above it: --out tasks/mine */
		char p[1200];
		snprintf(p, sizeof p, "%s", dir);
		for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
			*s = 0;
			if (!ka_fs_is_dir(p) && mkdir(p, 0777))
				return ka_error_set(KA_EIO, "cannot create %s: %s", p, strerror(errno));
			*s = '/';
		}
		return mkdir(dir, 0777) ? ka_error_set(KA_EIO, "cannot create %s: %s", dir, strerror(errno))
					: KA_OK;
	}
	return n ? ka_error_set(KA_EINPUT, "%s exists and is not empty", dir) : KA_OK;
}

static int put(const char *dir, const char *name, const char *text)
{
	char p[1200];
	if (snprintf(p, sizeof p, "%s/%s", dir, name) >= (int)sizeof p)
		return ka_error_set(KA_EINPUT, "path too long: %.80s...", dir);
	return ka_fs_write_atomic(p, text, strlen(text));
}

/* What is left: the static gate's findings on the baseline, the guesses. */
static void report_text(ka_buf *r, const char *out_dir, const ka_buf *notes, const plan *pl, const char *base,
			int *left)
{
	static ka_bench_finding fd[32];
	int n = ka_bench_scan(base, strlen(base), fd, 32);
	*left = n;
	ka_buf_printf(r, "%s: task.yaml, baseline.cu, expert.cu (a copy of the baseline), reference.cu\n",
		      out_dir);
	if (notes->len)
		ka_buf_printf(r, "dropped from baseline.cu (its lines keep their numbers):\n");
	for (const char *l = notes->data; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t ln = nl ? (size_t)(nl - l) : strlen(l);
		ka_buf_printf(r, "  %.*s\n", (int)ln, l);
		l += ln + (nl != NULL);
	}
	ka_buf_printf(r, "launch: %s\n", pl->how);
	if (n == 0)
		ka_buf_adds(r, "static gate: baseline.cu passes\n");
	else
		ka_buf_printf(r, "static gate: baseline.cu is rejected (%d finding%s):\n", n,
			      n == 1 ? "" : "s");
	for (int i = 0; i < n && i < 32; i++)
		ka_buf_printf(r, "  %s/baseline.cu:%d: '%s': %s\n", out_dir, fd[i].line, fd[i].what,
			      fd[i].reason);
	ka_buf_adds(r, "left to do:\n");
	int step = 1;
	if (n)
		ka_buf_printf(
			r,
			"  %d. remove or rewrite what the static gate rejects in baseline.cu (and expert.cu)\n",
			step++);
	ka_buf_printf(r, "  %d. check the lines marked \"TODO check\" in %s/task.yaml%s\n", step++, out_dir,
		      pl->sure ? "" : " and the launch in baseline.cu");
	ka_buf_printf(r, "  %d. write %s/reference.cu (an fp64 CPU reference; the task fails until then)\n",
		      step++, out_dir);
	ka_buf_printf(
		r,
		"  %d. kcheck bench %s --compile-only   (then, on a GPU: kcheck bench %s --check-task 3)\n",
		step, out_dir, out_dir);
}

int ka_scaffold_task(const char *file, const char *kernel, const char *out_dir, ka_buf *report,
		     int *gate_left)
{
	static ka_csrc m;
	static facts f;
	static ka_scaf_macros mac;
	static plan pl;
	char *text = NULL;
	size_t len;
	ka_buf y, base, notes;
	int left = 0;
	ka_buf_init(&y, 1 << 20);
	ka_buf_init(&base, 64 << 20);
	ka_buf_init(&notes, 1 << 20);
	int rc = ka_fs_read(file, 0, &text, &len);
	if (rc == KA_OK)
		rc = ka_csrc_scan(&m, text, len);
	const ka_csrc_kernel *k = rc == KA_OK ? ka_csrc_kernel_find(&m, kernel) : NULL;
	if (rc == KA_OK && !k) {
		ka_buf names;
		ka_buf_init(&names, 4096);
		for (int i = 0; i < m.nkernels; i++)
			ka_buf_printf(&names, "%s%s", i ? ", " : "", m.k[i].name);
		rc = ka_error_set(KA_ENOTFOUND, "%s has no kernel named %s (kernels: %s)", file, kernel,
				  names.data ? names.data : "none");
		ka_buf_free(&names);
	}
	static tmpl tp;
	static ka_csrc_kernel inst;
	if (rc == KA_OK && (rc = template_of(&m, k, &tp)) == KA_OK && tp.n) {
		instantiate(k, &tp, &inst);
		k = &inst;
	}
	if (rc == KA_OK)
		rc = read_facts(&m, k, &f);
	if (rc == KA_OK && strstr(text, "ka_task_run"))
		rc = ka_error_set(KA_EINPUT, "%s defines ka_task_run already: it is a task's kernel file",
				  file);
	if (rc == KA_OK && ka_scaf_strip(text, len, &base, &notes, &mac))
		rc = ka_error_set(KA_ENOMEM, "out of memory");
	if (rc == KA_OK)
		rc = empty_dir_or_new(out_dir);
	if (rc == KA_OK) {
		make_plan(&m, k, &f, &mac, &pl);
		snprintf(pl.targs, sizeof pl.targs, "%s", tp.n ? tp.targs : "");
		yaml(&y, k, &f, &pl, file);
		/* no #line and nothing before the file's first line: findings in
		 * baseline.cu name the lines of the file it came from */
		if (base.len && base.data[base.len - 1] != '\n')
			ka_buf_addc(&base, '\n');
		wrapper(&base, k, &f, &pl);
		rc = !y.data || !base.data ? ka_error_set(KA_ENOMEM, "out of memory") : KA_OK;
	}
	if (rc == KA_OK)
		rc = put(out_dir, "task.yaml", y.data);
	if (rc == KA_OK)
		rc = put(out_dir, "baseline.cu", base.data);
	if (rc == KA_OK)
		rc = put(out_dir, "expert.cu", base.data);
	if (rc == KA_OK)
		rc = put(out_dir, "reference.cu", reference_stub);
	if (rc == KA_OK && report)
		report_text(report, out_dir, &notes, &pl, base.data, &left);
	if (gate_left)
		*gate_left = left;
	ka_buf_free(&y);
	ka_buf_free(&base);
	ka_buf_free(&notes);
	free(text);
	return rc;
}
