/* recipes/recipe_spread.c: the spread-threads recipe (rules
 * launch-tiny-blocks, launch-small-grid, launch-block-not-multiple-of-warp):
 * a kernel launched as one thread a block, `k<<<N, 1>>>` and indexed by
 * blockIdx.x alone, or as one block, `k<<<1, N>>>` and indexed by
 * threadIdx.x alone, does one element per thread over many full blocks:
 *
 *     const int ka_i = blockIdx.x * blockDim.x + threadIdx.x;
 *     if (ka_i >= COUNT) return;
 *     ... the body, with every blockIdx.x (threadIdx.x) read as ka_i ...
 *
 * and every launch becomes `k<<<(COUNT + B - 1) / B, B>>>` with its dynamic
 * shared memory and stream kept.  COUNT is the launch's grid (one thread a
 * block) or block (one block): a parameter of the kernel when some argument
 * of every launch is that expression as written, else a new parameter
 * `int ka_n` that every launch passes.  `<<<N, 1>>>` leaves 31 of 32 lanes
 * of every warp idle and 32 threads at most on an SM; `<<<1, N>>>` runs on
 * one SM.
 *
 * An element's work stays the same when nothing in the kernel can tell the
 * blocks or threads apart but the index: it declines, naming the
 * construct, shared memory, barriers, warp intrinsics, blockDim, gridDim,
 * warpSize, cooperative groups, inline asm, the other id (threadIdx in a
 * one-thread-a-block kernel, blockIdx in a one-block one), ids along y or
 * z, a device function or a macro of the file that names ids, a global
 * write whose address does not depend on the index (the analyzer's facts:
 * every index would write the same place), a printf of the index (the output order is its
 * behaviour); a launch of another shape, a grid or block the analyzer does
 * not fold to one dimension, a count with side effects (it is read twice),
 * the kernel's name anywhere but its definition and launches, a kernel
 * defined in a header.  The original's blocks (threads) ran in no order
 * and never synchronized, so the rewrite's threads may run in any order
 * too. */
#include "recipes/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)

enum { ONE_THREAD_BLOCKS = 1, ONE_BLOCK = 2 };

/* 1 when path names a header. */
static int is_header(const char *path)
{
	static const char *const ext[] = {".h", ".cuh", ".hpp", ".hxx", ".hh", ".inl", ".inc", NULL};
	const char *dot = path ? strrchr(path, '.') : NULL;
	for (int i = 0; dot && ext[i]; i++)
		if (!strcmp(dot, ext[i]))
			return 1;
	return 0;
}

/* The member after the word at [at, at+n): `.x` -> 'x' with *end past it;
 * 0 when none. */
static char member_of(const char *t, size_t len, size_t at, size_t n, size_t *end)
{
	size_t p = ka_csrc_skip_blank(t, len, at + n);
	if (p >= len || t[p] != '.')
		return 0;
	p = ka_csrc_skip_blank(t, len, p + 1);
	if (p + 1 > len || !isalpha((unsigned char)t[p]) ||
	    (p + 1 < len && (isalnum((unsigned char)t[p + 1]) || t[p + 1] == '_')))
		return 0;
	*end = p + 1;
	return t[p];
}

/* The squeezed text of [s, e) is "1" (or "(1)", "1u", "dim3(1)"). */
static int is_one(const char *t, size_t s, size_t e)
{
	char sq[64];
	if (!ka_csrc_squeeze(t, s, e, sq, sizeof sq))
		return 0;
	return !strcmp(sq, "1") || !strcmp(sq, "(1)") || !strcmp(sq, "1u") || !strcmp(sq, "1U") ||
	       !strcmp(sq, "dim3(1)") || !strcmp(sq, "dim3(1,1)") || !strcmp(sq, "dim3(1,1,1)");
}

/* Names in the kernel's body that make the elements tell the blocks or
 * threads apart otherwise than by the index. */
