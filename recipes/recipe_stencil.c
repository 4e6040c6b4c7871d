/* recipes/recipe_stencil.c: the stencil-column recipe (rules
 * gmem-narrow-blockdim-x, gmem-no-tile-reuse).  A five-point stencil over
 * one input array, one thread per point (the 2-D shape of
 * recipes/recipe_launch2d.c):
 *     long long k = (long long)i * w + j;      (optional; or i * w + j inline)
 *     if (i == 0 || j == 0 || i == h - 1 || j == w - 1) y[k] = x[k];
 *     else y[k] = E(x[k], x[k - w], x[k + w], x[k - 1], x[k + 1]);
 * loads every input row three times: as a point's north, centre and south.
 * The recipe gives each thread ROWS consecutive points down its column:
 * the centre and south values it loaded move to north and centre in
 * registers, so each row of x is loaded about once per thread and column
 * (plus the west and east neighbours, which the lanes beside it loaded).
 * E is written out unchanged with the three loads replaced by registers,
 * so every point's value is the same expression in the same order.  The
 * edge terms must be exactly those four (an interior point then has all
 * four neighbours in range), the edge branch a copy, E a function of the
 * five loads and scalars (no other array, no assignment); the block gets
 * a wider x and the grid's y count is divided by ROWS. */
#include "recipes/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NPOS ((size_t)-1)
#define MAX_LOADS 32

enum { CENTRE, NORTH, SOUTH, WEST, EAST, NKINDS };

typedef struct sshape {
	ka_recipe_2d d;
	size_t kdecl_s, kdecl_e; /* the linear index declaration (0, 0: none) */
	char idx[256];           /* the centre's index: that local, or "i*W+j" */
	char in[KA_CSRC_NAME], out[KA_CSRC_NAME], elem[32];
	size_t if_s, if_e; /* the edge/interior statement */
	int nloads;
	ka_csrc_range load[MAX_LOADS]; /* every IN[...] in it, in text order */
	int kind[MAX_LOADS];
} sshape;

static int is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* The statement at *at (no further than end), squeezed with casts dropped. */
static int next_stmt(const char *t, size_t end, size_t *at, size_t *s, size_t *e, char *sq, size_t cap)
{
	*s = ka_csrc_skip_blank(t, end, *at);
	*e = *s < end ? ka_csrc_stmt_end(t, end, *s) : NPOS;
	if (*e == NPOS || !ka_csrc_squeeze(t, *s, *e, sq, cap))
		return 0;
	ka_recipe_drop_casts(sq);
	*at = *e;
	return 1;
}

/* One statement, or a braced block of exactly one: its range into s, e. */
static int single(const char *t, size_t *s, size_t *e)
{
	size_t b = ka_csrc_skip_blank(t, *e, *s);
	if (b < *e && t[b] == '{') {
		size_t in = ka_csrc_skip_blank(t, *e, b + 1), ie = ka_csrc_stmt_end(t, *e, in);
		if (ie == NPOS || ka_csrc_skip_blank(t, *e, ie) != ka_csrc_match(t, *e, b))
			return 0;
		b = in;
		*e = ie;
	}
	*s = b;
	return 1;
}

/* The four edge terms, each once, in any order. */
static int edge_terms(const sshape *sh, const char *cond)
{
	char want[4][200];
	const ka_recipe_2d *d = &sh->d;
	snprintf(want[0], sizeof want[0], "%s==0", d->i);
	snprintf(want[1], sizeof want[1], "%s==0", d->j);
	snprintf(want[2], sizeof want[2], "%s==%s-1", d->i, d->h);
	snprintf(want[3], sizeof want[3], "%s==%s-1", d->j, d->w);
	int seen = 0, n = 0;
	for (const char *p = cond; p; n++) {
		const char *bar = strstr(p, "||");
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		int hit = -1;
		for (int q = 0; q < 4; q++)
			if (strlen(want[q]) == len && !strncmp(p, want[q], len))
				hit = q;
		if (hit < 0 || (seen & (1 << hit)))
			return 0;
		seen |= 1 << hit;
		p = bar ? bar + 2 : NULL;
	}
	return n == 4 && seen == 15;
}

