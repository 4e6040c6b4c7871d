/* recipes/recipe_launch2d.c: the launch-tune-2d recipe (rules
 * gmem-narrow-blockdim-x, launch-tiny-blocks,
 * launch-block-not-multiple-of-warp) and the 2-D one-thread-per-point shape
 * it shares with recipes/recipe_stencil.c.  A kernel
 *     int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
 *     if (i >= h || j >= w) return;
 *     ... the work of point (i, j), no other thread or block id ...
 * launched as
 *     dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
 * does the same work for any block shape: every thread past the bounds
 * leaves at once and no thread talks to another.  A 16-wide block splits
 * each warp over two rows, so a request touches two 64-byte row pieces;
 * the recipe gives the block a wider x (32 x 8, 64 x 4, ...) and computes
 * the grid from the new shape, editing the literals where they are written
 * (inline dim3(...) or the dim3 declarations the launch names).  It
 * declines when the kernel could tell the shape: a thread or block id past
 * the indices, shared memory, barriers, warp-level intrinsics, inline asm,
 * __launch_bounds__, the block's literals in the body, or a device helper
 * or macro elsewhere in the file that reads a thread id. */
#include "recipes/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)

static int is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static int word_is(const char *t, size_t len, size_t i, const char *w)
{
	size_t n = strlen(w);
	return i + n <= len && !memcmp(t + i, w, n) && (i + n == len || !is_ident(t[i + n]));
}

