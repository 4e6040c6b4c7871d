/* agents/recipe_tile.c: the smem-tile-transpose recipe (rules
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
#include "agents/recipe.h"
#include "util/error.h"
#include <stdio.h>
#include <string.h>

#define NPOS ((size_t)-1)

typedef struct tshape {
	char c[64], r[64], rows[KA_CSRC_NAME], cols[KA_CSRC_NAME], in[KA_CSRC_NAME], out[KA_CSRC_NAME];
	char val[512]; /* E with the load replaced by "@V" */
	char elem[64]; /* IN's element type */
} tshape;

static int read_tshape(ka_recipe_ctx *c, tshape *sh)
{
	const char *t = c->m->text;
	size_t len = c->m->len, close = c->k->body_close;
	size_t s0 = ka_csrc_skip_blank(t, len, c->k->body_open + 1), e0 = ka_csrc_stmt_end(t, len, s0);
	size_t s1 = e0 == NPOS ? NPOS : ka_csrc_skip_blank(t, len, e0),
	       e1 = s1 == NPOS ? NPOS : ka_csrc_stmt_end(t, len, s1);
	if (e1 == NPOS || !ka_recipe_is_tid_decl_axis(t, s0, e0, 'x', sh->c, sizeof sh->c) ||
	    !ka_recipe_is_tid_decl_axis(t, s1, e1, 'y', sh->r, sizeof sh->r))
		return ka_recipe_decline(c, "the first statements are not the x and y thread indices");
	size_t s2 = ka_csrc_skip_blank(t, len, e1), e2 = ka_csrc_stmt_end(t, len, s2);
	if (e2 == NPOS || ka_csrc_skip_blank(t, len, e2) != close)
		return ka_recipe_decline(c, "more than one guarded statement");
	char sq[1024], w1[300], w2[300];
	if (!ka_csrc_squeeze(t, s2, e2, sq, sizeof sq) || strncmp(sq, "if(", 3))
		return ka_recipe_decline(c, "no bound check on both indices");
	/* if(r<ROWS&&c<COLS)OUT[c*ROWS+r]=E; (either order of the two bounds) */
	char *and = strstr(sq, "&&"), *cp = and ? strchr(and, ')') : NULL;
	if (!and|| !cp)
		return ka_recipe_decline(c, "no bound check on both indices");
	snprintf(w1, sizeof w1, "%.*s", (int)(and-sq - 3), sq + 3);
	snprintf(w2, sizeof w2, "%.*s", (int)(cp - and-2), and+2);
	size_t rl = strlen(sh->r), cl = strlen(sh->c);
	const char *rb = !strncmp(w1, sh->r, rl) && w1[rl] == '<'   ? w1
			 : !strncmp(w2, sh->r, rl) && w2[rl] == '<' ? w2
								    : NULL;
	const char *cb = !strncmp(w1, sh->c, cl) && w1[cl] == '<'   ? w1
			 : !strncmp(w2, sh->c, cl) && w2[cl] == '<' ? w2
								    : NULL;
	if (!rb || !cb || rb == cb)
		return ka_recipe_decline(c, "the bounds are not `%s < ROWS && %s < COLS`", sh->r, sh->c);
	snprintf(sh->rows, sizeof sh->rows, "%s", rb + rl + 1);
	snprintf(sh->cols, sizeof sh->cols, "%s", cb + cl + 1);
	if (ka_csrc_param_index(c->k, sh->rows) < 0 || ka_csrc_param_index(c->k, sh->cols) < 0)
		return ka_recipe_decline(c, "the bounds are not parameters");
	const char *st = cp + 1, *br = strchr(st, '[');
	if (!br)
		return ka_recipe_decline(c, "the guarded statement is not a store");
	snprintf(sh->out, sizeof sh->out, "%.*s", (int)(br - st), st);
	char want[400];
	snprintf(want, sizeof want, "[%s*%s+%s]=", sh->c, sh->rows, sh->r);
	if (strncmp(br, want, strlen(want)))
		return ka_recipe_decline(c, "the store is not OUT[%s * ROWS + %s]", sh->c, sh->r);
	const char *e = br + strlen(want);
	/* E: exactly one subscript, IN[r*COLS+c] */
	const char *lb = strchr(e, '[');
	if (!lb || strchr(lb + 1, '['))
		return ka_recipe_decline(c, "the stored value reads no element, or more than one");
	const char *ib = lb;
	while (ib > e && (ib[-1] == '_' || (ib[-1] >= 'a' && ib[-1] <= 'z') ||
			  (ib[-1] >= 'A' && ib[-1] <= 'Z') || (ib[-1] >= '0' && ib[-1] <= '9')))
		ib--;
	snprintf(sh->in, sizeof sh->in, "%.*s", (int)(lb - ib), ib);
	snprintf(want, sizeof want, "[%s*%s+%s]", sh->r, sh->cols, sh->c);
	if (strncmp(lb, want, strlen(want)))
		return ka_recipe_decline(c, "the load is not IN[%s * COLS + %s]", sh->r, sh->c);
	snprintf(sh->val, sizeof sh->val, "%.*s@V%s", (int)(ib - e), e, lb + strlen(want));
	size_t vl = strlen(sh->val);
	if (vl && sh->val[vl - 1] == ';')
		sh->val[--vl] = 0;
	if (ka_csrc_has_word(sh->val, 0, vl, sh->r) || ka_csrc_has_word(sh->val, 0, vl, sh->c) ||
	    strstr(sh->val, "Idx") || strstr(sh->val, "Dim"))
		return ka_recipe_decline(c, "the stored value uses the indices");
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
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_buf_printf(
		&b,
		"{\n\t/* a tile of %s, padded by one column: the column read below hits 32 banks */\n"
		"\t__shared__ %s ka_tile[%ld][%ld];\n"
		"\tconst long long ka_col0 = (long long)blockIdx.x * %ld, ka_row0 = (long long)blockIdx.y * %ld;\n"
		"\tfor (int ka_k = threadIdx.y; ka_k < %ld; ka_k += %ld) {\n"
		"\t\tconst long long %s = ka_row0 + ka_k, %s = ka_col0 + threadIdx.x;\n"
		"\t\tif (%s < %s && %s < %s) ka_tile[ka_k][threadIdx.x] = %s[%s * %s + %s];\n\t}\n"
		"\t__syncthreads();\n"
		"\tfor (int ka_k = threadIdx.y; ka_k < %ld; ka_k += %ld) {\n"
		"\t\tconst long long %s = ka_col0 + ka_k, %s = ka_row0 + threadIdx.x;\n"
		"\t\tif (%s < %s && %s < %s) %s[%s * %s + %s] = %s;\n\t}\n}",
		sh.in, sh.elem, tile, tile + 1, tile, tile, tile, pass, sh.r, sh.c, sh.r, sh.rows, sh.c,
		sh.cols, sh.in, sh.r, sh.cols, sh.c, tile, pass, sh.c, sh.r, sh.r, sh.rows, sh.c, sh.cols,
		sh.out, sh.c, sh.rows, sh.r, val);
	char grid[256], blk[64], lb[64];
	snprintf(grid, sizeof grid, "dim3((unsigned)((@N + %ld) / %ld), (unsigned)((@B + %ld) / %ld))",
		 tile - 1, tile, tile - 1, tile);
	snprintf(blk, sizeof blk, "dim3(%ld, %ld)", tile, pass);
	snprintf(lb, sizeof lb, "__launch_bounds__(%ld) ", tile * pass);
	ka_recipe_edits ed = {0};
	rc = b.data ? ka_recipe_edit(&ed, c->k->body_open, c->k->body_close + 1, b.data) : KA_ENOMEM;
	if (rc == KA_OK)
		rc = ka_recipe_edit(&ed, c->k->name_at, c->k->name_at, lb);
	if (rc == KA_OK)
		rc = ka_recipe_relaunch_smem(c, &ed, sh.cols, grid, blk, sh.rows, NULL);
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
