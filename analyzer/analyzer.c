/* analyzer/analyzer.c: the analyzer's entry point.  Parses a file (front
 * end), walks host code for launch sites, then each kernel with the block
 * shape its launches imply, and writes the facts of the translation unit
 * into the database in one transaction.
 *
 * All of it runs on a thread of its own with a large stack (KA_ANALYZE_STACK_MB):
 * clang's parser recurses once per nested operator, so a few thousand
 * unary minuses or a long ternary chain overflow the 8 MB that libclang's
 * own parse thread has.  LIBCLANG_NOTHREADS keeps libclang on our thread,
 * and M_ARENA_MAX 1 keeps its allocations in the C library's main heap: a
 * thread's own heap grows with one mprotect() per allocation that does not
 * fit (about 2,500 system calls in a parse of the toolkit's headers, where
 * the main heap takes about 200 brk() calls). */
#include "analyzer/analyzer.h"
#include "analyzer/frontend.h"
#include "analyzer/ptxas.h"
#include "analyzer/records.h"
#include "analyzer/walk.h"
#include "util/checked.h"
#include "util/error.h"
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *ka_lang_of_path(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	return dot && strcmp(dot, ".hip") == 0 ? "hip" : "cuda";
}

static void walk_reset(walk *w, ka_decl *fn, ka_decl *kernel)
{
	walk_scope_enter(w, fn);
	sx_ctx_init(&w->sym.sx, w->file.a);
	w->fn = fn;
	w->kernel = kernel;
	w->func = fn->name;
	w->is_device = (fn->flags & (KDF_GLOBAL | KDF_DEVICE)) != 0;
	w->ctl.nloops = w->ctl.nbrs = w->ctl.div_return_line = w->ctl.guard_return = 0;
	w->ctl.pin_rest = 0;
	/* a constructor's host code runs once per object: set-up, as on a
	 * program's first pass */
	w->ctl.rest_run = !kernel && (fn->flags & KDF_CTOR) ? 1 : 0;
	w->tally.n_barriers = w->tally.n_accesses = w->tally.n_loops = w->tally.uses_warp =
		w->tally.has_guard = 0;
	w->tally.narrays = 0;
	w->ctl.inline_depth = 0;
	w->ctl.limits_hit = 0;
	w->ctl.store_value_dep = -1;
	w->ctl.call_site = NULL;
	w->sym.ret_val = NULL;
	static const char *const names[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x",
					    "blockIdx.y",  "blockIdx.z",  "blockDim.x",  "blockDim.y",
					    "blockDim.z",  "gridDim.x",   "gridDim.y",   "gridDim.z",
					    "warpSize"};
	static const unsigned deps[] = {D_TX,    D_TY,    D_TZ,    D_BLOCK, D_BLOCK, D_BLOCK, D_PARAM,
					D_PARAM, D_PARAM, D_PARAM, D_PARAM, D_PARAM, 0};
	for (int i = 0; i <= SYM_WARPSIZE; i++) {
		/* a thread index along an axis every launch makes 1 wide is 0 */
		int flat = i <= SYM_TID_Z && w->kernel && ((w->block_axes_known >> i) & 1) &&
			   w->block[i] == 1;
		int s = sx_new_sym(&w->sym.sx, (sx_sym_kind)i, names[i], flat ? 0 : deps[i], 0);
		sx_sym *y = &w->sym.sx.syms[s];
		if (flat) {
			y->value = 0;
			y->has_value = 1;
		} else if (i >= SYM_BDIM_X && i <= SYM_BDIM_Z) {
			y->value = w->block[i - SYM_BDIM_X];
			y->has_value = 1;
		} else if (i == SYM_WARPSIZE) {
			y->value = w->file.arch->warp_size;
			y->has_value = 1;
		} else if (i >= SYM_BID_X && i <= SYM_BID_Z) {
			y->value = 1;
			y->has_value = 1;
		}
	}
	for (int i = 0; i < fn->nparams; i++) {
		ka_decl *p = fn->params[i];
		if (p->tflags & KT_POINTER) {
			w->sym.env[p->id] = (val){.base = p,
						  .space = w->is_device ? SP_GLOBAL : SP_UNKNOWN,
						  .x = sx_const(&w->sym.sx, 0)};
		} else {
			int s = sx_new_sym(&w->sym.sx, SYM_PARAM, p->name, D_PARAM, 0);
			w->sym.env[p->id].x = sx_symref(&w->sym.sx, s);
		}
	}
}

/* The launches of one kernel, in source order, as a chain through
 * next_same (built once after the host walk: no scan of every launch per
 * kernel). */
static void chain_launches(walk *w)
{
	w->host.first_launch = ka_arena_alloc(w->file.a, sizeof *w->host.first_launch * (size_t)w->file.nenv);
	for (int i = 0; i < w->file.nenv; i++)
		w->host.first_launch[i] = -1;
	for (int i = w->host.nlaunches - 1; i >= 0; i--) {
		launch_info *l = &w->host.launches[i];
		l->next_same = -1;
		if (l->kernel && l->kernel->id >= 0 && l->kernel->id < w->file.nenv) {
			l->next_same = w->host.first_launch[l->kernel->id];
			w->host.first_launch[l->kernel->id] = i;
		}
	}
}

static int first_launch(const walk *w, const ka_decl *k)
{
	return w->host.first_launch && k->id >= 0 && k->id < w->file.nenv ? w->host.first_launch[k->id] : -1;
}

/* Template parameters: bound to constants when every launch agrees. */
static void bind_tparams(walk *w, ka_decl *k)
{
	int64_t args[4];
	int n = -1;
	for (int i = first_launch(w, k); i >= 0; i = w->host.launches[i].next_same) {
		launch_info *l = &w->host.launches[i];
		if (n < 0) {
			n = l->ntargs;
			memcpy(args, l->targs, sizeof args);
		} else if (n != l->ntargs || memcmp(args, l->targs, sizeof args[0] * (size_t)n) != 0) {
			n = 0;
		}
	}
	int ai = 0;
	for (int i = 0; i < k->ntparams; i++) {
		ka_decl *t = k->tparams[i];
		if (!(t->tflags & KT_INT))
			continue;
		if (ai < n)
			w->sym.env[t->id].x = sx_const(&w->sym.sx, args[ai]);
		else
			w->sym.env[t->id].x = sx_symref(
				&w->sym.sx, sx_new_sym(&w->sym.sx, SYM_PARAM, t->name, D_PARAM, 0));
		ai++;
	}
}

