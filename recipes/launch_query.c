/* recipes/launch_query.c: where a kernel's name is an argument of one of
 * the runtime's queries (cudaFuncGetAttributes, the cudaOccupancy* and
 * hipOccupancy* calculators), read from the kernel model of the file.  A
 * query takes the kernel's address and launches nothing, so the recipes
 * that must see every launch of a kernel (ka_recipe_launches_known, the
 * thread relaunch of recipe_relaunch.c) let it stand: it asks about the
 * rewritten kernel as it asked about the original, and a block size it
 * suggests reaches the launch through a variable, which the recipes read
 * as they read any other.  The setters (cudaFuncSetAttribute,
 * cudaFuncSetCacheConfig) are no queries: a rewrite that asks for more
 * dynamic shared memory would outgrow what they allowed.  The call is
 * known by the model's callee (its USR, a function of the global
 * namespace the file does not define), not by the name's spelling. */
#include "recipes/recipe.h"
#include "analyzer/kmodel.h"
#include <stddef.h>
#include <string.h>

static const char *const queries[] = {"cudaFuncGetAttributes",
				      "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
				      "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
				      "cudaOccupancyMaxPotentialBlockSize",
				      "cudaOccupancyMaxPotentialBlockSizeWithFlags",
				      "cudaOccupancyMaxPotentialBlockSizeVariableSMem",
				      "cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags",
				      "cudaOccupancyAvailableDynamicSMemPerBlock",
				      "hipFuncGetAttributes",
				      "hipOccupancyMaxActiveBlocksPerMultiprocessor",
				      "hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
				      "hipOccupancyMaxPotentialBlockSize",
				      NULL};

static int is_query(const char *name)
{
	for (const char *const *q = queries; name && *q; q++)
		if (!strcmp(*q, name))
			return 1;
	return 0;
}

/* 1 when a reference to the function `kernel` starts at offset at in n. */
static int refers_at(const ka_node *n, const char *kernel, int at, int depth)
{
	if (!n || depth > 64)
		return 0;
	if (n->kind == KN_DECLREF && n->loc.begin == at && n->name && !strcmp(n->name, kernel) &&
	    (!n->ref || n->ref->kind == KD_FUNC))
		return 1;
	for (int i = 0; i < n->nkids; i++)
		if (refers_at(n->kids[i], kernel, at, depth + 1))
			return 1;
	return 0;
}

/* 1 when the call n is of the runtime's function: its USR names a
 * function of the global namespace (c:@F@NAME), and the file defines no
 * function of that name (an overload or a namespace's function of the
 * file could launch what it is given). */
static int of_runtime(const ka_tu *tu, const ka_node *n)
{
	size_t len = strlen(n->name);
	const char *u = n->ref_usr;
	if (!u || strncmp(u, "c:@F@", 5) || strncmp(u + 5, n->name, len) ||
	    (u[5 + len] && u[5 + len] != '<' && u[5 + len] != '#'))
		return 0;
	for (const ka_decl *f = tu->funcs; f; f = f->next)
		if (f->name && !strcmp(f->name, n->name))
			return 0;
	return 1;
}

/* 1 when n holds a call of a query with an argument that is `kernel`
 * named at `at` (its address, a cast of it, its template instance). */
static int query_at(const ka_tu *tu, const ka_node *n, const char *kernel, int at, int depth)
{
	if (!n || depth > 400)
		return 0;
	int runtime = n->kind == KN_CALL && is_query(n->name) && of_runtime(tu, n);
	if (runtime && !n->cfg && n->loc.begin <= at && at < n->loc.end)
		for (int i = 0; i < n->nkids; i++)
			if (n->kids[i] != n->callee && refers_at(n->kids[i], kernel, at, 0))
				return 1;
	for (int i = 0; i < n->nkids; i++)
		if (query_at(tu, n->kids[i], kernel, at, depth + 1))
			return 1;
	return 0;
}

int ka_recipe_in_query(ka_recipe_ctx *c, size_t at)
{
	/* no query's name in the text: nothing to model (a parse is costly) */
	int named = 0;
	for (const char *const *q = queries; *q && !named; q++)
		named = ka_csrc_find_word_pp(c->m->text, 0, c->m->len, *q) != (size_t)-1;
	if (!named)
		return 0;
	ka_kmodel_doc doc;
	if (ka_recipe_kmodel(c->m->text, c->m->len, c->k->name, &doc) != KA_OK)
		return 0; /* unproven: the caller declines as before */
	int hit = 0;
	for (const ka_decl *f = doc.tu->funcs; f && !hit; f = f->next)
		hit = query_at(doc.tu, f->body, c->k->name, (int)at, 0);
	ka_recipe_kmodel_free(&doc);
	return hit;
}
