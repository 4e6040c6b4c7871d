/* rewriter/transforms/swap_thread_dims.c: a 2-D kernel whose row index comes
 * from threadIdx.x walks memory with a stride across a warp.  Swapping the
 * roles of x and y (threadIdx, blockIdx, blockDim, gridDim) in the kernel
 * body and the first two dims of every launch's block and grid makes the
 * fastest-varying index the coalesced one.  A suggestion: it is offered
 * (export, SARIF) only when every launch site spells its dims as `dim3(a, b)`
 * in the launch or in a `dim3 v(a, b)` declaration of the calling function. */
#include "rewriter/transforms/xform.h"
#include <stdlib.h>
#include <string.h>

static const char *const builtins[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", NULL};

static int swap_body(ka_fix *f, const char *s, size_t b, size_t e, int *n)
{
	int rc = 0;
	for (size_t i = b; rc >= 0 && i < e; i++)
		for (int k = 0; builtins[k]; k++) {
			size_t m = strlen(builtins[k]);
			if (!xf_word_at(s, e, i, builtins[k]) || i + m + 2 > e || s[i + m] != '.' ||
			    (s[i + m + 1] != 'x' && s[i + m + 1] != 'y') ||
			    (i + m + 2 < e && xf_ident_char(s[i + m + 2])))
				continue;
			rc = ka_fix_add_edit(f, i + m + 1, i + m + 2, s[i + m + 1] == 'x' ? "y" : "x");
			(*n)++;
			break;
		}
	return rc;
}

/* At s[i] `(a, b` or `{a, b`: swap a and b (the two first top-level items). */
static int swap_args(ka_fix *f, const char *s, size_t len, size_t open)
{
	size_t close = xf_match(s, len, open), i = open + 1, cut[3] = {0}, n = 0;
	if (close == (size_t)-1)
		return 0;
	while (i < close - 1 && n < 3) {
		size_t j = i;
		while (j < close - 1 && s[j] != ',') {
			size_t k = strchr("([{", s[j]) ? xf_match(s, close, j) : j + 1;
			j = k == (size_t)-1 ? close : k;
		}
		cut[n++] = j;
		i = j + 1;
	}
	if (n < 2)
		return 0;
	size_t ab = xf_skip_ws(s, len, open + 1), ae = xf_skip_ws_back(s, cut[0]);
	size_t bb = xf_skip_ws(s, len, cut[0] + 1), be = xf_skip_ws_back(s, cut[1]);
	char *a = xf_dup(s, ab, ae), *b = xf_dup(s, bb, be);
	int rc = a && b ? ka_fix_add_edit(f, ab, ae, b) : -1;
	if (rc >= 0)
		rc = ka_fix_add_edit(f, bb, be, a);
	free(a);
	free(b);
	return rc < 0 ? rc : 1;
}

/* A launch's block or grid text at s[b..e): dim3(a, b) inline, or a name with
 * `dim3 NAME(a, b)` / `dim3 NAME = dim3(a, b)` / `dim3 NAME{a, b}` in s[fb..b). */
static int swap_dims(ka_fix *f, const char *s, size_t len, size_t fb, size_t b, size_t e)
{
	b = xf_skip_ws(s, e, b);
	if (xf_word_at(s, e, b, "dim3")) {
		size_t o = xf_skip_ws(s, e, b + 4);
		return o < e && (s[o] == '(' || s[o] == '{') ? swap_args(f, s, len, o) : 0;
	}
	size_t ne = b;
	while (ne < e && xf_ident_char(s[ne]))
		ne++;
	if (ne == b || xf_skip_ws(s, e, ne) != e)
		return 0;
	char *name = xf_dup(s, b, ne);
	int rc = 0;
	for (size_t i = fb; name && i < b && rc == 0; i++) {
		if (!xf_word_at(s, b, i, "dim3"))
			continue;
		size_t k = xf_skip_ws(s, b, i + 4);
		if (!xf_word_at(s, b, k, name))
			continue;
		k = xf_skip_ws(s, b, k + strlen(name));
		if (k < b && s[k] == '=')
			k = xf_skip_ws(s, b, k + 1);
		if (xf_word_at(s, b, k, "dim3"))
			k = xf_skip_ws(s, b, k + 4);
		if (k < b && (s[k] == '(' || s[k] == '{'))
			rc = swap_args(f, s, len, k);
	}
	free(name);
	return rc;
}

static int swap_thread_dims_row(xf_ctx *c, sqlite3_int64 id)
{
	sqlite3_stmt *ls = NULL;
	xf_fact r;
	int rc = xf_fact_load(
		c,
		"SELECT file, name, body_begin_off, end_off, n_launch_sites, launch_sites_agree "
		"FROM kernel WHERE id = ?1",
		id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *name = xf_str(&r, "name"), *src;
	size_t b = xf_off(&r, "body_begin_off"), e = r.e, len;
	int n = 0;
	rc = 0;
	if (xf_int(&r, "n_launch_sites") < 1 || xf_int(&r, "launch_sites_agree") != 1) {
		xf_skip(c, file, b, "the launch sites of %s are unknown or do not agree", name);
		goto out;
	}
	if ((rc = xf_source(c, file, &src, &len)) < 0 || e > len)
		goto out;
	ka_fix *f = xf_fix(c, file, KA_FIX_SUGGEST, "swap the x and y roles of %s and its launches", name);
	if (!f || (rc = swap_body(f, src, b, e, &n)) < 0)
		goto out;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT block_begin_off, block_end_off, grid_begin_off, grid_end_off, "
			       "func_begin_off, file FROM launch WHERE kernel_id = ?1",
			       -1, &ls, NULL) != SQLITE_OK) {
		rc = -1;
		goto out;
	}
	sqlite3_bind_int64(ls, 1, id);
	while (rc >= 0 && sqlite3_step(ls) == SQLITE_ROW) {
		size_t fb = (size_t)sqlite3_column_int64(ls, 4);
		int ok = strcmp(xf_text(ls, 5), file) == 0 && !xf_null(ls, 0) && !xf_null(ls, 2);
		if (ok)
			ok = swap_dims(f, src, len, fb, (size_t)sqlite3_column_int64(ls, 0),
				       (size_t)sqlite3_column_int64(ls, 1));
		if (ok > 0)
			ok = swap_dims(f, src, len, fb, (size_t)sqlite3_column_int64(ls, 2),
				       (size_t)sqlite3_column_int64(ls, 3));
		if (ok <= 0) {
			rc = ok < 0 ? ok : 0;
			ka_fix_clear_edits(f);
			xf_skip(c, file, b, "a launch of %s does not spell its dims as dim3(x, y)", name);
			break;
		}
	}
out:
	sqlite3_finalize(ls);
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(swap_thread_dims, KA_FIX_SUGGEST,
	     "swap threadIdx/blockIdx/blockDim .x and .y and the launch's dims")
{
	sqlite3_int64 k;
	int r = xf_kernel_of(c, &k);
	return r <= 0 ? r : swap_thread_dims_row(c, k);
}
