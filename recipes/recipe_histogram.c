/* recipes/recipe_histogram.c: the smem-histogram recipe (rule
 * atomic-hot-bins).  A one-thread-per-element kernel whose body is one
 * global `atomicAdd(&H[E % BINS], V);` with BINS a parameter serializes on
 * the few addresses of H.  The recipe gives each block its own copy of the
 * bins in dynamic shared memory (zeroed, updated with shared atomics, added
 * to H once per block and bin), walks the elements in a capped grid-stride
 * loop so every thread reaches the barriers, and sizes the shared copy from
 * the BINS argument at the launch, capped at 12288 bins (48 KiB of 32-bit
 * counters, the default limit): bins past the cap keep their global
 * atomics, so any BINS is counted right. */
#include "recipes/recipe.h"
#include "util/error.h"
#include <stdio.h>
#include <string.h>

#define NPOS ((size_t)-1)
#define PRIV_MAX 12288

static const char helper[] =
	"#ifndef KA_PRIV_ADD_DEFINED\n#define KA_PRIV_ADD_DEFINED\n"
	"/* a bin below the shared copy's size counts in shared memory, any other in global */\n"
	"template <typename T, typename U>\n"
	"__device__ __forceinline__ void ka_priv_add(T *g, T *s, long long ns, long long b, U v)\n{\n"
	"\tif (b >= 0 && b < ns) atomicAdd(&s[b], (T)v);\n\telse atomicAdd(&g[b], (T)v);\n}\n#endif\n\n";