/* Integer parameters every launch of k passes the same constant (`sort<<<n,
 * 128>>>(keys, 1024)`): remembered on the parameter's symbol for the
 * questions only a launch can answer (a loop's trip count in each thread of
 * the launched block); the walk itself keeps them symbolic. */
static void bind_launch_args(walk *w, ka_decl *k)
{
	for (int i = 0; i < k->nparams && i < 16; i++) {
		ka_decl *p = k->params[i];
		const sx *x = p->id < w->file.nenv ? w->sym.env[p->id].x : NULL;
		if (!x || x->k != SX_SYM || w->sym.sx.syms[x->sym].kind != SYM_PARAM)
			continue;
		int64_t v = 0;
		int n = 0, agree = 1;
		for (int j = first_launch(w, k); j >= 0 && agree; j = w->host.launches[j].next_same) {
			const launch_info *l = &w->host.launches[j];
			if (!(l->argv_known & (1u << i)) || (n && l->argv[i] != v))
				agree = 0;
			v = l->argv[i];
			n++;
		}
		if (n && agree) {
			w->sym.sx.syms[x->sym].has_launch_value = 1;
			w->sym.sx.syms[x->sym].launch_value = v;
		}
	}
}

/* Whether a body reads threadIdx.y or .z (macros included). */
static int uses_tid_yz(const ka_node *n)
{
	if (!n)
		return 0;
	if (n->kind == KN_MEMBER && n->nkids == 1 && n->name &&
	    (!strcmp(n->name, "y") || !strcmp(n->name, "z")) && n->kids[0]->name &&
	    !strcmp(n->kids[0]->name, "threadIdx"))
		return 1;
	for (int i = 0; i < n->nkids; i++)
		if (uses_tid_yz(n->kids[i]))
			return 1;
	return 0;
}

/* The block shape for the warp model: launches, then __launch_bounds__,
 * then --assume-block, then a stated default. */
static void block_shape(walk *w, ka_decl *k, const ka_analyze_opts *o, int *nlaunch, int *agree,
			int64_t *max_dyn)
{
	int have = 0, grid_agree = 1;
	*nlaunch = 0;
	*agree = 1;
	*max_dyn = 0;
	memset(w->grid, 0, sizeof w->grid);
	memset(w->grid_floor, 0, sizeof w->grid_floor);
	memset(w->grid_part, 0, sizeof w->grid_part);
	w->block_axes_known = 0;
	for (int i = first_launch(w, k); i >= 0; i = w->host.launches[i].next_same) {
		launch_info *l = &w->host.launches[i];
		if (!*nlaunch) {
			memcpy(w->grid, l->grid, sizeof w->grid);
			memcpy(w->grid_floor, l->argfloor, sizeof w->grid_floor);
			memcpy(w->grid_part, l->gpart, sizeof w->grid_part);
		} else {
			for (int a = 0; a < 3; a++)
				if (w->grid_part[a] != l->gpart[a])
					w->grid_part[a] = 0;
			if (memcmp(w->grid, l->grid, sizeof w->grid) != 0)
				grid_agree = 0;
			for (int a = 0; a < 3; a++)
				w->grid_floor[a] &= l->argfloor[a];
		}
		(*nlaunch)++;
		if (l->dyn_smem > *max_dyn)
			*max_dyn = l->dyn_smem;
		if (!l->bx) {
			*agree = 0;
			continue;
		}
		if (!have) {
			w->block[0] = l->bx, w->block[1] = l->by, w->block[2] = l->bz;
			have = 1;
		} else if (w->block[0] != l->bx || w->block[1] != l->by || w->block[2] != l->bz) {
			*agree = 0;
		}
	}
	w->assumption = NULL;
	if (!grid_agree || !have || !*agree)
		memset(w->grid, 0, sizeof w->grid);
	if (!have || !*agree) {
		memset(w->grid_floor, 0, sizeof w->grid_floor);
		memset(w->grid_part, 0, sizeof w->grid_part);
	}
	if (have && *agree) {
		w->block_source = "launch";
		w->block_axes_known = 7;
		return;
	}
	if (k->lb_max > 0) {
		w->block[0] = k->lb_max, w->block[1] = w->block[2] = 1;
		w->block_source = "launch_bounds";
		return;
	}
	w->block_source = "assumed";
	/* every launch leaves x (or y) to the run time but folds the other
	 * axes alike (`dim3 threads(nthreads, ntcol)` with `const int ntcol =
	 * 1`, `dim3 threads(n, n, 1)`): those axes come from the launches */
	int kv[3] = {0, 0, 0};
	unsigned known = 0;
	for (int a = 1; a < 3 && *nlaunch > 0; a++) {
		int ok = 1;
		for (int i = first_launch(w, k); i >= 0 && ok; i = w->host.launches[i].next_same) {
			const launch_info *l = &w->host.launches[i];
			int v = l->bx ? (a == 1 ? l->by : l->bz) : l->bpart[a];
			ok = v > 0 && (!kv[a] || v == kv[a]);
			kv[a] = v;
		}
		if (ok)
			known |= 1u << a;
	}
	if (known == 6 && o->assume_block[0] <= 0) {
		int py = kv[1], pz = kv[2];
		w->block[1] = py, w->block[2] = pz;
		w->block_axes_known = 6;
		w->block[0] = py * pz > 1 ? 32 : 256;
		if (w->block[0] * py * pz > 1024)
			w->block[0] = 1024 / (py * pz) > 0 ? 1024 / (py * pz) : 1;
		w->assumption = ka_arena_printf(
			w->file.a,
			"block (%d,%d,%d) assumed: x is a run-time value at every launch, "
			"y and z come from the launches",
			w->block[0], w->block[1], w->block[2]);
		return;
	}
	if (o->assume_block[0] > 0) {
		for (int i = 0; i < 3; i++)
			w->block[i] = o->assume_block[i] > 0 ? o->assume_block[i] : 1;
		w->assumption = ka_arena_printf(w->file.a, "block (%d,%d,%d) from --assume-block",
						w->block[0], w->block[1], w->block[2]);
		return;
	}
	if (known == 4) {
		/* x and y at run time, z from the launches */
		int pz = kv[2], two_d = uses_tid_yz(k->body);
		w->block[0] = two_d ? 32 : 256;
		w->block[1] = two_d ? 8 : 1;
		w->block[2] = pz;
		while (w->block[0] > 1 && w->block[0] * w->block[1] * pz > 1024)
			w->block[0] /= 2;
		w->block_axes_known = 4;
		w->assumption = ka_arena_printf(w->file.a,
						"block (%d,%d,%d) assumed: x and y are run-time values at "
						"every launch, z comes from the launches",
						w->block[0], w->block[1], w->block[2]);
		return;
	}
	int two_d = uses_tid_yz(k->body);
	w->block[0] = two_d ? 32 : 256;
	w->block[1] = two_d ? 8 : 1;
	w->block[2] = 1;
	w->assumption = ka_arena_printf(w->file.a,
					"block (%d,%d,1) assumed: no constant launch or "
					"__launch_bounds__",
					w->block[0], w->block[1]);
}

