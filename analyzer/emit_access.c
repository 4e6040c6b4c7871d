/* analyzer/emit_access.c: the access row: one per subscript, dereference
 * or field of a pointer in device code, with its affine form, the thread
 * coefficients, the modelled warp's sectors and bank conflicts and the
 * enclosing loop (facts/facts.h).  record_access (walk_expr.c) calls it and
 * keeps the per-declaration statistics. */
#include "analyzer/walk.h"
#include <string.h>

static const char *space_name(int sp)
{
	static const char *const n[] = {"unknown", "global", "shared", "local", "constant", "unknown"};
	return n[sp];
}

static void coef_cols(walk *w, ka_facts_row *r, const sx *addr, int elem, int k, int *symbolic)
{
	static const ka_facts_col kc[] = {KA_COL(access, kind_tx), KA_COL(access, kind_ty),
					  KA_COL(access, kind_tz)};
	static const ka_facts_col cc[] = {KA_COL(access, coef_tx), KA_COL(access, coef_ty),
					  KA_COL(access, coef_tz)};
	const sx *c = sx_coef(&w->sym.sx, addr, (sx_sym_kind)(SYM_TID_X + k));
	int64_t v;
	sx_lane l0 = {{0, 0, 0}};
	if (c && !sx_is_const(c, NULL) && !sx_has_unknown(&w->sym.sx, c) &&
	    sx_eval(&w->sym.sx, c, &l0, &v) == 0)
		c = sx_const(&w->sym.sx, v); /* known dims: blockDim.y/24, warpSize */
	int64_t v0;
	if (c && sx_is_const(c, &v0) && v0 == 0 && (addr->dep & (D_TX << k)))
		c = NULL; /* the thread index hides in a variable or an opaque value
			   * (`a = floorf(sqrtf(gid))`, merged after a branch): the
			   * address does depend on it, just not affinely */
	if (!c) {
		ka_facts_text(r, kc[k], "nonaffine");
		ka_facts_opt(r, cc[k], 0, 0);
	} else if (sx_is_const(c, &v)) {
		ka_facts_text(r, kc[k], v == 0 ? "zero" : "const");
		/* in elements, toward zero when the byte step is not a whole number
		 * of elements (stride_bytes_tx stays exact) */
		ka_facts_opt(r, cc[k], elem > 0, elem > 0 ? v / elem : 0);
	} else {
		const sx *ce = elem > 0 ? sx_div_exact(&w->sym.sx, c, elem) : NULL;
		ka_facts_text(r, kc[k], sx_has_unknown(&w->sym.sx, c) ? "symbolic" : "const");
		ka_facts_opt(r, cc[k], 0, 0);
		if (k == 0)
			ka_facts_text(r, KA_COL(access, coef_tx_text),
				      sx_render(&w->sym.sx, w->file.a, ce ? ce : c));
		if (sx_has_unknown(&w->sym.sx, c))
			*symbolic = 1;
	}
}

/* The loops that carry this access's traffic: those that can (more than 8
 * trips, or a trip count not known at compile time) and that move it.  A
 * read whose address stays the same across a loop (a thread's own row read
 * again for every element of another row, `y[i*dim + d]` inside `for (j)`)
 * fetches its bytes from DRAM once and from the L1 after that: the loop
 * repeats requests, not traffic.  A store goes to L2 every time (the L1 does
 * not keep global stores), and an address the walk cannot see through
 * (D_OPAQUE) may move with any loop: both count every traffic loop. */
static int traffic_loops(const walk *w, const sx *addr, int rw, int *reread)
{
	int traffic = 0;
	*reread = 0;
	for (int i = 0; i < w->ctl.nloops; i++) {
		const loop_ctx *l = &w->ctl.loops[i];
		int moves = !addr || rw != 0 || (addr->dep & D_OPAQUE) || l->slot < 0 || l->slot >= 64 ||
			    (addr->loops & (1ull << l->slot));
		traffic += !l->small && moves;
		*reread += !l->small && !moves;
	}
	return traffic;
}

