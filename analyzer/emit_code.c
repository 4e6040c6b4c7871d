/* analyzer/emit_code.c: the rows of code the walker meets: barriers,
 * atomics, calls, literals, loops and reductions, branches, early returns,
 * launches.  Written on the typed facts writer (facts/facts.h); the walker
 * (walk_*.c) computes what they say and keeps the tallies. */
#include "analyzer/frontend.h"
#include "analyzer/walk.h"
#include "util/checked.h"
#include <ctype.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static const char *const legacy_names[] = {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
					   "__any",  "__all",     "__ballot",    NULL};

static int is_legacy(const char *s)
{
	for (int i = 0; legacy_names[i]; i++)
		if (strcmp(s, legacy_names[i]) == 0)
			return 1;
	return 0;
}

/* An axes mask as text ("x", "xy", ...); NULL when none. */
const char *walk_axes_text(int m, char buf[4])
{
	int n = 0;
	for (int k = 0; k < 3; k++)
		if (m & (1 << k))
			buf[n++] = (char)('x' + k);
	buf[n] = 0;
	return n ? buf : NULL;
}

void walk_emit_barrier(walk *w, ka_node *n, const char *kind, int div, walk_uni why, int line,
		       const char *file, int warp)
{
	int nonuni = 0;
	for (int i = 0; i < w->ctl.nloops; i++)
		nonuni |= w->ctl.loops[i].nonuniform;
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(barrier));
	ka_facts_int(&r, KA_COL(barrier, id), walk_next_id(w));
	ka_facts_opt(&r, KA_COL(barrier, kernel_id), w->kernel != NULL, w->kernel_id);
	ka_facts_text(&r, KA_COL(barrier, kernel), w->kernel ? w->kernel->name : NULL);
	ka_facts_text(&r, KA_COL(barrier, func), w->func);
	walk_emit_loc(&r, &n->loc);
	ka_facts_text(&r, KA_COL(barrier, name), n->name);
	ka_facts_text(&r, KA_COL(barrier, kind), kind);
	ka_facts_int(&r, KA_COL(barrier, in_divergent_branch), div);
	ka_facts_text(&r, KA_COL(barrier, divergence), div ? walk_uni_name(why) : NULL);
	ka_facts_opt(&r, KA_COL(barrier, divergent_branch_line), div, line);
	ka_facts_text(&r, KA_COL(barrier, divergent_branch_file),
		      div && file && n->loc.file && strcmp(file, n->loc.file) != 0 ? file : NULL);
	ka_facts_int(&r, KA_COL(barrier, after_divergent_return), w->ctl.div_return_line > 0 && !warp);
	ka_facts_opt(&r, KA_COL(barrier, divergent_return_line), w->ctl.div_return_line > 0,
		     w->ctl.div_return_line);
	ka_facts_int(&r, KA_COL(barrier, in_loop), w->ctl.nloops > 0);
	ka_facts_int(&r, KA_COL(barrier, in_nonuniform_loop), nonuni);
	ka_facts_int(&r, KA_COL(barrier, follows_barrier), w->ctl.last_was_barrier);
	ka_facts_int(&r, KA_COL(barrier, is_last_stmt),
		     w->ctl.at_last_stmt && w->ctl.nbrs == 0 && w->ctl.nloops == 0);
	/* the innermost divergent branch: the threads that skip this barrier
	 * leave it at its end (barrier.skip_exits); its range when it lies in
	 * the walked function's own body outside every loop, and the axes that
	 * all the divergent conditions around the barrier read */
	int inner = -1, axes = 0;
	for (int i = w->ctl.nbrs - 1; i >= 0; i--)
		if (w->ctl.brs[i].uniformity == WALK_UNI_THREAD ||
		    w->ctl.brs[i].uniformity == WALK_UNI_WARP) {
			if (inner < 0)
				inner = i;
			axes |= w->ctl.brs[i].axes;
		}
	int placed = div && !warp && inner >= 0 && w->ctl.brs[inner].has_off && w->ctl.brs[inner].nloops == 0;
	long begin = placed ? w->ctl.brs[inner].begin_off : 0, end = placed ? w->ctl.brs[inner].end_off : 0;
	/* outside every divergent branch, in a loop whose trips differ between
	 * threads and which lies outside every other loop (the threads that
	 * leave it never come back to the barrier): that loop's range */
	const loop_ctx *l0 = w->ctl.nloops > 0 ? &w->ctl.loops[0] : NULL;
	if (!div && !warp && inner < 0 && l0 && l0->nonuniform && l0->has_off) {
		placed = 1;
		for (int i = 1; i < w->ctl.nloops; i++)
			placed &= !w->ctl.loops[i].nonuniform;
		begin = l0->begin_off, end = l0->end_off, axes = l0->axes;
	}
	char ax[4];
	ka_facts_opt(&r, KA_COL(barrier, div_begin_off), placed, begin);
	ka_facts_opt(&r, KA_COL(barrier, div_end_off), placed, end);
	ka_facts_text(&r, KA_COL(barrier, div_cond_axes), placed ? walk_axes_text(axes, ax) : NULL);
	ka_facts_insert(&r);
}

static void close_div(walk *w, int64_t id0)
{
	char sql[256];
	snprintf(sql, sizeof sql,
		 "UPDATE barrier SET div_close_id = %lld WHERE kernel_id = %lld AND id > %lld "
		 "AND kind = 'block' AND div_begin_off IS NOT NULL AND div_close_id IS NULL",
		 (long long)*w->file.next_id, (long long)w->kernel_id, (long long)id0);
	sqlite3_exec(w->file.db, sql, NULL, NULL, NULL);
}

void walk_close_divergent_branch(walk *w, const br_ctx *b)
{
	if (w->ctl.quiet || !b->has_off || b->nloops || !w->kernel || b->n_barriers == 0)
		return;
	close_div(w, b->id0);
}

/* The end of a loop whose trips differ between threads, outside every
 * other loop: the barriers placed in it learn where it ends, unless a
 * thread-dependent `continue` inside it (or in a loop inside it) sends
 * some threads on to the next trip's barriers. */
