/* recipes/recipe_tile.c: the smem-tile-transpose recipe (rules
 * gmem-uncoalesced-store, gmem-uncoalesced-access).  A 2-D kernel
 *     long long c = blockIdx.x * blockDim.x + threadIdx.x;
 *     long long r = blockIdx.y * blockDim.y + threadIdx.y;
 *     if (r < ROWS && c < COLS) OUT[c * ROWS + r] = E(IN[r * COLS + c]);
 * reads rows and writes columns: each warp's store touches 32 sectors.  The
 * recipe stages a TILE x TILE block of IN in shared memory, padded by one
 * column so the column read hits 32 banks, and writes OUT a row of the
 * transposed tile at a time: both global sides become coalesced.  Each
 * block is TILE x ROWS_PER_PASS threads and loops over the tile's rows.
 * E may scale or convert the element but read nothing else indexed and no
 * thread index; the bounds are checked on both sides. */
#include "recipes/recipe.h"
#include "util/error.h"
#include <stdio.h>
#include <string.h>

#define NPOS ((size_t)-1)

typedef struct tshape {
	char c[64], r[64], rows[KA_CSRC_NAME], cols[KA_CSRC_NAME], in[KA_CSRC_NAME], out[KA_CSRC_NAME];
	char val[512]; /* E with the load replaced by "@V" */
	char elem[64]; /* IN's element type */
	/* a batch along z (b empty: none): its name, its bound, its declaration, and
	 * the offsets of IN and OUT (C expressions, "" for none) */
	char b[64], bbound[KA_CSRC_NAME], in_off[400], out_off[400];
	size_t bd_s, bd_e;
} tshape;