/* The innermost branch around the access whose condition tests a value
 * loaded in an iteration of one of the access's traffic loops (`if (d2 <
 * r2)` after `d2` is computed from `xyz[k]`, `if (mask[k] != -1)`): the
 * access runs on the iterations whose data pass the test, a data-dependent
 * share of that loop's trips.  Its line, 0 when there is none. */
static int filter_branch(const walk *w, const sx *addr, int rw)
{
	for (int i = w->ctl.nbrs - 1; i >= 0; i--) {
		const br_ctx *b = &w->ctl.brs[i];
		if (!b->cond || !(b->cond->dep & D_DATA))
			continue;
		for (int j = 0; j < b->nloops && j < w->ctl.nloops; j++) {
			const loop_ctx *l = &w->ctl.loops[j];
			if (l->small || l->slot < 0 || l->slot >= 64 || !(b->cond->loops & (1ull << l->slot)))
				continue;
			if (!addr || rw != 0 || (addr->dep & D_OPAQUE) || (addr->loops & (1ull << l->slot)))
				return b->line; /* a traffic loop of this access */
		}
	}
	return 0;
}

static void loop_cols(walk *w, ka_facts_row *r, const sx *addr, int rw)
{
	ka_facts_int(r, KA_COL(access, in_loop), w->ctl.nloops > 0);
	ka_facts_int(r, KA_COL(access, loop_depth), w->ctl.nloops);
	int reread = 0;
	int traffic = traffic_loops(w, addr, rw, &reread);
	ka_facts_int(r, KA_COL(access, traffic_depth), traffic);
	ka_facts_int(r, KA_COL(access, reread_depth), reread);
	ka_facts_int(r, KA_COL(access, share_depth), traffic); /* the joins may lower it */
	int fl = traffic ? filter_branch(w, addr, rw) : 0;
	ka_facts_opt(r, KA_COL(access, filter_line), fl > 0, fl);
	if (w->ctl.nloops) {
		loop_ctx *l = &w->ctl.loops[w->ctl.nloops - 1];
		ka_facts_int(r, KA_COL(access, loop_id), l->id);
		ka_facts_int(r, KA_COL(access, loop_invariant),
			     addr && !(addr->loops & (1ull << l->slot)) && !(addr->dep & D_OPAQUE));
	} else {
		ka_facts_opt(r, KA_COL(access, loop_id), 0, 0);
		ka_facts_opt(r, KA_COL(access, loop_invariant), 0, 0);
	}
}

int walk_single_lane(const walk *w)
{
	int pin = w->ctl.pin_rest;
	for (int i = 0; i < w->ctl.nbrs; i++)
		pin |= w->ctl.brs[i].pin;
	return pin;
}

/* The threads of the block that the enclosing bounds on thread ids let
 * run the code being walked (`if (threadIdx.x < 16)`); 0 when no bound
 * says. */
int walk_active_threads(const walk *w)
{
	int n = 0;
	for (int i = 0; i < w->ctl.nbrs; i++) {
		int t = w->ctl.brs[i].threads[w->ctl.brs[i].in_else ? 1 : 0];
		if (t > 0 && (n == 0 || t < n))
			n = t;
	}
	return n;
}

