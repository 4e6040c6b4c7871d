/* recipes/recipe_smempad.c: the smem-pad recipe (rules smem-tile-column-read,
 * smem-bank-conflict, smem-bank-conflict-moderate,
 * smem-bank-conflict-assumed-block): `__shared__ float t[32][32]` whose
 * accesses walk a column becomes `t[32][33]` (`[TILE]` becomes
 * `[TILE + 1]`), so the lanes of a warp fall in different banks: the
 * rewriter's pad-shared-array fix as a strategy the optimize loop can take.
 *
 * It decides from the analyzer's facts of the file (ka_recipe_facts): a
 * statically sized __shared__ array of two or three dimensions, declared in
 * the kernel, with an access whose bank conflicts pass the ideal for its
 * width under the warp model (the launch's block, its __launch_bounds__, or
 * the assumed block when neither is known).  The padded text is analyzed
 * again and an array is padded only when its worst access conflicts less
 * there and its innermost dimension reads one more than before (a macro
 * that expands to `1 << 5` would not).
 *
 * Padding changes the row pitch alone, so every element keeps its value for
 * every launch and size when the array is only ever read and written as
 * element `t[r][c]` with every subscript in its bounds: the recipe declines
 * naming the construct when the array is reinterpreted (the analyzer's
 * is_reinterpreted), accessed with vector types, used as a row or whole
 * (`t[r]`, `t` passed or converted to a pointer), its address taken other
 * than an element's as an atomic's first argument, in sizeof, or named by a
 * macro the kernel uses; when the kernel uses dynamic shared memory (the
 * launches' bytes plus the padded arrays could pass the limit); or when the
 * padded kernel's static shared memory would pass 48 KiB (the static limit
 * of every target). */
#include "recipes/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)
#define MAX_ARRAYS 16
#define STATIC_SMEM_LIMIT 49152

typedef struct pad_array {
	char name[KA_CSRC_NAME];
	int ndims, ways, inner;
	long long bytes;
	size_t b, e; /* the innermost dimension's text, brackets excluded */
	char rep[160];
} pad_array;

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static size_t skip_ws_back(const char *t, size_t i, size_t lo)
{
	while (i > lo && isspace((unsigned char)t[i - 1]))
		i--;
	return i;
}

/* The kernel's row in the facts: its id, or 0 (c->why set). */
static sqlite3_int64 kernel_row(ka_recipe_ctx *c, sqlite3 *db, int *dyn, long long *smem)
{
	sqlite3_stmt *st = NULL;
	sqlite3_int64 id = 0;
	int n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT id, uses_dynamic_smem, COALESCE(max_launch_dyn_smem, 0), "
			       "static_smem_bytes FROM kernel WHERE kind = 'global' AND name = ?1 AND "
			       "body_begin_off = ?2",
			       -1, &st, NULL) != SQLITE_OK) {
		ka_recipe_decline(c, "recipe facts: %s", sqlite3_errmsg(db));
		return 0;
	}
	sqlite3_bind_text(st, 1, c->k->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)c->k->body_open);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n++ == 0) {
			id = sqlite3_column_int64(st, 0);
			*dyn = sqlite3_column_int(st, 1) || sqlite3_column_int64(st, 2) > 0;
			*smem = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 3);
		}
	}
	sqlite3_finalize(st);
	if (n == 0) {
		ka_recipe_decline(c, "the analyzer has no facts of %s (it did not parse)", c->k->name);
		return 0;
	}
	if (n > 1) {
		ka_recipe_decline(c,
				  "%s is analyzed as %d kernels (a template's instantiations): "
				  "their arrays' sizes may differ",
				  c->k->name, n);
		return 0;
	}
	return id;
}

/* 1 when the occurrence of name at p (a whole token) is preceded by `->`,
 * `.` or `::`: a member or another scope's name, not the array. */
static int qualified(const char *t, size_t lo, size_t p)
{
	size_t q = skip_ws_back(t, p, lo);
	if (q > lo && t[q - 1] == '.')
		return 1;
	return q >= lo + 2 && ((t[q - 1] == '>' && t[q - 2] == '-') || (t[q - 1] == ':' && t[q - 2] == ':'));
}

/* 1 when the '&' ending at q (t[q - 1]) is the first argument's of an
 * atomic call: `atomicAdd(&`. */
static int atomic_arg(const char *t, size_t lo, size_t q)
{
	size_t p = skip_ws_back(t, q - 1, lo);
	if (p <= lo || t[p - 1] != '(')
		return 0;
	p = skip_ws_back(t, p - 1, lo);
	size_t w = p;
	while (w > lo && is_ident(t[w - 1]))
		w--;
	return p - w > 6 && !strncmp(t + w, "atomic", 6);
}