static int body_words(ka_recipe_ctx *c, const char *idx, const char *other)
{
	static const char *const words[][2] = {
		{"__shared__", "uses __shared__ memory"},
		{"__syncthreads", "calls __syncthreads"},
		{"__syncwarp", "calls __syncwarp"},
		{"blockDim", "reads blockDim"},
		{"gridDim", "reads gridDim"},
		{"warpSize", "reads warpSize"},
		{"asm", "has inline asm"},
		{"cooperative_groups", "uses cooperative groups"},
		{"this_thread_block", "uses cooperative groups"},
		{"this_grid", "uses cooperative groups"},
		{"tiled_partition", "uses cooperative groups"},
		{"__activemask", "uses a warp intrinsic"},
		{"__ballot_sync", "uses a warp intrinsic"},
		{"__shfl_sync", "uses a warp intrinsic"},
		{"__shfl_down_sync", "uses a warp intrinsic"},
		{"__shfl_xor_sync", "uses a warp intrinsic"},
		{"__shfl_up_sync", "uses a warp intrinsic"},
		{"__any_sync", "uses a warp intrinsic"},
		{"__all_sync", "uses a warp intrinsic"},
		{"clock", "reads the clock"},
		{"clock64", "reads the clock"},
		{"__smid", "reads the SM id"},
	};
	const char *t = c->m->text;
	size_t s = c->k->body_open, e = c->k->body_close;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (ka_csrc_find_word_pp(t, s, e, words[i][0]) != NPOS)
			return ka_recipe_decline(c, "%s %s: its elements depend on how threads are grouped",
						 c->k->name, words[i][1]);
	if (ka_csrc_find_word_pp(t, s, e, other) != NPOS)
		return ka_recipe_decline(c, "%s reads %s beside %s.x: more than one index", c->k->name, other,
					 idx);
	int seen = 0;
	size_t n = strlen(idx);
	for (size_t at = ka_csrc_find_word_pp(t, s, e, idx); at != NPOS;
	     at = ka_csrc_find_word_pp(t, at + n, e, idx)) {
		size_t end;
		char m = member_of(t, c->m->len, at, n, &end);
		if (m != 'x')
			return ka_recipe_decline(c, "%s reads %s%s%c on line %d: only the x index can spread",
						 c->k->name, idx, m ? "." : " other than as .x", m ? m : ' ',
						 ka_csrc_line_of(t, at));
		seen++;
	}
	if (!seen)
		return ka_recipe_decline(c, "%s does not read %s.x: every %s does the same work", c->k->name,
					 idx, !strcmp(idx, "blockIdx") ? "block" : "thread");
	return KA_OK;
}

/* A macro of the file whose body names an id, a barrier or shared memory,
 * used in the kernel's body: its ids would not be rewritten. */
static int macro_ids(ka_recipe_ctx *c)
{
	static const char *const ids[] = {"threadIdx", "blockIdx",   "blockDim",      "gridDim",
					  "warpSize",  "__shared__", "__syncthreads", NULL};
	const char *t = c->m->text;
	size_t len = c->m->len;
	for (size_t ls = 0; ls < len;) {
		size_t le = ls;
		while (le < len && (t[le] != '\n' || (le > ls && t[le - 1] == '\\')))
			le++;
		size_t p = ka_csrc_directive(t, ls, le, "define"), ns = p;
		while (p < le && (isalnum((unsigned char)t[p]) || t[p] == '_'))
			p++;
		char name[KA_CSRC_NAME];
		if (p < le && p > ns && p - ns < sizeof name) {
			snprintf(name, sizeof name, "%.*s", (int)(p - ns), t + ns);
			for (int i = 0; ids[i]; i++)
				if (ka_csrc_find_word_pp(t, p, le, ids[i]) != NPOS &&
				    ka_csrc_find_word_pp(t, c->k->body_open, c->k->body_close, name) != NPOS)
					return ka_recipe_decline(c, "%s uses the macro %s, which names %s",
								 c->k->name, name, ids[i]);
		}
		ls = le + 1;
	}
	return KA_OK;
}

/* The kernel's facts: the kernel row's id into *kid; warp intrinsics and
 * barriers the analyzer saw; device functions it calls that read ids;
 * printf of the index; global writes at an address that does not depend
 * on the index; each launch folded to the shape. */