static void warp_cols(walk *w, ka_facts_row *r, const sx *addr, int abytes, int sp, int symbolic,
		      int size_assumed, const char **assume, warp_result *out)
{
	warp_result wr;
	int one = walk_single_lane(w);
	int act = walk_active_threads(w);
	/* one lane's request: its own sectors and banks, nothing to coalesce;
	 * in a 1-D block a bound that leaves fewer threads than a warp leaves
	 * a run of that many lanes (`if (tid < 16)`) */
	int few = act > 0 && act < w->file.arch->warp_size && w->block[1] <= 1 && w->block[2] <= 1;
	walk_warp_model_lanes(w, addr, abytes, sp == SP_SHARED, one ? 1 : few ? act : 0, &wr);
	*out = wr;
	ka_facts_int(r, KA_COL(access, lanes), wr.lanes);
	ka_facts_int(r, KA_COL(access, single_lane), one);
	ka_facts_opt(r, KA_COL(access, active_threads), act > 0, act);
	ka_facts_opt(r, KA_COL(access, sectors_per_request), wr.ok && sp != SP_SHARED, wr.sectors);
	ka_facts_opt(r, KA_COL(access, ideal_sectors), wr.ok && sp != SP_SHARED, wr.ideal_sectors);
	ka_facts_opt(r, KA_COL(access, bytes_per_request), wr.ok, wr.bytes);
	ka_facts_opt(r, KA_COL(access, stride_bytes_tx), wr.ok, wr.stride_bytes);
	ka_facts_opt(r, KA_COL(access, bank_ways), wr.ok && sp == SP_SHARED, wr.bank_ways);
	ka_facts_opt(r, KA_COL(access, ideal_bank_ways), wr.ok && sp == SP_SHARED, wr.ideal_bank_ways);
	ka_facts_int(r, KA_COL(access, sectors_assumed), symbolic || size_assumed);
	ka_facts_opt(r, KA_COL(access, warp_uniform), wr.ok, wr.uniform || !(addr->dep & D_LANE));
	if (symbolic)
		*assume = ka_arena_printf(w->file.a, "%s%srun-time values in the lane stride taken as 1024",
					  *assume ? *assume : "", *assume ? "; " : "");
}

/* A lane's record: the elements of its stride window (the lane stride taken
 * as a period) that this access touches, over the iterations of the small
 * loops of known trip count around it (`m[4*r + c]` in `r < 4`, `c < 4`; at
 * most 8 trips, the loops that traffic_depth does not count), and the key
 * that the other accesses of the same record share.  The record pass
 * (records.c) unions the masks of a key's accesses.  When the stride is over
 * 64 elements or not known (a run-time row width), the mask holds the
 * offsets themselves, when they all lie in 0..63 (`out[0]` ... `out[15]`
 * after `out += i * C`: the fields of a row written one by one).  Nothing
 * when the index is not a sum of products. */
static void record_cols(walk *w, ka_facts_row *r, const sx *idx, int affine, int elem, int abytes,
			const warp_result *wr)
{
	int iters[WALK_MAX_LOOPS];
	int64_t trips[WALK_MAX_LOOPS], k[WALK_MAX_LOOPS], c0, combos = 1;
	int nit = 0;
	const sx *rest;
	int64_t stride = wr->ok ? wr->stride_bytes : 0;
	if (!idx || !affine || elem <= 0 || abytes <= 0 || abytes % elem || !(idx->dep & D_LANE))
		return;
	for (int i = 0; i < w->ctl.nloops; i++) {
		const loop_ctx *l = &w->ctl.loops[i];
		if (l->has_trip && l->small && l->trip > 0) { /* register loops, not traffic */
			iters[nit] = l->iter_sym;
			trips[nit++] = l->trip;
		}
	}
	if (!sx_split_iters(&w->sym.sx, idx, iters, nit, &rest, k, &c0))
		return;
	const char *key = sx_render_var(&w->sym.sx, w->file.a, rest);
	if (!key)
		return;
	ka_facts_text(r, KA_COL(access, record_key), key);
	int periodic = stride > abytes && stride % elem == 0 && stride / elem <= 64;
	int64_t period = periodic ? stride / elem : 64, span = abytes / elem;
	if (periodic) { /* only positions within the period count: no overflow below */
		c0 %= period;
		for (int j = 0; j < nit; j++)
			k[j] %= period;
	} else {
		if (c0 < 0 || c0 >= 64)
			return;
		for (int j = 0; j < nit; j++)
			if (k[j] < 0 || k[j] >= 64)
				return;
	}
	for (int j = 0; j < nit; j++)
		if (k[j])
			combos *= trips[j];
	if (combos > 4096)
		return;
	uint64_t mask = 0;
	for (int64_t n = 0; n < combos; n++) {
		int64_t off = c0, q = n;
		for (int j = 0; j < nit; j++)
			if (k[j]) {
				off += k[j] * (q % trips[j]);
				q /= trips[j];
			}
		for (int64_t e = 0; e < span; e++) {
			int64_t at = periodic ? (((off + e) % period) + period) % period : off + e;
			if (at >= 64)
				return; /* a field past the first 64 elements of the row */
			mask |= 1ull << at;
		}
	}
	ka_facts_int(r, KA_COL(access, record_mask), (int64_t)mask);
}

