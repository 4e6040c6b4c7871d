/* recipes/recipe_gemm.c: the smem-tile-gemm recipe (rules gmem-no-tile-reuse,
 * gmem-uncoalesced-access).  The naive one-thread-per-output product
 *     j = x thread index, i = y thread index;  if (i >= M || j >= N) return;
 *     float acc = 0.0f;
 *     for (int l = 0; l < K; l++) acc += A[i * K + l] * B[l * N + j];
 *     C[i * N + j] = E(acc);
 * reads every element of A and B from global memory N and M times.  The
 * recipe computes a 64 x 64 block of C per 16 x 16 threads: 64 x 16 tiles
 * of A and 16 x 64 tiles of B staged in shared memory (zero-filled past
 * the edges, A's rows padded by one word), and a 4 x 4 register block per
 * thread whose rows are ty + 16r and columns tx + 16c, so that shared
 * reads are broadcasts or consecutive and C's stores coalesce.  The sum
 * runs over l in the same order per output element as before. */
#include "recipes/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NPOS ((size_t)-1)

static int is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

typedef struct gshape {
	char i[64], j[64], l[64], acc[64], m[KA_CSRC_NAME], n[KA_CSRC_NAME], k[KA_CSRC_NAME];
	char a[KA_CSRC_NAME], b[KA_CSRC_NAME], c[KA_CSRC_NAME], e[512];
} gshape;

/* Only the widening casts (ka_recipe_drop_casts drops narrowing ones too): a
 * GEMM index cast to int may wrap, and the rewrite must not assume it does not. */
static void drop_casts(char *s)
{
	static const char *const casts[] = {"(long long)", "(size_t)", "(int64_t)", "(long)"};
	for (size_t i = 0; i < sizeof casts / sizeof casts[0]; i++)
		for (char *p; (p = strstr(s, casts[i]));)
			memmove(p, p + strlen(casts[i]), strlen(p + strlen(casts[i])) + 1);
}

/* "T a = X, b = Y;" as two declarations. */
static int split_pair(const char *sq, char *d1, char *d2, size_t cap)
{
	const char *eq = strchr(sq, '='), *comma = eq ? strchr(eq, ',') : NULL, *sp = strchr(sq, ' ');
	if (!comma || !sp)
		return 0;
	const char *type_end = sq;
	for (const char *q = sq; q < eq; q++)
		if (*q == ' ')
			type_end = q;
	snprintf(d1, cap, "%.*s;", (int)(comma - sq), sq);
	snprintf(d2, cap, "%.*s %s", (int)(type_end - sq), sq, comma + 1);
	return 1;
}

static int stmt(const char *t, size_t *at, size_t end, char *sq, size_t cap, size_t *s, size_t *e)
{
	*s = ka_csrc_skip_blank(t, end, *at);
	*e = ka_csrc_stmt_end(t, end, *s);
	if (*e == NPOS || *e > end || !ka_csrc_squeeze(t, *s, *e, sq, cap))
		return 0;
	drop_casts(sq);
	*at = *e;
	return 1;
}

