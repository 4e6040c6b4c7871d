/* recipes/recipe_bounds.c: the launch-bounds recipe (rule
 * occ-missing-launch-bounds): a kernel that every launch starts with the
 * same constant block of N threads gets `__launch_bounds__(N)` after its
 * `__global__` (the rewriter's add-launch-bounds fix as a strategy the
 * optimize loop can take), or, with `min=M`, `__launch_bounds__(N, M)`:
 * at least M blocks resident on an SM, which caps a thread's registers at
 * 64K / (N * M).  On AMD targets the bound alone sets the VGPR budget; on
 * NVIDIA a block of 256 threads or fewer leaves ptxas's 255-register cap as
 * it was, so there the bound alone mostly documents the block and the
 * `min` sets are the lever.  Whether either is faster is the bench's to
 * say.
 *
 * The block comes from the analyzer's facts of the file (ka_recipe_facts):
 * the kernel's launch sites, each block folded to constants (a literal, a
 * `dim3 b(16, 16)`, a #define or a constexpr), all the same.  Every launch
 * keeps running as before when every launch the program makes is one of
 * them, so it declines when the kernel's name occurs anywhere but its
 * definition, a declaration or a launch (a function pointer, a
 * cudaLaunchKernel, a macro: ka_recipe_launches_known), when the source
 * model reads a launch the analyzer did not fold (another branch of an
 * #if, a block from a template parameter), when the kernel lives in a
 * header (every file that includes it may launch it with another block),
 * when a launch's block is a variable assigned after its declaration (the
 * facts fold `dim3 threads;` to one thread, whatever `threads = dim3(n);`
 * sets later),
 * when it has __launch_bounds__ already or its block is over 256 threads
 * (the rule's bound), and for `min=M` when M blocks pass the target's
 * threads an SM.  The kernel's code is not touched: its results are the
 * same for every launch and size.
 */
#include "recipes/recipe.h"
#include "analyzer/arch.h"
#include "util/error.h"
#include <ctype.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#define NPOS ((size_t)-1)
/* The rule's bound: past 256 threads the budget for 1024 costs little. */
#define MAX_THREADS 256

/* 1 when path names a header (.h, .cuh, .hpp, .hxx, .inl, .inc). */
static int is_header(const char *path)
{
	static const char *const ext[] = {".h", ".cuh", ".hpp", ".hxx", ".hh", ".inl", ".inc", NULL};
	const char *dot = path ? strrchr(path, '.') : NULL;
	for (int i = 0; dot && ext[i]; i++)
		if (!strcmp(dot, ext[i]))
			return 1;
	return 0;
}

/* The kernel's agreed block from the facts into *threads; KA_OK or a
 * decline. */
static int agreed_block(ka_recipe_ctx *c, sqlite3 *db, long long *threads)
{
	sqlite3_stmt *st = NULL;
	int n = 0, rc = KA_OK;
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT launch_bounds_max, block_source, launch_sites_agree, block_threads, "
		    "n_launch_sites, block_x, block_y, block_z FROM kernel WHERE kind = 'global' AND "
		    "name = ?1 AND body_begin_off = ?2",
		    -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "recipe facts: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, c->k->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)c->k->body_open);
	while (rc == KA_OK && sqlite3_step(st) == SQLITE_ROW) {
		if (n++) {
			rc = ka_recipe_decline(c,
					       "%s is analyzed as several kernels (a template's "
					       "instantiations)",
					       c->k->name);
			break;
		}
		const char *src = (const char *)sqlite3_column_text(st, 1);
		int sites = sqlite3_column_int(st, 4);
		if (sqlite3_column_type(st, 0) != SQLITE_NULL)
			rc = ka_recipe_decline(c, "%s has __launch_bounds__ already", c->k->name);
		else if (sites == 0)
			rc = ka_recipe_decline(c, "no launch of %s in this file", c->k->name);
		else if (!src || strcmp(src, "launch") || sqlite3_column_int(st, 2) != 1 ||
			 sqlite3_column_type(st, 3) == SQLITE_NULL)
			rc = ka_recipe_decline(c, "the launches of %s do not all use one constant block",
					       c->k->name);
		else if ((*threads = sqlite3_column_int64(st, 3)) < 1 || *threads > MAX_THREADS)
			rc = ka_recipe_decline(c,
					       "the block of %s is %lld threads (occ-missing-launch-bounds "
					       "asks for 1 to %d)",
					       c->k->name, *threads, MAX_THREADS);
	}
	sqlite3_finalize(st);
	if (rc == KA_OK && n == 0)
		rc = ka_recipe_decline(c, "the analyzer has no facts of %s (it did not parse)", c->k->name);
	return rc;
}

/* 1 when the block variable v (the squeezed block argument of a launch, a
 * plain name) is assigned somewhere in the file: `v = ...`, `v.x = ...`,
 * `v += ...` with no type before it (which would declare it).  The facts fold a dim3 from
 * its declaration (`dim3 threads;` is 1 thread), not from a later
 * assignment (`threads = dim3(blockSize);` after an occupancy query). */
static int block_assigned(const char *t, size_t len, const char *v)
{
	size_t n = strlen(v);
	for (size_t at = ka_csrc_find_word_pp(t, 0, len, v); at != (size_t)-1;
	     at = ka_csrc_find_word_pp(t, at + n, len, v)) {
		size_t p = ka_csrc_skip_blank(t, len, at + n);
		if (p + 2 < len && t[p] == '.' && strchr("xyz", t[p + 1])) /* v.x = ... */
			p = ka_csrc_skip_blank(t, len, p + 2);
		int eq = p + 1 < len && t[p] == '=' && t[p + 1] != '=';
		int op = p + 2 < len && ((strchr("+-*/%&|^", t[p]) && t[p + 1] == '=') ||
					 (strchr("<>", t[p]) && t[p + 1] == t[p] && t[p + 2] == '='));
		if (!eq && !op)
			continue;
		size_t b = at; /* a word before it is its type: `dim3 v = ...`, `size_t v = ...` */
		while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t'))
			b--;
		int declared = b > 0 && b < at && (isalnum((unsigned char)t[b - 1]) || t[b - 1] == '_');
		if (!declared)
			return 1;
	}
	return 0;
}

