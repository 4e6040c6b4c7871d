/* agents/scaffold_host.c: the host side of a file for `kcheck bench init`
 * (agents/scaffold_int.h): what the baseline drops, the macros it keeps,
 * and the launch of the kernel resolved to its parameters. */
#include "agents/scaffold_int.h"
#include "bench/scan.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)

static int is_id(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Past the literal (string or character) that starts at i. */
static size_t skip_lit(const char *t, size_t len, size_t i)
{
	char q = t[i];
	for (i++; i < len && t[i] != q && t[i] != '\n'; i++)
		if (t[i] == '\\' && i + 1 < len)
			i++;
	return i < len ? i + 1 : len;
}

/* The end of the directive at i (its newline, past line splices). */
static size_t directive_end(const char *t, size_t len, size_t i)
{
	for (; i < len; i++) {
		if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
			const char *c = strstr(t + i + 2, "*/");
			i = c && (size_t)(c - t) < len ? (size_t)(c - t) + 1 : len;
			continue;
		}
		if (t[i] == '\n') {
			size_t b = i;
			while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t' || t[b - 1] == '\r'))
				b--;
			if (b == 0 || t[b - 1] != '\\')
				return i;
		}
	}
	return len;
}

static int line_of(const char *t, size_t at)
{
	int n = 1;
	for (size_t i = 0; i < at; i++)
		n += t[i] == '\n';
	return n;
}

typedef struct drop {
	size_t s, e;
	char what[200];
} drop;

/* One directive [s, e) at file level: dropped (*d filled) or kept. */
static int directive(const char *t, size_t s, size_t e, ka_scaf_macros *mac, drop *d)
{
	size_t i = s + 1;
	while (i < e && (t[i] == ' ' || t[i] == '\t'))
		i++;
	size_t w = i;
	while (i < e && is_id(t[i]))
		i++;
	if (i - w == 7 && !strncmp(t + w, "include", 7)) {
		while (i < e && (t[i] == ' ' || t[i] == '\t'))
			i++;
		char close = i < e && t[i] == '<' ? '>' : i < e && t[i] == '"' ? '"' : 0;
		size_t h = i + 1, he = h;
		while (close && he < e && t[he] != close)
			he++;
		if (close && he < e && ka_bench_header_allowed(t + h, he - h))
			return 0;
		d->s = s;
		d->e = e;
		snprintf(d->what, sizeof d->what, "#include %.*s (a header off the bench's allowlist)",
			 (int)(he < e ? he + 1 - i : e - i), t + i);
		return 1;
	}
	if (i - w != 6 || strncmp(t + w, "define", 6))
		return 0;
	ka_bench_finding f[2];
	size_t ns = 0;
	while (i < e && (t[i] == ' ' || t[i] == '\t'))
		i++;
	for (ns = i; i < e && is_id(t[i]); i++)
		;
	char name[KA_CSRC_NAME];
	snprintf(name, sizeof name, "%.*s", (int)(i - ns < 90 ? i - ns : 90), t + ns);
	if (ka_bench_scan(t + s, e - s, f, 2) > 0) {
		d->s = s;
		d->e = e;
		snprintf(d->what, sizeof d->what, "#define %s (its body names '%s': %s)", name, f[0].what,
			 f[0].reason);
		return 1;
	}
	if (i < e && t[i] == '(') /* a function-like macro: kept, not a value */
		return 0;
	if (mac->n < KA_SCAF_MAX_MACROS) {
		char *b = mac->body[mac->n];
		size_t n = 0;
		for (; i < e && n + 1 < sizeof mac->body[0]; i++)
			if (t[i] != '\\' && t[i] != '\n' && t[i] != '\r')
				b[n++] = t[i] == '\t' ? ' ' : t[i];
		b[n] = 0;
		char *c = strstr(b, "//");
		if (c)
			*c = 0;
		snprintf(mac->name[mac->n++], sizeof mac->name[0], "%s", name);
	}
	return 0;
}

/* The head of a brace at file level, [s, open): a function definition
 * (name filled), a namespace or extern "C" block (2), or something else. */
