/* recipes/recipe.c: the recipe table of the offline expert and the helpers
 * its recipes share (recipes/recipe.h): parameter reading, the global
 * thread-index pattern, pure expressions, an edit list (a kernel's
 * launches: recipe_relaunch.c).  Each recipe lives in its own recipes/recipe_*.c
 * and is one line of recipes/recipes.list, which orders `table` below. */
#include "recipes/recipe.h"
#include "analyzer/frontend.h"
#include "analyzer/kmodel.h"
#include "recipe_registry.h"
#include "util/fs.h"
#include "util/error.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One row per line of recipes/recipes.list, in its order (recipe_registry.h,
 * generated from the list and the recipes' declarations). */
static const ka_recipe *const table[] = {KA_RECIPE_TABLE_ROWS};
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

int ka_recipe_bare_return(const char *t, size_t s, size_t e)
{
	char sq[16];
	return ka_csrc_squeeze(t, s, e, sq, sizeof sq) &&
	       (!strcmp(sq, "return;") || !strcmp(sq, "{return;}"));
}

int ka_recipe_pure_function(const char *name, size_t n)
{
	static const char *const fns[] = {
		"expf", "exp", "__expf", "exp2f", "expm1f", "logf", "log", "__logf", "log2f", "log10f",
		"log1pf", "sqrtf", "sqrt", "rsqrtf", "cbrtf", "fabsf", "fabs", "fmaxf", "fmax", "fminf",
		"fmin", "max", "min", "erff", "erfcf", "tanhf", "tanh", "sinf", "cosf", "tanf", "__sinf",
		"__cosf", "powf", "__powf", "fmaf", "floorf", "ceilf", "roundf", "truncf", "copysignf",
		"__fdividef", "__frcp_rn", "__ldg", "abs", "float", "double", "int", "unsigned", "sizeof",
		"dim3",
		/* conversions of cuda_fp16.h and cuda_bf16.h: values in, a value out */
		"__half2float", "__float2half", "__float2half_rn", "__bfloat162float", "__float2bfloat16",
		"__float2bfloat16_rn", "__half22float2", "__float22half2_rn", "__bfloat1622float2",
		"__float22bfloat162_rn", "__floats2half2_rn", "__floats2bfloat162_rn", "__low2float",
		"__high2float", "__half2half2", "__bfloat162bfloat162",
		/* vector_functions.h's constructors: values in, a vector value out */
		"make_float2", "make_float3", "make_float4", "make_int2", "make_int3", "make_int4",
		"make_uint2", "make_uint3", "make_uint4", "make_double2"};
	for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
		if (strlen(fns[i]) == n && !memcmp(fns[i], name, n))
			return 1;
	return 0;
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

int ka_recipe_pure_expr_in(const char *sq, size_t n, const char *file, size_t flen)
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
			if (!ka_recipe_pure_function(sq + b, i - b) &&
			    !(file && fn_macro(file, flen, sq + b, i - b)))
				return 0; /* a call that may write */
		}
	}
	return 1;
}