void walk_close_nonuniform_loop(walk *w, const loop_ctx *lc)
{
	if (w->ctl.nloops && lc->div_continue)
		w->ctl.loops[w->ctl.nloops - 1].div_continue = 1;
	if (w->ctl.quiet || !lc->nonuniform || !lc->has_off || w->ctl.nloops || !w->kernel ||
	    lc->n_barriers == 0 || lc->div_continue)
		return;
	close_div(w, lc->id0);
}

/* An addend of x, outside any small remainder, that is a product moving
 * with the block, the data or the thread (`row * width`, `blockIdx.x *
 * NB`, `lane * 16`): the row of a row-major address.  scaled: x is
 * multiplied by a constant inside the index. */
static int row_term(const sx *x, int scaled)
{
	if (!x || !(x->dep & (D_BLOCK | D_DATA | D_LANE)))
		return 0;
	if (x->k == SX_ADD)
		return row_term(x->a, scaled) || row_term(x->b, scaled);
	if (x->has_rem_small)
		return 0;
	if (x->k == SX_MUL && (x->a->k == SX_CONST || x->b->k == SX_CONST))
		return row_term(x->a->k == SX_CONST ? x->b : x->a, 1);
	return x->k == SX_MUL || scaled;
}

/* The same over a byte address: its element-size factor is no row. */
static int has_row_term(const sx *x)
{
	if (x && x->k == SX_MUL && (x->a->k == SX_CONST || x->b->k == SX_CONST))
		x = x->a->k == SX_CONST ? x->b : x->a;
	return x && x->k == SX_ADD && row_term(x, 0);
}

int64_t walk_emit_atomic(walk *w, ka_node *n, const val *a, const sx *ax, const sx *v, ka_node *vn)
{
	val addr = *a;
	ka_facts_row r;
	int64_t id = walk_next_id(w);
	ka_facts_begin(&r, w->file.fw, KA_TABLE(atomic));
	ka_facts_int(&r, KA_COL(atomic, id), id);
	ka_facts_opt(&r, KA_COL(atomic, kernel_id), w->kernel != NULL, w->kernel_id);
	ka_facts_text(&r, KA_COL(atomic, kernel), w->kernel ? w->kernel->name : NULL);
	ka_facts_text(&r, KA_COL(atomic, func), w->func);
	walk_emit_loc(&r, &n->loc);
	ka_facts_text(&r, KA_COL(atomic, op), n->name);
	ka_facts_text(&r, KA_COL(atomic, space),
		      addr.space == SP_SHARED ? "shared"
		      : addr.base             ? "global"
					      : "unknown");
	ka_facts_text(&r, KA_COL(atomic, base), addr.base ? addr.base->name : NULL);
	ka_facts_text(&r, KA_COL(atomic, elem_type), n->type);
	ka_facts_int(&r, KA_COL(atomic, is_float), (n->tflags & (KT_FLOAT | KT_DOUBLE)) != 0);
	ka_facts_int(&r, KA_COL(atomic, address_uniform), !(ax->dep & D_LANE));
	ka_facts_int(&r, KA_COL(atomic, address_thread_dependent), (ax->dep & D_LANE) != 0);
	ka_facts_int(&r, KA_COL(atomic, address_data_dependent), (ax->dep & D_DATA) != 0);
	/* bins: a remainder or mask by a small constant, or a loaded key taken
	 * modulo the bin count (`x[i] % bins`); `i % P` of the thread's own
	 * index by a run-time P spreads over P addresses, one per lane.  A
	 * remainder beside a row term is a column of a row that the data, the
	 * block or the warp chooses (`out[row * width + lane % 32]`): rows x
	 * columns addresses, not a few bins */
	ka_facts_int(&r, KA_COL(atomic, address_small_range),
		     (ax->has_rem_small && !has_row_term(ax)) || ax->has_rem_key);
	ka_facts_int(&r, KA_COL(atomic, value_uniform), !(v->dep & D_LANE));
	ka_facts_int(&r, KA_COL(atomic, value_const), vn && (vn->kind == KN_INT || vn->kind == KN_FLOAT));
	ka_facts_int(&r, KA_COL(atomic, in_loop), w->ctl.nloops > 0);
	ka_facts_text(&r, KA_COL(atomic, index_text), walk_text(w, n->kids[0]));
	ka_facts_int(&r, KA_COL(atomic, result_compared), 0);
	ka_facts_int(&r, KA_COL(atomic, single_lane), walk_single_lane(w));
	/* rows x columns of bins, however the index was spelled (`linInd = y +
	 * x * sizeY; atomicAdd(&hist[linInd], 1)`) */
	ka_facts_int(&r, KA_COL(atomic, address_row_term), has_row_term(ax));
	ka_facts_int(&r, KA_COL(atomic, result_index), 0);
	ka_facts_insert(&r);
	return id;
}

/* Sets column col of the atomics whose returned old value x holds, once
 * armed (also through a variable set on two paths: both values); a
 * comparison arms what is under it. */
static void mark_atomics(walk *w, const sx *x, const char *col, int armed, int depth)
{
	if (!x || depth > 16)
		return;
	if (armed && x->k == SX_OPAQUE && x->atomic_id) {
		char sql[96];
		snprintf(sql, sizeof sql, "UPDATE atomic SET %s = 1 WHERE id = %lld", col,
			 (long long)x->atomic_id);
		sqlite3_exec(w->file.db, sql, NULL, NULL, NULL);
		return;
	}
	if (armed && x->k == SX_SYM) {
		const sx_sym *s = &w->sym.sx.syms[x->sym];
		mark_atomics(w, s->merged[0], col, 1, depth + 1);
		mark_atomics(w, s->merged[1], col, 1, depth + 1);
		return;
	}
	mark_atomics(w, x->a, col, armed || x->k == SX_CMP, depth + 1);
	mark_atomics(w, x->b, col, armed || x->k == SX_CMP, depth + 1);
}

/* A condition that compares an atomic's returned old value (`if
 * (atomicAdd(&count[p], 1) == 1)`, also through a variable): the atomic is
 * a ticket or an arrival counter whose result decides who goes on. */