/* The kind of IN[sub] from its squeezed subscript, or -1. */
static int load_kind(const sshape *sh, const char *sub)
{
	char want[NKINDS][400];
	snprintf(want[CENTRE], sizeof want[0], "%s", sh->idx);
	snprintf(want[NORTH], sizeof want[0], "%s-%s", sh->idx, sh->d.w);
	snprintf(want[SOUTH], sizeof want[0], "%s+%s", sh->idx, sh->d.w);
	snprintf(want[WEST], sizeof want[0], "%s-1", sh->idx);
	snprintf(want[EAST], sizeof want[0], "%s+1", sh->idx);
	for (int q = 0; q < NKINDS; q++)
		if (!strcmp(sub, want[q]))
			return q;
	return -1;
}

/* The subscripts of the branch [s, e): the first is the store OUT[idx],
 * every other one a load of IN with one of the five indices.  The kinds
 * seen are or'ed into *mask. */
static int branch_loads(ka_recipe_ctx *c, sshape *sh, size_t s, size_t e, int *mask)
{
	const char *t = c->m->text;
	int first = 1;
	for (size_t i = ka_csrc_skip_blank(t, e, s); i < e; i = ka_csrc_skip_blank(t, e, i)) {
		if (t[i] == '"' || t[i] == '\'')
			return ka_recipe_decline(c, "a literal in the stencil");
		if (t[i] != '[') {
			i++;
			continue;
		}
		size_t b = i, close = ka_csrc_match(t, e, i), ns = i;
		while (b > s && isspace((unsigned char)t[b - 1]))
			b--;
		for (ns = b; ns > s && is_ident(t[ns - 1]);)
			ns--;
		char name[KA_CSRC_NAME], sub[300];
		snprintf(name, sizeof name, "%.*s", (int)(b - ns), t + ns);
		if (close == NPOS || !ka_csrc_squeeze(t, i + 1, close, sub, sizeof sub))
			return ka_recipe_decline(c, "cannot read a subscript of the stencil");
		ka_recipe_drop_casts(sub);
		i = close + 1;
		if (first) { /* the store, checked by the caller */
			first = 0;
			continue;
		}
		int k = load_kind(sh, sub);
		if (strcmp(name, sh->in) || k < 0)
			return ka_recipe_decline(c, "%s[%s] is not one of the five points of %s", name, sub,
						 sh->in);
		if (sh->nloads == MAX_LOADS)
			return ka_recipe_decline(c, "too many loads in the stencil");
		sh->load[sh->nloads] = (ka_csrc_range){ns, close + 1};
		sh->kind[sh->nloads++] = k;
		*mask |= 1 << k;
	}
	return KA_OK;
}

/* 1 when the squeezed expression assigns anything or takes an address. */
static int has_side_effect(const char *v)
{
	for (const char *p = v; *p; p++) {
		if (*p == '=' && !(p > v && strchr("=<>!", p[-1])) && p[1] != '=')
			return 1;
		if ((p[0] == '+' && p[1] == '+') || (p[0] == '-' && p[1] == '-'))
			return 1;
		if (*p == '&' && p[1] != '&' && !(p > v && p[-1] == '&'))
			return 1;
	}
	return 0;
}

/* IN's element type, float or double. */
static int elem_type(ka_recipe_ctx *c, sshape *sh)
{
	int ip = ka_csrc_param_index(c->k, sh->in), op = ka_csrc_param_index(c->k, sh->out);
	if (ip < 0 || op < 0 || !c->k->params[ip].is_pointer || !c->k->params[op].is_pointer)
		return ka_recipe_decline(c, "%s and %s are not pointer parameters", sh->in, sh->out);
	char ty[160];
	snprintf(ty, sizeof ty, "%s", c->k->params[ip].type);
	static const char *const drop[] = {"const", "__restrict__", "*", " "};
	for (size_t q = 0; q < sizeof drop / sizeof drop[0]; q++)
		for (char *p; (p = strstr(ty, drop[q]));)
			memmove(p, p + strlen(drop[q]), strlen(p + strlen(drop[q])) + 1);
	if (strcmp(ty, "float") && strcmp(ty, "double"))
		return ka_recipe_decline(c, "elements of type '%s'", ty);
	snprintf(sh->elem, sizeof sh->elem, "%.31s", ty);
	return KA_OK;
}