/* Every launch the source model reads has its block folded to `threads`
 * in the facts (a launch the analyzer did not see, in another branch of an
 * #if, would start the kernel with a block nobody checked). */
static int launches_folded(ka_recipe_ctx *c, sqlite3 *db, long long threads)
{
	sqlite3_stmt *st = NULL;
	int rc = KA_OK;
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT count(*), min(COALESCE(block_threads, -1)), max(COALESCE(block_threads, "
		    "-1)) FROM launch WHERE kernel = ?1 AND ((block_begin_off >= ?2 AND "
		    "block_begin_off < ?3) OR (begin_off >= ?4 AND begin_off < ?5))",
		    -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "recipe facts: %s", sqlite3_errmsg(db));
	for (int i = 0; i < c->m->nlaunches && rc == KA_OK; i++) {
		const ka_csrc_launch *l = &c->m->l[i];
		if (strcmp(l->kernel, c->k->name))
			continue;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, c->k->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)l->cfg[1].s);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)l->cfg[1].e);
		sqlite3_bind_int64(st, 4, (sqlite3_int64)l->start);
		sqlite3_bind_int64(st, 5, (sqlite3_int64)l->end);
		int line = ka_csrc_line_of(c->m->text, l->start);
		char blk[KA_CSRC_NAME];
		int name = ka_csrc_squeeze(c->m->text, l->cfg[1].s, l->cfg[1].e, blk, sizeof blk) && blk[0] &&
			   strspn(blk, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
				   strlen(blk) &&
			   !isdigit((unsigned char)blk[0]);
		if (name && block_assigned(c->m->text, c->m->len, blk))
			rc = ka_recipe_decline(
				c,
				"the block '%s' of the launch on line %d is assigned after its "
				"declaration: the analyzer folds the declaration's value",
				blk, line);
		else if (sqlite3_step(st) != SQLITE_ROW || sqlite3_column_int(st, 0) == 0)
			rc = ka_recipe_decline(c,
					       "the analyzer did not fold the launch on line %d (another "
					       "branch of an #if?)",
					       line);
		else if (sqlite3_column_int64(st, 1) != threads || sqlite3_column_int64(st, 2) != threads)
			rc = ka_recipe_decline(c, "the block of the launch on line %d is not %lld threads",
					       line, threads);
	}
	sqlite3_finalize(st);
	return rc;
}

static int bounds_apply(ka_recipe_ctx *c, ka_buf *out)
{
	const char *t = c->m->text;
	size_t len = c->m->len;
	if (c->k->has_launch_bounds)
		return ka_recipe_decline(c, "%s has __launch_bounds__ already", c->k->name);
	if (is_header(ka_recipe_source_path()))
		return ka_recipe_decline(c,
					 "%s is defined in a header: every file that includes it may launch "
					 "it with another block",
					 c->k->name);
	int rc = ka_recipe_launches_known(c);
	if (rc != KA_OK)
		return rc;
	sqlite3 *db = NULL;
	if (ka_recipe_facts(t, len, &db) != KA_OK)
		return ka_recipe_decline(c, "the analyzer could not read the file: %s", ka_error_last());
	long long threads = 0;
	if ((rc = agreed_block(c, db, &threads)) != KA_OK || (rc = launches_folded(c, db, threads)) != KA_OK)
		return rc;
	size_t at = ka_csrc_find_word_pp(t, c->k->start, c->k->name_at, "__global__");
	if (at == NPOS)
		return ka_recipe_decline(c, "no __global__ keyword before the name %s", c->k->name);
	long min_blocks = ka_recipe_param(c->params, "min", 0);
	const ka_arch *arch = ka_arch_find(ka_recipe_arch() ? ka_recipe_arch() : KA_ARCH_DEFAULT);
	int per_sm = arch ? arch->max_threads_per_sm : 2048;
	if (min_blocks < 0 || (min_blocks > 0 && threads * min_blocks > per_sm))
		return ka_recipe_decline(c, "min=%ld blocks of %lld threads do not fit an SM's %d threads",
					 min_blocks, threads, per_sm);
	char attr[64];
	if (min_blocks > 0)
		snprintf(attr, sizeof attr, " __launch_bounds__(%lld, %ld)", threads, min_blocks);
	else
		snprintf(attr, sizeof attr, " __launch_bounds__(%lld)", threads);
	ka_recipe_edits ed = {0};
	rc = ka_recipe_edit(&ed, at + 10, at + 10, attr);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, t, len, out);
	ka_recipe_edits_free(&ed);
	return rc;
}

/* The block alone first (every launch runs as before, the register budget
 * is N threads'); then a minimum of resident blocks an SM, which caps the
 * registers a thread at 64K / (N * min) and trades spills for occupancy:
 * the bench decides. */
static const char *const bounds_grid[] = {"", "min=2", "min=4", NULL};

const ka_recipe ka_recipe_launch_bounds = {
	.name = "launch-bounds",
	.summary =
		"a kernel every launch starts with one constant block of N threads -> __launch_bounds__(N)",
	.rules = "occ-missing-launch-bounds",
	.grid = bounds_grid,
	.apply = bounds_apply,
};