void walk_note_compared_atomics(walk *w, const sx *cond)
{
	if (!w->ctl.quiet)
		mark_atomics(w, cond, "result_compared", 0, 0);
}

/* An address that holds an atomic's returned old value (`pos =
 * atomicAdd(&count[b], 1); out[start[b] + pos] = x`): the atomic hands out
 * slots of a bucket (a counting sort's scatter, a cell list), so each
 * caller needs its own old value in order and the bins are the buckets. */
void walk_note_indexing_atomics(walk *w, const sx *addr)
{
	if (!w->ctl.quiet)
		mark_atomics(w, addr, "result_index", 1, 0);
}

static int fold_real(ka_node *n, double *v)
{
	n = walk_strip(n);
	if (!n)
		return 0;
	if (n->kind == KN_FLOAT) {
		*v = n->fval;
		return 1;
	}
	if (n->kind == KN_INT) {
		*v = (double)n->ival;
		return 1;
	}
	if (n->kind == KN_UNOP && n->op == OP_MINUS && n->nkids == 1 && fold_real(n->kids[0], v)) {
		*v = -*v;
		return 1;
	}
	return 0;
}

static int static_depth(walk *w, ka_node *n, int depth);

/* Whether every store to d in n gives it a value the compiler folds (1;
 * *stores counts them), or one does not (0: a run-time value, a compound
 * assignment, ++, its address taken). */
static int static_stores(walk *w, ka_node *n, const ka_decl *d, int *stores, int depth)
{
	if (!n)
		return 1;
	if ((n->kind == KN_BINOP && n->op >= OP_ASSIGN && n->op <= OP_ORA) ||
	    (n->kind == KN_UNOP && n->op >= OP_POSTINC && n->op <= OP_ADDROF)) {
		ka_node *l = n->nkids ? walk_strip(n->kids[0]) : NULL;
		if (l && l->kind == KN_DECLREF && l->ref == d) {
			if (n->kind == KN_UNOP || n->op != OP_ASSIGN || n->nkids != 2 ||
			    !static_depth(w, n->kids[1], depth + 1))
				return 0;
			++*stores;
		}
	}
	for (int i = 0; i < n->nkids; i++)
		if (!static_stores(w, n->kids[i], d, stores, depth))
			return 0;
	return 1;
}

/* A value the compiler folds: literals, integer constants, arithmetic and
 * math functions of them, and locals only ever given such values in the
 * functions being walked (`r = 10.25f; v = 3.1416f * powf(r, 2)`).  Depth
 * bounds the chase through variables. */
static int static_depth(walk *w, ka_node *n, int depth)
{
	n = walk_strip(n);
	if (!n || depth > 4)
		return 0;
	if (n->kind == KN_INT || n->kind == KN_FLOAT || (n->kind == KN_DECLREF && n->const_known))
		return 1;
	if (n->kind == KN_UNOP && (n->op == OP_MINUS || n->op == OP_PLUS) && n->nkids == 1)
		return static_depth(w, n->kids[0], depth);
	if (n->kind == KN_BINOP && n->nkids == 2 &&
	    (n->op == OP_MUL || n->op == OP_DIV || n->op == OP_ADD || n->op == OP_SUB))
		return static_depth(w, n->kids[0], depth) && static_depth(w, n->kids[1], depth);
	if (n->kind == KN_CALL && n->name && !n->cfg && n->nkids > 0 &&
	    strcmp(walk_call_category(n->name, n->ref), "math") == 0) {
		for (int i = 0; i < n->nkids; i++)
			if (!static_depth(w, n->kids[i], depth))
				return 0;
		return 1;
	}
	ka_decl *d = n->kind == KN_DECLREF ? n->ref : NULL;
	if (!d || d->kind != KD_VAR || (d->flags & (KDF_GLOBAL | KDF_SHARED | KDF_FILE_SCOPE | KDF_STATIC)) ||
	    (d->tflags & (KT_POINTER | KT_ARRAY | KT_RECORD)) ||
	    (d->init && !static_depth(w, d->init, depth + 1)))
		return 0;
	int stores = d->init ? 1 : 0;
	if (!static_stores(w, w->fn->body, d, &stores, depth))
		return 0;
	for (int i = 0; i < w->ctl.inline_depth; i++)
		if (!static_stores(w, w->ctl.inline_stack[i]->body, d, &stores, depth))
			return 0;
	return stores > 0;
}

int walk_static_value(walk *w, ka_node *n)
{
	return static_depth(w, n, 0);
}

static void arg_cols(walk *w, ka_facts_row *r, ka_node *n, int i)
{
	static const ka_facts_col t[] = {KA_COL(call, arg0_text), KA_COL(call, arg1_text)},
				  b[] = {KA_COL(call, arg0_begin_off), KA_COL(call, arg1_begin_off)},
				  e[] = {KA_COL(call, arg0_end_off), KA_COL(call, arg1_end_off)},
				  ty[] = {KA_COL(call, arg0_type), KA_COL(call, arg1_type)};
	ka_node *a = i < n->nkids ? n->kids[i] : NULL;
	ka_node *s = a ? walk_strip(a) : NULL;
	ka_facts_text(r, t[i], a ? walk_text(w, a) : NULL);
	ka_facts_opt(r, b[i], a && !a->loc.in_macro, a ? a->loc.begin : 0);
	ka_facts_opt(r, e[i], a && !a->loc.in_macro, a ? a->loc.end : 0);
	ka_facts_text(r, ty[i], s ? s->type : NULL);
}

