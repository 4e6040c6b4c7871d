/* agents/recipe_launch.c: the launch-tune recipe (rules launch-tiny-blocks,
 * launch-tail-effect, launch-block-not-multiple-of-warp): another block
 * size for a kernel whose launches read
 *     k<<<(...(COUNT + K - 1) / K...), K, ...>>>
 * with K an integer literal; both K's become B (and K - 1 becomes B - 1).
 * It declines when the kernel could depend on its block size: shared
 * memory, barriers, the literal K in its body, or __launch_bounds__. */
#include "agents/recipe.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int launch_apply(ka_recipe_ctx *c, ka_buf *out)
{
	const ka_csrc *m = c->m;
	const ka_csrc_kernel *k = c->k;
	long bnew = ka_recipe_param(c->params, "block", 128);
	if (bnew < 32 || bnew > 1024 || bnew % 32)
		return ka_recipe_decline(c, "bad parameters '%s'", c->params);
	static const char *const banned[] = {"__shared__", "__syncthreads", "__syncwarp"};
	for (size_t i = 0; i < 3; i++)
		if (ka_csrc_has_word(m->text, k->body_open, k->body_close, banned[i]))
			return ka_recipe_decline(c, "the kernel uses %s", banned[i]);
	if (k->has_launch_bounds)
		return ka_recipe_decline(c, "it has __launch_bounds__");
	int rc = ka_recipe_launches_known(c), found = 0;
	if (rc)
		return rc;
	ka_recipe_edits ed = {0};
	for (int i = 0; i < m->nlaunches && rc == KA_OK; i++) {
		const ka_csrc_launch *l = &m->l[i];
		if (strcmp(l->kernel, k->name))
			continue;
		char grid[512], blk[64], *end;
		if (!ka_csrc_squeeze(m->text, l->cfg[0].s, l->cfg[0].e, grid, sizeof grid) ||
		    !ka_csrc_squeeze(m->text, l->cfg[1].s, l->cfg[1].e, blk, sizeof blk)) {
			rc = ka_recipe_decline(c, "cannot read a launch of %s", k->name);
			break;
		}
		long kk = strtol(blk, &end, 10);
		if (*end || kk < 1) {
			rc = ka_recipe_decline(c, "the block size '%s' is not a literal", blk);
			break;
		}
		if (kk == bnew) {
			rc = ka_recipe_decline(c, "the block is %ld already", kk);
			break;
		}
		char pat[64], word[32], ng[600];
		snprintf(word, sizeof word, "%ld", kk);
		if (ka_csrc_has_word(m->text, k->body_open, k->body_close, word)) {
			rc = ka_recipe_decline(c, "the body uses the literal %ld (its block size?)", kk);
			break;
		}
		snprintf(pat, sizeof pat, "+%ld)/%ld", kk - 1, kk);
		char *at = strstr(grid, pat);
		if (!at || strstr(at + 1, pat)) {
			rc = ka_recipe_decline(c, "the grid '%s' is not (COUNT + K - 1) / K", grid);
			break;
		}
		snprintf(ng, sizeof ng, "%.*s+%ld)/%ld%s", (int)(at - grid), grid, bnew - 1, bnew,
			 at + strlen(pat));
		snprintf(blk, sizeof blk, " %ld", bnew);
		rc = ka_recipe_edit(&ed, l->cfg[0].s, l->cfg[0].e, ng);
		if (rc == KA_OK)
			rc = ka_recipe_edit(&ed, l->cfg[1].s, l->cfg[1].e, blk);
		found = 1;
	}
	if (rc == KA_OK && !found)
		rc = ka_recipe_decline(c, "no launch of %s in this file", k->name);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, m->text, m->len, out);
	ka_recipe_edits_free(&ed);
	return rc;
}

static const char *const launch_grid[] = {"block=128", "block=512", "block=1024", NULL};

const ka_recipe ka_recipe_launch_tune = {
	.name = "launch-tune",
	.summary = "another block size for a (COUNT + K - 1) / K launch",
	.rules = "launch-tiny-blocks launch-tail-effect launch-block-not-multiple-of-warp launch-small-grid",
	.grid = launch_grid,
	.apply = launch_apply,
};