/* The local pointer an access is spelled through (`s_pos[g]`, `*(s_pos +
 * g)`) when the analysis resolved it to another base: a sub-array carved
 * out of a shared buffer (`float3 *s_pos = (float3 *)(s_len + n)`), which
 * the carving keeps apart from the buffer's other sub-arrays. */
static const char *spelled_pointer(const ka_node *n, const ka_decl *base)
{
	const ka_node *b = n->kind == KN_SUBSCRIPT || (n->kind == KN_UNOP && n->op == OP_DEREF)
				   ? (n->nkids ? walk_strip((ka_node *)n->kids[0]) : NULL)
				   : NULL;
	if (b && b->kind == KN_BINOP && (b->op == OP_ADD || b->op == OP_SUB) && b->nkids == 2)
		b = walk_strip((ka_node *)b->kids[0]);
	if (!b || b->kind != KN_DECLREF || !b->ref || b->ref == base || !b->name)
		return NULL;
	return b->ref->kind == KD_VAR && !(b->ref->flags & KDF_FILE_SCOPE) ? b->name : NULL;
}

/* A store whose element index steps by one with a loop-carried variable
 * other than a for counter (`out[row * W + count] = v; count++`,
 * `p[i * W + k++]`): a running counter that fills the lane's row one
 * element per store. */
static int running_counter(walk *w, const sx *x, int elem, int rw)
{
	int c = sx_carried_sym(&w->sym.sx, x);
	if (rw == 0 || c < 0 || elem <= 0)
		return 0;
	sx_ctx *cx = &w->sym.sx;
	const sx *rest = sx_add(cx, x, sx_neg(cx, sx_mul(cx, sx_symref(cx, c), sx_const(cx, elem))));
	return !sx_uses_sym(rest, c);
}