/* The optional `T k = i * W + j;`: idx becomes k. */
static int read_kdecl(ka_recipe_ctx *c, sshape *sh, const char *sq, size_t s, size_t e)
{
	char want[600];
	const char *eq = strchr(sq, '='), *sp = NULL;
	snprintf(want, sizeof want, "=%s;", sh->idx);
	for (const char *q = sq; eq && q < eq; q++)
		if (*q == ' ')
			sp = q;
	if (!eq || !sp || strcmp(eq, want) || eq - sp - 1 < 1 || (size_t)(eq - sp) >= sizeof sh->idx)
		return ka_recipe_decline(c,
					 "not a five-point stencil: after the bound check comes neither "
					 "`T k = %s;` nor an edge/interior if-else",
					 sh->idx);
	for (const char *q = sp + 1; q < eq; q++)
		if (!is_ident(*q))
			return ka_recipe_decline(c, "cannot read the linear index declaration");
	snprintf(sh->idx, sizeof sh->idx, "%.*s", (int)(eq - sp - 1), sp + 1);
	sh->kdecl_s = s;
	sh->kdecl_e = e;
	return KA_OK;
}

/* The edge branch `OUT[idx] = IN[idx];`: OUT and IN into sh. */
static int read_copy(ka_recipe_ctx *c, sshape *sh, const char *sq)
{
	const char *lb = strchr(sq, '[');
	char want[600];
	if (lb && (size_t)(lb - sq) < sizeof sh->out)
		snprintf(sh->out, sizeof sh->out, "%.*s", (int)(lb - sq), sq);
	snprintf(want, sizeof want, "%s[%s]=", sh->out, sh->idx);
	const char *in = lb && !strncmp(sq, want, strlen(want)) ? sq + strlen(want) : NULL;
	const char *lb2 = in ? strchr(in, '[') : NULL;
	if (lb2 && (size_t)(lb2 - in) < sizeof sh->in)
		snprintf(sh->in, sizeof sh->in, "%.*s", (int)(lb2 - in), in);
	snprintf(want, sizeof want, "[%s];", sh->idx);
	if (!lb2 || strcmp(lb2, want) || !sh->in[0])
		return ka_recipe_decline(c, "the edge branch is not the copy `OUT[%s] = IN[%s];`", sh->idx,
					 sh->idx);
	if (!strcmp(sh->in, sh->out))
		return ka_recipe_decline(c, "the stencil reads and writes the same array %s", sh->in);
	return KA_OK;
}

/* The interior branch `OUT[idx] = E;` with E reading the five points. */
static int read_interior(ka_recipe_ctx *c, sshape *sh, const char *sq, size_t s, size_t e)
{
	char want[600];
	int mask = 0;
	snprintf(want, sizeof want, "%s[%s]=", sh->out, sh->idx);
	if (strncmp(sq, want, strlen(want)))
		return ka_recipe_decline(c, "the interior branch is not a store to %s[%s]", sh->out, sh->idx);
	if (has_side_effect(sq + strlen(want)) || ka_csrc_count_word(c->m->text, s, e, sh->out) != 1)
		return ka_recipe_decline(c, "the interior value assigns, takes an address or reads %s",
					 sh->out);
	int rc = branch_loads(c, sh, s, e, &mask);
	if (rc == KA_OK && mask != (1 << NKINDS) - 1)
		rc = ka_recipe_decline(c, "the interior value does not read all five points of %s", sh->in);
	return rc;
}