static int read_gshape(ka_recipe_ctx *c, gshape *g)
{
	const char *t = c->m->text;
	size_t at = c->k->body_open + 1, end = c->k->body_close, s, e;
	char sq[1024], d1[512], d2[512], want[600];
	if (!stmt(t, &at, end, sq, sizeof sq, &s, &e))
		return ka_recipe_decline(c, "cannot read the kernel");
	if (split_pair(sq, d1, d2, sizeof d1)) {
		if (!ka_recipe_is_tid_decl_axis(d1, 0, strlen(d1), 'x', g->j, sizeof g->j) ||
		    !ka_recipe_is_tid_decl_axis(d2, 0, strlen(d2), 'y', g->i, sizeof g->i))
			return ka_recipe_decline(c, "the first statement is not the x and y thread indices");
	} else {
		if (!ka_recipe_is_tid_decl_axis(t, s, e, 'x', g->j, sizeof g->j) ||
		    !stmt(t, &at, end, sq, sizeof sq, &s, &e) ||
		    !ka_recipe_is_tid_decl_axis(t, s, e, 'y', g->i, sizeof g->i))
			return ka_recipe_decline(c,
						 "the first statements are not the x and y thread indices");
	}
	if (!stmt(t, &at, end, sq, sizeof sq, &s, &e))
		return ka_recipe_decline(c, "no bound check");
	/* if(i>=M||j>=N)return; */
	char m[96] = "", n[96] = "";
	size_t il = strlen(g->i), jl = strlen(g->j);
	const char *p1 = sq + 3, *bar = strstr(sq, "||"), *close = strstr(sq, ")return;");
	if (strncmp(sq, "if(", 3) || !bar || !close)
		return ka_recipe_decline(c, "no `if (i >= M || j >= N) return;`");
	for (int side = 0; side < 2; side++) {
		const char *w = side ? bar + 2 : p1, *we = side ? close : bar;
		if (!strncmp(w, g->i, il) && !strncmp(w + il, ">=", 2))
			snprintf(m, sizeof m, "%.*s", (int)(we - w - il - 2), w + il + 2);
		else if (!strncmp(w, g->j, jl) && !strncmp(w + jl, ">=", 2))
			snprintf(n, sizeof n, "%.*s", (int)(we - w - jl - 2), w + jl + 2);
	}
	snprintf(g->m, sizeof g->m, "%s", m);
	snprintf(g->n, sizeof g->n, "%s", n);
	if (ka_csrc_param_index(c->k, g->m) < 0 || ka_csrc_param_index(c->k, g->n) < 0)
		return ka_recipe_decline(c, "the bounds are not `%s >= M || %s >= N` with parameters", g->i,
					 g->j);
	if (!stmt(t, &at, end, sq, sizeof sq, &s, &e) || strncmp(sq, "float ", 6))
		return ka_recipe_decline(c, "no float accumulator");
	char *eq = strchr(sq, '=');
	if (!eq || (strcmp(eq, "=0.0f;") && strcmp(eq, "=0.f;") && strcmp(eq, "=0;")))
		return ka_recipe_decline(c, "the accumulator does not start at zero");
	snprintf(g->acc, sizeof g->acc, "%.*s", (int)(eq - sq - 6), sq + 6);
	if (!stmt(t, &at, end, sq, sizeof sq, &s, &e) || strncmp(sq, "for(int ", 8))
		return ka_recipe_decline(c, "no k loop");
	const char *le = strchr(sq + 8, '=');
	if (!le)
		return ka_recipe_decline(c, "no k loop");
	snprintf(g->l, sizeof g->l, "%.*s", (int)(le - sq - 8), sq + 8);
	char head[200];
	snprintf(head, sizeof head, "for(int %s=0;%s<", g->l, g->l);
	const char *kk = sq + strlen(head), *semi = strchr(kk, ';');
	if (strncmp(sq, head, strlen(head)) || !semi)
		return ka_recipe_decline(c, "the k loop is not `for (int l = 0; l < K; l++)`");
	snprintf(g->k, sizeof g->k, "%.*s", (int)(semi - kk), kk);
	/* ;l++)acc+=A[i*K+l]*B[l*N+j]; */
	const char *body = semi;
	snprintf(want, sizeof want, ";%s++)%s+=", g->l, g->acc);
	if (ka_csrc_param_index(c->k, g->k) < 0 || strncmp(body, want, strlen(want)))
		return ka_recipe_decline(c, "the k loop is not `acc += A[..] * B[..]` over a parameter");
	const char *ab = body + strlen(want), *lb = strchr(ab, '[');
	if (!lb)
		return ka_recipe_decline(c, "no A[..]");
	snprintf(g->a, sizeof g->a, "%.*s", (int)(lb - ab), ab);
	snprintf(want, sizeof want, "[%s*%s+%s]*", g->i, g->k, g->l);
	if (strncmp(lb, want, strlen(want)))
		return ka_recipe_decline(c, "A is not read as A[i * K + l]");
	const char *bb = lb + strlen(want), *lb2 = strchr(bb, '[');
	if (!lb2)
		return ka_recipe_decline(c, "no B[..]");
	snprintf(g->b, sizeof g->b, "%.*s", (int)(lb2 - bb), bb);
	snprintf(want, sizeof want, "[%s*%s+%s];", g->l, g->n, g->j);
	if (strcmp(lb2, want))
		return ka_recipe_decline(c, "B is not read as B[l * N + j]");
	if (!stmt(t, &at, end, sq, sizeof sq, &s, &e))
		return ka_recipe_decline(c, "no store of C");
	const char *cb = strchr(sq, '[');
	if (!cb)
		return ka_recipe_decline(c, "no store of C");
	snprintf(g->c, sizeof g->c, "%.*s", (int)(cb - sq), sq);
	snprintf(want, sizeof want, "[%s*%s+%s]=", g->i, g->n, g->j);
	if (strncmp(cb, want, strlen(want)))
		return ka_recipe_decline(c, "C is not stored as C[i * N + j]");
	snprintf(g->e, sizeof g->e, "%s", cb + strlen(want));
	size_t el = strlen(g->e);
	if (el)
		g->e[--el] = 0;
	if (strchr(g->e, '[') || ka_csrc_has_word(g->e, 0, el, g->i) || ka_csrc_has_word(g->e, 0, el, g->j) ||
	    !ka_csrc_has_word(g->e, 0, el, g->acc))
		return ka_recipe_decline(c, "the stored value is not a function of the accumulator alone");
	if (ka_csrc_skip_blank(t, end, at) != end)
		return ka_recipe_decline(c, "statements after the store");
	const char *ptrs[3] = {g->a, g->b, g->c};
	for (int q = 0; q < 3; q++) {
		int pi = ka_csrc_param_index(c->k, ptrs[q]);
		if (pi < 0 || !strstr(c->k->params[pi].type, "float") ||
		    strstr(c->k->params[pi].type, "double"))
			return ka_recipe_decline(c, "%s is not a float pointer parameter", ptrs[q]);
	}
	if (c->k->has_launch_bounds)
		return ka_recipe_decline(c, "it has __launch_bounds__ already");
	return KA_OK;
}

