/* rewriter/transforms/add_launch_bounds.c: `__global__ void k(...)` ->
 * `__global__ __launch_bounds__(N) void k(...)` where every launch site uses
 * the same constant block size N.  Safe: the compiler may then budget
 * registers for N threads, and every launch already uses N.  Not for blocks
 * below 128 threads or not a multiple of 32: round-block-size would enlarge
 * them, and a bound of the old size would make the enlarged launch fail. */
#include "rewriter/transforms/xform.h"
#include <string.h>

static int add_launch_bounds_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(c,
			      "SELECT file, name, decl_begin_off, body_begin_off, block_threads, "
			      "block_source, launch_sites_agree, launch_bounds_max, kind FROM kernel "
			      "WHERE id = ?1",
			      id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *name = xf_str(&r, "name"), *src;
	size_t db = xf_off(&r, "decl_begin_off"), bb = xf_off(&r, "body_begin_off"), len;
	int threads = (int)xf_int(&r, "block_threads");
	rc = 0;
	if (strcmp(xf_str(&r, "kind"), "global") != 0 || !xf_is_null(&r, "launch_bounds_max"))
		goto out; /* a device function, or bounds already there */
	if (strcmp(xf_str(&r, "block_source"), "launch") != 0 || xf_int(&r, "launch_sites_agree") != 1 ||
	    threads <= 0) {
		xf_skip(c, file, db, "the launch sites of %s do not agree on a constant block size", name);
		goto out;
	}
	if (threads % 32 != 0 || threads < 128) {
		/* round-block-size may still change such a block; bounds would pin it */
		xf_skip(c, file, db, "the block of %s (%d threads) is below 128 or not a multiple of 32",
			name, threads);
		goto out;
	}
	if ((rc = xf_source(c, file, &src, &len)) < 0)
		goto out;
	size_t at = (size_t)-1;
	for (size_t i = db; i + 10 <= bb && i + 10 <= len; i++)
		if (xf_word_at(src, len, i, "__global__")) {
			at = i + 10;
			break;
		}
	if (at == (size_t)-1 || xf_is_null(&r, "decl_begin_off") || xf_is_null(&r, "body_begin_off")) {
		xf_skip(c, file, db, "no __global__ keyword in the declaration of %s", name);
		goto out;
	}
	char text[64];
	snprintf(text, sizeof text, " __launch_bounds__(%d)", threads);
	ka_fix *f = xf_fix(c, file, KA_FIX_SAFE, "add __launch_bounds__(%d) to %s", threads, name);
	rc = f ? ka_fix_add_edit(f, at, at, text) : -1;
out:
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(add_launch_bounds, KA_FIX_SAFE, "__launch_bounds__(N) from the agreeing launch sites")
{
	if (strcmp(c->req->scope, "launch") == 0) {
		sqlite3_stmt *st;
		int r = xf_row(c, "SELECT kernel_id FROM launch WHERE id = ?1", c->req->rowid, &st);
		if (r <= 0)
			return r;
		sqlite3_int64 k = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		return add_launch_bounds_row(c, k);
	}
	return xf_each(c, "kernel", add_launch_bounds_row);
}