/* call.per_launch_pass: a host call whose innermost loop holds a nested
 * loop that launches kernels runs once per pass of that inner loop (a
 * buffer or a synchronization per configuration), not once per launch.  A
 * call written inside a macro has no byte range: its loop is found by
 * line.  One statement per file, after the host walk wrote its loops,
 * calls and launches. */
static void per_launch_pass(walk *w)
{
	static const char sql[] =
		"UPDATE call SET per_launch_pass = EXISTS (SELECT 1 FROM loop l"
		" JOIN loop m ON m.file = l.file AND m.kernel_id IS NULL AND m.id <> l.id"
		"  AND m.begin_off >= l.begin_off AND m.end_off <= l.end_off"
		" JOIN launch h ON h.file = m.file AND h.begin_off >= m.begin_off AND h.end_off <= m.end_off"
		" WHERE l.id = (SELECT l2.id FROM loop l2 WHERE l2.file = call.file AND l2.kernel_id IS NULL"
		"  AND (l2.begin_off <= call.begin_off AND l2.end_off >= call.end_off"
		"   OR (call.begin_off IS NULL AND l2.line <= call.line AND l2.end_line >= call.line))"
		"  ORDER BY l2.begin_off DESC LIMIT 1))"
		" WHERE is_device_code = 0 AND in_loop = 1";
	char *err = NULL;
	if (sqlite3_exec(w->file.db, sql, NULL, NULL, &err) != SQLITE_OK)
		ka_facts_writer_fail(w->file.fw, KA_ERR, "facts: %s (per_launch_pass)", err ? err : "?");
	sqlite3_free(err);
}

static int walk_host_code(walk *w)
{
	for (ka_decl *f = w->file.tu->funcs; f && !w->file.over_budget; f = f->next) {
		if (f->flags & (KDF_GLOBAL | KDF_DEVICE)) {
			if (!(f->flags & KDF_HOST))
				continue;
		}
		w->block[0] = w->block[1] = w->block[2] = 1;
		memset(w->grid, 0, sizeof w->grid);
		w->block_source = NULL; /* no launch: not the last kernel's */
		walk_reset(w, f, NULL);
		w->is_device = 0;
		walk_enter_host_template(w, f);
		walk_stmt(w, f->body);
		if (w->file.over_budget)
			walk_emit_budget(w, f);
	}
	chain_launches(w);
	per_launch_pass(w);
	for (int i = 0; i < w->host.noptin; i++) {
		sqlite3_stmt *s;
		if (sqlite3_prepare_v2(w->file.db, "UPDATE launch SET smem_optin = 1 WHERE kernel = ?", -1,
				       &s, NULL) != SQLITE_OK) {
			ka_facts_writer_fail(w->file.fw, KA_ERR, "facts: %s (smem_optin)",
					     sqlite3_errmsg(w->file.db));
			continue;
		}
		sqlite3_bind_text(s, 1, w->host.optin_kernels[i], -1, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE)
			ka_facts_writer_fail(w->file.fw, KA_ERR, "facts: %s (smem_optin)",
					     sqlite3_errmsg(w->file.db));
		sqlite3_finalize(s);
	}
	return KA_OK;
}

/* A device function already seen inlined into its callers gets its own
 * kernel row (kind 'device') but no second copy of its accesses. */
static void walk_function(walk *w, ka_decl *f, const ka_analyze_opts *o, const char *kind, int quiet)
{
	int nl, agree;
	int64_t max_dyn;
	if (w->file.over_budget)
		return;
	block_shape(w, f, o, &nl, &agree, &max_dyn);
	walk_reset(w, f, f);
	w->kernel_id = (int)walk_next_id(w);
	bind_tparams(w, f);
	bind_launch_args(w, f);
	walk_bind_kernel_types(w, f);
	w->ctl.quiet += quiet;
	walk_stmt(w, f->body);
	w->ctl.quiet -= quiet;
	walk_emit_kernel(w, f, kind, nl, agree, max_dyn);
	if (w->file.over_budget)
		walk_emit_budget(w, f);
}

static void reverse_funcs(ka_tu *tu)
{
	ka_decl *prev = NULL, *f = tu->funcs;
	while (f) {
		ka_decl *n = f->next;
		f->next = prev;
		prev = f;
		f = n;
	}
	tu->funcs = prev;
}

/* The per-file budget: time from the start of the parse, and the size of
 * the TU's arena (the model and every symbolic value). */
static void set_budget(walk *w, const ka_analyze_opts *o, double t0)
{
	double secs = o->budget_s > 0 ? o->budget_s : KA_BUDGET_DEFAULT_S;
	size_t mb = o->budget_mb > 0 ? (size_t)o->budget_mb : KA_BUDGET_DEFAULT_MB;
	w->file.deadline = o->budget_s < 0 ? 0 : t0 + secs;
	w->file.mem_limit = o->budget_mb < 0 ? 0 : mb << 20;
	w->file.budget_text = ka_arena_printf(w->file.a, "%g s, %zu MB", secs, mb);
}