/* Every use of array a in the kernel's body is an element t[..]..[..] with
 * all its subscripts (the declaration included); else declines naming the
 * line. */
static int uses_are_elements(ka_recipe_ctx *c, const pad_array *a)
{
	const char *t = c->m->text;
	size_t len = c->m->len, lo = c->k->body_open + 1, hi = c->k->body_close;
	size_t nl = strlen(a->name);
	for (size_t p = lo; p < hi;) {
		size_t at = ka_csrc_find_word_pp(t, p, hi, a->name);
		if (at == NPOS)
			break;
		p = at + nl;
		int line = ka_csrc_line_of(t, at);
		if (qualified(t, lo, at))
			continue;
		size_t q = skip_ws_back(t, at, lo);
		int amp = q > lo && t[q - 1] == '&' && !(q > lo + 1 && t[q - 2] == '&');
		if (amp && !atomic_arg(t, lo, q))
			return ka_recipe_decline(
				c,
				"line %d takes the address of %s (a pointer into it would walk the "
				"old rows)",
				line, a->name);
		size_t w = q;
		while (w > lo && is_ident(t[w - 1]))
			w--;
		if (q - w == 6 && !strncmp(t + w, "sizeof", 6))
			return ka_recipe_decline(c, "line %d takes sizeof %s", line, a->name);
		if (q > lo && t[q - 1] == '(') { /* sizeof(x), decltype(x) */
			size_t r = skip_ws_back(t, q - 1, lo), v = r;
			while (v > lo && is_ident(t[v - 1]))
				v--;
			if ((r - v == 6 && !strncmp(t + v, "sizeof", 6)) ||
			    (r - v == 8 && !strncmp(t + v, "decltype", 8)))
				return ka_recipe_decline(c, "line %d takes %.*s(%s)", line, (int)(r - v),
							 t + v, a->name);
		}
		int subs = 0;
		size_t s = ka_csrc_skip_blank(t, len, p);
		while (s < hi && t[s] == '[') {
			size_t close = ka_csrc_match(t, len, s);
			if (close == NPOS || close >= hi)
				return ka_recipe_decline(c, "cannot read the subscript of %s on line %d",
							 a->name, line);
			subs++;
			s = ka_csrc_skip_blank(t, len, close + 1);
		}
		if (subs < a->ndims)
			return ka_recipe_decline(c,
						 "line %d uses %s with %d of its %d subscripts (a row or the "
						 "array as a pointer)",
						 line, a->name, subs, a->ndims);
		if (amp && subs != a->ndims)
			return ka_recipe_decline(c, "line %d takes the address of %s past an element", line,
						 a->name);
	}
	return KA_OK;
}

/* The name of the macro a `#define` line at d defines, into out. */
static void define_name(const char *t, size_t len, size_t d, char *out, size_t cap)
{
	size_t p = d + 1;
	while (p < len && (t[p] == ' ' || t[p] == '\t'))
		p++;
	p += 6; /* define */
	while (p < len && (t[p] == ' ' || t[p] == '\t'))
		p++;
	size_t q = p;
	while (q < len && is_ident(t[q]))
		q++;
	snprintf(out, cap, "%.*s", (int)(q - p), t + p);
}

/* No macro that the kernel uses names array a (its body could use the
 * array any way). */
static int no_macro_names(ka_recipe_ctx *c, const pad_array *a)
{
	const char *t = c->m->text;
	size_t len = c->m->len;
	for (size_t i = 0; i < len; i++) {
		if (t[i] != '#' || (i && t[i - 1] != '\n'))
			continue;
		size_t p = i + 1, e = i;
		while (p < len && (t[p] == ' ' || t[p] == '\t'))
			p++;
		while (e < len && t[e] != '\n')
			e += t[e] == '\\' && e + 1 < len ? 2 : 1;
		if (len - p < 6 || strncmp(t + p, "define", 6) ||
		    ka_csrc_find_word_pp(t, i, e, a->name) == NPOS)
			continue;
		char mac[KA_CSRC_NAME];
		define_name(t, len, i, mac, sizeof mac);
		if (mac[0] && strcmp(mac, a->name) &&
		    ka_csrc_has_word(t, c->k->body_open, c->k->body_close, mac))
			return ka_recipe_decline(c, "macro %s, which the kernel uses, names %s", mac,
						 a->name);
	}
	return KA_OK;
}

/* The template parameter list's '<' and '>' of the kernel, or 0 when it
 * is no template. */