static const char *host_ptr_kind(walk *w, ka_node *n)
{
	if (n->nkids < 4)
		return NULL;
	ka_node *kn = walk_strip(n->kids[3]);
	const char *kind = kn && kn->kind == KN_DECLREF ? kn->name : walk_text(w, n->kids[3]);
	int idx = kind && strstr(kind, "HostToDevice") ? 1 : kind && strstr(kind, "DeviceToHost") ? 0 : -1;
	if (idx < 0)
		return "unknown";
	ka_node *p = walk_strip(n->kids[idx]);
	while (p && ((p->kind == KN_UNOP && p->op == OP_ADDROF && p->nkids == 1) ||
		     (p->kind == KN_BINOP && (p->op == OP_ADD || p->op == OP_SUB) && p->nkids == 2)))
		p = walk_strip(p->kids[0]); /* &buf[k], host + offset */
	if (p && p->kind == KN_SUBSCRIPT && p->nkids) {
		/* `bufs[dev]`, an element of an array of pointers: the copy
		 * reads what the element points to, not the array */
		if ((p->tflags & KT_POINTER) && !(p->tflags & KT_ARRAY))
			return "unknown";
		p = walk_strip(p->kids[0]);
	}
	if (!p || p->kind != KN_DECLREF || !p->ref)
		return "unknown";
	if (p->ref->tflags & KT_ARRAY)
		return "stack";
	int hk = w->sym.ds[p->ref->id].host_kind;
	return hk == 1 ? "malloc" : hk == 2 ? "pinned" : "unknown";
}

/* A shuffle with a constant width below the warp's (`__shfl_sync(m, v,
 * src, 8)`) whose thread-dependent conditions are each the same in every
 * aligned group of that many lanes: each lane that arrives reads from a
 * lane of its own group, which arrives too.  The mask still names lanes
 * that do not come (the rule says so, as a note). */
static int shuffle_in_whole_groups(walk *w, ka_node *n)
{
	if (strncmp(n->name, "__shfl", 6) != 0 || n->nkids < 3)
		return 0;
	int64_t width = 0, m;
	if (n->nkids >= 4) {
		w->ctl.quiet++;
		const sx *wx = walk_ev_int(w, n->kids[3]);
		w->ctl.quiet--;
		if (!walk_shfl_width(w, n, n->kids[3], wx, &width))
			return 0;
	}
	/* a butterfly step `__shfl_xor_sync(mask, v, m)` stays in the aligned
	 * group of the next power of two above m */
	if (strstr(n->name, "xor") && walk_fold_int(w, n->kids[2], &m) && m > 0 && m < 32) {
		int64_t g = 2;
		while (g <= m)
			g *= 2;
		if (!width || g < width)
			width = g;
	}
	if (width < 2 || width >= w->file.arch->warp_size || (width & (width - 1)))
		return 0;
	for (int i = 0; i < w->ctl.nbrs; i++)
		if (w->ctl.brs[i].uniformity == WALK_UNI_THREAD && w->ctl.brs[i].seg < width)
			return 0;
	return 1;
}

/* Which argument of a host copy, set or allocation is its byte count
 * (call.bytes); -1 for any other call. */
static int byte_count_arg(const char *name)
{
	static const struct {
		const char *suffix;
		int arg;
	} t[] = {{"Memcpy", 2},      {"MemcpyAsync", 2}, {"Memset", 2},
		 {"MemsetAsync", 2}, {"Malloc", 1},      {"MallocManaged", 1},
		 {"MallocHost", 1},  {"HostAlloc", 1},   {"MemPrefetchAsync", 1}};
	const char *s = strncmp(name, "cuda", 4) == 0  ? name + 4
			: strncmp(name, "hip", 3) == 0 ? name + 3
						       : NULL;
	for (size_t i = 0; s && i < sizeof t / sizeof t[0]; i++)
		if (strcmp(s, t[i].suffix) == 0)
			return t[i].arg;
	return -1;
}