/* The first read, shared memory first, of a slot that no store of the
 * kernel writes under the same subscript (in shared memory, or in a global
 * array the kernel also writes): what threads that left would have filled.
 * A global array counts when written through the same name as read, and
 * not for a read of a pointer (`dC_array[batch]`, the table of pointers,
 * beside stores through the `dC` loaded from it).
 * One statement for the rows of table T (early_return, barrier): POS places
 * the read (a SQL condition on `a`), AX names T's column of the condition's
 * thread axes.  Not counted: a store in a loop of a few known trips whose
 * last subscript is the loop's counter (`s[t][p][k]` for k < 5) writes the
 * slots read at a constant there (`s[t][p][0]`); and when the condition
 * splits the block along some axes only, a slot that reader and writer share
 * along those axes (`if (column >= width) return;`, then `accum[i][threadIdx.x]`
 * after `accum[threadIdx.y][threadIdx.x] = ...`; `if (y < m && z < n)`
 * around a tree over x of `sum[x][y][z]`): its writer has the reader's
 * coordinates on them and made the same choice.  That needs an axis the
 * condition does not read in the index (what differs lies along it) and
 * constant offsets that differ by a multiple of that axis's step
 * (`s[threadIdx.x + 1]` after `s[threadIdx.x]` is a neighbour's slot), by
 * less than the step of a condition's axis when that step is the larger
 * (`s[ty][tx + 16]` stays in the row of `s[ty][tx]`, `s[ty + 1][tx]` does
 * not).  Nor
 * a read through a base that picks its region by the condition's axes
 * alone (access.group_axes) when the stores through the same name
 * (access.via) all use that same base (access.group_base):
 * `sA[j * slda + tx]` after `sA[ty * slda + tx] = ...` with `sA += tz * slda
 * * N`, under `if (batch >= count) return;` with the batch from z; or
 * `s[ty][k]` after `s[ty][tx] = ...` under a condition on y.  Each group of
 * threads keeps to its own region, and the groups leave whole. */
static const char exchange_tmpl[] =
	"(SELECT a.id FROM access a "
	"WHERE a.kernel_id = @T.kernel_id AND a.rw <> 'write' AND (@POS) @PRE"
	"AND (a.space = 'shared' OR (a.space = 'global' AND a.loads_pointer = 0 AND EXISTS (SELECT 1 FROM access w0 WHERE "
	"w0.kernel_id = a.kernel_id AND w0.base = a.base AND w0.rw <> 'read' "
	"AND COALESCE(w0.via, '') = COALESCE(a.via, '')))) "
	"AND NOT EXISTS (SELECT 1 FROM access w WHERE w.kernel_id = a.kernel_id "
	"AND w.base = a.base AND w.space = a.space AND w.rw <> 'read' "
	"AND COALESCE(w.index_text, '?') = COALESCE(a.index_text, '!')) "
	"AND NOT EXISTS (SELECT 1 FROM access w2 JOIN loop lp ON lp.id = w2.loop_id "
	"WHERE w2.kernel_id = a.kernel_id AND w2.base = a.base AND w2.space = a.space "
	"AND w2.rw <> 'read' AND lp.trip_count IS NOT NULL AND lp.trip_count <= 64 "
	"AND lp.iv IS NOT NULL AND w2.index_text LIKE '%[' || lp.iv "
	"AND length(w2.index_text) > length(lp.iv) "
	"AND substr(COALESCE(a.index_text, ''), 1, length(w2.index_text) - length(lp.iv)) = "
	"substr(w2.index_text, 1, length(w2.index_text) - length(lp.iv)) "
	"AND substr(COALESCE(a.index_text, ''), length(w2.index_text) - length(lp.iv) + 1) GLOB '[0-9]*' "
	"AND substr(COALESCE(a.index_text, ''), length(w2.index_text) - length(lp.iv) + 1) NOT GLOB '*[^0-9]*' "
	"AND CAST(substr(a.index_text, length(w2.index_text) - length(lp.iv) + 1) AS INTEGER) < lp.trip_count) "
	"AND NOT EXISTS (SELECT 1 FROM access w1 WHERE "
	"w1.kernel_id = a.kernel_id AND w1.base = a.base AND w1.space = a.space AND w1.rw <> 'read' "
	"AND instr(@T.@AX, 'x') + instr(@T.@AX, 'y') + instr(@T.@AX, 'z') > 0 "
	"AND (instr(@T.@AX, 'x') = 0 OR (a.kind_tx = 'const' AND a.coef_tx <> 0 AND w1.kind_tx = 'const' AND w1.coef_tx = a.coef_tx)) "
	"AND (instr(@T.@AX, 'y') = 0 OR (a.kind_ty = 'const' AND a.coef_ty <> 0 AND w1.kind_ty = 'const' AND w1.coef_ty = a.coef_ty)) "
	"AND (instr(@T.@AX, 'z') = 0 OR (a.kind_tz = 'const' AND a.coef_tz <> 0 AND w1.kind_tz = 'const' AND w1.coef_tz = a.coef_tz)) "
	"AND ((instr(@T.@AX, 'x') = 0 AND ((a.kind_tx = 'const' AND a.coef_tx <> 0) OR (w1.kind_tx = 'const' AND w1.coef_tx <> 0)) AND (a.offset_const IS w1.offset_const OR (a.offset_const - w1.offset_const) % COALESCE(NULLIF(a.coef_tx, 0), w1.coef_tx) = 0) AND NOT (instr(@T.@AX, 'y') > 0 AND abs(a.coef_ty) > abs(COALESCE(NULLIF(a.coef_tx, 0), w1.coef_tx)) AND abs(COALESCE(a.offset_const - w1.offset_const, 0)) >= abs(a.coef_ty)) AND NOT (instr(@T.@AX, 'z') > 0 AND abs(a.coef_tz) > abs(COALESCE(NULLIF(a.coef_tx, 0), w1.coef_tx)) AND abs(COALESCE(a.offset_const - w1.offset_const, 0)) >= abs(a.coef_tz))) "
	"OR (instr(@T.@AX, 'y') = 0 AND ((a.kind_ty = 'const' AND a.coef_ty <> 0) OR (w1.kind_ty = 'const' AND w1.coef_ty <> 0)) AND (a.offset_const IS w1.offset_const OR (a.offset_const - w1.offset_const) % COALESCE(NULLIF(a.coef_ty, 0), w1.coef_ty) = 0) AND NOT (instr(@T.@AX, 'x') > 0 AND abs(a.coef_tx) > abs(COALESCE(NULLIF(a.coef_ty, 0), w1.coef_ty)) AND abs(COALESCE(a.offset_const - w1.offset_const, 0)) >= abs(a.coef_tx)) AND NOT (instr(@T.@AX, 'z') > 0 AND abs(a.coef_tz) > abs(COALESCE(NULLIF(a.coef_ty, 0), w1.coef_ty)) AND abs(COALESCE(a.offset_const - w1.offset_const, 0)) >= abs(a.coef_tz))) "
	"OR (instr(@T.@AX, 'z') = 0 AND ((a.kind_tz = 'const' AND a.coef_tz <> 0) OR (w1.kind_tz = 'const' AND w1.coef_tz <> 0)) AND (a.offset_const IS w1.offset_const OR (a.offset_const - w1.offset_const) % COALESCE(NULLIF(a.coef_tz, 0), w1.coef_tz) = 0) AND NOT (instr(@T.@AX, 'x') > 0 AND abs(a.coef_tx) > abs(COALESCE(NULLIF(a.coef_tz, 0), w1.coef_tz)) AND abs(COALESCE(a.offset_const - w1.offset_const, 0)) >= abs(a.coef_tx)) AND NOT (instr(@T.@AX, 'y') > 0 AND abs(a.coef_ty) > abs(COALESCE(NULLIF(a.coef_tz, 0), w1.coef_tz)) AND abs(COALESCE(a.offset_const - w1.offset_const, 0)) >= abs(a.coef_ty))))) "
	"AND NOT (instr(@T.@AX, 'x') + instr(@T.@AX, 'y') + instr(@T.@AX, 'z') > 0 "
	"AND (instr(@T.@AX, 'x') = 0 OR instr(COALESCE(a.group_axes, ''), 'x') > 0) AND (instr(@T.@AX, 'y') = 0 OR instr(COALESCE(a.group_axes, ''), 'y') > 0) AND (instr(@T.@AX, 'z') = 0 OR instr(COALESCE(a.group_axes, ''), 'z') > 0) "
	"AND EXISTS (SELECT 1 FROM access w6 WHERE w6.kernel_id = a.kernel_id AND w6.base = a.base "
	"AND w6.space = a.space AND w6.rw <> 'read' AND w6.via IS a.via AND w6.group_base = a.group_base) "
	"AND NOT EXISTS (SELECT 1 FROM access w5 WHERE w5.kernel_id = a.kernel_id AND w5.base = a.base "
	"AND w5.space = a.space AND w5.rw <> 'read' AND w5.via IS a.via "
	"AND (w5.group_base IS NOT a.group_base OR NOT ((instr(@T.@AX, 'x') = 0 OR instr(COALESCE(w5.group_axes, ''), 'x') > 0) AND (instr(@T.@AX, 'y') = 0 OR instr(COALESCE(w5.group_axes, ''), 'y') > 0) AND (instr(@T.@AX, 'z') = 0 OR instr(COALESCE(w5.group_axes, ''), 'z') > 0))))) "
	"ORDER BY a.space <> 'shared', COALESCE(a.call_line, a.line), a.col LIMIT 1)";