static int template_list(const ka_recipe_ctx *c, size_t *lt, size_t *gt)
{
	const char *t = c->m->text;
	size_t q = skip_ws_back(t, c->k->start, 0);
	if (q == 0 || t[q - 1] != '>')
		return 0;
	int depth = 0;
	for (size_t i = q; i > 0; i--) {
		depth += t[i - 1] == '>' ? 1 : t[i - 1] == '<' ? -1 : 0;
		if (depth == 0) {
			size_t w = skip_ws_back(t, i - 1, 0);
			if (w < 8 || strncmp(t + w - 8, "template", 8))
				return 0;
			*lt = i - 1;
			*gt = q - 1;
			return 1;
		}
	}
	return 0;
}

/* A template kernel's array whose declaration [s, e) names one of its
 * template parameters takes another size in each instantiation: the
 * analyzer's one size (the limit's check) would not hold for them all. */
static int no_template_size(ka_recipe_ctx *c, const pad_array *a, size_t s, size_t e)
{
	const char *t = c->m->text;
	size_t lt, gt;
	if (!template_list(c, &lt, &gt))
		return KA_OK;
	ka_csrc_range parts[16];
	int np = 0;
	if (ka_csrc_split(t, c->m->len, lt, gt, parts, 16, &np) != KA_OK)
		return ka_recipe_decline(c, "cannot read the template parameters of %s", c->k->name);
	for (int i = 0; i < np; i++) {
		size_t pe = parts[i].e;
		for (size_t j = parts[i].s; j < parts[i].e; j++)
			if (t[j] == '=') {
				pe = j;
				break;
			}
		pe = skip_ws_back(t, pe, parts[i].s);
		size_t pb = pe;
		while (pb > parts[i].s && is_ident(t[pb - 1]))
			pb--;
		char name[KA_CSRC_NAME];
		if (pb == pe || pe - pb >= sizeof name)
			continue;
		snprintf(name, sizeof name, "%.*s", (int)(pe - pb), t + pb);
		if (ka_csrc_has_word(t, s, e, name))
			return ka_recipe_decline(c, "the size of %s depends on template parameter %s",
						 a->name, name);
	}
	return KA_OK;
}

/* The innermost dimension's text of a: its range and its padded spelling. */
static int inner_text(ka_recipe_ctx *c, pad_array *a, size_t b, size_t e)
{
	const char *t = c->m->text;
	if (e > c->m->len || b >= e)
		return ka_recipe_decline(c, "no source range for the innermost dimension of %s", a->name);
	if (t[b] == '[' && t[e - 1] == ']') {
		b++;
		e--;
	}
	while (b < e && isspace((unsigned char)t[b]))
		b++;
	while (e > b && isspace((unsigned char)t[e - 1]))
		e--;
	size_t lb = skip_ws_back(t, b, 0);
	if (b >= e || lb == 0 || t[lb - 1] != '[' || e - b > 100)
		return ka_recipe_decline(c, "the innermost dimension of %s is not a plain [N] in the source",
					 a->name);
	int digits = 1, ident = !isdigit((unsigned char)t[b]);
	for (size_t i = b; i < e; i++) {
		digits &= isdigit((unsigned char)t[i]) != 0;
		ident &= is_ident(t[i]);
	}
	if (digits && e - b < 9)
		snprintf(a->rep, sizeof a->rep, "%ld", strtol(t + b, NULL, 10) + 1);
	else if (ident)
		snprintf(a->rep, sizeof a->rep, "%.*s + 1", (int)(e - b), t + b);
	else
		snprintf(a->rep, sizeof a->rep, "(%.*s) + 1", (int)(e - b), t + b);
	a->b = b;
	a->e = e;
	return KA_OK;
}

/* The worst bank conflict past the ideal among a's accesses (0: none), or
 * -1 when one is a vector access. */
static int conflict_ways(sqlite3 *db, sqlite3_int64 kid, const char *name)
{
	sqlite3_stmt *st = NULL;
	int ways = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT max(CASE WHEN bank_ways > COALESCE(ideal_bank_ways, 1) THEN bank_ways "
			       "ELSE 0 END), max(COALESCE(vector_width, 1)) FROM access WHERE kernel_id = ?1 "
			       "AND base_array = ?2 AND space = 'shared'",
			       -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, kid);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		ways = sqlite3_column_int(st, 1) > 1 ? -1 : sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return ways;
}

/* The kernel's shared arrays with a bank conflict, into a[]; KA_OK with
 * *n of them, or KA_RECIPE_DECLINED naming the first that cannot be
 * padded when none can. */