static int head_kind(const char *t, size_t len, size_t s, size_t open, char *name, size_t cap, int *device)
{
	char sq[4096];
	s = ka_csrc_skip_blank(t, len, s);
	if (s >= open || !ka_csrc_squeeze(t, s, open, sq, sizeof sq))
		return 0;
	if (!strncmp(sq, "namespace", 9) || !strcmp(sq, "extern\"C\"") || !strncmp(sq, "extern\"C++\"", 11))
		return 2;
	/* a template's parameter list (`template<typename T, int B = 256>`) is
	 * not part of the head: its '=' is a default, not an initializer */
	if (!strncmp(sq, "template<", 9)) {
		size_t j = 8;
		for (int depth = 0; sq[j]; j++)
			if (sq[j] == '<')
				depth++;
			else if (sq[j] == '>' && --depth == 0)
				break;
		if (!sq[j])
			return 0;
		memmove(sq, sq + j + 1, strlen(sq + j + 1) + 1);
	}
	static const char *const not_fn[] = {"struct", "class", "union", "enum", "typedef"};
	for (size_t i = 0; i < sizeof not_fn / sizeof not_fn[0]; i++)
		if (ka_csrc_has_word(sq, 0, strlen(sq), not_fn[i]))
			return 0;
	char *paren = strchr(sq, '(');
	char *eq = strchr(sq, '=');
	if (!paren || (eq && eq < paren) || !strchr(sq, ')'))
		return 0;
	/* __launch_bounds__(...) and the like come before the name */
	char *nm = paren;
	while (nm > sq && is_id(nm[-1]))
		nm--;
	snprintf(name, cap, "%.*s", (int)(paren - nm), nm);
	*device = ka_csrc_has_word(t, s, open, "__global__") || ka_csrc_has_word(t, s, open, "__device__") ||
		  ka_csrc_has_word(t, s, open, "constexpr");
	return 1;
}

int ka_scaf_strip(const char *t, size_t len, ka_buf *out, ka_buf *notes, ka_scaf_macros *mac)
{
	static drop d[512];
	int nd = 0, bol = 1;
	size_t decl = 0;
	mac->n = 0;
	for (size_t i = 0; i < len && nd < (int)(sizeof d / sizeof d[0]);) {
		char c = t[i];
		if (c == '\n') {
			bol = 1;
			i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			i++;
			continue;
		}
		if (c == '/' && i + 1 < len && (t[i + 1] == '/' || t[i + 1] == '*')) {
			if (t[i + 1] == '/') {
				while (i < len && t[i] != '\n')
					i++;
			} else {
				const char *c = strstr(t + i + 2, "*/");
				i = c && (size_t)(c - t) < len ? (size_t)(c - t) + 2 : len;
			}
			continue;
		}
		if (bol && c == '#') {
			size_t e = directive_end(t, len, i);
			if (directive(t, i, e, mac, &d[nd]))
				nd++;
			i = decl = e;
			continue;
		}
		bol = 0;
		if (c == '"' || c == '\'') {
			i = skip_lit(t, len, i);
			continue;
		}
		if (c == ';' || c == '}') {
			decl = ++i;
			continue;
		}
		if (c != '{') {
			i++;
			continue;
		}
		size_t close = ka_csrc_match(t, len, i);
		if (close == NPOS)
			break; /* unbalanced: the rest is kept as it is */
		char name[KA_CSRC_NAME];
		int device = 0, kind = head_kind(t, len, decl, i, name, sizeof name, &device);
		if (kind == 2) { /* into a namespace or extern "C" block */
			decl = ++i;
			continue;
		}
		if (kind == 1 && !device) {
			d[nd].s = ka_csrc_skip_blank(t, len, decl);
			d[nd].e = close + 1;
			snprintf(d[nd++].what, sizeof d[0].what, "%s() (host code)", name);
		}
		i = close + 1;
		if (kind == 1)
			decl = i;
	}
	size_t at = 0;
	int rc = 0;
	for (int k = 0; k < nd && !rc; k++) {
		rc = ka_buf_add(out, t + at, d[k].s - at);
		if (!rc)
			rc = ka_buf_printf(out, "/* dropped by kcheck bench init: %s */", d[k].what);
		for (size_t j = d[k].s; j < d[k].e && !rc; j++)
			if (t[j] == '\n')
				rc = ka_buf_addc(out, '\n');
		if (!rc && notes)
			rc = ka_buf_printf(notes, "line %d: %s\n", line_of(t, d[k].s), d[k].what);
		at = d[k].e;
	}
	if (!rc)
		rc = ka_buf_add(out, t + at, len - at);
	return rc ? KA_ENOMEM : 0;
}