/* For a barrier the skipping threads leave for the end of the kernel: the
 * read's array was written before a block barrier that every thread of the
 * branch passed before it (one outside any divergent branch, or under one
 * that holds this branch), so whatever the skipping threads wrote there is
 * ordered before the read, and they write nothing the read could miss
 * after it: the last-warp tree of `if (tid < 32) { s[tid] += s[tid + 32];
 * __syncthreads(); ... }` after `s[tid] = v; __syncthreads();` by all.
 * Not for a loop that stores to the array itself: the threads that left
 * it stored there in their earlier trips but not in the last one, whose
 * values the others read (`keys[i] += 1; __syncthreads(); ... keys[(i + 1)
 * % tile]`). */
static const char skip_prefilled[] =
	"AND (NOT EXISTS (SELECT 1 FROM access w3 JOIN barrier b3 ON b3.kernel_id = w3.kernel_id "
	"WHERE w3.kernel_id = a.kernel_id AND w3.base = a.base AND w3.space = a.space AND w3.rw <> 'read' "
	"AND w3.file = barrier.file AND b3.file = barrier.file AND b3.kind = 'block' "
	"AND COALESCE(w3.call_begin_off, w3.begin_off) < b3.begin_off AND b3.begin_off < barrier.div_begin_off "
	"AND (b3.in_divergent_branch = 0 OR (b3.div_begin_off <= barrier.div_begin_off "
	"AND b3.div_end_off >= barrier.div_end_off))) "
	"OR (barrier.in_divergent_branch = 0 AND EXISTS (SELECT 1 FROM access w7 WHERE "
	"w7.kernel_id = a.kernel_id AND w7.base = a.base AND w7.space = a.space AND w7.rw <> 'read' "
	"AND COALESCE(w7.call_begin_off, w7.begin_off) BETWEEN barrier.div_begin_off AND barrier.div_end_off))) ";

/* For an early return: the read's array is stored to after the return,
 * by code the returned threads skip.  When every store seen comes before
 * the return (`perm[t] = ...; if (n >= size_n) return;`, or a tile filled
 * through a row pointer the model does not follow), the returned threads
 * wrote their slots before leaving.  A shared scalar keeps the exchange:
 * its assignments by name are not recorded as stores. */
static const char return_fills_after[] =
	"AND (a.base_array IS NULL OR EXISTS (SELECT 1 FROM access w4 WHERE w4.kernel_id = a.kernel_id "
	"AND w4.base = a.base AND w4.space = a.space AND w4.rw <> 'read' "
	"AND COALESCE(w4.call_line, w4.line) > early_return.line)) ";