/* Names through which a kernel can tell its block shape or its warp. */
static int banned_name(const char *id, size_t n)
{
	static const char *const words[] = {"threadIdx", "blockIdx", "blockDim",
					    "gridDim",   "warpSize", "asm"};
	static const char *const prefixes[] = {"__shared",          "__sync",    "__shfl",
					       "__ballot",          "__any",     "__all",
					       "__activemask",      "__match",   "__reduce",
					       "__lanemask",        "__asm",     "cooperative_groups",
					       "this_thread_block", "this_grid", "tiled_partition",
					       "coalesced_threads"};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strlen(words[i]) == n && !memcmp(id, words[i], n))
			return 1;
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (n >= strlen(prefixes[i]) && !memcmp(id, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

/* The first banned name in [s, e) into hit; 0 when there is none.
 * Comments and literals are skipped but preprocessor lines are read: a
 * macro may hide a thread id. */
static int id_name(const char *w, size_t n)
{
	static const char *const ids[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		if (strlen(ids[i]) == n && !memcmp(ids[i], w, n))
			return 1;
	return 0;
}

/* The first banned name of [s, e) into hit; with z_ok a thread, block or
 * grid id read along z (`blockIdx.z`) is not one. */
static int find_banned(const char *t, size_t s, size_t e, char *hit, size_t cap, int z_ok)
{
	for (size_t i = s; i < e;) {
		if (t[i] == '/' && i + 1 < e && t[i + 1] == '/') {
			while (i < e && t[i] != '\n')
				i++;
		} else if (t[i] == '/' && i + 1 < e && t[i + 1] == '*') {
			for (i += 2; i + 1 < e && !(t[i] == '*' && t[i + 1] == '/'); i++)
				;
			i += 2;
		} else if (t[i] == '"' || t[i] == '\'') {
			char q = t[i];
			for (i++; i < e && t[i] != q; i++)
				if (t[i] == '\\')
					i++;
			i++;
		} else if (is_ident(t[i])) {
			size_t b = i;
			while (i < e && is_ident(t[i]))
				i++;
			size_t d = i;
			while (z_ok && d < e && isspace((unsigned char)t[d]))
				d++;
			size_t m = d + 1;
			while (z_ok && m < e && isspace((unsigned char)t[m]))
				m++;
			int along_z = z_ok && d < e && t[d] == '.' && m < e && t[m] == 'z' &&
				      (m + 1 >= e || !is_ident(t[m + 1])) && id_name(t + b, i - b);
			if (!isdigit((unsigned char)t[b]) && !along_z && banned_name(t + b, i - b)) {
				snprintf(hit, cap, "%.*s", (int)(i - b), t + b);
				return 1;
			}
		} else {
			i++;
		}
	}
	return 0;
}

/* "T a=X,b=Y;" -> "T a=X;" and "T b=Y;"; 1 declarator: 1, 2: 2, else 0. */
static int split_decl(const char *sq, char d[2][300])
{
	const char *eq = strchr(sq, '='), *comma = NULL, *sp = NULL;
	int depth = 0;
	for (const char *q = eq; q && *q; q++) {
		depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
		if (*q == ',' && depth == 0) {
			if (comma)
				return 0;
			comma = q;
		}
	}
	for (const char *q = sq; eq && q < eq; q++)
		if (*q == ' ')
			sp = q;
	if (!eq || !sp)
		return 0;
	if (!comma) {
		snprintf(d[0], sizeof d[0], "%s", sq);
		return 1;
	}
	snprintf(d[0], sizeof d[0], "%.*s;", (int)(comma - sq), sq);
	snprintf(d[1], sizeof d[1], "%.*s %s", (int)(sp - sq), sq, comma + 1);
	return 2;
}

/* The x and y indices: one statement declaring both, or two; *after is
 * past them. */
static int read_indices(ka_recipe_ctx *c, ka_recipe_2d *sh, size_t *after)
{
	const char *t = c->m->text;
	size_t len = c->m->len, close = c->k->body_close;
	size_t s = ka_csrc_skip_blank(t, len, c->k->body_open + 1), e = ka_csrc_stmt_end(t, len, s);
	char sq[600], d[2][300], d2[2][300];
	int n = 0;
	if (e != NPOS && e <= close && ka_csrc_squeeze(t, s, e, sq, sizeof sq))
		n = split_decl(sq, d);
	if (n == 1) {
		s = ka_csrc_skip_blank(t, len, e);
		e = ka_csrc_stmt_end(t, len, s);
		if (e != NPOS && e <= close && ka_csrc_squeeze(t, s, e, sq, sizeof sq) &&
		    split_decl(sq, d2) == 1) {
			memcpy(d[1], d2[0], sizeof d[1]);
			n = 2;
		}
	}
	for (int o = 0; n == 2 && o < 2; o++) {
		ka_recipe_tid x, y;
		if (!ka_recipe_tid_decl(d[o], 0, strlen(d[o]), 'x', &x) ||
		    !ka_recipe_tid_decl(d[1 - o], 0, strlen(d[1 - o]), 'y', &y))
			continue;
		snprintf(sh->j, sizeof sh->j, "%s", x.var);
		snprintf(sh->i, sizeof sh->i, "%s", y.var);
		snprintf(sh->jtype, sizeof sh->jtype, "%s", x.base);
		snprintf(sh->itype, sizeof sh->itype, "%s", y.base);
		*after = e;
		return KA_OK;
	}
	return ka_recipe_decline(c, "the first statements are not the x and y thread indices");
}

/* "v<op>P" with P a scalar parameter: P into bound. */
static int bound_term(const ka_recipe_ctx *c, const char *term, size_t n, const char *var, const char *op,
		      char *bound, size_t cap)
{
	size_t vl = strlen(var), ol = strlen(op);
	if (n <= vl + ol || strncmp(term, var, vl) || strncmp(term + vl, op, ol) || term[vl + ol] == '=')
		return 0;
	snprintf(bound, cap, "%.*s", (int)(n - vl - ol), term + vl + ol);
	int p = ka_csrc_param_index(c->k, bound);
	return p >= 0 && !c->k->params[p].is_pointer;
}

/* The bound check at `at`: if (i >= H || j >= W) return; or, as the last
 * statement, if (i < H && j < W) BODY (either order of the two terms). */
static int read_guard(ka_recipe_ctx *c, ka_recipe_2d *sh, size_t at)
{
	const char *t = c->m->text;
	size_t len = c->m->len, close = c->k->body_close;
	size_t s = ka_csrc_skip_blank(t, len, at), e = ka_csrc_stmt_end(t, len, s);
	size_t p = ka_csrc_skip_blank(t, len, s + 2),
	       pc = p < len && t[p] == '(' ? ka_csrc_match(t, len, p) : NPOS;
	char cond[300];
	if (e == NPOS || e > close || !word_is(t, len, s, "if") || pc == NPOS || pc > e ||
	    !ka_csrc_squeeze(t, p + 1, pc, cond, sizeof cond))
		return ka_recipe_decline(c, "no bound check after the indices");
	int ret = strstr(cond, "||") != NULL;
	const char *op = ret ? "||" : "&&", *mid = strstr(cond, op);
	const char *cmp = ret ? ">=" : "<";
	char h1[KA_CSRC_NAME], w1[KA_CSRC_NAME], h2[KA_CSRC_NAME], w2[KA_CSRC_NAME];
	size_t n1 = mid ? (size_t)(mid - cond) : 0, n2 = mid ? strlen(mid + 2) : 0;
	int ok = mid && !strstr(mid + 2, "||") && !strstr(mid + 2, "&&");
	if (ok && bound_term(c, cond, n1, sh->i, cmp, h1, sizeof h1) &&
	    bound_term(c, mid + 2, n2, sh->j, cmp, w1, sizeof w1)) {
		snprintf(sh->h, sizeof sh->h, "%s", h1);
		snprintf(sh->w, sizeof sh->w, "%s", w1);
	} else if (ok && bound_term(c, cond, n1, sh->j, cmp, w2, sizeof w2) &&
		   bound_term(c, mid + 2, n2, sh->i, cmp, h2, sizeof h2)) {
		snprintf(sh->h, sizeof sh->h, "%s", h2);
		snprintf(sh->w, sizeof sh->w, "%s", w2);
	} else {
		return ka_recipe_decline(c,
					 "the bound check is not `%s >= H || %s >= W` or `%s < H && %s < W` "
					 "with parameters",
					 sh->i, sh->j, sh->i, sh->j);
	}
	if (ret) {
		if (!ka_recipe_bare_return(t, pc + 1, e))
			return ka_recipe_decline(c, "the bound check does more than return");
		sh->body_s = e;
		sh->body_e = close;
		return KA_OK;
	}
	size_t after = ka_csrc_skip_blank(t, len, e),
	       ae = after < close ? ka_csrc_stmt_end(t, len, after) : NPOS;
	/* a bare `return;` last does nothing */
	if (after != close &&
	    !(ae != NPOS && ka_csrc_skip_blank(t, len, ae) == close && ka_recipe_bare_return(t, after, ae)))
		return ka_recipe_decline(c, "statements follow the bound check");
	sh->body_s = pc + 1;
	sh->body_e = e;
	size_t b = ka_csrc_skip_blank(t, len, sh->body_s);
	if (b < e && t[b] == '{' && ka_csrc_match(t, len, b) == e - 1) {
		sh->body_s = b + 1;
		sh->body_e = e - 1;
	}
	return KA_OK;
}

int ka_recipe_2d_shape(ka_recipe_ctx *c, ka_recipe_2d *sh)
{
	return ka_recipe_2d_shape_ex(c, sh, 0);
}

int ka_recipe_2d_shape_ex(ka_recipe_ctx *c, ka_recipe_2d *sh, unsigned flags)
{
	memset(sh, 0, sizeof *sh);
	const ka_csrc *m = c->m;
	size_t after = 0;
	int rc = read_indices(c, sh, &after);
	if (rc == KA_OK)
		rc = read_guard(c, sh, after);
	if (rc == KA_RECIPE_DECLINED && (flags & KA_RECIPE_2D_UNGUARDED) && sh->i[0]) {
		/* no guard this reads: every launched thread does its point, so
		 * the body is everything after the indices */
		snprintf(sh->why, sizeof sh->why, "%.199s", c->why);
		sh->h[0] = sh->w[0] = 0;
		sh->body_s = after;
		sh->body_e = c->k->body_close;
		sh->unguarded = 1;
		rc = KA_OK;
	}
	if (rc)
		return rc;
	char hit[64];
	if (find_banned(m->text, after, c->k->body_close, hit, sizeof hit, (flags & KA_RECIPE_2D_Z) != 0))
		return ka_recipe_decline(c, "the kernel uses %s past its indices", hit);
	/* a __device__ helper or a macro the kernel may use */
	size_t at = 0;
	for (int i = 0; i <= m->nkernels; i++) {
		size_t to = i < m->nkernels ? m->k[i].body_open : m->len;
		if (find_banned(m->text, at, to, hit, sizeof hit, 0))
			return ka_recipe_decline(
				c, "%s is used outside the kernels' bodies (a helper or macro)", hit);
		at = i < m->nkernels ? m->k[i].body_close + 1 : at;
	}
	if (c->k->has_launch_bounds)
		return ka_recipe_decline(c, "it has __launch_bounds__");
	return KA_OK;
}

/* ---- the launches ---- */

/* A dim3 a launch names: the brackets of its arguments and those split. */
typedef struct dimref {
	size_t open, close;
	ka_csrc_range a[3];
} dimref;

/* 1 when the statement [s, e) declares var as `dim3 var(...)` or `dim3 var
 * = dim3(...)` (its brackets into d), 0 when it does not, -1 when it is a
 * dim3 declaration that cannot be read. */
static int declares(const char *t, size_t len, size_t s, size_t e, const char *var, dimref *d)
{
	size_t p = ka_csrc_skip_blank(t, len, s);
	if (word_is(t, len, p, "const"))
		p = ka_csrc_skip_blank(t, len, p + 5);
	if (!word_is(t, len, p, "dim3"))
		return 0;
	for (p += 4;;) {
		p = ka_csrc_skip_blank(t, len, p);
		size_t q = p;
		while (q < e && is_ident(t[q]))
			q++;
		int mine = q - p == strlen(var) && !memcmp(t + p, var, q - p);
		if (q == p)
			return -1;
		p = ka_csrc_skip_blank(t, len, q);
		if (p >= e)
			return -1;
		if (t[p] == '=') {
			p = ka_csrc_skip_blank(t, len, p + 1);
			if (!word_is(t, len, p, "dim3"))
				return -1;
			p = ka_csrc_skip_blank(t, len, p + 4);
		}
		size_t pc = p < e && t[p] == '(' ? ka_csrc_match(t, len, p) : NPOS;
		if (pc == NPOS || pc >= e)
			return -1;
		if (mine) {
			d->open = p;
			d->close = pc;
			return 1;
		}
		p = ka_csrc_skip_blank(t, len, pc + 1);
		if (p >= e || t[p] != ',')
			return 0;
		p++;
	}
}

/* The number of config slots of launches of k in [s, e) that read var. */
static int config_uses(const ka_recipe_ctx *c, size_t s, size_t e, const char *var)
{
	int n = 0;
	for (int i = 0; i < c->m->nlaunches; i++) {
		const ka_csrc_launch *l = &c->m->l[i];
		char sq[KA_CSRC_NAME];
		for (int q = 0; q < 2 && l->start > s && l->start < e && !strcmp(l->kernel, c->k->name); q++)
			n += ka_csrc_squeeze(c->m->text, l->cfg[q].s, l->cfg[q].e, sq, sizeof sq) &&
			     !strcmp(sq, var);
	}
	return n;
}

/* The declaration of the dim3 variable var that launch l reads: a statement
 * of the launch's block before it; the variable is used by nothing but
 * that declaration and launches of this kernel. */
static int find_decl(ka_recipe_ctx *c, const ka_csrc_launch *l, const char *var, dimref *d)
{
	const char *t = c->m->text;
	size_t len = c->m->len, blk = ka_csrc_block_of(t, len, l->start), decl = NPOS;
	size_t bc = blk == NPOS ? NPOS : ka_csrc_match(t, len, blk);
	for (size_t s = bc == NPOS ? len : ka_csrc_skip_blank(t, len, blk + 1); s < l->start;) {
		size_t e = ka_csrc_stmt_end(t, len, s);
		if (e == NPOS || e > l->start)
			break;
		int r = declares(t, len, s, e, var, d);
		if (r < 0 && ka_csrc_has_word(t, s, e, var))
			return ka_recipe_decline(c, "cannot read the declaration of %s", var);
		if (r > 0)
			decl = s;
		s = ka_csrc_skip_blank(t, len, e);
	}
	if (decl == NPOS)
		return ka_recipe_decline(c, "'%s' is not a dim3 declared before the launch in its block",
					 var);
	if (ka_csrc_count_word(t, decl, bc, var) != 1 + config_uses(c, decl, bc, var))
		return ka_recipe_decline(c, "'%s' is used by more than the launches of %s", var, c->k->name);
	return KA_OK;
}

/* The dim3 of config slot q of launch l: inline dim3(...) or a variable;
 * two arguments, or three with the last 1. */
static int find_dim(ka_recipe_ctx *c, const ka_csrc_launch *l, int q, dimref *d)
{
	const char *t = c->m->text, *what = q ? "block" : "grid";
	size_t len = c->m->len, p = ka_csrc_skip_blank(t, len, l->cfg[q].s);
	char sq[KA_CSRC_NAME];
	int rc = KA_OK, n = 0;
	size_t o = ka_csrc_skip_blank(t, len, p + 4);
	if (word_is(t, len, p, "dim3") && o < len && t[o] == '(') {
		d->open = o;
		d->close = ka_csrc_match(t, len, o);
		if (d->close == NPOS || ka_csrc_skip_blank(t, len, d->close + 1) < l->cfg[q].e)
			return ka_recipe_decline(c, "cannot read the %s of a launch of %s", what, c->k->name);
	} else {
		if (!ka_csrc_squeeze(t, l->cfg[q].s, l->cfg[q].e, sq, sizeof sq) || !sq[0])
			return ka_recipe_decline(c, "cannot read the %s of a launch of %s", what, c->k->name);
		for (const char *s = sq; *s; s++)
			if (!is_ident(*s))
				return ka_recipe_decline(c, "the %s '%s' is neither dim3(...) nor a variable",
							 what, sq);
		rc = find_decl(c, l, sq, d);
	}
	if (rc)
		return rc;
	if (ka_csrc_split(t, len, d->open, d->close, d->a, 3, &n) || n < 2 ||
	    (n == 3 && (!ka_csrc_squeeze(t, d->a[2].s, d->a[2].e, sq, sizeof sq) || strcmp(sq, "1"))))
		return ka_recipe_decline(c, "the %s of a launch of %s is not two-dimensional", what,
					 c->k->name);
	return KA_OK;
}

/* The integer literals in [s, e): their offsets and lengths; -1 on a
 * string or character literal. */
static int numbers(const char *t, size_t s, size_t e, size_t *at, size_t *n, int max)
{
	int k = 0;
	for (size_t i = ka_csrc_skip_blank(t, e, s); i < e; i = ka_csrc_skip_blank(t, e, i)) {
		if (t[i] == '"' || t[i] == '\'')
			return -1;
		if (!is_ident(t[i])) {
			i++;
			continue;
		}
		size_t b = i;
		while (i < e && is_ident(t[i]))
			i++;
		if (isdigit((unsigned char)t[b]) && k < max) {
			at[k] = b;
			n[k++] = i - b;
		}
	}
	return k;
}

/* Replace the literal at [s, s + n), which must read was, with now (ed
 * NULL: only check it). */
static int set_literal(ka_recipe_ctx *c, ka_recipe_edits *ed, size_t s, size_t n, long was, long now)
{
	char lit[32];
	snprintf(lit, sizeof lit, "%.*s", (int)n, c->m->text + s);
	if (strtol(lit, NULL, 10) != was || strspn(lit, "0123456789") != n)
		return ka_recipe_decline(c, "cannot read the literal '%s' of a launch", lit);
	snprintf(lit, sizeof lit, "%ld", now);
	return ed ? ka_recipe_edit(ed, s, s + n, lit) : KA_OK;
}

static void strip_parens(char *s)
{
	for (size_t n = strlen(s); n > 1 && s[0] == '(' && s[n - 1] == ')'; n -= 2) {
		int depth = 0;
		for (size_t i = 0; i < n - 1; i++) {
			depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
			if (depth == 0)
				return; /* the first '(' closes early: "(a)+(b)" */
		}
		memmove(s, s + 1, n - 2);
		s[n - 2] = 0;
	}
}

/* One grid argument a, which must read (CNT + B - 1) / B (either spelling,
 * casts allowed; CNT alone when B is 1) with CNT the launch's argument
 * cnt: its literals rewritten for nb (ed NULL: only checked). */
static int grid_axis(ka_recipe_ctx *c, ka_recipe_edits *ed, ka_csrc_range a, const char *cnt, long b, long nb)
{
	const char *t = c->m->text;
	char g[600], f1[700], f2[700], lit[700];
	size_t at[64], n[64];
	int k = numbers(t, a.s, a.e, at, n, 64), rc;
	if (!ka_csrc_squeeze(t, a.s, a.e, g, sizeof g) || k < 0)
		return ka_recipe_decline(c, "cannot read the grid of a launch of %s", c->k->name);
	ka_recipe_drop_casts(g);
	strip_parens(g);
	snprintf(f1, sizeof f1, "(%s+%ld)/%ld", cnt, b - 1, b);
	snprintf(f2, sizeof f2, "(%s+%ld-1)/%ld", cnt, b, b);
	if (!strcmp(g, f1) && k >= 2) {
		rc = set_literal(c, ed, at[k - 2], n[k - 2], b - 1, nb - 1);
		return rc ? rc : set_literal(c, ed, at[k - 1], n[k - 1], b, nb);
	}
	if (!strcmp(g, f2) && k >= 3) {
		rc = set_literal(c, ed, at[k - 3], n[k - 3], b, nb);
		return rc ? rc : set_literal(c, ed, at[k - 1], n[k - 1], b, nb);
	}
	if (b == 1 && !strcmp(g, cnt)) {
		size_t s = ka_csrc_skip_blank(t, a.e, a.s), e = a.e;
		while (e > s && isspace((unsigned char)t[e - 1]))
			e--;
		snprintf(lit, sizeof lit, "(%.*s + %ld) / %ld", (int)(e - s), t + s, nb - 1, nb);
		return ed ? ka_recipe_edit(ed, s, e, lit) : KA_OK;
	}
	return ka_recipe_decline(c, "the grid's '%s' is not (%s + %ld - 1) / %ld", g, cnt, b, b);
}

/* The block's two literals into b; their offsets and lengths into at, n. */
static int block_literals(ka_recipe_ctx *c, const dimref *d, long b[2], size_t at[2], size_t n[2])
{
	const char *t = c->m->text;
	for (int q = 0; q < 2; q++) {
		char sq[64];
		if (!ka_csrc_squeeze(t, d->a[q].s, d->a[q].e, sq, sizeof sq) || !sq[0] ||
		    strspn(sq, "0123456789") != strlen(sq))
			return ka_recipe_decline(
				c, "the block of a launch of %s is not dim3 of two integer literals",
				c->k->name);
		b[q] = strtol(sq, NULL, 10);
		at[q] = ka_csrc_skip_blank(t, d->a[q].e, d->a[q].s);
		n[q] = strlen(sq);
		if (b[q] < 1 || b[q] > 1024)
			return ka_recipe_decline(c, "the block dimension %ld of a launch is out of range",
						 b[q]);
	}
	return KA_OK;
}

/* The launch's argument for parameter name, squeezed, casts dropped. */
static int launch_arg(ka_recipe_ctx *c, const ka_csrc_launch *l, const char *name, char *out, size_t cap)
{
	int p = ka_csrc_param_index(c->k, name);
	if (p < 0 || l->nargs != c->k->nparams ||
	    !ka_csrc_squeeze(c->m->text, l->args[p].s, l->args[p].e, out, cap))
		return ka_recipe_decline(c, "cannot read the argument for %s of a launch of %s", name,
					 c->k->name);
	ka_recipe_drop_casts(out);
	strip_parens(out);
	return KA_OK;
}

/* Whether the '(' at open was edited already (a dim3 two launches share). */
static int seen(size_t *done, int *ndone, size_t open)
{
	for (int i = 0; i < *ndone; i++)
		if (done[i] == open)
			return 1;
	done[(*ndone)++] = open;
	return 0;
}

typedef struct shape2 {
	long bx, by, rows;
	int tune;
	size_t done[2 * KA_CSRC_MAX_LAUNCHES];
	int ndone;
} shape2;

static int relaunch_one(ka_recipe_ctx *c, const ka_recipe_2d *sh, const ka_csrc_launch *l,
			ka_recipe_edits *ed, shape2 *to)
{
	dimref g, b;
	long ob[2];
	size_t at[2], n[2];
	char cw[512], ch[512], lit[32];
	int rc = find_dim(c, l, 0, &g);
	rc = rc ? rc : find_dim(c, l, 1, &b);
	rc = rc ? rc : block_literals(c, &b, ob, at, n);
	if (rc)
		return rc;
	if (to->tune && ob[0] == to->bx && ob[1] == to->by)
		return ka_recipe_decline(c, "bad parameters '%s': the block is %ldx%ld already", c->params,
					 ob[0], ob[1]);
	if (to->tune && to->bx < ob[0])
		return ka_recipe_decline(c, "bad parameters '%s': blockDim.x would narrow from %ld to %ld",
					 c->params, ob[0], to->bx);
	for (int q = 0; q < 2; q++) {
		snprintf(lit, sizeof lit, "%ld", ob[q]);
		if (ob[q] > 1 && ka_csrc_has_word(c->m->text, c->k->body_open, c->k->body_close, lit))
			return ka_recipe_decline(c, "the body uses the literal %ld (its block shape?)",
						 ob[q]);
	}
	rc = launch_arg(c, l, sh->w, cw, sizeof cw);
	rc = rc ? rc : launch_arg(c, l, sh->h, ch, sizeof ch);
	int gnew = !seen(to->done, &to->ndone, g.open), bnew = !seen(to->done, &to->ndone, b.open);
	if (rc == KA_OK)
		rc = grid_axis(c, gnew ? ed : NULL, g.a[0], cw, ob[0], to->bx);
	if (rc == KA_OK)
		rc = grid_axis(c, gnew ? ed : NULL, g.a[1], ch, ob[1], to->by * to->rows);
	for (int q = 0; q < 2 && rc == KA_OK && bnew; q++)
		rc = set_literal(c, ed, at[q], n[q], ob[q], q ? to->by : to->bx);
	return rc;
}

int ka_recipe_relaunch_2d(ka_recipe_ctx *c, const ka_recipe_2d *sh, ka_recipe_edits *ed, long bx, long by,
			  long rows, int tune)
{
	static shape2 to; /* recipes run on one thread */
	memset(&to, 0, sizeof to);
	to.bx = bx;
	to.by = by;
	to.rows = rows;
	to.tune = tune;
	int rc = KA_OK, found = 0;
	for (int i = 0; i < c->m->nlaunches && rc == KA_OK; i++)
		if (!strcmp(c->m->l[i].kernel, c->k->name)) {
			rc = relaunch_one(c, sh, &c->m->l[i], ed, &to);
			found = 1;
		}
	if (rc == KA_OK && !found)
		rc = ka_recipe_decline(c, "no launch of %s in this file", c->k->name);
	return rc;
}

/* ---- launch-tune-2d ---- */

static int launch2d_apply(ka_recipe_ctx *c, ka_buf *out)
{
	long bx = ka_recipe_param(c->params, "bx", 32), by = ka_recipe_param(c->params, "by", 8);
	if (bx < 32 || bx % 32 || by < 1 || bx * by > 1024)
		return ka_recipe_decline(c, "bad parameters '%s'", c->params);
	ka_recipe_2d sh;
	ka_recipe_edits ed = {0};
	int rc = ka_recipe_2d_shape(c, &sh);
	if (rc == KA_OK)
		rc = ka_recipe_relaunch_2d(c, &sh, &ed, bx, by, 1, 1);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, c->m->text, c->m->len, out);
	ka_recipe_edits_free(&ed);
	return rc;
}

static const char *const launch2d_grid[] = {"bx=32 by=8", "bx=64 by=4", "bx=128 by=2", "bx=32 by=4", NULL};

const ka_recipe ka_recipe_launch_tune_2d = {
	.name = "launch-tune-2d",
	.summary = "a wider-x block shape for a 2-D one-thread-per-point launch, the grid recomputed",
	.rules = "gmem-narrow-blockdim-x launch-tiny-blocks launch-block-not-multiple-of-warp",
	.grid = launch2d_grid,
	.apply = launch2d_apply,
};