static int candidates(ka_recipe_ctx *c, sqlite3 *db, sqlite3_int64 kid, pad_array *a, int *n)
{
	sqlite3_stmt *st = NULL;
	char first[256] = "";
	int seen = 0;
	*n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT name, ndims, dim0, dim1, dim2, bytes, is_dynamic, "
			       "COALESCE(is_reinterpreted, 1), inner_dim_begin_off, inner_dim_end_off, "
			       "(SELECT count(*) FROM shared_array o WHERE o.kernel_id = s.kernel_id AND "
			       "o.name = s.name), begin_off FROM shared_array s WHERE kernel_id = ?1 AND "
			       "is_file_scope = 0 ORDER BY begin_off",
			       -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "recipe facts: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, kid);
	while (sqlite3_step(st) == SQLITE_ROW && *n < MAX_ARRAYS) {
		pad_array *x = &a[*n];
		memset(x, 0, sizeof *x);
		snprintf(x->name, sizeof x->name, "%s", (const char *)sqlite3_column_text(st, 0));
		x->ndims = sqlite3_column_int(st, 1);
		x->ways = conflict_ways(db, kid, x->name);
		if (x->ways == 0)
			continue;
		seen++;
		char why[256] = "";
		int inner_col = x->ndims == 3 ? 4 : 3;
		if (x->ways < 0)
			snprintf(why, sizeof why, "%s is accessed with vector types", x->name);
		else if (x->ndims < 2)
			snprintf(why, sizeof why,
				 "%s is one-dimensional (padding it would change its indexing)", x->name);
		else if (x->ndims > 3 || sqlite3_column_int(st, 6))
			snprintf(why, sizeof why, "%s is not a static array of two or three dimensions",
				 x->name);
		else if (sqlite3_column_int(st, 7))
			snprintf(why, sizeof why,
				 "%s is reinterpreted (a cast, or its address as another type)", x->name);
		else if (sqlite3_column_int(st, 10) > 1)
			snprintf(why, sizeof why, "two __shared__ arrays of %s are named %s", c->k->name,
				 x->name);
		else if (sqlite3_column_type(st, 5) == SQLITE_NULL ||
			 sqlite3_column_type(st, inner_col) == SQLITE_NULL ||
			 sqlite3_column_type(st, 8) == SQLITE_NULL ||
			 sqlite3_column_type(st, 9) == SQLITE_NULL)
			snprintf(why, sizeof why, "the size of %s is not a constant the analyzer folds",
				 x->name);
		if (why[0]) {
			if (!first[0])
				snprintf(first, sizeof first, "%s", why);
			continue;
		}
		x->bytes = sqlite3_column_int64(st, 5);
		x->inner = sqlite3_column_int(st, inner_col);
		int rc = inner_text(c, x, (size_t)sqlite3_column_int64(st, 8),
				    (size_t)sqlite3_column_int64(st, 9));
		if (rc == KA_OK)
			rc = no_template_size(c, x, (size_t)sqlite3_column_int64(st, 11), x->e);
		if (rc == KA_OK)
			rc = uses_are_elements(c, x);
		if (rc == KA_OK)
			rc = no_macro_names(c, x);
		if (rc == KA_RECIPE_DECLINED) {
			if (!first[0])
				snprintf(first, sizeof first, "%s", c->why);
			continue;
		}
		if (rc < 0) {
			sqlite3_finalize(st);
			return rc;
		}
		(*n)++;
	}
	sqlite3_finalize(st);
	if (*n)
		return KA_OK;
	if (first[0])
		return ka_recipe_decline(c, "%s", first);
	if (!seen)
		return ka_recipe_decline(
			c,
			"no __shared__ array of %s has a bank conflict in the analyzer's warp "
			"model",
			c->k->name);
	return ka_recipe_decline(c, "too many __shared__ arrays in %s", c->k->name);
}

/* In the padded text's facts: each array's worst conflict and innermost
 * dimension; an array that does not conflict less, or whose dimension is
 * not one more, is dropped (keep[i] = 0; the first one's reason to why).
 * KA_OK with the padded kernel's static bytes in *smem, or a decline. */