/* exchange_tmpl with its names filled in (arena) */
static const char *exchange_sql(ka_arena *a, const char *table, const char *pos, const char *pre,
				const char *axes)
{
	ka_buf b;
	ka_buf_init(&b, 1 << 16);
	for (const char *p = exchange_tmpl; *p;) {
		if (strncmp(p, "@T", 2) == 0)
			ka_buf_adds(&b, table), p += 2;
		else if (strncmp(p, "@POS", 4) == 0)
			ka_buf_adds(&b, pos), p += 4;
		else if (strncmp(p, "@PRE", 4) == 0)
			ka_buf_adds(&b, pre), p += 4;
		else if (strncmp(p, "@AX", 3) == 0)
			ka_buf_adds(&b, axes), p += 3;
		else
			ka_buf_addc(&b, *p++);
	}
	const char *out = b.data ? ka_arena_strdup(a, b.data) : NULL;
	ka_buf_free(&b);
	return out;
}

/* What the threads that leave early miss: an early return's exchange, and
 * a barrier under a divergent branch that the skipping threads leave for
 * the end of the kernel (docs/facts.md, `early_return`, `barrier`). */
static int exchange_joins(sqlite3 *db, ka_arena *a)
{
	const char *er = exchange_sql(a, "early_return", "COALESCE(a.call_line, a.line) > early_return.line",
				      return_fills_after, "cond_axes");
	const char *br = exchange_sql(a, "barrier",
				      "COALESCE(a.call_begin_off, a.begin_off) BETWEEN barrier.div_begin_off "
				      "AND barrier.div_end_off",
				      skip_prefilled, "div_cond_axes");
	if (!er || !br)
		return SQLITE_NOMEM;
	/* a loop's leaving threads run on past it while the others are still
	 * inside: a read after the loop of a slot the loop stores under another
	 * subscript (`pos[threadIdx.x]` after `pos[atom] = p` in the loop) is
	 * theirs to miss */
	char *sql = sqlite3_mprintf(
		"UPDATE early_return SET exchange_access_id = %s WHERE thread_dependent = 1 AND before_barrier = 1;"
		"UPDATE barrier SET skip_exits = NOT EXISTS (SELECT 1 FROM barrier b2 WHERE "
		"b2.kernel_id = barrier.kernel_id AND b2.kind IN ('block', 'grid') AND b2.id > barrier.div_close_id), "
		"skip_exchange_access_id = %s WHERE kind = 'block' AND div_close_id IS NOT NULL;"
		"UPDATE barrier SET skip_exchange_access_id = (SELECT a.id FROM access a WHERE "
		"a.kernel_id = barrier.kernel_id AND a.rw <> 'write' AND a.space IN ('shared', 'global') "
		"AND COALESCE(a.call_begin_off, a.begin_off) > barrier.div_end_off "
		"AND EXISTS (SELECT 1 FROM access w WHERE w.kernel_id = a.kernel_id AND w.base = a.base "
		"AND w.space = a.space AND w.rw <> 'read' "
		"AND COALESCE(w.call_begin_off, w.begin_off) BETWEEN barrier.div_begin_off AND barrier.div_end_off "
		"AND COALESCE(w.index_text, '?') <> COALESCE(a.index_text, '!')) "
		"ORDER BY COALESCE(a.call_line, a.line), a.col LIMIT 1) "
		"WHERE kind = 'block' AND div_close_id IS NOT NULL AND in_divergent_branch = 0 "
		"AND skip_exchange_access_id IS NULL;",
		er, br);
	if (!sql)
		return SQLITE_NOMEM;
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_free(sql);
	return rc;
}