static int check_facts(ka_recipe_ctx *c, sqlite3 *db, int mode, const char *iname)
{
	const char *t = c->m->text;
	sqlite3_stmt *st = NULL;
	long long kid = -1;
	int rc = KA_OK, n = 0;
	const char *idx = mode == ONE_THREAD_BLOCKS ? "blockIdx" : "threadIdx";
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT id, n_barriers, uses_warp_intrinsics, static_smem_bytes, uses_dynamic_smem, "
		    "file FROM kernel WHERE kind = 'global' AND name = ?1 AND body_begin_off = ?2",
		    -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "recipe facts: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, c->k->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)c->k->body_open);
	char file[1024] = "";
	while (rc == KA_OK && sqlite3_step(st) == SQLITE_ROW) {
		if (n++) {
			rc = ka_recipe_decline(
				c, "%s is analyzed as several kernels (a template's instantiations)",
				c->k->name);
			break;
		}
		kid = sqlite3_column_int64(st, 0);
		const char *f = (const char *)sqlite3_column_text(st, 5);
		snprintf(file, sizeof file, "%s", f ? f : "");
		if (sqlite3_column_int(st, 1) > 0)
			rc = ka_recipe_decline(
				c, "%s has barriers: its elements depend on how threads are grouped",
				c->k->name);
		else if (sqlite3_column_int(st, 2) > 0)
			rc = ka_recipe_decline(c, "%s uses warp intrinsics: its elements depend on the warp",
					       c->k->name);
		else if (sqlite3_column_int(st, 3) > 0 || sqlite3_column_int(st, 4) > 0)
			rc = ka_recipe_decline(c, "%s uses shared memory: its elements depend on the block",
					       c->k->name);
	}
	sqlite3_finalize(st);
	if (rc == KA_OK && n == 0)
		rc = ka_recipe_decline(c, "the analyzer has no facts of %s (it did not parse)", c->k->name);
	if (rc != KA_OK)
		return rc;

	/* calls: warp and barrier categories, device functions of the file
	 * that read ids, printf of the index */
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT callee, category, COALESCE(args_text, ''), begin_off, "
		    "(SELECT begin_off FROM kernel d WHERE d.kind = 'device' AND d.name = call.callee AND "
		    "d.file = ?2 LIMIT 1), (SELECT end_off FROM kernel d WHERE d.kind = 'device' AND "
		    "d.name = call.callee AND d.file = ?2 LIMIT 1) FROM call WHERE kernel_id = ?1",
		    -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "recipe facts: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, kid);
	sqlite3_bind_text(st, 2, file, -1, SQLITE_STATIC);
	while (rc == KA_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *callee = (const char *)sqlite3_column_text(st, 0);
		const char *cat = (const char *)sqlite3_column_text(st, 1);
		const char *args = (const char *)sqlite3_column_text(st, 2);
		int line = ka_csrc_line_of(t, (size_t)sqlite3_column_int64(st, 3));
		callee = callee ? callee : "";
		cat = cat ? cat : "";
		if (!strcmp(cat, "warp") || !strcmp(cat, "vote") || !strcmp(cat, "sync"))
			rc = ka_recipe_decline(c, "%s calls %s (a %s intrinsic) on line %d", c->k->name,
					       callee, cat, line);
		else if (!strcmp(callee, "printf") &&
			 (strstr(args, "blockIdx") || strstr(args, "threadIdx") ||
			  (*iname && ka_csrc_has_word(args, 0, strlen(args), iname))))
			rc = ka_recipe_decline(c, "%s prints its index: the output order is its behaviour",
					       c->k->name);
		else if (sqlite3_column_type(st, 4) != SQLITE_NULL) {
			size_t ds = (size_t)sqlite3_column_int64(st, 4),
			       de = (size_t)sqlite3_column_int64(st, 5);
			static const char *const ids[] = {
				"threadIdx",     "blockIdx",   "blockDim", "gridDim",
				"__syncthreads", "__shared__", "warpSize", NULL};
			for (int i = 0; ids[i] && rc == KA_OK && de <= c->m->len && ds < de; i++)
				if (ka_csrc_find_word_pp(t, ds, de, ids[i]) != NPOS)
					rc = ka_recipe_decline(c, "%s calls %s, which reads %s", c->k->name,
							       callee, ids[i]);
		}
	}
	sqlite3_finalize(st);
	if (rc != KA_OK)
		return rc;

	/* global writes: every one at an address that moves with the index */
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT base, COALESCE(index_text, ''), COALESCE(affine, ''), begin_off, "
		    "thread_dependent FROM access WHERE kernel_id = ?1 AND space = 'global' AND rw <> "
		    "'read'",
		    -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "recipe facts: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, kid);
	while (rc == KA_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *base = (const char *)sqlite3_column_text(st, 0);
		const char *ix = (const char *)sqlite3_column_text(st, 1);
		const char *af = (const char *)sqlite3_column_text(st, 2);
		int dep = mode == ONE_THREAD_BLOCKS ? strstr(af, "blockIdx.x") != NULL
						    : sqlite3_column_int(st, 4) > 0;
		if (!dep)
			rc = ka_recipe_decline(
				c,
				"%s writes %s[%s] on line %d at an address that does not depend on "
				"%s.x: the elements are not independent",
				c->k->name, base ? base : "?", ix,
				ka_csrc_line_of(t, (size_t)sqlite3_column_int64(st, 3)), idx);
	}
	sqlite3_finalize(st);
	if (rc != KA_OK)
		return rc;

	/* each launch folded to the shape */
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT grid_y, grid_z, grid_blocks, block_y, block_z, block_threads FROM launch "
		    "WHERE kernel = ?1 AND begin_off >= ?2 AND begin_off < ?3",
		    -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "recipe facts: %s", sqlite3_errmsg(db));
	for (int i = 0; i < c->m->nlaunches && rc == KA_OK; i++) {
		const ka_csrc_launch *l = &c->m->l[i];
		if (strcmp(l->kernel, c->k->name))
			continue;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, c->k->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)l->start);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)l->end);
		int line = ka_csrc_line_of(t, l->start);
		if (sqlite3_step(st) != SQLITE_ROW) {
			rc = ka_recipe_decline(c, "the analyzer did not see the launch on line %d (an #if?)",
					       line);
			break;
		}
		int col = mode == ONE_THREAD_BLOCKS ? 0 : 3;
		/* a count the analyzer cannot fold has no dimensions in the facts:
		 * read_launches saw it is no dim3, so it is an integer (x alone) */
		int one_d = (sqlite3_column_type(st, col) == SQLITE_NULL ||
			     sqlite3_column_int(st, col) == 1) &&
			    (sqlite3_column_type(st, col + 1) == SQLITE_NULL ||
			     sqlite3_column_int(st, col + 1) == 1);
		int unit = mode == ONE_THREAD_BLOCKS ? sqlite3_column_int(st, 5) == 1
						     : sqlite3_column_int(st, 2) == 1;
		if (!one_d)
			rc = ka_recipe_decline(c, "the %s of the launch on line %d is not one-dimensional",
					       mode == ONE_THREAD_BLOCKS ? "grid" : "block", line);
		else if (!unit)
			rc = ka_recipe_decline(c, "the launch on line %d is not folded to %s", line,
					       mode == ONE_THREAD_BLOCKS ? "one thread a block"
									 : "one block");
	}
	sqlite3_finalize(st);
	return rc;
}