void walk_emit_call(walk *w, ka_node *n, const char *cat, int checked)
{
	if (w->ctl.quiet)
		return;
	int warpish = strcmp(cat, "warp") == 0 || strcmp(cat, "vote") == 0;
	walk_uni why = WALK_UNI_GRID;
	int line = 0;
	const char *file = NULL;
	int div = walk_in_divergent(w, &why, &line, &file, warpish);
	int whole_groups = div && warpish && why == WALK_UNI_THREAD && shuffle_in_whole_groups(w, n);
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(call));
	ka_facts_int(&r, KA_COL(call, id), walk_next_id(w));
	ka_facts_opt(&r, KA_COL(call, kernel_id), w->kernel != NULL, w->kernel_id);
	ka_facts_text(&r, KA_COL(call, kernel), w->kernel ? w->kernel->name : NULL);
	ka_facts_text(&r, KA_COL(call, func), w->func);
	walk_emit_loc(&r, &n->loc);
	ka_facts_text(&r, KA_COL(call, callee), n->name);
	ka_facts_text(&r, KA_COL(call, debug_guard), n->debug_guard);
	ka_facts_opt(&r, KA_COL(call, callee_begin_off), n->name_begin >= 0, n->name_begin);
	ka_facts_opt(&r, KA_COL(call, callee_end_off), n->name_end >= 0, n->name_end);
	ka_facts_text(&r, KA_COL(call, category), cat);
	ka_facts_int(&r, KA_COL(call, is_device_code), w->is_device);
	ka_facts_int(&r, KA_COL(call, is_legacy_intrinsic), is_legacy(n->name));
	ka_facts_int(&r, KA_COL(call, in_loop), w->ctl.nloops > 0);
	ka_facts_int(&r, KA_COL(call, first_run), w->kernel ? 0 : walk_first_run(w));
	ka_facts_int(&r, KA_COL(call, loop_depth), w->ctl.nloops);
	ka_facts_int(&r, KA_COL(call, in_divergent_branch), div);
	ka_facts_opt(&r, KA_COL(call, divergent_branch_line), div && line > 0, line);
	ka_facts_text(&r, KA_COL(call, divergent_branch_file),
		      div && file && n->loc.file && strcmp(file, n->loc.file) != 0 ? file : NULL);
	ka_facts_text(&r, KA_COL(call, divergence),
		      whole_groups ? "segment"
		      : div        ? walk_uni_name(why)
				   : NULL);
	ka_facts_int(&r, KA_COL(call, nargs), n->nkids);
	if (n->nkids && n->kids[0]->loc.begin <= n->kids[n->nkids - 1]->loc.end)
		ka_facts_text(&r, KA_COL(call, args_text),
			      ka_tu_text(w->file.tu, n->loc.file, n->kids[0]->loc.begin,
					 n->kids[n->nkids - 1]->loc.end));
	arg_cols(w, &r, n, 0);
	arg_cols(w, &r, n, 1);
	double c;
	int has1 = n->nkids > 1 && fold_real(n->kids[1], &c);
	if (has1)
		ka_facts_real(&r, KA_COL(call, arg1_const), c);
	ka_node *a0 = n->nkids ? walk_strip(n->kids[0]) : NULL;
	ka_facts_int(&r, KA_COL(call, arg_is_float), a0 && (a0->tflags & KT_FLOAT));
	if (a0 && w->is_device && strcmp(cat, "math") == 0)
		ka_facts_int(&r, KA_COL(call, arg0_static), walk_static_value(w, n->kids[0]));
	ka_facts_int(&r, KA_COL(call, returns_double), (n->tflags & KT_DOUBLE) != 0);
	ka_facts_text(&r, KA_COL(call, result_type), n->type);
	if (warpish && strstr(n->name, "_sync") && a0) {
		int64_t m;
		int known = walk_fold_int(w, n->kids[0], &m);
		/* in a macro's expansion the source text at the argument's place is
		 * the macro's invocation (`__shfl_down(v, 1)` for a
		 * `__shfl_down_sync(FULL_MASK, ...)`): the value, when known */
		const char *mt = n->kids[0]->loc.in_macro
					 ? (known ? ka_arena_printf(w->file.a, "0x%llx",
								    (unsigned long long)(uint32_t)m)
						  : "mask")
					 : walk_text(w, n->kids[0]);
		ka_facts_text(&r, KA_COL(call, mask_text), mt);
		ka_facts_opt(&r, KA_COL(call, mask_is_full), known, known && (m == 0xffffffffLL || m == -1));
		ka_facts_int(&r, KA_COL(call, mask_bits), a0->type_bytes > 0 ? a0->type_bytes * 8 : 32);
	}
	if (strcmp(cat, "host_api") == 0) {
		ka_facts_int(&r, KA_COL(call, result_checked), checked);
		if (strstr(n->name, "Memcpy"))
			ka_facts_text(&r, KA_COL(call, host_ptr_kind), host_ptr_kind(w, n));
		int hl = 0;
		for (int i = 0; i < w->ctl.nloops; i++)
			hl |= w->ctl.loops[i].has_launch;
		ka_facts_int(&r, KA_COL(call, in_host_loop_with_launch), hl);
		int fail = 0;
		for (int i = 0; i < w->ctl.nbrs; i++)
			fail |= w->ctl.brs[i].fails == (w->ctl.brs[i].in_else ? -1 : 1);
		ka_facts_int(&r, KA_COL(call, error_path), fail);
		int bi = byte_count_arg(n->name);
		int64_t bytes;
		if (bi >= 0 && bi < n->nkids && walk_fold_int(w, n->kids[bi], &bytes))
			ka_facts_int(&r, KA_COL(call, bytes), bytes);
	}
	ka_facts_insert(&r);
}

void walk_emit_literal(walk *w, ka_node *n, int promotes, int folds)
{
	if (w->ctl.quiet || !w->is_device)
		return;
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(literal));
	ka_facts_int(&r, KA_COL(literal, id), walk_next_id(w));
	ka_facts_opt(&r, KA_COL(literal, kernel_id), w->kernel != NULL, w->kernel_id);
	ka_facts_text(&r, KA_COL(literal, kernel), w->kernel ? w->kernel->name : NULL);
	ka_facts_text(&r, KA_COL(literal, func), w->func);
	walk_emit_loc(&r, &n->loc);
	/* A literal from a macro body: its value, since the text is the macro's name. */
	int is_int = n->kind == KN_INT;
	const char *mtext = is_int ? ka_arena_printf(w->file.a, "%lld", (long long)n->ival)
				   : ka_arena_printf(w->file.a, "%g", n->fval);
	ka_facts_text(&r, KA_COL(literal, text), n->loc.in_macro ? mtext : walk_text(w, n));
	ka_facts_text(&r, KA_COL(literal, kind), is_int ? "int" : n->has_f_suffix ? "float" : "double");
	ka_facts_int(&r, KA_COL(literal, promotes_to_double), promotes);
	ka_facts_int(&r, KA_COL(literal, folds), folds);
	ka_facts_int(&r, KA_COL(literal, in_loop), w->ctl.nloops > 0);
	ka_facts_int(&r, KA_COL(literal, in_macro), n->loc.in_macro);
	ka_facts_insert(&r);
}

/* 1 when the expression reads gridDim (the step of a grid-stride loop), by
 * the tree, so that a loop a macro writes (CUDA_KERNEL_LOOP) is one too. */
static int names_grid_dim(const ka_node *e)
{
	if (!e)
		return 0;
	if (e->kind == KN_DECLREF && e->name && !strcmp(e->name, "gridDim"))
		return 1;
	for (int i = 0; i < e->nkids; i++)
		if (names_grid_dim(e->kids[i]))
			return 1;
	return 0;
}