static int analyze_tu(ka_tu *tu, const ka_analyze_opts *o, const ka_arch *arch, sqlite3 *db, double t0)
{
	int64_t ids = ka_facts_max_id(db); /* unique in a database that holds other files */
	walk w = {.file = {.tu = tu, .db = db, .arch = arch, .a = tu->arena, .next_id = &ids}};
	int rc = ka_facts_writer_new(&w.file.fw, db);
	if (rc != KA_OK)
		return rc;
	walk_smem_init(tu, tu->arena, &w);
	w.file.nenv = tu->next_decl_id + 1;
	w.sym.tb = ka_arena_alloc(tu->arena, sizeof *w.sym.tb * (size_t)w.file.nenv);
	w.sym.env = ka_arena_alloc(tu->arena, sizeof *w.sym.env * (size_t)w.file.nenv);
	w.sym.ds = ka_arena_alloc(tu->arena, sizeof *w.sym.ds * (size_t)w.file.nenv);
	w.file.called = ka_arena_alloc(tu->arena, (size_t)w.file.nenv);
	walk_scope_alloc(&w);
	set_budget(&w, o, t0);
	w.host.optin_kernels = ka_arena_alloc(tu->arena, sizeof *w.host.optin_kernels * WALK_MAX_OPTIN);
	reverse_funcs(tu);
	walk_funcs_index(&w);
	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	walk_emit_tu(&w);
	walk_bind_host_templates(&w);
	walk_host_code(&w);
	for (ka_decl *f = tu->funcs; f; f = f->next)
		if (f->flags & KDF_GLOBAL)
			walk_function(&w, f, o, "global", 0);
	for (ka_decl *f = tu->funcs; f; f = f->next)
		if ((f->flags & KDF_DEVICE) && !(f->flags & KDF_GLOBAL))
			walk_function(&w, f, o, "device", w.file.called[f->id]);
	/* Indexes for the joins below and for the rules' lookups. */
	if (ka_facts_index(db) != KA_OK)
		ka_facts_writer_fail(w.file.fw, KA_ERR, "%s", ka_error_last());
	char *err = NULL;
	if (sqlite3_exec(
		    db,
		    "UPDATE early_return SET before_barrier = 1, barrier_line = (SELECT min(b.line) "
		    "FROM barrier b WHERE b.kernel_id = early_return.kernel_id AND b.kind = 'block' AND "
		    "b.line > early_return.line) WHERE EXISTS (SELECT 1 FROM barrier b WHERE "
		    "b.kernel_id = early_return.kernel_id AND b.kind = 'block' AND b.line > early_return.line);"
		    "UPDATE launch SET kernel_id = (SELECT k.id FROM kernel k WHERE k.name = launch.kernel "
		    "AND k.kind = 'global');"
		    /* A filtered access (filter_line) beside a global access of the
		     * same kernel, at least as deep in traffic loops, that runs on
		     * every iteration and moves at least as many sectors a request
		     * (32, one a lane, when the filtered one's are not known):
		     * that one bounds the filtered one's traffic, which is a
		     * data-dependent share of it, so the filtered access weighs as
		     * one loop less (the rules' share of the traffic). */
		    "UPDATE access SET share_depth = traffic_depth - 1 WHERE filter_line IS NOT NULL "
		    "AND traffic_depth > 0 AND space = 'global' "
		    "AND EXISTS (SELECT 1 FROM access o WHERE o.kernel_id = access.kernel_id "
		    "AND o.space = 'global' AND o.id <> access.id AND o.filter_line IS NULL "
		    "AND COALESCE(o.traffic_depth, 0) >= access.traffic_depth "
		    "AND o.sectors_per_request >= COALESCE(access.sectors_per_request, 32));"
		    /* An access that a bound on the thread index leaves to a few
		     * threads of the block (a warp's worth at most, a quarter of
		     * the block at most: `if (threadIdx.x < 16)`) beside a global
		     * access at least as deep that every thread makes: its share
		     * of the traffic is that fraction of the other's, so it weighs
		     * as one loop less. */
		    "UPDATE access SET share_depth = MIN(COALESCE(share_depth, 0), COALESCE(traffic_depth, 0) - 1) "
		    "WHERE active_threads IS NOT NULL AND space = 'global' AND active_threads <= 32 "
		    "AND active_threads * 4 <= (SELECT k.block_threads "
		    "FROM kernel k WHERE k.id = access.kernel_id) "
		    "AND EXISTS (SELECT 1 FROM access o WHERE o.kernel_id = access.kernel_id "
		    "AND o.space = 'global' AND o.id <> access.id AND o.active_threads IS NULL "
		    "AND o.single_lane = 0 AND COALESCE(o.traffic_depth, 0) >= COALESCE(access.traffic_depth, 0));"
		    /* The share of a shared access in the kernel's shared-memory
		     * traffic: the traffic loops it lies outside of, against the
		     * deepest shared access that every thread makes, and the
		     * fraction of the block that a bound on the thread index
		     * leaves it to beside one every thread makes at least as deep
		     * (the shared-memory conflict rules' weights). */
		    "UPDATE access SET shared_outer_loops = MAX(0, COALESCE((SELECT MAX(COALESCE(o.traffic_depth, 0)) "
		    "FROM access o WHERE o.kernel_id = access.kernel_id AND o.space = 'shared' "
		    "AND o.active_threads IS NULL), 0) - COALESCE(traffic_depth, 0)) WHERE space = 'shared';"
		    "UPDATE access SET shared_thread_share = 1.0 * active_threads / COALESCE((SELECT k.block_threads "
		    "FROM kernel k WHERE k.id = access.kernel_id), active_threads) "
		    "WHERE space = 'shared' AND active_threads IS NOT NULL AND EXISTS (SELECT 1 FROM access o "
		    "WHERE o.kernel_id = access.kernel_id AND o.space = 'shared' AND o.id <> access.id "
		    "AND o.active_threads IS NULL AND COALESCE(o.traffic_depth, 0) >= COALESCE(access.traffic_depth, 0));"
		    /* A run: accesses of one base, direction, size and loop whose indexes
		     * differ only by constants (a hand-unrolled a[4*i+0], a[4*i+1], ...).
		     * When their offsets tile the lane stride exactly, every byte of the
		     * sectors they touch is used by the run: run_bytes is the stride. */
		    "CREATE TEMP VIEW IF NOT EXISTS ka_run AS SELECT a.id AS id, "
		    "count(DISTINCT b.offset_const) AS n, min(b.offset_const) AS lo, max(b.offset_const) AS hi "
		    "FROM access a JOIN access b ON b.kernel_id = a.kernel_id AND b.func IS a.func "
		    "AND b.call_line IS a.call_line AND b.loop_id IS a.loop_id AND b.space = a.space "
		    "AND b.base = a.base AND b.rw = a.rw AND b.affine_var = a.affine_var "
		    "AND b.access_bytes = a.access_bytes AND b.elem_bytes = a.elem_bytes "
		    "AND b.offset_const IS NOT NULL "
		    "WHERE a.affine_var IS NOT NULL AND a.offset_const IS NOT NULL AND a.access_bytes > 0 "
		    "AND a.stride_bytes_tx > a.access_bytes GROUP BY a.id;"
		    "UPDATE access SET run_bytes = stride_bytes_tx WHERE id IN (SELECT r.id FROM ka_run r "
		    "JOIN access a ON a.id = r.id WHERE r.n * a.access_bytes = a.stride_bytes_tx "
		    "AND (r.hi - r.lo) * a.elem_bytes + a.access_bytes = a.stride_bytes_tx);"
		    "DROP VIEW ka_run;",
		    NULL, NULL, &err) != SQLITE_OK)
		ka_facts_writer_fail(w.file.fw, KA_ERR, "facts: %s (joins)", err ? err : "?");
	sqlite3_free(err);
	if (exchange_joins(db, tu->arena) != SQLITE_OK)
		ka_facts_writer_fail(w.file.fw, KA_ERR, "facts: %s (exchange)", sqlite3_errmsg(db));
	if (ka_records_join(db) != 0)
		ka_facts_writer_fail(w.file.fw, KA_ERR, "facts: %s (records)", sqlite3_errmsg(db));
	free(w.sym.scope);
	/* One check for every row of the file: a failed insert (a bug in the
	 * writer's caller, or SQLite out of memory) fails the file and leaves
	 * the database as it was, never a table silently short of rows. */
	rc = ka_facts_writer_check(w.file.fw);
	ka_facts_writer_free(w.file.fw);
	if (rc != KA_OK) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK
		       ? KA_OK
		       : ka_error_set(KA_ERR, "facts: %s", sqlite3_errmsg(db));
}