static int gemm_apply(ka_recipe_ctx *c, ka_buf *out)
{
	gshape g;
	int rc = read_gshape(c, &g);
	if (rc)
		return rc;
	if (ka_recipe_param(c->params, "tile", 64) != 64)
		return ka_recipe_decline(c, "only tile=64 is written");
	/* E(acc) with the accumulator replaced by the register */
	char ev[700];
	ka_buf eb;
	ka_buf_init(&eb, 4096);
	size_t al = strlen(g.acc);
	for (const char *p = g.e; *p;) {
		if (!strncmp(p, g.acc, al) && (p == g.e || !is_ident(p[-1])) && !is_ident(p[al])) {
			ka_buf_adds(&eb, "ka_acc[ka_r][ka_c]");
			p += al;
		} else {
			ka_buf_addc(&eb, *p++);
		}
	}
	snprintf(ev, sizeof ev, "%s", eb.data ? eb.data : "");
	ka_buf_free(&eb);
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_buf_printf(
		&b,
		"{\n\t/* 64 x 64 outputs per block, 4 x 4 per thread (rows ty + 16r, columns tx + 16c) */\n"
		"\t__shared__ float ka_as[64][17], ka_bs[16][64];\n"
		"\tconst int ka_tx = threadIdx.x, ka_ty = threadIdx.y, ka_t = ka_ty * 16 + ka_tx;\n"
		"\tconst long long ka_row0 = (long long)blockIdx.y * 64, ka_col0 = (long long)blockIdx.x * 64;\n"
		"\tfloat ka_acc[4][4] = {{0.0f}};\n"
		"\tfor (long long ka_k0 = 0; ka_k0 < %s; ka_k0 += 16) {\n"
		"\t\tfor (int ka_q = 0; ka_q < 4; ka_q++) {\n"
		"\t\t\tconst int ka_ia = ka_t + 256 * ka_q, ka_ra = ka_ia / 16, ka_ca = ka_ia %% 16;\n"
		"\t\t\tconst long long ka_gr = ka_row0 + ka_ra, ka_gk = ka_k0 + ka_ca;\n"
		"\t\t\tka_as[ka_ra][ka_ca] = ka_gr < %s && ka_gk < %s ? %s[ka_gr * %s + ka_gk] : 0.0f;\n"
		"\t\t\tconst int ka_rb = ka_ia / 64, ka_cb = ka_ia %% 64;\n"
		"\t\t\tconst long long ka_hk = ka_k0 + ka_rb, ka_hc = ka_col0 + ka_cb;\n"
		"\t\t\tka_bs[ka_rb][ka_cb] = ka_hk < %s && ka_hc < %s ? %s[ka_hk * %s + ka_hc] : 0.0f;\n"
		"\t\t}\n\t\t__syncthreads();\n"
		"\t\t#pragma unroll\n\t\tfor (int ka_kk = 0; ka_kk < 16; ka_kk++) {\n"
		"\t\t\tfloat ka_a[4], ka_b[4];\n"
		"\t\t\t#pragma unroll\n\t\t\tfor (int ka_r = 0; ka_r < 4; ka_r++) ka_a[ka_r] = ka_as[ka_ty + 16 * ka_r][ka_kk];\n"
		"\t\t\t#pragma unroll\n\t\t\tfor (int ka_c = 0; ka_c < 4; ka_c++) ka_b[ka_c] = ka_bs[ka_kk][ka_tx + 16 * ka_c];\n"
		"\t\t\t#pragma unroll\n\t\t\tfor (int ka_r = 0; ka_r < 4; ka_r++)\n"
		"\t\t\t\tfor (int ka_c = 0; ka_c < 4; ka_c++) ka_acc[ka_r][ka_c] += ka_a[ka_r] * ka_b[ka_c];\n"
		"\t\t}\n\t\t__syncthreads();\n\t}\n"
		"\tfor (int ka_r = 0; ka_r < 4; ka_r++)\n\t\tfor (int ka_c = 0; ka_c < 4; ka_c++) {\n"
		"\t\t\tconst long long %s = ka_row0 + ka_ty + 16 * ka_r, %s = ka_col0 + ka_tx + 16 * ka_c;\n"
		"\t\t\tif (%s < %s && %s < %s) %s[%s * %s + %s] = %s;\n\t\t}\n}",
		g.k, g.m, g.k, g.a, g.k, g.k, g.n, g.b, g.n, g.i, g.j, g.i, g.m, g.j, g.n, g.c, g.i, g.n, g.j,
		ev);
	ka_recipe_edits ed = {0};
	rc = b.data ? ka_recipe_edit(&ed, c->k->body_open, c->k->body_close + 1, b.data) : KA_ENOMEM;
	if (rc == KA_OK)
		rc = ka_recipe_edit(&ed, c->k->name_at, c->k->name_at, "__launch_bounds__(256) ");
	if (rc == KA_OK)
		rc = ka_recipe_relaunch_smem(c, &ed, g.n,
					     "dim3((unsigned)((@N + 63) / 64), (unsigned)((@B + 63) / 64))",
					     "dim3(16, 16)", g.m, NULL);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, c->m->text, c->m->len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&b);
	return rc;
}

static const char *const gemm_grid[] = {"tile=64", NULL};

const ka_recipe ka_recipe_smem_tile_gemm = {
	.name = "smem-tile-gemm",
	.summary = "naive one-output-per-thread GEMM -> 64x64 shared tiles, 4x4 register blocks",
	.rules = "gmem-no-tile-reuse gmem-uncoalesced-access gmem-row-index-from-threadidx-x",
	.grid = gemm_grid,
	.apply = gemm_apply,
};