void walk_emit_loop(walk *w, ka_node *n, const loop_ctx *lc, const char *kind, ka_decl *iv, const sx *cond,
		    int64_t trip, int trip_ok)
{
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(loop));
	ka_facts_int(&r, KA_COL(loop, id), lc->id);
	ka_facts_opt(&r, KA_COL(loop, kernel_id), w->kernel != NULL, w->kernel_id);
	ka_facts_text(&r, KA_COL(loop, kernel), w->kernel ? w->kernel->name : NULL);
	ka_facts_text(&r, KA_COL(loop, func), w->func);
	walk_emit_loc(&r, &n->loc);
	ka_facts_text(&r, KA_COL(loop, kind), kind);
	ka_facts_text(&r, KA_COL(loop, iv), iv ? iv->name : NULL);
	ka_facts_int(&r, KA_COL(loop, iv_unsigned), iv && (iv->tflags & KT_UNSIGNED));
	ka_facts_opt(&r, KA_COL(loop, iv_bytes), iv && iv->type_bytes > 0, iv ? iv->type_bytes : 0);
	if (n->kind == KN_FOR) {
		/* the start value and the bound, not the whole statements */
		ka_node *c = walk_strip(n->kids[1]);
		ka_node *bound = c && c->kind == KN_BINOP && c->nkids == 2 ? c->kids[1] : c;
		ka_node *init = iv && iv->init ? iv->init : n->kids[0];
		if (n->kids[0] && n->kids[0]->kind == KN_BINOP && n->kids[0]->nkids == 2)
			init = n->kids[0]->kids[1];
		ka_facts_text(&r, KA_COL(loop, init_text), walk_text(w, init));
		ka_facts_text(&r, KA_COL(loop, bound_text), walk_text(w, bound));
		ka_facts_text(&r, KA_COL(loop, step_text), walk_text(w, n->kids[2]));
	} else if (n->kind == KN_WHILE && iv && n->kids[1] && n->kids[1]->nkids) {
		/* `while (i < n) { ...; i += s; }`: the bound and the body's
		 * closing increment */
		ka_node *c = walk_strip(n->kids[0]), *b = n->kids[1];
		ka_facts_text(&r, KA_COL(loop, bound_text),
			      walk_text(w, c && c->kind == KN_BINOP && c->nkids == 2 ? c->kids[1] : c));
		ka_facts_text(&r, KA_COL(loop, step_text), walk_text(w, b->kids[b->nkids - 1]));
	}
	ka_facts_opt(&r, KA_COL(loop, trip_count), trip_ok, trip);
	ka_facts_opt(&r, KA_COL(loop, nest_trips), !trip_ok && lc->has_nest, lc->nest_trips);
	ka_facts_int(&r, KA_COL(loop, trip_uniform), !(cond->dep & D_LANE));
	ka_facts_int(&r, KA_COL(loop, trip_thread_dependent), (cond->dep & D_LANE) != 0);
	ka_facts_int(&r, KA_COL(loop, trip_data_dependent), (cond->dep & D_DATA) != 0);
	ka_facts_int(&r, KA_COL(loop, has_unroll_pragma), n->unroll_pragma);
	ka_facts_opt(&r, KA_COL(loop, unroll_count), n->unroll_pragma && n->unroll_count > 0,
		     n->unroll_count);
	ka_facts_int(&r, KA_COL(loop, depth), w->ctl.nloops);
	ka_facts_opt(&r, KA_COL(loop, parent_id), w->ctl.nloops > 0,
		     w->ctl.nloops ? w->ctl.loops[w->ctl.nloops - 1].id : 0);
	ka_facts_int(&r, KA_COL(loop, has_barrier), lc->n_barriers > 0);
	ka_facts_int(&r, KA_COL(loop, n_accesses), lc->n_accesses);
	ka_facts_int(&r, KA_COL(loop, is_grid_stride),
		     n->kind == KN_FOR && (lc->grid_stride || names_grid_dim(n->kids[2])));
	ka_facts_int(&r, KA_COL(loop, trip_static), lc->trip_static);
	ka_facts_int(&r, KA_COL(loop, block_stride), lc->block_stride);
	ka_facts_insert(&r);
}

void walk_emit_reduction(walk *w, ka_node *n, const char *style, const char *iv, const char *array)
{
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(reduction_loop));
	ka_facts_int(&r, KA_COL(reduction_loop, id), walk_next_id(w));
	ka_facts_opt(&r, KA_COL(reduction_loop, kernel_id), w->kernel != NULL, w->kernel_id);
	ka_facts_text(&r, KA_COL(reduction_loop, kernel), w->kernel ? w->kernel->name : NULL);
	ka_facts_text(&r, KA_COL(reduction_loop, func), w->func);
	walk_emit_loc(&r, &n->loc);
	ka_facts_text(&r, KA_COL(reduction_loop, style), style);
	ka_facts_text(&r, KA_COL(reduction_loop, iv), iv);
	ka_facts_text(&r, KA_COL(reduction_loop, array), array);
	ka_facts_insert(&r);
}

int walk_thread_axes(walk *w, const sx *x)
{
	int m = 0;
	for (int k = 0; x && k < 3; k++)
		for (int i = 0; i < w->sym.sx.nsyms; i++)
			if (w->sym.sx.syms[i].kind == (sx_sym_kind)(SYM_TID_X + k) && sx_uses_sym(x, i)) {
				m |= 1 << k;
				break;
			}
	return m;
}

void walk_emit_early_return(walk *w, ka_node *n, const sx *c, walk_uni u, int thread_dep)
{
	if (w->ctl.quiet || !w->kernel || w->ctl.inline_depth)
		return;
	char axes[4];
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(early_return));
	ka_facts_int(&r, KA_COL(early_return, id), walk_next_id(w));
	ka_facts_int(&r, KA_COL(early_return, kernel_id), w->kernel_id);
	ka_facts_text(&r, KA_COL(early_return, kernel), w->kernel->name);
	ka_facts_text(&r, KA_COL(early_return, func), w->func);
	walk_emit_loc(&r, &n->kids[1]->loc);
	ka_facts_text(&r, KA_COL(early_return, cond_text), walk_text(w, n->kids[0]));
	ka_facts_int(&r, KA_COL(early_return, thread_dependent), thread_dep);
	ka_facts_text(&r, KA_COL(early_return, uniformity), walk_uni_name(u));
	ka_facts_text(&r, KA_COL(early_return, cond_axes), walk_axes_text(walk_thread_axes(w, c), axes));
	ka_facts_int(&r, KA_COL(early_return, before_barrier), 0);
	ka_facts_opt(&r, KA_COL(early_return, if_begin_off), !n->loc.in_macro, n->loc.begin);
	ka_facts_opt(&r, KA_COL(early_return, if_end_off), !n->loc.in_macro, n->loc.end);
	ka_facts_opt(&r, KA_COL(early_return, cond_begin_off), !n->kids[0]->loc.in_macro,
		     n->kids[0]->loc.begin);
	ka_facts_opt(&r, KA_COL(early_return, cond_end_off), !n->kids[0]->loc.in_macro, n->kids[0]->loc.end);
	ka_facts_insert(&r);
}