/* --- integer constant expressions --------------------------------------- */

typedef struct ev {
	const char *s;
	const ka_scaf_macros *mac;
	int ok, depth;
} ev;

static long long ev_shift(ev *e);

static void ev_blank(ev *e)
{
	while (*e->s == ' ' || *e->s == '\t')
		e->s++;
}

static const ka_scaf_macros *macro_of(const ka_scaf_macros *mac, const char *w, size_t n, int *idx)
{
	for (int i = 0; mac && i < mac->n; i++)
		if (strlen(mac->name[i]) == n && !strncmp(mac->name[i], w, n)) {
			*idx = i;
			return mac;
		}
	return NULL;
}

static int is_type_word(const char *w, size_t n)
{
	static const char *const types[] = {"int",   "unsigned", "long",     "short",   "signed",   "size_t",
					    "const", "int64_t",  "uint64_t", "int32_t", "uint32_t", "char"};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strlen(types[i]) == n && !strncmp(types[i], w, n))
			return 1;
	return 0;
}

static long long ev_primary(ev *e)
{
	ev_blank(e);
	const char *s = e->s;
	if (*s == '(') {
		/* a cast to an integer type is skipped */
		const char *q = s + 1;
		int cast = 1, words = 0;
		while (*q && *q != ')') {
			while (*q == ' ')
				q++;
			const char *w = q;
			while (is_id(*q))
				q++;
			if (q == w && *q != ')') {
				cast = 0;
				break;
			}
			if (q > w && !is_type_word(w, (size_t)(q - w))) {
				cast = 0;
				break;
			}
			words += q > w;
		}
		if (cast && words && *q == ')') {
			e->s = q + 1;
			return ev_primary(e);
		}
		e->s = s + 1;
		long long v = ev_shift(e);
		ev_blank(e);
		if (*e->s != ')')
			e->ok = 0;
		else
			e->s++;
		return v;
	}
	if (*s == '-' || *s == '+') {
		e->s++;
		long long v = ev_primary(e);
		return *s == '-' ? -v : v;
	}
	if (isdigit((unsigned char)*s)) {
		char *end;
		long long v = strtoll(s, &end, 0);
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
			end++;
		e->s = end;
		return v;
	}
	if (is_id(*s)) {
		const char *w = s;
		while (is_id(*s))
			s++;
		int idx;
		if (!macro_of(e->mac, w, (size_t)(s - w), &idx) || e->depth > 8) {
			e->ok = 0;
			return 0;
		}
		e->s = s;
		ev sub = {e->mac->body[idx], e->mac, 1, e->depth + 1};
		long long v = ev_shift(&sub);
		ev_blank(&sub);
		if (!sub.ok || *sub.s)
			e->ok = 0;
		return v;
	}
	e->ok = 0;
	return 0;
}

static long long ev_mul(ev *e)
{
	long long v = ev_primary(e);
	for (;;) {
		ev_blank(e);
		char op = *e->s;
		if (op != '*' && op != '/' && op != '%')
			return v;
		e->s++;
		long long r = ev_primary(e);
		if (op == '*') {
			if (__builtin_mul_overflow(v, r, &v))
				e->ok = 0;
		} else if (!r)
			e->ok = 0;
		else
			v = op == '/' ? v / r : v % r;
	}
}

static long long ev_add(ev *e)
{
	long long v = ev_mul(e);
	for (;;) {
		ev_blank(e);
		char op = *e->s;
		if (op != '+' && op != '-')
			return v;
		e->s++;
		long long r = ev_mul(e);
		if (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v))
			e->ok = 0;
	}
}

static long long ev_shift(ev *e)
{
	long long v = ev_add(e);
	for (;;) {
		ev_blank(e);
		if ((e->s[0] != '<' && e->s[0] != '>') || e->s[1] != e->s[0])
			return v;
		char op = e->s[0];
		e->s += 2;
		long long r = ev_add(e);
		if (r < 0 || r > 62 || v < 0)
			e->ok = 0;
		else
			v = op == '<' ? v << r : v >> r;
	}
}