/* The launch's count expression (its grid or block) squeezed into out;
 * 0 when it does not fit. */
static int count_of(const ka_recipe_ctx *c, const ka_csrc_launch *l, int mode, char *out, size_t cap)
{
	const ka_csrc_range *r = &l->cfg[mode == ONE_THREAD_BLOCKS ? 0 : 1];
	return ka_csrc_squeeze(c->m->text, r->s, r->e, out, cap) && out[0];
}

/* The launches: all of one shape, each count pure and no dim3; the mode
 * into *mode. */
static int read_launches(ka_recipe_ctx *c, int *mode)
{
	const ka_csrc *m = c->m;
	const char *t = m->text;
	int nl = 0;
	*mode = 0;
	for (int i = 0; i < m->nlaunches; i++) {
		const ka_csrc_launch *l = &m->l[i];
		if (strcmp(l->kernel, c->k->name))
			continue;
		nl++;
		int line = ka_csrc_line_of(t, l->start);
		int b1 = is_one(t, l->cfg[1].s, l->cfg[1].e), g1 = is_one(t, l->cfg[0].s, l->cfg[0].e);
		int lm = b1 && !g1 ? ONE_THREAD_BLOCKS : g1 && !b1 ? ONE_BLOCK : 0;
		if (b1 && g1)
			return ka_recipe_decline(
				c, "the launch on line %d is <<<1, 1>>>: one thread, nothing to spread",
				line);
		if (!lm)
			return ka_recipe_decline(
				c,
				"the launch on line %d is neither one thread a block (<<<N, 1>>>) nor "
				"one block (<<<1, N>>>)",
				line);
		if (*mode && lm != *mode)
			return ka_recipe_decline(c, "the launches of %s have different shapes (line %d)",
						 c->k->name, line);
		*mode = lm;
		char cnt[512];
		if (!count_of(c, l, lm, cnt, sizeof cnt))
			return ka_recipe_decline(c, "cannot read the launch on line %d", line);
		if (strstr(cnt, "dim3") || strchr(cnt, '{'))
			return ka_recipe_decline(c, "the %s of the launch on line %d is a dim3 (%s)",
						 lm == ONE_THREAD_BLOCKS ? "grid" : "block", line, cnt);
		if (!ka_recipe_pure_expr_in(cnt, strlen(cnt), t, m->len))
			return ka_recipe_decline(
				c, "the count '%s' of the launch on line %d may have side effects", cnt,
				line);
		/* a lone name declared as dim3 in the file */
		if (isalpha((unsigned char)cnt[0]) || cnt[0] == '_') {
			size_t k = strspn(cnt,
					  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
			if (!cnt[k]) {
				for (size_t at = ka_csrc_find_word_pp(t, 0, m->len, "dim3"); at != NPOS;
				     at = ka_csrc_find_word_pp(t, at + 4, m->len, "dim3")) {
					size_t p = ka_csrc_skip_blank(t, m->len, at + 4);
					if (p + k <= m->len && !strncmp(t + p, cnt, k) &&
					    !(isalnum((unsigned char)t[p + k]) || t[p + k] == '_'))
						return ka_recipe_decline(
							c,
							"the %s of the launch on line %d is a "
							"dim3 (%s)",
							lm == ONE_THREAD_BLOCKS ? "grid" : "block", line,
							cnt);
				}
			}
		}
	}
	if (!nl)
		return ka_recipe_decline(c, "no launch of %s in this file", c->k->name);
	return KA_OK;
}

/* A scalar integer parameter that every launch passes its count to, as
 * written, and that the body never writes; its index or -1. */
static int count_param(const ka_recipe_ctx *c, int mode)
{
	const ka_csrc *m = c->m;
	const char *t = m->text;
	for (int p = 0; p < c->k->nparams; p++) {
		const ka_csrc_param *pp = &c->k->params[p];
		if (pp->is_pointer || strchr(pp->type, '&') || strstr(pp->type, "float") ||
		    strstr(pp->type, "double"))
			continue;
		int all = 1;
		for (int i = 0; i < m->nlaunches && all; i++) {
			const ka_csrc_launch *l = &m->l[i];
			if (strcmp(l->kernel, c->k->name))
				continue;
			char cnt[512], arg[512];
			all = p < l->nargs && count_of(c, l, mode, cnt, sizeof cnt) &&
			      ka_csrc_squeeze(t, l->args[p].s, l->args[p].e, arg, sizeof arg) &&
			      !strcmp(cnt, arg);
		}
		if (!all)
			continue;
		size_t n = strlen(pp->name);
		for (size_t at = ka_csrc_find_word_pp(t, c->k->body_open, c->k->body_close, pp->name);
		     at != NPOS && all; at = ka_csrc_find_word_pp(t, at + n, c->k->body_close, pp->name))
			all = !ka_recipe_written_at(t, c->k->body_open, c->k->body_close, at, n);
		if (all)
			return p;
	}
	return -1;
}

/* 1 when the kernel's name is followed by '(' somewhere but its
 * definition: a declaration apart from it (which a new parameter would
 * leave behind). */
static size_t other_declarator(const ka_recipe_ctx *c)
{
	const char *t = c->m->text, *name = c->k->name;
	size_t n = strlen(name);
	for (size_t at = ka_csrc_find_word_pp(t, 0, c->m->len, name); at != NPOS;
	     at = ka_csrc_find_word_pp(t, at + n, c->m->len, name)) {
		if (at == c->k->name_at)
			continue;
		size_t p = ka_csrc_skip_blank(t, c->m->len, at + n);
		if (p < c->m->len && t[p] == '(')
			return at;
	}
	return NPOS;
}

static int spread_apply(ka_recipe_ctx *c, ka_buf *out)
{
	const char *t = c->m->text;
	size_t len = c->m->len;
	long bs = ka_recipe_param(c->params, "block", 256);
	if (bs < 32 || bs > 1024 || bs % 32)
		return ka_recipe_decline(c, "block=%ld is not a multiple of 32 up to 1024", bs);
	if (is_header(ka_recipe_source_path()))
		return ka_recipe_decline(c,
					 "%s is defined in a header: other files may launch it with other "
					 "shapes",
					 c->k->name);
	if (c->k->has_launch_bounds)
		return ka_recipe_decline(c, "%s has __launch_bounds__", c->k->name);
	int mode = 0, rc = read_launches(c, &mode);
	if (rc != KA_OK)
		return rc;
	const char *idx = mode == ONE_THREAD_BLOCKS ? "blockIdx" : "threadIdx";
	const char *other = mode == ONE_THREAD_BLOCKS ? "threadIdx" : "blockIdx";
	if ((rc = body_words(c, idx, other)) != KA_OK || (rc = macro_ids(c)) != KA_OK ||
	    (rc = ka_recipe_launches_known(c)) != KA_OK)
		return rc;
	size_t od = other_declarator(c);
	if (od != NPOS)
		return ka_recipe_decline(c,
					 "line %d declares or calls %s apart from its definition: a new "
					 "parameter would not reach it",
					 ka_csrc_line_of(t, od), c->k->name);
	sqlite3 *db = NULL;
	if (ka_recipe_facts(t, len, &db) != KA_OK)
		return ka_recipe_decline(c, "the analyzer could not read the file: %s", ka_error_last());
	/* the index's local name, for the printf check */
	char iname[64];
	iname[0] = 0;
	{
		size_t n = strlen(idx);
		for (size_t at = ka_csrc_find_word_pp(t, c->k->body_open, c->k->body_close, idx); at != NPOS;
		     at = ka_csrc_find_word_pp(t, at + n, c->k->body_close, idx)) {
			/* `T v = idx.x;`: the word before '=' */
			size_t b = at;
			while (b > c->k->body_open && (t[b - 1] == ' ' || t[b - 1] == '\t'))
				b--;
			if (b > c->k->body_open && t[b - 1] == '=' && b > 1 && !strchr("=!<>", t[b - 2])) {
				b--;
				while (b > c->k->body_open && (t[b - 1] == ' ' || t[b - 1] == '\t'))
					b--;
				size_t we = b;
				while (b > c->k->body_open &&
				       (isalnum((unsigned char)t[b - 1]) || t[b - 1] == '_'))
					b--;
				if (we > b && we - b < sizeof iname) {
					snprintf(iname, sizeof iname, "%.*s", (int)(we - b), t + b);
					break;
				}
			}
		}
	}
	rc = check_facts(c, db, mode, iname);
	if (rc != KA_OK)
		return rc;

	/* pass 1: the body, the parameter and the launches' arguments */
	int cp = count_param(c, mode);
	char ki[KA_CSRC_NAME], kn[KA_CSRC_NAME];
	ka_recipe_unused_name(c, "ka_i", ki, sizeof ki);
	if (cp >= 0)
		snprintf(kn, sizeof kn, "%s", c->k->params[cp].name);
	else
		ka_recipe_unused_name(c, "ka_n", kn, sizeof kn);
	ka_recipe_edits ed = {0};
	char head[512];
	snprintf(head, sizeof head,
		 "\n\tconst int %s = blockIdx.x * blockDim.x + threadIdx.x; /* spread-threads: one element a "
		 "thread */\n\tif (%s >= %s)\n\t\treturn;",
		 ki, ki, kn);
	rc = ka_recipe_edit(&ed, c->k->body_open + 1, c->k->body_open + 1, head);
	size_t n = strlen(idx);
	for (size_t at = ka_csrc_find_word_pp(t, c->k->body_open, c->k->body_close, idx);
	     at != NPOS && rc == KA_OK; at = ka_csrc_find_word_pp(t, at + n, c->k->body_close, idx)) {
		size_t end;
		member_of(t, len, at, n, &end);
		rc = ka_recipe_edit(&ed, at, end, ki);
	}
	if (rc == KA_OK && cp < 0) {
		size_t open = ka_csrc_skip_blank(t, len, c->k->name_at + strlen(c->k->name));
		size_t close = open < len && t[open] == '(' ? ka_csrc_match(t, len, open) : NPOS;
		char p[128];
		if (close == NPOS || close > c->k->body_open)
			rc = ka_recipe_decline(c, "cannot read the parameter list of %s", c->k->name);
		else if (c->k->nparams == 0)
			snprintf(p, sizeof p, "int %s", kn), rc = ka_recipe_edit(&ed, open + 1, close, p);
		else
			snprintf(p, sizeof p, ", int %s", kn), rc = ka_recipe_edit(&ed, close, close, p);
		for (int i = 0; i < c->m->nlaunches && rc == KA_OK; i++) {
			const ka_csrc_launch *l = &c->m->l[i];
			if (strcmp(l->kernel, c->k->name))
				continue;
			size_t rp = l->end - 1;
			char cnt[512], a[600];
			if (t[rp] != ')' || !count_of(c, l, mode, cnt, sizeof cnt)) {
				rc = ka_recipe_decline(c, "cannot read a launch of %s", c->k->name);
				break;
			}
			snprintf(a, sizeof a, "%s%s", l->nargs ? ", " : "", cnt);
			rc = ka_recipe_edit(&ed, rp, rp, a);
		}
	}
	ka_buf mid;
	ka_buf_init(&mid, len + 4096);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, t, len, &mid);
	ka_recipe_edits_free(&ed);
	if (rc == KA_OK && !mid.data)
		rc = ka_error_set(KA_ENOMEM, "out of memory");
	/* pass 2: the launches, on the new text's model */
	ka_csrc *m2 = rc == KA_OK ? calloc(1, sizeof *m2) : NULL;
	if (rc == KA_OK && !m2)
		rc = ka_error_set(KA_ENOMEM, "out of memory");
	if (rc == KA_OK && ka_csrc_scan(m2, mid.data, mid.len) != KA_OK)
		rc = ka_recipe_decline(c, "cannot read the rewritten file: %s", ka_error_last());
	const ka_csrc_kernel *k2 = rc == KA_OK ? ka_csrc_kernel_find(m2, c->k->name) : NULL;
	if (rc == KA_OK && !k2)
		rc = ka_recipe_decline(c, "cannot find %s in the rewritten file", c->k->name);
	if (rc == KA_OK) {
		ka_recipe_ctx c2 = {.m = m2, .k = k2, .params = c->params};
		char grid[96], blk[32];
		snprintf(grid, sizeof grid, "(@N + %ld) / %ld", bs - 1, bs);
		snprintf(blk, sizeof blk, "%ld", bs);
		ka_recipe_edits ed2 = {0};
		rc = ka_recipe_relaunch(&c2, &ed2, kn, grid, blk);
		if (rc == KA_RECIPE_DECLINED)
			snprintf(c->why, sizeof c->why, "%s", c2.why);
		if (rc == KA_OK)
			rc = ka_recipe_edits_apply(&ed2, mid.data, mid.len, out);
		ka_recipe_edits_free(&ed2);
	}
	free(m2);
	ka_buf_free(&mid);
	return rc;
}

/* Full warps and enough of them per SM first; a smaller block for small
 * counts (more blocks over the SMs). */
static const char *const spread_grid[] = {"block=256", "block=128", NULL};

const ka_recipe ka_recipe_spread_threads = {
	.name = "spread-threads",
	.summary = "a kernel launched <<<N, 1>>> (blockIdx.x) or <<<1, N>>> (threadIdx.x) -> one element a "
		   "thread over full blocks",
	.rules = "launch-tiny-blocks launch-small-grid launch-block-not-multiple-of-warp",
	.grid = spread_grid,
	.apply = spread_apply,
};