static int is_ident(char ch)
{
	return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* `T v = E;` squeezed: name and E (no ';'); 0 when not one declarator. */
static int split_decl(const char *sq, char *name, size_t ncap, char *rhs, size_t rcap)
{
	const char *eq = strchr(sq, '='), *v = eq;
	while (v && v > sq && is_ident(v[-1]))
		v--;
	if (!eq || eq[1] == '=' || v == eq || v == sq || v[-1] != ' ' || strchr(sq, ',') || strchr(sq, '[') ||
	    (size_t)(eq - v) >= ncap || strlen(eq + 1) >= rcap || !strncmp(sq, "return", 6))
		return 0;
	snprintf(name, ncap, "%.*s", (int)(eq - v), v);
	snprintf(rhs, rcap, "%.*s", (int)strlen(eq + 1) - 1, eq + 1);
	return 1;
}

/* The conjunction (&&) or disjunction (||) cond of `v < BOUND` (or
 * `v >= BOUND` with neg) tests: each index's bound into rows, cols, bb. */
static int read_bounds(ka_recipe_ctx *c, tshape *sh, const char *cond, int neg)
{
	const char *sep = neg ? "||" : "&&", *want = neg ? ">=" : "<";
	char buf[400];
	snprintf(buf, sizeof buf, "%s", cond);
	sh->rows[0] = sh->cols[0] = sh->bbound[0] = 0;
	for (char *p = buf; p && *p;) {
		char *nx = strstr(p, sep);
		if (nx)
			*nx = 0;
		char *op = strstr(p, want);
		if (!op || (!neg && op[1] == '='))
			return ka_recipe_decline(c, "the bound check '%s' is not `i %s N %s j %s M`", cond,
						 want, sep, want);
		*op = 0;
		char *bound = op + strlen(want), var[64];
		snprintf(var, sizeof var, "%.*s", (int)sizeof var - 1, p);
		ka_recipe_drop_casts(var);
		ka_recipe_drop_casts(bound);
		char *dst = !strcmp(var, sh->r)               ? sh->rows
			    : !strcmp(var, sh->c)             ? sh->cols
			    : sh->b[0] && !strcmp(var, sh->b) ? sh->bbound
							      : NULL;
		if (!dst || dst[0])
			return ka_recipe_decline(c, "the bound check '%s' tests '%s', not each index once",
						 cond, var);
		if (ka_csrc_param_index(c->k, bound) < 0)
			return ka_recipe_decline(c, "the bound '%s' is not a parameter", bound);
		snprintf(dst, KA_CSRC_NAME, "%s", bound);
		p = nx ? nx + 2 : NULL;
	}
	if (!sh->rows[0] || !sh->cols[0])
		return ka_recipe_decline(c, "no bound check on both indices");
	if (sh->b[0] && !sh->bbound[0])
		return ka_recipe_decline(c, "the batch index %s has no bound check", sh->b);
	return KA_OK;
}

/* IDX (squeezed) as OFF + A * STRIDE + B with A, B the named indices and
 * OFF free of them: OFF as C into off ("" for none), STRIDE must be the
 * parameter want. */
static int read_index(ka_recipe_ctx *c, const tshape *sh, const ka_recipe_poly_defs *d, const char *idx,
		      const char *a, const char *bidx, const char *want, char *off, size_t cap)
{
	ka_recipe_poly_env env = {ka_recipe_poly_defs_lookup, (void *)d};
	ka_recipe_poly p, rest = {0};
	if (!ka_recipe_poly_read(idx, &env, &p))
		return ka_recipe_decline(c, "cannot read the index '%s' as a sum of products", idx);
	int ok_a = 0, ok_b = 0;
	for (int i = 0; i < p.n; i++) {
		const ka_recipe_poly_term *t = &p.t[i];
		int ha = ka_recipe_poly_has(t, a), hb = ka_recipe_poly_has(t, bidx);
		if (!ha && !hb) {
			rest.t[rest.n++] = *t;
			continue;
		}
		if (hb && !ha && ka_recipe_poly_is_unit(t, bidx))
			ok_b++;
		else if (ha == 1 && !hb && t->coef == 1 && t->nf == 2 && ka_recipe_poly_has(t, want) == 1)
			ok_a++;
		else
			return ka_recipe_decline(c, "the index '%s' is not OFFSET + %s * %s + %s", idx, a,
						 want, bidx);
	}
	if (ok_a != 1 || ok_b != 1)
		return ka_recipe_decline(c, "the index '%s' is not OFFSET + %s * %s + %s", idx, a, want,
					 bidx);
	for (int i = 0; i < rest.n; i++)
		for (int f = 0; f < rest.t[i].nf; f++)
			if (!strcmp(rest.t[i].f[f], sh->r) || !strcmp(rest.t[i].f[f], sh->c) ||
			    strstr(rest.t[i].f[f], "Idx") || strstr(rest.t[i].f[f], "Dim"))
				return ka_recipe_decline(c, "the offset of '%s' uses %s", idx,
							 rest.t[i].f[f]);
			else if (strcmp(rest.t[i].f[f], sh->b) &&
				 ka_csrc_param_index(c->k, rest.t[i].f[f]) < 0)
				return ka_recipe_decline(c, "the offset of '%s' reads %s, not a parameter",
							 idx, rest.t[i].f[f]);
	off[0] = 0;
	if (rest.n && !ka_recipe_poly_c(&rest, off, cap))
		return ka_recipe_decline(c, "the offset of '%s' is too long", idx);
	return KA_OK;
}

/* `T a = <x index>, b = <y index>;` (either order): both into sh. */
static int two_indices(const char *sq, tshape *sh)
{
	const char *eq = strchr(sq, '='), *sp = NULL, *comma = NULL;
	int depth = 0;
	for (const char *q = eq; q && *q; q++) {
		depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
		if (*q == ',' && !depth) {
			if (comma)
				return 0;
			comma = q;
		}
	}
	for (const char *q = sq; eq && q < eq; q++)
		if (*q == ' ')
			sp = q;
	if (!comma || !sp)
		return 0;
	char d[2][400];
	snprintf(d[0], sizeof d[0], "%.*s;", (int)(comma - sq), sq);
	snprintf(d[1], sizeof d[1], "%.*s %s", (int)(sp - sq), sq, comma + 1);
	for (int i = 0; i < 2; i++) {
		size_t n = strlen(d[i]);
		if (ka_recipe_is_tid_decl_axis(d[i], 0, n, 'x', sh->c, sizeof sh->c) &&
		    ka_recipe_is_tid_decl_axis(d[1 - i], 0, strlen(d[1 - i]), 'y', sh->r, sizeof sh->r))
			return 1;
	}
	sh->c[0] = sh->r[0] = 0;
	return 0;
}

static int read_tshape(ka_recipe_ctx *c, tshape *sh)
{
	const char *t = c->m->text;
	size_t len = c->m->len, close = c->k->body_close;
	static ka_recipe_poly_defs defs;
	defs.n = 0;
	memset(sh, 0, sizeof *sh);
	/* the x and y indices (either order), a batch index blockIdx.z, helpers */
	size_t s = ka_csrc_skip_blank(t, len, c->k->body_open + 1), e = NPOS;
	char sq[1024], nm[64], rhs[256];
	int stmts = 0;
	for (;; s = ka_csrc_skip_blank(t, len, e), stmts++) {
		e = ka_csrc_stmt_end(t, len, s);
		if (e == NPOS || e > close || !ka_csrc_squeeze(t, s, e, sq, sizeof sq))
			return ka_recipe_decline(c,
						 "the first statements are not the x and y thread indices");
		if (!sh->c[0] && ka_recipe_is_tid_decl_axis(t, s, e, 'x', sh->c, sizeof sh->c))
			continue;
		if (!sh->r[0] && ka_recipe_is_tid_decl_axis(t, s, e, 'y', sh->r, sizeof sh->r))
			continue;
		if (!sh->c[0] && !sh->r[0] && two_indices(sq, sh))
			continue;
		if (!split_decl(sq, nm, sizeof nm, rhs, sizeof rhs))
			break;
		char plain[256];
		snprintf(plain, sizeof plain, "%s", rhs);
		ka_recipe_drop_casts(plain);
		if (!sh->b[0] && !strcmp(plain, "blockIdx.z")) {
			snprintf(sh->b, sizeof sh->b, "%s", nm);
			sh->bd_s = s;
			sh->bd_e = e;
			continue;
		}
		if (!sh->c[0] || !sh->r[0] || !ka_recipe_pure_expr(rhs, strlen(rhs)) || strstr(rhs, "Idx") ||
		    strstr(rhs, "Dim"))
			return ka_recipe_decline(c,
						 "the first statements are not the x and y thread indices");
		if (!ka_recipe_poly_defs_add(&defs, nm, rhs))
			return ka_recipe_decline(c, "too many helper variables");
	}
	if (!sh->c[0] || !sh->r[0])
		return ka_recipe_decline(c, "the first statements are not the x and y thread indices");
	/* the guard: if (r < ROWS && c < COLS [&& b < B]) { ... } or if (... >= ...) return; */
	if (strncmp(sq, "if(", 3))
		return ka_recipe_decline(c, "no bound check on both indices");
	size_t po = ka_csrc_skip_blank(t, len, s + 2), pc = ka_csrc_match(t, len, po);
	char cond[400];
	if (pc == NPOS || !ka_csrc_squeeze(t, po + 1, pc, cond, sizeof cond))
		return ka_recipe_decline(c, "cannot read the bound check");
	size_t after = ka_csrc_skip_blank(t, len, pc + 1), bs, be;
	int rc;
	if (!strncmp(t + after, "return", 6) && !is_ident(t[after + 6])) {
		if ((rc = read_bounds(c, sh, cond, 1)))
			return rc;
		bs = e;
		be = close;
	} else {
		if ((rc = read_bounds(c, sh, cond, 0)))
			return rc;
		if (ka_csrc_skip_blank(t, len, e) != close)
			return ka_recipe_decline(c, "statements follow the bound check");
		bs = pc + 1;
		be = e;
		size_t ob = ka_csrc_skip_blank(t, len, bs);
		if (t[ob] == '{') {
			bs = ob + 1;
			be = ka_csrc_match(t, len, ob);
			if (be == NPOS || ka_csrc_skip_blank(t, len, be + 1) != ka_csrc_skip_blank(t, len, e))
				return ka_recipe_decline(c, "the bound check has an else branch");
		}
	}
	/* helpers, then one store */
	size_t st_s = NPOS, st_e = NPOS;
	for (s = ka_csrc_skip_blank(t, len, bs); s < be; s = ka_csrc_skip_blank(t, len, e)) {
		e = ka_csrc_stmt_end(t, len, s);
		if (e == NPOS || e > be || !ka_csrc_squeeze(t, s, e, sq, sizeof sq))
			return ka_recipe_decline(c, "cannot read the guarded statements");
		if (st_s != NPOS)
			return ka_recipe_decline(c, "more than one guarded statement after the store");
		if (split_decl(sq, nm, sizeof nm, rhs, sizeof rhs)) {
			if (!ka_recipe_pure_expr(rhs, strlen(rhs)) || strchr(rhs, '['))
				return ka_recipe_decline(
					c, "the guarded declaration '%s' reads memory or calls", sq);
			if (!ka_recipe_poly_defs_add(&defs, nm, rhs))
				return ka_recipe_decline(c, "too many helper variables");
			continue;
		}
		st_s = s;
		st_e = e;
	}
	if (st_s == NPOS || !ka_csrc_squeeze(t, st_s, st_e, sq, sizeof sq))
		return ka_recipe_decline(c, "the guarded statement is not a store");
	/* OUT[IDX_O] = E(IN[IDX_I]); */
	const char *br = strchr(sq, '[');
	size_t cb = br ? ka_csrc_match(sq, strlen(sq), (size_t)(br - sq)) : NPOS;
	if (!br || cb == NPOS || sq[cb + 1] != '=' || sq[cb + 2] == '=')
		return ka_recipe_decline(c, "the guarded statement is not a store");
	snprintf(sh->out, sizeof sh->out, "%.*s", (int)(br - sq), sq);
	char idx[400];
	snprintf(idx, sizeof idx, "%.*s", (int)(cb - (size_t)(br - sq) - 1), br + 1);
	if ((rc = read_index(c, sh, &defs, idx, sh->c, sh->r, sh->rows, sh->out_off, sizeof sh->out_off)))
		return rc;
	const char *ev = sq + cb + 2;
	const char *lb = strchr(ev, '[');
	if (!lb || strchr(lb + 1, '['))
		return ka_recipe_decline(c, "the stored value reads no element, or more than one");
	const char *ib = lb;
	while (ib > ev && is_ident(ib[-1]))
		ib--;
	snprintf(sh->in, sizeof sh->in, "%.*s", (int)(lb - ib), ib);
	size_t lc = ka_csrc_match(ev, strlen(ev), (size_t)(lb - ev));
	if (lc == NPOS)
		return ka_recipe_decline(c, "cannot read the load");
	snprintf(idx, sizeof idx, "%.*s", (int)(lc - (size_t)(lb - ev) - 1), lb + 1);
	if ((rc = read_index(c, sh, &defs, idx, sh->r, sh->c, sh->cols, sh->in_off, sizeof sh->in_off)))
		return rc;
	snprintf(sh->val, sizeof sh->val, "%.*s@V%s", (int)(ib - ev), ev, ev + lc + 1);
	size_t vl = strlen(sh->val);
	if (vl && sh->val[vl - 1] == ';')
		sh->val[--vl] = 0;
	if (ka_csrc_has_word(sh->val, 0, vl, sh->r) || ka_csrc_has_word(sh->val, 0, vl, sh->c) ||
	    (sh->b[0] && ka_csrc_has_word(sh->val, 0, vl, sh->b)) || strstr(sh->val, "Idx") ||
	    strstr(sh->val, "Dim"))
		return ka_recipe_decline(c, "the stored value uses the indices");
	for (int i = 0; i < defs.n; i++)
		if (ka_csrc_has_word(sh->val, 0, vl, defs.name[i]))
			return ka_recipe_decline(c, "the stored value reads the helper %s", defs.name[i]);
	if (!ka_recipe_pure_expr(sh->val, vl))
		return ka_recipe_decline(c, "the stored value '%s' writes or calls", sh->val);
	int ip = ka_csrc_param_index(c->k, sh->in), op = ka_csrc_param_index(c->k, sh->out);
	if (ip < 0 || op < 0 || !c->k->params[ip].is_pointer || !c->k->params[op].is_pointer)
		return ka_recipe_decline(c, "IN and OUT are not pointer parameters");
	if (strlen(c->k->params[ip].type) >= sizeof sh->elem)
		return ka_recipe_decline(c, "IN's type is too long");
	snprintf(sh->elem, sizeof sh->elem, "%.*s", (int)sizeof sh->elem - 1, c->k->params[ip].type);
	char *star = strchr(sh->elem, '*');
	if (!star)
		return ka_recipe_decline(c, "IN's type '%s' is not written as a pointer", sh->elem);
	*star = 0;
	for (char *q; (q = strstr(sh->elem, "const "));)
		memmove(q, q + 6, strlen(q + 6) + 1);
	for (char *q; (q = strstr(sh->elem, "__restrict__"));)
		memmove(q, q + 12, strlen(q + 12) + 1);
	size_t el = strlen(sh->elem);
	while (el && sh->elem[el - 1] == ' ')
		sh->elem[--el] = 0;
	if (strcmp(sh->elem, "float") && strcmp(sh->elem, "double") && strcmp(sh->elem, "int") &&
	    strcmp(sh->elem, "unsigned"))
		return ka_recipe_decline(c, "elements of type '%s'", sh->elem);
	if (c->k->has_launch_bounds)
		return ka_recipe_decline(c, "it has __launch_bounds__ already");
	(void)stmts;
	return KA_OK;
}

static int tile_apply(ka_recipe_ctx *c, ka_buf *out)
{
	tshape sh;
	int rc = read_tshape(c, &sh);
	if (rc)
		return rc;
	long tile = ka_recipe_param(c->params, "tile", 32), pass = ka_recipe_param(c->params, "rows", 8);
	if (tile != 32 || pass < 1 || pass > 32 || 32 % pass)
		return ka_recipe_decline(c, "bad parameters '%s'", c->params);
	char val[600];
	const char *at = strstr(sh.val, "@V");
	snprintf(val, sizeof val, "%.*ska_tile[threadIdx.x][ka_k]%s", (int)(at - sh.val), sh.val, at + 2);
	char inx[420], outx[420];
	snprintf(inx, sizeof inx, "%s%s", sh.in_off, sh.in_off[0] ? " + " : "");
	snprintf(outx, sizeof outx, "%s%s", sh.out_off, sh.out_off[0] ? " + " : "");
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_buf_printf(&b,
		      "{\n\t/* a tile of %s, padded by one column: the column read below hits 32 banks */\n"
		      "\t__shared__ %s ka_tile[%ld][%ld];\n",
		      sh.in, sh.elem, tile, tile + 1);
	if (sh.b[0]) {
		/* the batch is the block's z: one test for the whole block, before its barrier */
		ka_buf_adds(&b, "\t");
		ka_buf_add(&b, c->m->text + sh.bd_s, sh.bd_e - sh.bd_s);
		ka_buf_printf(&b, "\n\tif (%s >= %s)\n\t\treturn;\n", sh.b, sh.bbound);
	}
	ka_buf_printf(
		&b,
		"\tconst long long ka_col0 = (long long)blockIdx.x * %ld, ka_row0 = (long long)blockIdx.y * %ld;\n"
		"\tfor (int ka_k = threadIdx.y; ka_k < %ld; ka_k += %ld) {\n"
		"\t\tconst long long %s = ka_row0 + ka_k, %s = ka_col0 + threadIdx.x;\n"
		"\t\tif (%s < %s && %s < %s) ka_tile[ka_k][threadIdx.x] = %s[%s%s * %s + %s];\n\t}\n"
		"\t__syncthreads();\n"
		"\tfor (int ka_k = threadIdx.y; ka_k < %ld; ka_k += %ld) {\n"
		"\t\tconst long long %s = ka_col0 + ka_k, %s = ka_row0 + threadIdx.x;\n"
		"\t\tif (%s < %s && %s < %s) %s[%s%s * %s + %s] = %s;\n\t}\n}",
		tile, tile, tile, pass, sh.r, sh.c, sh.r, sh.rows, sh.c, sh.cols, sh.in, inx, sh.r, sh.cols,
		sh.c, tile, pass, sh.c, sh.r, sh.r, sh.rows, sh.c, sh.cols, sh.out, outx, sh.c, sh.rows, sh.r,
		val);
	char grid[256], blk[64];
	snprintf(grid, sizeof grid, "dim3((unsigned)((@N + %ld) / %ld), (unsigned)((@B + %ld) / %ld)%s)",
		 tile - 1, tile, tile - 1, tile, sh.b[0] ? ", (unsigned)(@Z)" : "");
	snprintf(blk, sizeof blk, "dim3(%ld, %ld)", tile, pass);
	ka_recipe_edits ed = {0};
	rc = ka_recipe_new_body(c, &ed, &b, tile * pass);
	if (rc == KA_OK)
		rc = sh.b[0] ? ka_recipe_relaunch_z(c, &ed, sh.cols, grid, blk, sh.rows, sh.bbound)
			     : ka_recipe_relaunch_smem(c, &ed, sh.cols, grid, blk, sh.rows, NULL);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, c->m->text, c->m->len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&b);
	return rc;
}

static const char *const tile_grid[] = {"tile=32 rows=8", "tile=32 rows=16", "tile=32 rows=4", NULL};

const ka_recipe ka_recipe_smem_tile_transpose = {
	.name = "smem-tile-transpose",
	.summary = "row-read, column-write copy -> a padded shared-memory tile, coalesced on both sides",
	.rules = "gmem-uncoalesced-store gmem-uncoalesced-access gmem-row-index-from-threadidx-x",
	.grid = tile_grid,
	.apply = tile_apply,
};