static int check_padded(ka_recipe_ctx *c, sqlite3 *db, pad_array *a, int n, int *keep, long long *smem,
			char *why, size_t cap)
{
	why[0] = 0;
	int dyn = 0;
	sqlite3_int64 kid = kernel_row(c, db, &dyn, smem);
	if (!kid)
		return ka_recipe_decline(c, "the padded %s does not analyze", c->k->name);
	for (int i = 0; i < n; i++) {
		sqlite3_stmt *st = NULL;
		keep[i] = 0;
		if (sqlite3_prepare_v2(
			    db,
			    "SELECT CASE ndims WHEN 3 THEN dim2 ELSE dim1 END FROM shared_array WHERE "
			    "kernel_id = ?1 AND name = ?2 AND is_file_scope = 0",
			    -1, &st, NULL) != SQLITE_OK)
			return ka_error_set(KA_ERR, "recipe facts: %s", sqlite3_errmsg(db));
		sqlite3_bind_int64(st, 1, kid);
		sqlite3_bind_text(st, 2, a[i].name, -1, SQLITE_STATIC);
		int inner = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
		sqlite3_finalize(st);
		int ways = conflict_ways(db, kid, a[i].name);
		keep[i] = inner == a[i].inner + 1 && ways >= 0 && ways < a[i].ways;
		if (!keep[i] && !why[0] && inner != a[i].inner + 1)
			snprintf(why, cap,
				 "the padded innermost dimension of %.64s reads %d, not %d (a macro's "
				 "precedence?)",
				 a[i].name, inner, a[i].inner + 1);
		else if (!keep[i] && !why[0])
			snprintf(why, cap,
				 "padding %.64s does not lower its bank conflicts (%d-way) in the "
				 "analyzer's warp model",
				 a[i].name, a[i].ways);
	}
	return KA_OK;
}

static int smempad_apply(ka_recipe_ctx *c, ka_buf *out)
{
	const char *t = c->m->text;
	size_t len = c->m->len;
	if (!ka_csrc_has_word(t, c->k->body_open, c->k->body_close, "__shared__"))
		return ka_recipe_decline(c, "%s declares no __shared__ array", c->k->name);
	sqlite3 *db = NULL;
	int rc = ka_recipe_facts(t, len, &db), dyn = 0, n = 0, keep[MAX_ARRAYS];
	if (rc != KA_OK)
		return ka_recipe_decline(c, "the analyzer could not read the file: %s", ka_error_last());
	long long smem = 0, smem2 = 0;
	sqlite3_int64 kid = kernel_row(c, db, &dyn, &smem);
	if (!kid)
		return KA_RECIPE_DECLINED;
	pad_array a[MAX_ARRAYS];
	char dropped[256];
	if ((rc = candidates(c, db, kid, a, &n)) != KA_OK)
		return rc;
	if (dyn)
		return ka_recipe_decline(c,
					 "%s uses dynamic shared memory: its launches' bytes and the padded "
					 "arrays could pass the limit",
					 c->k->name);
	ka_recipe_edits ed = {0};
	ka_buf padded;
	ka_buf_init(&padded, len + 4096 + 1);
	for (int i = 0; i < n && rc == KA_OK; i++)
		rc = ka_recipe_edit(&ed, a[i].b, a[i].e, a[i].rep);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, t, len, &padded);
	ka_recipe_edits_free(&ed);
	if (rc == KA_OK && !padded.data)
		rc = ka_error_set(KA_ENOMEM, "smem-pad: out of memory");
	sqlite3 *db2 = NULL;
	if (rc == KA_OK && ka_recipe_facts(padded.data, padded.len, &db2) != KA_OK)
		rc = ka_recipe_decline(c, "the padded file does not analyze: %s", ka_error_last());
	if (rc == KA_OK)
		rc = check_padded(c, db2, a, n, keep, &smem2, dropped, sizeof dropped);
	ka_buf_free(&padded);
	if (rc != KA_OK)
		return rc;
	if (smem2 < 0 || smem2 > STATIC_SMEM_LIMIT)
		return ka_recipe_decline(c,
					 "the padded arrays would take %lld bytes of static shared memory "
					 "(the limit is %d)",
					 smem2, STATIC_SMEM_LIMIT);
	int kept = 0;
	for (int i = 0; i < n && rc == KA_OK; i++)
		if (keep[i]) {
			kept++;
			rc = ka_recipe_edit(&ed, a[i].b, a[i].e, a[i].rep);
		}
	if (rc == KA_OK && !kept) {
		ka_recipe_edits_free(&ed);
		return ka_recipe_decline(c, "%s", dropped);
	}
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, t, len, out);
	ka_recipe_edits_free(&ed);
	(void)smem;
	return rc;
}

static const char *const smempad_grid[] = {"", NULL};

const ka_recipe ka_recipe_smem_pad = {
	.name = "smem-pad",
	.summary = "a __shared__ tile walked by column -> its rows padded by one element (no bank conflict)",
	.rules = "smem-tile-column-read smem-bank-conflict smem-bank-conflict-moderate "
		 "smem-bank-conflict-assumed-block",
	.grid = smempad_grid,
	.apply = smempad_apply,
};