/* if (EDGES) COPY else INTERIOR, the last statement of the body. */
static int read_if(ka_recipe_ctx *c, sshape *sh, size_t s, size_t e)
{
	const char *t = c->m->text;
	char sq[2048];
	int mask = 0;
	size_t p = ka_csrc_skip_blank(t, e, s + 2), pc = p < e && t[p] == '(' ? ka_csrc_match(t, e, p) : NPOS;
	size_t ts = pc + 1, te = pc == NPOS ? NPOS : ka_csrc_stmt_end(t, e, ts);
	size_t n = te == NPOS ? e : ka_csrc_skip_blank(t, e, te), es = n + 4, ee = e;
	if (te == NPOS || n + 4 > e || strncmp(t + n, "else", 4) || is_ident(t[n + 4]) ||
	    !ka_csrc_squeeze(t, p + 1, pc, sq, sizeof sq))
		return ka_recipe_decline(c, "the stencil is not one edge/interior if-else");
	ka_recipe_drop_casts(sq);
	if (!edge_terms(sh, sq))
		return ka_recipe_decline(c, "the edge test '%s' is not the four edges of %s and %s", sq,
					 sh->d.i, sh->d.j);
	if (!single(t, &ts, &te) || !single(t, &es, &ee))
		return ka_recipe_decline(c, "a branch of the edge test holds more than one statement");
	if (!ka_csrc_squeeze(t, ts, te, sq, sizeof sq))
		return ka_recipe_decline(c, "cannot read the edge branch");
	ka_recipe_drop_casts(sq);
	int rc = read_copy(c, sh, sq);
	if (rc == KA_OK)
		rc = branch_loads(c, sh, ts, te, &mask);
	if (rc == KA_OK && !ka_csrc_squeeze(t, es, ee, sq, sizeof sq))
		rc = ka_recipe_decline(c, "cannot read the interior branch");
	ka_recipe_drop_casts(sq);
	if (rc == KA_OK)
		rc = read_interior(c, sh, sq, es, ee);
	sh->if_s = s;
	sh->if_e = e;
	return rc;
}

static int read_sshape(ka_recipe_ctx *c, sshape *sh)
{
	memset(sh, 0, sizeof *sh);
	int rc = ka_recipe_2d_shape(c, &sh->d);
	if (rc)
		return rc;
	const char *t = c->m->text;
	const ka_recipe_2d *d = &sh->d;
	size_t at = d->body_s, s, e;
	char sq[2048];
	snprintf(sh->idx, sizeof sh->idx, "%s*%s+%s", d->i, d->w, d->j);
	if (!next_stmt(t, d->body_e, &at, &s, &e, sq, sizeof sq))
		return ka_recipe_decline(c, "cannot read the stencil");
	if (strncmp(sq, "if(", 3)) {
		rc = read_kdecl(c, sh, sq, s, e);
		if (rc == KA_OK && !next_stmt(t, d->body_e, &at, &s, &e, sq, sizeof sq))
			rc = ka_recipe_decline(c, "cannot read the stencil");
		if (rc)
			return rc;
	}
	if (strncmp(sq, "if(", 3) || ka_csrc_skip_blank(t, d->body_e, e) != d->body_e)
		return ka_recipe_decline(c, "the body is not one edge/interior if-else");
	rc = read_if(c, sh, s, e);
	if (rc == KA_OK)
		rc = elem_type(c, sh);
	if (rc == KA_OK &&
	    (!ka_csrc_squeeze(t, c->k->body_open, c->k->body_close, sq, sizeof sq) || strstr(sq, "ka_")))
		rc = ka_recipe_decline(c,
				       "the kernel is too long or has names starting ka_ (the recipe's own)");
	return rc;
}

/* [s, e) at two tabs (its later lines keep their indentation relative to
 * its first), with the north, centre and south loads of IN replaced by
 * their registers. */
static void add_moved(ka_buf *b, const sshape *sh, const char *t, size_t s, size_t e)
{
	static const char *const reg[NKINDS] = {"ka_c", "ka_n", "ka_s", NULL, NULL};
	size_t ind = s; /* the first line's indentation: [ind, s) */
	while (ind > 0 && (t[ind - 1] == ' ' || t[ind - 1] == '\t'))
		ind--;
	int q = 0;
	ka_buf_adds(b, "\t\t");
	for (size_t i = s; i < e;) {
		while (q < sh->nloads && sh->load[q].s < i)
			q++;
		if (q < sh->nloads && sh->load[q].s == i && reg[sh->kind[q]]) {
			ka_buf_adds(b, reg[sh->kind[q]]);
			i = sh->load[q].e;
			continue;
		}
		ka_buf_addc(b, t[i]);
		if (t[i++] == '\n' && e - i > s - ind && !memcmp(t + i, t + ind, s - ind)) {
			ka_buf_adds(b, "\t\t");
			i += s - ind;
		}
	}
}

/* The text of the first load of kind k. */
static void add_load(ka_buf *b, const sshape *sh, const char *t, int k)
{
	for (int q = 0; q < sh->nloads; q++)
		if (sh->kind[q] == k) {
			ka_buf_add(b, t + sh->load[q].s, sh->load[q].e - sh->load[q].s);
			return;
		}
}

static int wide(const char *type)
{
	return strstr(type, "long") || strstr(type, "size_t") || strstr(type, "int64") ||
	       strstr(type, "ptrdiff_t");
}

