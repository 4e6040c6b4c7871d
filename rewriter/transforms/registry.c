/* rewriter/transforms/registry.c: the transform library by name.  Rule files
 * name a transform in their `fix:` field; ka_fixset_request looks it up here
 * and runs it on the finding's facts row.  The table is generated from the
 * transforms' XF_TRANSFORM declarations (xform.h), so adding a transform =
 * one file in this folder + a golden test folder under tests/rewriter. */
#include "rewriter/transforms/xform.h"
#include "util/error.h"
#include <assert.h>
#include <string.h>

typedef struct entry {
	ka_transform_info info;
	xf_fn fn;
} entry;

/* One row per XF_TRANSFORM declaration, sorted by name (xf_registry.h). */
static const entry table[] = {XF_REGISTRY_ROWS};

#define N_TABLE (sizeof table / sizeof table[0])

size_t ka_transform_count(void)
{
	return N_TABLE;
}

/* Past the end is NULL by contract (callers iterate to the end), not a
 * programming error. */
const ka_transform_info *ka_transform_get(size_t i)
{
	return i < N_TABLE ? &table[i].info : NULL;
}

static const entry *find(const char *name)
{
	for (size_t i = 0; name && i < N_TABLE; i++)
		if (strcmp(table[i].info.name, name) == 0)
			return &table[i];
	return NULL;
}

const ka_transform_info *ka_transform_find(const char *name)
{
	const entry *e = find(name);
	return e ? &e->info : NULL;
}

int ka_transform_ceiling(const char *name)
{
	const entry *e = find(name);
	return e ? (int)e->info.safety : -1;
}

int ka_fixset_request(ka_fixset *fs, sqlite3 *db, const ka_fix_request *req)
{
	const entry *e = find(req->transform);
	if (!req->transform || !*req->transform || strcmp(req->transform, "none") == 0)
		return KA_OK;
	if (!e) {
		ka_fixset_note(fs, "%s: unknown transform '%s'", req->rule ? req->rule : "?", req->transform);
		return KA_OK;
	}
	if (!req->scope || !*req->scope)
		return ka_error_set(KA_EINPUT, "fix request for %s has no scope", req->transform);
	xf_ctx c = {fs, db, req, e->info.name, e->info.safety};
	int rc = e->fn(&c);
	return rc < 0 ? rc : KA_OK;
}