static int hist_apply(ka_recipe_ctx *c, ka_buf *out)
{
	ka_recipe_ew sh;
	int rc = ka_recipe_ew_shape_ex(c, &sh, KA_RECIPE_EW_MODEL);
	if (rc)
		return rc;
	const char *t = c->m->text;
	char sq[4096];
	if (!ka_csrc_squeeze(t, sh.body_s, sh.body_e, sq, sizeof sq))
		return ka_recipe_decline(c, "the body is too long");
	char *body = sq[0] == '{' ? sq + 1 : sq;
	size_t bl = strlen(body);
	if (body != sq && bl && body[bl - 1] == '}')
		body[--bl] = 0;
	if (ka_csrc_stmt_end(body, bl, 0) != bl) /* `{ atomicAdd(...); } more;` */
		return ka_recipe_decline(c, "the body is more than one statement");
	if (strncmp(body, "atomicAdd(&", 11) || ka_csrc_count_word(t, sh.body_s, sh.body_e, "atomicAdd") != 1)
		return ka_recipe_decline(c, "the body is not one atomicAdd(&H[...], V) statement");
	/* atomicAdd(&H[IDX],V); */
	const char *h = body + 11, *br = strchr(h, '[');
	if (!br)
		return ka_recipe_decline(c, "the atomic's address is not H[...]");
	char hist[KA_CSRC_NAME];
	snprintf(hist, sizeof hist, "%.*s", (int)(br - h), h);
	int hp = ka_csrc_param_index(c->k, hist);
	size_t bo = (size_t)(br - body), bc = ka_csrc_match(body, bl, bo);
	if (hp < 0 || !c->k->params[hp].is_pointer || bc == NPOS || body[bc + 1] != ',')
		return ka_recipe_decline(c, "the atomic's address is not a parameter's element");
	char idx[1024], val[256], bins[KA_CSRC_NAME];
	snprintf(idx, sizeof idx, "%.*s", (int)(bc - bo - 1), body + bo + 1);
	snprintf(val, sizeof val, "%s", body + bc + 2);
	size_t vl = strlen(val);
	if (vl < 3 || strcmp(val + vl - 2, ");"))
		return ka_recipe_decline(c, "the atomic is not a whole statement");
	val[vl - 2] = 0;
	const char *pct = strrchr(idx, '%');
	snprintf(bins, sizeof bins, "%s", pct ? pct + 1 : "");
	if (!pct || ka_csrc_param_index(c->k, bins) < 0)
		return ka_recipe_decline(c, "the bin index does not end in %% PARAM (the bin count)");
	for (const char *q = pct + 1; *q; q++)
		if (*q == ')' || *q == '(')
			return ka_recipe_decline(c, "cannot read the bin index '%s'", idx);
	char ty[160];
	snprintf(ty, sizeof ty, "%s", c->k->params[hp].type);
	*strchr(ty, '*') = 0;
	size_t tl = strlen(ty);
	while (tl && ty[tl - 1] == ' ')
		ty[--tl] = 0;
	if (strcmp(ty, "unsigned") && strcmp(ty, "unsigned int") && strcmp(ty, "int"))
		return ka_recipe_decline(c, "bins of type '%s' (32-bit integers only)", ty);
	long block = ka_recipe_param(c->params, "block", 512), cap = ka_recipe_param(c->params, "cap", 528);
	if (block < 32 || block > 1024 || block % 32 || cap < 1 || cap > 65535)
		return ka_recipe_decline(c, "bad parameters '%s'", c->params);

	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_buf_printf(
		&b,
		"{\n\textern __shared__ %s ka_bins[];\n"
		"\tconst long long ka_nb = %s < %d ? %s : %d;\n"
		"\tfor (long long ka_b = threadIdx.x; ka_b < ka_nb; ka_b += blockDim.x) ka_bins[ka_b] = 0;\n"
		"\t__syncthreads();\n\t",
		ty, bins, PRIV_MAX, bins, PRIV_MAX);
	/* a loop variable of its own: the index may be const */
	char e[16];
	ka_recipe_unused_name(c, "ka_e", e, sizeof e);
	ka_buf_printf(&b,
		      "const long long ka_step = (long long)gridDim.x * blockDim.x;\n"
		      "\tfor (long long %s = blockIdx.x * (long long)blockDim.x + threadIdx.x; %s < %s; "
		      "%s += ka_step) {\n"
		      "\t\t%s %s = %s;\n\t\t",
		      e, e, sh.count, e, sh.type, sh.var, e);
	ka_recipe_ew_replay(&b, c, &sh, "\t\t"); /* the locals the bin reads */
	ka_buf_printf(&b,
		      "ka_priv_add(%s, ka_bins, ka_nb, (long long)(%s), %s);\n\t}\n"
		      "\t__syncthreads();\n"
		      "\tfor (long long ka_b = threadIdx.x; ka_b < ka_nb; ka_b += blockDim.x)\n"
		      "\t\tif (ka_bins[ka_b]) atomicAdd(&%s[ka_b], ka_bins[ka_b]);\n}",
		      hist, idx, val, hist);
	char grid[256], bs[32], smem[256];
	snprintf(grid, sizeof grid, "(unsigned)((@N + %ld) / %ld < %ld ? (@N + %ld) / %ld : %ld)", block,
		 block, cap, block, block, cap);
	snprintf(bs, sizeof bs, "%ld", block);
	snprintf(smem, sizeof smem, "(size_t)(@B < %d ? @B : %d) * sizeof(%s)", PRIV_MAX, PRIV_MAX, ty);
	ka_recipe_edits ed = {0};
	rc = ka_recipe_new_body(c, &ed, &b, block);
	if (rc == KA_OK)
		rc = ka_recipe_edit(&ed, c->k->start, c->k->start, helper);
	if (rc == KA_OK)
		rc = ka_recipe_relaunch_smem(c, &ed, sh.count, grid, bs, bins, smem);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, t, c->m->len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&b);
	return rc;
}

static const char *const hist_grid[] = {"block=512 cap=528", "block=256 cap=1056", "block=1024 cap=264",
					NULL};

const ka_recipe ka_recipe_smem_histogram = {
	.name = "smem-histogram",
	.summary = "global atomics on a small bin range -> per-block bins in dynamic shared memory",
	.rules = "atomic-hot-bins atomic-scalar-reduction",
	.grid = hist_grid,
	.apply = hist_apply,
};