void walk_emit_branch(walk *w, ka_node *n, const sx *c, br_ctx *b, int then_bar, int else_bar)
{
	if (w->ctl.quiet)
		return;
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(branch));
	ka_facts_int(&r, KA_COL(branch, id), walk_next_id(w));
	ka_facts_opt(&r, KA_COL(branch, kernel_id), w->kernel != NULL, w->kernel_id);
	ka_facts_text(&r, KA_COL(branch, kernel), w->kernel ? w->kernel->name : NULL);
	ka_facts_text(&r, KA_COL(branch, func), w->func);
	walk_emit_loc(&r, &n->loc);
	ka_facts_text(&r, KA_COL(branch, cond_text), walk_text(w, n->kids[0]));
	ka_facts_text(&r, KA_COL(branch, kind),
		      n->kind == KN_SWITCH ? "switch"
		      : n->kind == KN_COND ? "ternary"
					   : "if");
	ka_facts_text(&r, KA_COL(branch, uniformity), walk_uni_name(b->uniformity));
	int td = walk_uni_thread_dep(b->uniformity);
	ka_facts_int(&r, KA_COL(branch, thread_dependent), td);
	ka_facts_int(&r, KA_COL(branch, warp_uniform), b->uniformity != WALK_UNI_THREAD);
	ka_facts_int(&r, KA_COL(branch, block_uniform), !td);
	ka_facts_int(&r, KA_COL(branch, lane_parity),
		     (c->has_rem_small || c->has_rem_var) && b->uniformity == WALK_UNI_THREAD &&
			     !walk_same_in_modelled_warps(w, c));
	ka_facts_int(&r, KA_COL(branch, lane_pin),
		     b->uniformity == WALK_UNI_THREAD && walk_cond_pins_lane(w, c, 1));
	ka_facts_int(&r, KA_COL(branch, data_dependent), (c->dep & D_DATA) != 0);
	int has_else = n->kind == KN_IF && n->nkids > 2 && n->kids[2];
	ka_facts_int(&r, KA_COL(branch, has_else), has_else);
	ka_node *th = n->nkids > 1 ? n->kids[1] : NULL;
	ka_facts_int(&r, KA_COL(branch, then_stmts), th ? (th->kind == KN_COMPOUND ? th->nkids : 1) : 0);
	ka_node *el = has_else ? n->kids[2] : NULL;
	ka_facts_int(&r, KA_COL(branch, else_stmts), el ? (el->kind == KN_COMPOUND ? el->nkids : 1) : 0);
	ka_facts_int(&r, KA_COL(branch, then_has_barrier), then_bar);
	ka_facts_int(&r, KA_COL(branch, else_has_barrier), else_bar);
	ka_facts_int(&r, KA_COL(branch, depth), w->ctl.nbrs);
	ka_facts_int(&r, KA_COL(branch, in_loop), w->ctl.nloops > 0);
	ka_facts_int(&r, KA_COL(branch, is_guard), b->is_guard);
	ka_facts_int(&r, KA_COL(branch, is_early_return), walk_is_return_only(th));
	ka_facts_insert(&r);
	if (td && b->uniformity == WALK_UNI_WARP && b->n_shared_writes >= 2 && !then_bar && w->kernel) {
		ka_facts_begin(&r, w->file.fw, KA_TABLE(divergent_warp_code));
		ka_facts_int(&r, KA_COL(divergent_warp_code, id), walk_next_id(w));
		ka_facts_int(&r, KA_COL(divergent_warp_code, kernel_id), w->kernel_id);
		ka_facts_text(&r, KA_COL(divergent_warp_code, kernel), w->kernel->name);
		ka_facts_text(&r, KA_COL(divergent_warp_code, func), w->func);
		walk_emit_loc(&r, &n->loc);
		ka_facts_text(&r, KA_COL(divergent_warp_code, cond_text), walk_text(w, n->kids[0]));
		ka_facts_int(&r, KA_COL(divergent_warp_code, n_shared_steps), b->n_shared_writes);
		ka_facts_int(&r, KA_COL(divergent_warp_code, uses_volatile), b->uses_volatile);
		ka_facts_int(&r, KA_COL(divergent_warp_code, has_syncwarp), b->n_syncwarp > 0);
		ka_facts_int(&r, KA_COL(divergent_warp_code, lanes_independent),
			     walk_branch_lanes_independent(w, b));
		ka_facts_insert(&r);
	}
}

/* A grid of the `(n + B - 1) / B` shape (also `ceil(n / B)`, `div_up(n,
 * B)`, `cdiv`), written in the launch or in the initializer of the local
 * variable (an int or a dim3) the launch names; *text gets the expression
 * where the variables end (`(num_segments + 1 + BS - 1) / BS` for `GS`). */
static int is_ceil_div(walk *w, ka_node *n, int depth, const char **text)
{
	ka_node *d = walk_strip(n);
	while (d && d->kind == KN_CALL && d->nkids >= 1 && d->name && strcmp(d->name, "dim3") == 0)
		d = walk_strip(d->kids[0]);
	if (!d || depth > 4)
		return 0;
	if (d->kind == KN_DECLREF && d->ref && d->ref->kind != KD_PARAM && d->ref->init)
		return is_ceil_div(w, d->ref->init, depth + 1, text);
	const char *t = walk_text(w, d);
	*text = t;
	int64_t by, add;
	if (d->kind == KN_BINOP && d->op == OP_DIV && walk_fold_int(w, d->kids[1], &by)) {
		ka_node *s = walk_strip(d->kids[0]);
		if (s && s->kind == KN_BINOP && s->op == OP_ADD && walk_fold_int(w, s->kids[1], &add) &&
		    add == by - 1)
			return 1;
	}
	if (!t)
		return 0;
	char low[256];
	size_t i = 0;
	for (; t[i] && i + 1 < sizeof low; i++)
		low[i] = (char)tolower((unsigned char)t[i]);
	low[i] = 0;
	if (strstr(low, "div_up") || strstr(low, "divup") || strstr(low, "cdiv") || strstr(low, "ceil_div") ||
	    strstr(low, "ceildiv") || strstr(low, "div_round_up"))
		return 1;
	return strchr(t, '/') && (strstr(t, "- 1") || strstr(t, "-1") || strstr(t, "ceil"));
}