int ka_recipe_pure_expr(const char *sq, size_t n)
{
	return ka_recipe_pure_expr_in(sq, n, NULL, 0);
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

static _Thread_local char source_dir[4096], source_path[4096];

void ka_recipe_set_source_path(const char *path)
{
	source_dir[0] = 0;
	snprintf(source_path, sizeof source_path, "%s", path ? path : "");
	const char *slash = path ? strrchr(path, '/') : NULL;
	if (path && !slash)
		snprintf(source_dir, sizeof source_dir, ".");
	else if (slash && (size_t)(slash - path) < sizeof source_dir)
		snprintf(source_dir, sizeof source_dir, "%.*s", slash == path ? 1 : (int)(slash - path),
			 path);
}

const char *ka_recipe_source_dir(void)
{
	return source_dir[0] ? source_dir : NULL;
}

const char *ka_recipe_source_path(void)
{
	return source_path[0] ? source_path : NULL;
}

static _Thread_local char flag_text[8192];
static _Thread_local const char *flag_v[KA_RECIPE_MAX_FLAGS];
static _Thread_local int flag_n;

void ka_recipe_set_flags(const char *const *flags, int n)
{
	size_t used = 0;
	flag_n = 0;
	for (int i = 0; i < n && flag_n < KA_RECIPE_MAX_FLAGS; i++) {
		size_t l = strlen(flags[i]) + 1;
		if (l > sizeof flag_text - used)
			break;
		memcpy(flag_text + used, flags[i], l);
		flag_v[flag_n++] = flag_text + used;
		used += l;
	}
}

int ka_recipe_flags(const char *const **flags)
{
	*flags = flag_v;
	return flag_n;
}

/* The parses of the texts modelled last (per thread): every recipe models
 * the kernels of the same file, and a parse through the toolkit's headers
 * takes a second.  A slot is the text, the folder and the flags it was
 * parsed with, and its TU (or the parse's error); docs handed out hold a
 * reference, and a slot still referenced is never reused. */
#define TU_SLOTS 4
typedef struct tu_slot {
	unsigned long long text, key, used;
	size_t len;
	ka_tu *tu;
	int rc, refs;
	char err[256];
} tu_slot;
static _Thread_local tu_slot tu_slots[TU_SLOTS];
static _Thread_local unsigned long long tu_clock;

int ka_recipe_kmodel(const char *text, size_t len, const char *name, ka_kmodel_doc *doc)
{
	memset(doc, 0, sizeof *doc);
	const char *dir = ka_recipe_source_dir();
	unsigned long long h = ka_fs_fnv1a(1469598103934665603ull, text, len), key = 1469598103934665603ull;
	key = ka_fs_fnv1a(key, dir ? dir : "", dir ? strlen(dir) + 1 : 0);
	for (int i = 0; i < flag_n; i++)
		key = ka_fs_fnv1a(key, flag_v[i], strlen(flag_v[i]) + 1);
	tu_slot *s = NULL, *free_slot = NULL;
	for (int i = 0; i < TU_SLOTS && !s; i++) {
		tu_slot *x = &tu_slots[i];
		if (x->used && x->text == h && x->key == key && x->len == len)
			s = x;
		else if (!x->refs && (!free_slot || x->used < free_slot->used))
			free_slot = x;
	}
	if (!s && !free_slot) /* every slot in use: a parse of its own */
		return ka_kmodel_of_text(text, len, "cuda", name, dir, flag_v, flag_n, doc);
	if (!s) {
		s = free_slot;
		ka_tu_free(s->tu);
		memset(s, 0, sizeof *s);
		s->text = h;
		s->key = key;
		s->len = len;
		s->rc = ka_kmodel_parse_text(text, len, "cuda", dir, flag_v, flag_n, &s->tu);
		if (s->rc != KA_OK)
			snprintf(s->err, sizeof s->err, "%s", ka_error_last());
	}
	s->used = ++tu_clock;
	if (s->rc != KA_OK)
		return ka_error_set(s->rc, "%s", s->err);
	int rc = ka_kmodel_of_tu(s->tu, name, &doc->km);
	if (rc != KA_OK)
		return rc;
	doc->tu = s->tu;
	s->refs++;
	return KA_OK;
}

void ka_recipe_kmodel_free(ka_kmodel_doc *doc)
{
	for (int i = 0; i < TU_SLOTS && doc->tu; i++)
		if (tu_slots[i].tu == doc->tu && tu_slots[i].refs > 0) {
			tu_slots[i].refs--;
			memset(doc, 0, sizeof *doc);
		}
	ka_kmodel_free(doc); /* one of its own */
}

void ka_recipe_kmodel_forget(void)
{
	ka_recipe_facts_forget();
	for (int i = 0; i < TU_SLOTS; i++)
		if (!tu_slots[i].refs) {
			ka_tu_free(tu_slots[i].tu);
			memset(&tu_slots[i], 0, sizeof tu_slots[i]);
		}
}

static _Thread_local char target_arch[32];

void ka_recipe_set_arch(const char *arch)
{
	snprintf(target_arch, sizeof target_arch, "%s", arch ? arch : "");
}

const char *ka_recipe_arch(void)
{
	return target_arch[0] ? target_arch : NULL;
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

int ka_recipe_for_parts(ka_recipe_ctx *c, size_t s, char parts[3][KA_RECIPE_FOR_PART], int *np)
{
	const char *t = c->m->text;
	size_t len = c->m->len, op = ka_csrc_skip_blank(t, len, s + 3);
	size_t cl = op < len && t[op] == '(' ? ka_csrc_match(t, len, op) : (size_t)-1;
	char sq[2 * KA_RECIPE_FOR_PART];
	*np = 0;
	if (cl == (size_t)-1 || !ka_csrc_squeeze(t, op + 1, cl, sq, sizeof sq))
		return ka_recipe_decline(c, "cannot read the loop header");
	int depth = 0;
	const char *b = sq;
	for (const char *p = sq;; p++) {
		depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if ((*p == ';' && !depth) || !*p) {
			if (*np == 3 || (size_t)(p - b) >= KA_RECIPE_FOR_PART)
				return ka_recipe_decline(c, "cannot read the loop header");
			snprintf(parts[(*np)++], KA_RECIPE_FOR_PART, "%.*s", (int)(p - b), b);
			b = p + 1;
			if (!*p)
				return KA_OK;
		}
	}
}

int ka_recipe_new_body(ka_recipe_ctx *c, ka_recipe_edits *ed, const ka_buf *body, long threads)
{
	char lb[64];
	if (!body->data)
		return KA_ENOMEM;
	int rc = ka_recipe_edit(ed, c->k->body_open, c->k->body_close + 1, body->data);
	snprintf(lb, sizeof lb, "__launch_bounds__(%ld) ", threads);
	return rc == KA_OK ? ka_recipe_edit(ed, c->k->name_at, c->k->name_at, lb) : rc;
}

int ka_recipe_drop_launch_bounds(ka_recipe_ctx *c, ka_recipe_edits *ed)
{
	const char *t = c->m->text;
	size_t s = c->k->start, e = c->k->name_at;
	if (!c->k->has_launch_bounds)
		return KA_OK;
	for (size_t i = s; i + 17 <= e; i++) {
		if (strncmp(t + i, "__launch_bounds__", 17) || (i > s && ident_char(t[i - 1])))
			continue;
		size_t op = ka_csrc_skip_blank(t, e, i + 17),
		       cl = op < e && t[op] == '(' ? ka_csrc_match(t, e, op) : (size_t)-1;
		char sq[64];
		if (cl == (size_t)-1 || !ka_csrc_squeeze(t, op + 1, cl, sq, sizeof sq) || !sq[0] ||
		    strspn(sq, "0123456789,") != strlen(sq))
			break;
		size_t end = cl + 1;
		while (end < e && (t[end] == ' ' || t[end] == '\t'))
			end++;
		return ka_recipe_edit(ed, i, end, "");
	}
	return ka_recipe_decline(c, "its __launch_bounds__ are not integer literals");
}
