/* agents/coder_offline.c: the "offline" coder provider, the default of
 * `kcheck optimize`: the offline expert's structural recipes
 * (recipes/recipe.h), no network.  The planner names a recipe and its
 * parameters in the request; with none named, the first recipe that
 * applies (in the recipe table's order) is used.  A recipe that declines is
 * an error here (KA_ENOTFOUND, "recipe R declined: why"): the loop records
 * it and moves on.  There is no repair turn: a recipe is deterministic, so
 * the same request would give the same candidate. */
#include "agents/coder.h"
#include "recipes/recipe.h"
#include "util/buf.h"
#include "util/error.h"
#include <stdlib.h>
#include <string.h>

static int offline_create(const ka_coder_opts *o, void **state)
{
	(void)o;
	*state = NULL;
	return KA_OK;
}

static void offline_destroy(void *state)
{
	(void)state;
}

static int reply(ka_coder_reply *out, char *src, size_t len, const char *recipe, const char *params)
{
	ka_buf b;
	ka_buf_init(&b, 1024);
	ka_buf_printf(&b, "%s%s%s", recipe, params && *params ? " " : "", params ? params : "");
	out->source = src;
	out->source_len = len;
	out->strategy = strdup(recipe);
	out->note = ka_buf_steal(&b);
	if (!out->strategy || !out->note)
		return ka_error_set(KA_ENOMEM, "out of memory");
	return KA_OK;
}

static int offline_propose(void *state, const ka_coder_request *req, ka_coder_reply *out)
{
	(void)state;
	char why[256], *src = NULL;
	size_t len = 0;
	if (req->failed_error)
		return ka_error_set(KA_ENOTFOUND,
				    "the offline expert has no repair turn (a recipe gives the same "
				    "candidate again)");
	ka_recipe_set_source_path(req->path);         /* its includes, for the kernel model */
	ka_recipe_set_flags(req->flags, req->nflags); /* and its build's -I and -D */
	ka_recipe_set_arch(req->arch);                /* what the target's hardware has (tensor cores) */
	if (req->strategy) {
		if (!ka_recipe_find(req->strategy))
			return ka_error_set(KA_ENOTFOUND, "the offline expert has no recipe '%s'",
					    req->strategy);
		int rc = ka_recipe_apply(req->strategy, req->source, req->source_len, req->kernel,
					 req->params, &src, &len, why, sizeof why);
		if (rc == KA_RECIPE_DECLINED)
			return ka_error_set(KA_ENOTFOUND, "recipe %s declined: %s", req->strategy, why);
		return rc ? rc : reply(out, src, len, req->strategy, req->params);
	}
	for (size_t i = 0; i < ka_recipe_count(); i++) {
		const ka_recipe *r = ka_recipe_get(i);
		int rc = ka_recipe_apply(r->name, req->source, req->source_len, req->kernel, NULL, &src, &len,
					 why, sizeof why);
		if (rc < 0)
			return rc;
		if (rc == KA_OK)
			return reply(out, src, len, r->name, r->grid ? r->grid[0] : NULL);
	}
	return ka_error_set(KA_ENOTFOUND, "no recipe of the offline expert applies to this kernel");
}

const ka_coder_provider ka_coder_offline_provider = {
	.name = "offline",
	.summary = "the offline expert: structural recipes (warp per row, float4 grid-stride, shared-memory "
		   "histograms, launch tuning); no network",
	.create = offline_create,
	.propose = offline_propose,
	.destroy = offline_destroy,
};