static int checked_after(walk *w)
{
	if (w->ctl.api_result_used) /* cudaLaunchKernel returns the launch's error */
		return 1;
	const char *t = w->ctl.next_stmt ? walk_text(w, w->ctl.next_stmt) : NULL;
	return t && (strstr(t, "GetLastError") || strstr(t, "PeekAtLastError") ||
		     strstr(t, "DeviceSynchronize") || strstr(t, "CHECK") || strstr(t, "check"));
}

/* One bit of `axes` per folded axis: each axis on its own, the product
 * only when all three are known. */
static void dims_cols(ka_facts_row *r, const char *p, const int64_t d[3], int axes)
{
	static const ka_facts_col gx[] = {KA_COL(launch, grid_x), KA_COL(launch, grid_y),
					  KA_COL(launch, grid_z), KA_COL(launch, grid_blocks)};
	static const ka_facts_col bx[] = {KA_COL(launch, block_x), KA_COL(launch, block_y),
					  KA_COL(launch, block_z), KA_COL(launch, block_threads)};
	const ka_facts_col *c = p[0] == 'g' ? gx : bx;
	int64_t prod = 0;
	int ok = axes == 7 && ka_prod64(d, 3, &prod);
	for (int i = 0; i < 3; i++)
		ka_facts_opt(r, c[i], ok || ((axes >> i) & 1), d[i]);
	ka_facts_opt(r, c[3], ok, prod);
}

/* hipLaunchKernelGGL(kernel, grid, block, smem, stream, args...): the
 * configuration as written (the expanded nodes only know the macro use). */
static void macro_args(walk *w, const char *text, const char *out[4])
{
	const char *p = strchr(text, '(');
	if (!p)
		return;
	int depth = 0, idx = 0;
	const char *start = ++p;
	for (; *p && idx <= 4; p++) {
		if (*p == '(' || *p == '[' || *p == '{')
			depth++;
		else if ((*p == ')' || *p == ']' || *p == '}') && depth-- == 0)
			depth = -1;
		if ((*p == ',' && depth == 0) || depth < 0) {
			if (idx >= 1) {
				while (start < p && (*start == ' ' || *start == '\t'))
					start++;
				out[idx - 1] = ka_arena_strndup(w->file.a, start, (size_t)(p - start));
			}
			idx++;
			start = p + 1;
			if (depth < 0)
				break;
		}
	}
}

void walk_emit_launch(walk *w, ka_node *n, ka_decl *k, const int64_t g[3], int gaxes, const int64_t b[3],
		      int baxes, int64_t smem, int sok)
{
	ka_node *cfg = n->cfg;
	const char *text = walk_text(w, n);
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(launch));
	ka_facts_int(&r, KA_COL(launch, id), walk_next_id(w));
	ka_facts_text(&r, KA_COL(launch, kernel), k ? k->name : walk_call_name(w, n));
	ka_facts_text(&r, KA_COL(launch, func), w->func);
	walk_emit_loc(&r, &n->loc);
	ka_facts_text(&r, KA_COL(launch, api),
		      text && ka_chevron_opens(text)                         ? "chevron"
		      : text && strncmp(text, "hipLaunchKernelGGL", 18) == 0 ? "hipLaunchKernelGGL"
		      : n->name && strstr(n->name, "Launch")                 ? n->name
									     : "hipLaunchKernelGGL");
	static const ka_facts_col tc[] = {KA_COL(launch, grid_text), KA_COL(launch, block_text),
					  KA_COL(launch, smem_text), KA_COL(launch, stream_text)};
	const char *margs[4] = {0};
	int hip = text && strncmp(text, "hipLaunchKernelGGL", 18) == 0;
	if (hip)
		macro_args(w, text, margs);
	for (int i = 0; i < 4; i++)
		ka_facts_text(&r, tc[i], hip ? margs[i] : i < cfg->nkids ? walk_text(w, cfg->kids[i]) : NULL);
	dims_cols(&r, "grid", g, gaxes);
	dims_cols(&r, "block", b, baxes);
	if (cfg->nkids > 1 && !cfg->kids[1]->loc.in_macro) {
		ka_facts_int(&r, KA_COL(launch, block_begin_off), cfg->kids[1]->loc.begin);
		ka_facts_int(&r, KA_COL(launch, block_end_off), cfg->kids[1]->loc.end);
	}
	if (cfg->nkids > 0 && !cfg->kids[0]->loc.in_macro) {
		ka_facts_int(&r, KA_COL(launch, grid_begin_off), cfg->kids[0]->loc.begin);
		ka_facts_int(&r, KA_COL(launch, grid_end_off), cfg->kids[0]->loc.end);
	}
	const char *gtext = NULL;
	ka_facts_int(&r, KA_COL(launch, grid_is_ceil_div),
		     cfg->nkids > 0 && is_ceil_div(w, cfg->kids[0], 0, &gtext));
	ka_facts_text(&r, KA_COL(launch, grid_resolved_text), gtext);
	ka_facts_opt(&r, KA_COL(launch, dyn_smem), sok, smem);
	ka_facts_int(&r, KA_COL(launch, smem_optin), 0);
	ka_facts_int(&r, KA_COL(launch, in_loop), w->ctl.nloops > 0);
	ka_facts_int(&r, KA_COL(launch, first_run), walk_first_run(w));
	ka_facts_int(&r, KA_COL(launch, checked_after), checked_after(w));
	ka_facts_opt(&r, KA_COL(launch, stmt_begin_off), !n->loc.in_macro, n->loc.begin);
	ka_facts_opt(&r, KA_COL(launch, stmt_end_off), !n->loc.in_macro, n->loc.end);
	ka_facts_opt(&r, KA_COL(launch, func_begin_off), w->fn && !w->fn->loc.in_macro,
		     w->fn ? w->fn->decl_begin : 0);
	ka_facts_insert(&r);
}