static void write_body(const sshape *sh, const char *t, long rows, ka_buf *b)
{
	const ka_recipe_2d *d = &sh->d;
	const char *zero = strcmp(sh->elem, "float") ? "0.0" : "0.0f";
	ka_buf_printf(b,
		      "{\n\t/* %ld consecutive rows of column %s per thread, top to bottom: the north,\n"
		      "\t * centre and south values of %s move down in registers, so each row of\n"
		      "\t * %s is loaded about once instead of three times */\n",
		      rows, d->j, sh->in, sh->in);
	if (wide(d->jtype))
		ka_buf_printf(b, "\tconst %s %s = (%s)blockIdx.x * blockDim.x + threadIdx.x;\n", d->jtype,
			      d->j, d->jtype);
	else
		ka_buf_printf(b, "\tconst %s %s = blockIdx.x * blockDim.x + threadIdx.x;\n", d->jtype, d->j);
	ka_buf_printf(b,
		      "\tconst %s ka_i0 = (%s)(blockIdx.y * blockDim.y + threadIdx.y) * %ld;\n"
		      "\tif (ka_i0 >= %s || %s >= %s) return;\n"
		      "\t%s ka_n = %s, ka_c = %s;\n"
		      "\t#pragma unroll\n"
		      "\tfor (int ka_r = 0; ka_r < %ld; ka_r++) {\n"
		      "\t\tconst %s %s = ka_i0 + ka_r;\n"
		      "\t\tif (%s >= %s) break;\n",
		      d->itype, d->itype, rows, d->h, d->j, d->w, sh->elem, zero, zero, rows, d->itype, d->i,
		      d->i, d->h);
	if (sh->kdecl_e) {
		add_moved(b, sh, t, sh->kdecl_s, sh->kdecl_e);
		ka_buf_adds(b, "\n");
	}
	ka_buf_adds(b, "\t\tif (ka_r == 0) {\n\t\t\tka_c = ");
	add_load(b, sh, t, CENTRE);
	ka_buf_printf(b, ";\n\t\t\tif (%s > 0) ka_n = ", d->i);
	add_load(b, sh, t, NORTH);
	ka_buf_printf(b, ";\n\t\t}\n\t\tconst %s ka_s = %s + 1 < %s ? ", sh->elem, d->i, d->h);
	add_load(b, sh, t, SOUTH);
	ka_buf_printf(b, " : %s;\n", zero);
	add_moved(b, sh, t, sh->if_s, sh->if_e);
	ka_buf_adds(b, "\n\t\tka_n = ka_c;\n\t\tka_c = ka_s;\n\t}\n}");
}

static int stencil_apply(ka_recipe_ctx *c, ka_buf *out)
{
	long bx = ka_recipe_param(c->params, "bx", 128), by = ka_recipe_param(c->params, "by", 1),
	     rows = ka_recipe_param(c->params, "rows", 16);
	if (bx < 32 || bx % 32 || by < 1 || bx * by > 1024 || rows < 2 || rows > 64)
		return ka_recipe_decline(c, "bad parameters '%s'", c->params);
	static sshape sh; /* recipes run on one thread */
	int rc = read_sshape(c, &sh);
	if (rc)
		return rc;
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	write_body(&sh, c->m->text, rows, &b);
	ka_recipe_edits ed = {0};
	rc = b.data ? ka_recipe_edit(&ed, c->k->body_open, c->k->body_close + 1, b.data)
		    : ka_error_set(KA_ENOMEM, "out of memory");
	if (rc == KA_OK)
		rc = ka_recipe_relaunch_2d(c, &sh.d, &ed, bx, by, rows, 0);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, c->m->text, c->m->len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&b);
	return rc;
}

static const char *const stencil_grid[] = {"bx=128 by=1 rows=16", "bx=64 by=4 rows=8", "bx=32 by=8 rows=4",
					   "bx=128 by=2 rows=8", NULL};

const ka_recipe ka_recipe_stencil_column = {
	.name = "stencil-column",
	.summary =
		"five-point stencil -> ROWS points down a column per thread, north/centre/south in registers",
	.rules = "gmem-narrow-blockdim-x gmem-no-tile-reuse",
	.grid = stencil_grid,
	.apply = stencil_apply,
};