int ka_scaf_eval(const char *expr, const ka_scaf_macros *mac, long long *v)
{
	ev e = {expr, mac, 1, 0};
	*v = ev_shift(&e);
	ev_blank(&e);
	return e.ok && !*e.s;
}

/* --- the launch --------------------------------------------------------- */

typedef struct rctx {
	const ka_csrc *m;
	const ka_csrc_kernel *k;
	const ka_csrc_launch *l;
	const ka_scaf_macros *mac;
	size_t fn; /* the launching function's '{' */
} rctx;

static int resolve(const rctx *c, size_t s, size_t e, int depth, char *out, size_t cap);

/* The last `name = E` or `dim3 name(A, B)` before the launch: 1 with
 * [*s, *e) = E (a scalar), 3 with the dim3's list brackets at *s and *e,
 * else 0. */
static int local_def(const rctx *c, const char *name, size_t *s, size_t *e)
{
	const char *t = c->m->text;
	size_t len = c->m->len, p = c->fn;
	int found = 0;
	while ((p = ka_csrc_find_word_pp(t, p, c->l->start, name)) != NPOS) {
		size_t q = ka_csrc_skip_blank(t, len, p + strlen(name));
		size_t b = p;
		while (b > c->fn && (t[b - 1] == ' ' || t[b - 1] == '\t'))
			b--;
		int dim3 = b >= 4 && !strncmp(t + b - 4, "dim3", 4) && (b == 4 || !is_id(t[b - 5]));
		if (dim3 && (t[q] == '(' || t[q] == '{')) {
			size_t cl = ka_csrc_match(t, len, q);
			if (cl != NPOS)
				*s = q, *e = cl, found = 3;
		} else if (t[q] == '=' && t[q + 1] != '=') {
			size_t r = ka_csrc_skip_blank(t, len, q + 1);
			if (!strncmp(t + r, "dim3", 4) && !is_id(t[r + 4])) {
				size_t o = ka_csrc_skip_blank(t, len, r + 4), cl = ka_csrc_match(t, len, o);
				if ((t[o] == '(' || t[o] == '{') && cl != NPOS)
					*s = o, *e = cl, found = 3;
			} else {
				size_t x = r;
				while (x < c->l->start && t[x] != ';' && t[x] != ',') {
					size_t j = (t[x] == '(' || t[x] == '[' || t[x] == '{')
							   ? ka_csrc_match(t, len, x)
							   : x;
					x = j == NPOS ? c->l->start : j + 1;
				}
				*s = r, *e = x, found = 1;
			}
		}
		p += strlen(name);
	}
	return found;
}

/* Component axis (0..2) of the dim3 whose list brackets are [o, cl]. */
static int dim3_part(const rctx *c, size_t o, size_t cl, int axis, int depth, char *out, size_t cap)
{
	ka_csrc_range r[3];
	int n = 0;
	if (ka_csrc_split(c->m->text, c->m->len, o, cl, r, 3, &n))
		return 0;
	if (axis >= n) {
		out[0] = 0;
		return 1;
	}
	return resolve(c, r[axis].s, r[axis].e, depth + 1, out, cap);
}