static int analyze_file_here(const ka_analyze_opts *opts, const char *path, sqlite3 *db)
{
	char dashed[4200];
	if (path && path[0] == '-') { /* never an option to libclang or nvcc */
		snprintf(dashed, sizeof dashed, "./%s", path);
		path = dashed;
	}
	ka_analyze_opts def = KA_ANALYZE_OPTS_INIT;
	const ka_analyze_opts *o = opts ? opts : &def;
	const char *arch_name = o->arch;
	ka_arena *fa = ka_arena_new();
	ka_flags fl;
	ka_frontend_flags(fa, o->extra_args, o->n_extra_args, o->directory, &fl);
	if (!arch_name && fl.arch && ka_arch_find(fl.arch))
		arch_name = ka_arena_strdup(fa, fl.arch); /* the compile database's target */
	if (!arch_name)
		arch_name = KA_ARCH_DEFAULT;
	const ka_arch *arch = ka_arch_find(arch_name);
	if (!arch) {
		char known[512];
		size_t n = 0;
		for (const ka_arch *a = ka_arch_all(); a->name && n < sizeof known; a++)
			n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", n ? ", " : "", a->name);
		int erc = ka_error_set(KA_EINPUT, "unknown --arch '%s' (known: %s)", arch_name, known);
		ka_arena_free(fa);
		return erc;
	}
	ka_frontend_opts fo = {.lang = ka_lang_of_path(path),
			       .arch = arch_name,
			       .cuda_path = o->cuda_path,
			       .force_shim = o->force_shim,
			       .resource_dir = o->resource_dir,
			       .extra = o->extra_args,
			       .nextra = o->n_extra_args,
			       .directory = o->directory};
	if (fl.hip)
		fo.lang = "hip";
	fo.lang_fixed = fl.hip || fl.cuda;
	ka_tu *tu = NULL;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	int rc = ka_frontend_parse(&fo, path, &tu);
	ka_arena_free(fa); /* arch_name is not used past here */
	if (rc != KA_OK)
		return rc;
	rc = analyze_tu(tu, o, arch, db, (double)ts.tv_sec + ts.tv_nsec / 1e9);
	if (rc == KA_OK && o->ptxas)
		rc = ka_ptxas_join(o, arch, path, db);
	else if (rc == KA_OK && !tu->n_errors)
		ka_ptxas_confirm_lmem(o, arch, path, db);
	/* Partial analysis (docs/analyzer.md): clang errors fail the file only
	 * when no function of it could be analyzed. */
	if (rc == KA_OK && tu->n_errors && !tu->funcs) {
		const ka_diag *first = NULL;
		for (const ka_diag *d = tu->diags; d; d = d->next)
			if (ka_diag_is_error(d))
				first = d;
		rc = ka_error_set(KA_EPARSE, "%s:%d:%d: error: %s", first ? first->file : path,
				  first ? first->line : 0, first ? first->col : 0,
				  first ? first->message : "parse error");
	}
	ka_tu_free(tu);
	return rc;
}

/* One analysis on the big-stack thread: its arguments, its result and the
 * message it set (ka_error_last is per thread). */
typedef struct stack_job {
	const ka_analyze_opts *opts;
	const char *path;
	sqlite3 *db;
	int rc;
	char err[1024];
} stack_job;

/* LLVM's first parse installs a signal stack of its own (malloc'ed, kept
 * for the process) on the thread that parses; this thread puts back the one
 * it was started with before it ends, so the thread library (or a
 * sanitizer's runtime, which unmaps what it finds there) frees its own. */
static void *stack_main(void *arg)
{
	stack_job *j = arg;
	stack_t mine;
	int have = sigaltstack(NULL, &mine) == 0;
	j->rc = analyze_file_here(j->opts, j->path, j->db);
	if (j->rc != KA_OK)
		snprintf(j->err, sizeof j->err, "%s", ka_error_last());
	if (have) {
		if (mine.ss_flags & SS_DISABLE)
			mine.ss_size = MINSIGSTKSZ; /* ignored with SS_DISABLE, checked by some kernels */
		sigaltstack(&mine, NULL);
	}
	return NULL;
}

/* libclang parses on a thread of its own (8 MB of stack) unless told not
 * to, and the analysis thread would get a heap of its own; set once,
 * before any parse, and never unset. */
static void no_clang_threads(void)
{
	setenv("LIBCLANG_NOTHREADS", "1", 0);
	mallopt(M_ARENA_MAX, 1);
}

/* The stack of the analysis thread: KA_ANALYZE_STACK_MB, or the
 * KCHECK_TEST_STACK_KB of a test that wants a deep input to overflow it. */
static size_t stack_bytes(void)
{
	const char *t = getenv("KCHECK_TEST_STACK_KB");
	long kb = t && *t ? strtol(t, NULL, 10) : 0;
	return kb > 0 ? (size_t)kb << 10 : (size_t)KA_ANALYZE_STACK_MB << 20;
}

int ka_analyze_file(const ka_analyze_opts *opts, const char *path, sqlite3 *db)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	stack_job j = {.opts = opts, .path = path, .db = db};
	pthread_attr_t at;
	pthread_t tid;
	int started = 0;
	pthread_once(&once, no_clang_threads);
	if (pthread_attr_init(&at) == 0) {
		started = pthread_attr_setstacksize(&at, stack_bytes()) == 0 &&
			  pthread_create(&tid, &at, stack_main, &j) == 0;
		pthread_attr_destroy(&at);
	}
	if (!started) /* no memory for the stack: the caller's own will do */
		return analyze_file_here(opts, path, db);
	pthread_join(tid, NULL);
	if (j.rc != KA_OK)
		ka_error_set(j.rc, "%s", j.err);
	return j.rc;
}

int ka_analyze_clang_args(const ka_analyze_opts *o, const char *path, ka_arena *a, const char ***argv,
			  int *argc)
{
	ka_frontend_opts fo = {.lang = ka_lang_of_path(path),
			       .arch = o->arch,
			       .force_shim = o->force_shim,
			       .extra = o->extra_args,
			       .nextra = o->n_extra_args};
	return ka_frontend_parse_args(&fo, a, argv, argc);
}