void walk_emit_access(walk *w, ka_node *n, val addr, int abytes, int elem, const char *field, int rw,
		      const char *assumed_type, int group_axes, const sx *group_base, warp_result *out)
{
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(access));
	ka_facts_int(&r, KA_COL(access, id), walk_next_id(w));
	ka_facts_int(&r, KA_COL(access, kernel_id), w->kernel_id);
	ka_facts_text(&r, KA_COL(access, kernel), w->kernel->name);
	ka_facts_text(&r, KA_COL(access, func), w->func);
	walk_emit_loc(&r, &n->loc);
	ka_facts_text(&r, KA_COL(access, space), space_name(addr.space));
	ka_facts_text(&r, KA_COL(access, rw), rw == 0 ? "read" : rw == 1 ? "write" : "readwrite");
	ka_facts_text(&r, KA_COL(access, base), addr.base->name);
	ka_facts_int(&r, KA_COL(access, base_is_param), addr.base->kind == KD_PARAM);
	ka_facts_text(&r, KA_COL(access, base_array),
		      (addr.base->tflags & KT_ARRAY) ? addr.base->name : NULL);
	ka_facts_text(&r, KA_COL(access, via), spelled_pointer(n, addr.base));
	ka_facts_opt(&r, KA_COL(access, elem_bytes), elem > 0 && !assumed_type, elem);
	ka_facts_opt(&r, KA_COL(access, access_bytes), abytes > 0 && !assumed_type, abytes);
	ka_facts_opt(&r, KA_COL(access, struct_bytes), field != NULL, elem);
	ka_facts_text(&r, KA_COL(access, field), field);
	ka_facts_text(&r, KA_COL(access, index_text), walk_index_text(w, n, addr, elem));
	const sx *idx = elem > 0 ? sx_div_exact(&w->sym.sx, addr.x, elem) : NULL;
	int affine = sx_coef(&w->sym.sx, addr.x, SYM_TID_X) && sx_coef(&w->sym.sx, addr.x, SYM_TID_Y) &&
		     sx_coef(&w->sym.sx, addr.x, SYM_TID_Z) && !(addr.x->dep & D_OPAQUE);
	ka_facts_text(&r, KA_COL(access, affine),
		      idx && affine ? sx_render(&w->sym.sx, w->file.a, idx) : NULL);
	ka_facts_int(&r, KA_COL(access, is_affine), affine);
	int symbolic = 0;
	const sx *lin = walk_lane_linear(w, addr.x);
	for (int k = 0; k < 3; k++)
		coef_cols(w, &r, lin, elem, k, &symbolic);
	symbolic |= sx_mixes_unknown_with_lanes(&w->sym.sx, addr.x);
	int64_t c0 = 0;
	int has_c0 = idx && sx_const_term(idx, &c0);
	ka_facts_opt(&r, KA_COL(access, offset_const), has_c0, c0);
	ka_facts_text(&r, KA_COL(access, affine_var),
		      has_c0 && affine ? sx_render_var(&w->sym.sx, w->file.a, idx) : NULL);
	ka_facts_int(&r, KA_COL(access, split_in_order), sx_split_in_order(&w->sym.sx, addr.x));
	ka_facts_int(&r, KA_COL(access, running_counter), running_counter(w, addr.x, elem, rw));
	ka_facts_int(&r, KA_COL(access, split_strides_runtime), sx_split_strides_runtime(&w->sym.sx, addr.x));
	ka_facts_int(&r, KA_COL(access, thread_dependent), (addr.x->dep & D_LANE) != 0);
	ka_facts_int(&r, KA_COL(access, block_uniform), (addr.x->dep & D_LANE) == 0);
	ka_facts_int(&r, KA_COL(access, data_dependent), (addr.x->dep & D_DATA) != 0);
	ka_facts_int(&r, KA_COL(access, index_opaque), sx_has_opaque(addr.x));
	ka_facts_int(&r, KA_COL(access, loads_pointer), rw == 0 && (n->tflags & KT_POINTER) != 0);
	char gax[4];
	const char *gbase = group_axes ? sx_render_key(&w->sym.sx, w->file.a, group_base) : NULL;
	int gok = gbase && *gbase;
	ka_facts_text(&r, KA_COL(access, group_axes), gok ? walk_axes_text(group_axes, gax) : NULL);
	ka_facts_text(&r, KA_COL(access, group_base), gok ? gbase : NULL);
	const char *assume = (addr.x->dep & D_LANE) ? w->assumption : NULL;
	if (assumed_type)
		assume = ka_arena_printf(w->file.a,
					 "%s%selement type %s taken as 4 bytes (no instantiation "
					 "seen)",
					 assume ? assume : "", assume ? "; " : "", assumed_type);
	warp_result wr;
	warp_cols(w, &r, addr.x, abytes, addr.space, symbolic, assumed_type != NULL, &assume, &wr);
	loop_cols(w, &r, addr.x, rw);
	record_cols(w, &r, idx, affine, elem, abytes, &wr);
	ka_facts_int(&r, KA_COL(access, in_divergent_branch), walk_in_divergent(w, NULL, NULL, NULL, 0));
	int guarded = w->ctl.guard_return;
	for (int i = 0; i < w->ctl.nbrs; i++)
		guarded |= w->ctl.brs[i].is_guard;
	ka_facts_int(&r, KA_COL(access, guarded), guarded);
	ka_facts_int(&r, KA_COL(access, vector_width), walk_vector_lanes(n, abytes));
	ka_facts_text(&r, KA_COL(access, block_source), w->block_source);
	ka_facts_text(&r, KA_COL(access, assumption), assume);
	ka_facts_opt(&r, KA_COL(access, value_thread_dependent), rw != 0 && w->ctl.store_value_dep >= 0,
		     w->ctl.store_value_dep);
	const ka_node *site = w->ctl.inline_depth ? w->ctl.call_site : NULL;
	ka_facts_opt(&r, KA_COL(access, call_line), site != NULL, site ? site->loc.line : 0);
	ka_facts_opt(&r, KA_COL(access, call_begin_off), site && site->loc.begin >= 0,
		     site ? site->loc.begin : 0);
	ka_facts_opt(&r, KA_COL(access, call_end_off), site && site->loc.end >= 0, site ? site->loc.end : 0);
	ka_facts_insert(&r);
	*out = wr;
}