static int resolve(const rctx *c, size_t s, size_t e, int depth, char *out, size_t cap)
{
	static const char *const keep[] = {"sizeof", "float", "double", "dim3", "static_cast"};
	const char *t = c->m->text;
	size_t n = 0;
	out[0] = 0;
	if (depth > 6)
		return 0;
	for (size_t i = s; i < e;) {
		size_t j = ka_csrc_skip_blank(t, e, i);
		if (j != i) {
			if (n + 1 < cap)
				out[n++] = ' ';
			i = j;
			continue;
		}
		if (!is_id(t[i]) || isdigit((unsigned char)t[i])) {
			size_t w = i;
			if (isdigit((unsigned char)t[i]))
				while (i < e && (is_id(t[i]) || t[i] == '.'))
					i++;
			else
				i++;
			if (n + (i - w) + 1 >= cap)
				return 0;
			memcpy(out + n, t + w, i - w);
			n += i - w;
			continue;
		}
		size_t w = i;
		while (i < e && is_id(t[i]))
			i++;
		char word[KA_CSRC_NAME], val[256];
		snprintf(word, sizeof word, "%.*s", (int)(i - w < 90 ? i - w : 90), t + w);
		int idx, ok = 0;
		val[0] = 0;
		for (size_t k = 0; k < sizeof keep / sizeof keep[0] && !ok; k++)
			ok = !strcmp(word, keep[k]);
		if (ok || is_type_word(word, strlen(word)) || macro_of(c->mac, word, strlen(word), &idx))
			snprintf(val, sizeof val, "%s", word);
		for (int a = 0; !ok && !val[0] && a < c->l->nargs && a < c->k->nparams; a++) {
			char sq[256];
			if (ka_csrc_squeeze(t, c->l->args[a].s, c->l->args[a].e, sq, sizeof sq) &&
			    !strcmp(sq, word) && !c->k->params[a].is_pointer)
				snprintf(val, sizeof val, "%s", c->k->params[a].name);
		}
		if (!val[0]) {
			size_t ds, de;
			int kind = local_def(c, word, &ds, &de);
			size_t dot = ka_csrc_skip_blank(t, e, i);
			if (kind == 3 && dot < e && t[dot] == '.' && dot + 1 < e &&
			    strchr("xyz", t[dot + 1]) && !is_id(t[dot + 2])) {
				char part[240];
				if (!dim3_part(c, ds, de, t[dot + 1] - 'x', depth, part, sizeof part))
					return 0;
				snprintf(val, sizeof val, "(%s)", part[0] ? part : "1");
				i = dot + 2;
			} else if (kind == 1) {
				char sub[240];
				if (!resolve(c, ds, de, depth + 1, sub, sizeof sub))
					return 0;
				snprintf(val, sizeof val, "(%s)", sub);
			} else
				return 0;
		}
		size_t vn = strlen(val);
		if (n + vn + 1 >= cap)
			return 0;
		memcpy(out + n, val, vn);
		n += vn;
	}
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = 0;
	size_t lead = strspn(out, " ");
	memmove(out, out + lead, n - lead + 1);
	return 1;
}

/* A launch configuration (grid or block) into three components. */
static int resolve_cfg(const rctx *c, ka_csrc_range r, char parts[3][256])
{
	const char *t = c->m->text;
	char sq[256];
	for (int a = 0; a < 3; a++)
		parts[a][0] = 0;
	if (!ka_csrc_squeeze(t, r.s, r.e, sq, sizeof sq))
		return 0;
	size_t o = NPOS, cl = NPOS;
	if (!strncmp(sq, "dim3(", 5) || !strncmp(sq, "dim3{", 5)) {
		o = ka_csrc_skip_blank(t, c->m->len, ka_csrc_skip_blank(t, c->m->len, r.s) + 4);
		cl = ka_csrc_match(t, c->m->len, o);
	} else {
		size_t n = 0;
		while (is_id(sq[n]))
			n++;
		if (n && !sq[n]) {
			size_t ds, de;
			if (local_def(c, sq, &ds, &de) == 3)
				o = ds, cl = de;
		}
	}
	if (o != NPOS && cl != NPOS) {
		for (int a = 0; a < 3; a++)
			if (!dim3_part(c, o, cl, a, 0, parts[a], sizeof parts[a]))
				return 0;
		return 1;
	}
	return resolve(c, r.s, r.e, 0, parts[0], sizeof parts[0]);
}

void ka_scaf_launch_of(const ka_csrc *m, const ka_csrc_kernel *k, const ka_scaf_macros *mac,
		       ka_scaf_launch *out)
{
	memset(out, 0, sizeof *out);
	const ka_csrc_launch *l = NULL;
	for (int i = 0; i < m->nlaunches && !l; i++)
		if (!strcmp(m->l[i].kernel, k->name))
			l = &m->l[i];
	if (!l)
		return;
	out->found = 1;
	rctx c = {m, k, l, mac, 0};
	for (size_t b = ka_csrc_block_of(m->text, m->len, l->start); b != NPOS;
	     b = ka_csrc_block_of(m->text, m->len, b))
		c.fn = b;
	if (!c.fn)
		return;
	out->ok_grid = resolve_cfg(&c, l->cfg[0], out->grid);
	out->ok_block = resolve_cfg(&c, l->cfg[1], out->block);
	if (l->ncfg >= 3 && !resolve(&c, l->cfg[2].s, l->cfg[2].e, 0, out->shmem, sizeof out->shmem))
		out->ok_grid = out->ok_block = 0;
}
