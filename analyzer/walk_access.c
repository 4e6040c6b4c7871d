/* analyzer/walk_access.c: memory accesses in the walk.  An lvalue (a
 * subscript, a dereference, p[i].field) is resolved to its base
 * declaration, its memory space and a byte offset; each read or write is
 * recorded (the access row, emit_access.c) and counted in the
 * per-declaration statistics the kernel row and the array rows use. */
#include "analyzer/walk.h"
#include <string.h>

/* A thread's own variable of a struct or class type (not an array, a
 * pointer, shared, constant or file-scope memory, not a parameter): what
 * its fields hold is what the thread stored there.  In a template, a type
 * that depends on a parameter counts when it is spelled as a class
 * template's specialization (`cuda::std::array<int, ndim>`). */
int walk_private_record(const ka_decl *d)
{
	if (!d || d->kind != KD_VAR || walk_space_of_decl(d) != SP_UNKNOWN ||
	    (d->tflags & (KT_POINTER | KT_ARRAY | KT_VECTOR)))
		return 0;
	if (d->tflags & KT_RECORD)
		return 1;
	size_t n = (d->tflags & KT_DEPENDENT) && d->type ? strlen(d->type) : 0;
	return n > 0 && d->type[n - 1] == '>';
}

int walk_space_of_decl(const ka_decl *d)
{
	if (d->flags & KDF_SHARED)
		return SP_SHARED;
	if (d->flags & KDF_CONSTANT)
		return SP_CONSTANT;
	if (d->kind == KD_PARAM)
		return SP_GLOBAL;
	if (d->flags & KDF_FILE_SCOPE)
		return SP_GLOBAL;
	return (d->tflags & KT_ARRAY) ? SP_LOCAL : SP_UNKNOWN;
}

/* A local array index that stays a run-time value after unrolling: it
 * depends on lanes or data, or on a loop the compiler cannot fully unroll. */
static int local_index_dynamic(walk *w, const sx *x)
{
	if (x->dep & (D_LANE | D_DATA | D_OPAQUE))
		return 1;
	uint64_t rest = x->loops;
	for (int i = 0; i < w->ctl.nloops; i++)
		if (w->ctl.loops[i].unrollable)
			rest &= ~(1ull << w->ctl.loops[i].slot);
	return rest != 0;
}

/* 1 when a condition of an enclosing loop or branch tests symbol sym (a
 * capacity check such as `n < CAP` around `buf[n] = x`). */
static int cond_tests(const walk *w, int sym)
{
	for (int i = 0; i < w->ctl.nloops; i++)
		if (sx_uses_sym(w->ctl.loops[i].cond, sym))
			return 1;
	for (int i = 0; i < w->ctl.nbrs; i++)
		if (sx_uses_sym(w->ctl.brs[i].cond, sym))
			return 1;
	return 0;
}

/* Classify a run-time index of a local array (LX_*) and count the stores
 * through a running counter (the element index is a loop-carried variable
 * itself: `buf[n++] = x`, not `win[b + 1]`), guarded or not. */
static void local_index_kind(walk *w, dstat *ds, ka_node *n, val addr, int elem, int rw)
{
	const sx *x = addr.x;
	const sx *idx = elem > 0 ? sx_div_exact(&w->sym.sx, x, elem) : NULL;
	int c = sx_carried_sym(&w->sym.sx, x);
	int counter = rw != 0 && c >= 0 && idx && idx->k == SX_SYM && idx->sym == c;
	int kind = counter                          ? LX_COUNTER
		   : (x->dep & (D_DATA | D_OPAQUE)) ? LX_DATA
		   : c >= 0                         ? LX_CARRIED
		   : (x->dep & D_LANE)              ? LX_THREAD
						    : LX_LOOP;
	if (kind > ds->lx_kind)
		ds->lx_kind = kind;
	if (!counter)
		return;
	if (!ds->counter_stores++)
		ds->counter_text = walk_index_text(w, n, addr, elem);
	if (!cond_tests(w, c))
		ds->counter_unguarded++;
}

/* The access goes through a pointer declared to volatile (`sdata[tid]` with
 * `volatile T *sdata`): a helper's parameter says so even where the element
 * type is a template's and the expression's own type carries no qualifier. */
static int through_volatile(const ka_node *n)
{
	const ka_node *b = n->kind == KN_SUBSCRIPT || (n->kind == KN_UNOP && n->op == OP_DEREF)
				   ? (n->nkids ? walk_strip((ka_node *)n->kids[0]) : NULL)
				   : NULL;
	return b && b->kind == KN_DECLREF && b->ref && (b->ref->tflags & KT_VOLATILE_POINTEE);
}

void walk_record_access(walk *w, ka_node *n, val addr, int abytes, int elem, const char *field, int rw)
{
	const char *assumed_type = w->sym.elem_assumed;
	w->sym.elem_assumed = NULL;
	int group_axes = w->sym.group_axes;
	const sx *group_base = w->sym.group_base;
	w->sym.group_axes = 0;
	w->sym.group_base = NULL;
	if (w->ctl.quiet || !w->kernel || !addr.base)
		return;
	if (addr.space == SP_GLOBAL)
		walk_note_indexing_atomics(w, addr.x);
	dstat *ds = &w->sym.ds[addr.base->id];
	if (rw != 1)
		ds->read = 1;
	if (rw != 0)
		ds->written = 1;
	if (rw != 1 && w->ctl.nloops)
		ds->loop_reads++;
	if (elem <= 0)
		elem = abytes;
	warp_result wr;
	walk_emit_access(w, n, addr, abytes, elem, field, rw, assumed_type, group_axes, group_base, &wr);
	if (w->ctl.nloops)
		w->ctl.loops[w->ctl.nloops - 1].n_accesses++;
	w->tally.n_accesses++;
	if (addr.space == SP_SHARED) {
		if (wr.ok && wr.bank_ways > ds->max_bank)
			ds->max_bank = wr.bank_ways;
		for (int i = 0; i < w->ctl.nbrs; i++) {
			br_ctx *b = &w->ctl.brs[i];
			if (b->nsh < WALK_MAX_BR_SHARED) {
				b->sh[b->nsh].base = addr.base;
				b->sh[b->nsh].x = addr.x;
				b->sh[b->nsh].cond = w->ctl.brs[w->ctl.nbrs - 1].cond;
				b->sh[b->nsh++].rw = rw;
			} else {
				b->nsh_over = 1;
			}
		}
		if (rw != 0) {
			for (int i = 0; i < w->ctl.nbrs; i++)
				w->ctl.brs[i].n_shared_writes++;
			for (int i = 0; i < w->ctl.nloops; i++) {
				w->ctl.loops[i].n_shared_writes++;
				w->ctl.loops[i].shared_written = addr.base->name;
			}
		}
		if ((addr.base->tflags & KT_VOLATILE) || (n->tflags & KT_VOLATILE) || through_volatile(n))
			for (int i = 0; i < w->ctl.nbrs; i++)
				w->ctl.brs[i].uses_volatile = 1;
	}
	if (addr.space == SP_LOCAL && local_index_dynamic(w, addr.x)) {
		ds->n_dyn++;
		local_index_kind(w, ds, n, addr, elem, rw);
	}
	if (n->tflags & KT_VECTOR)
		ds->reinterp = 1;
}

/* `*reinterpret_cast<const LoadType *>(x + threadIdx.x * PackSize)` with
 * `LoadType` a pack of the template's (`PackType<T, PackSize>`): a type
 * whose size the template leaves open, read at a lane stride the template
 * leaves open too.  Such code sizes the pack to the stride (each lane loads
 * the PackSize elements up to the next lane's), so the lanes are one access
 * apart: the access is taken as one 16-byte vector a lane, the widest load,
 * instead of a 4-byte element read a run-time width apart. */
static void pack_per_lane(walk *w, val *addr, int *elem)
{
	const sx *c = sx_coef(&w->sym.sx, addr->x, SYM_TID_X);
	int64_t cv;
	if (!c || sx_is_const(c, &cv) || sx_has_opaque(c))
		return;
	int tx = -1;
	for (int s = 0; s < w->sym.sx.nsyms && tx < 0; s++)
		if (w->sym.sx.syms[s].kind == SYM_TID_X)
			tx = s;
	if (tx < 0)
		return;
	const sx *t = sx_symref(&w->sym.sx, tx);
	addr->x = sx_add(
		&w->sym.sx, addr->x,
		sx_mul(&w->sym.sx, sx_add(&w->sym.sx, sx_const(&w->sym.sx, 16), sx_neg(&w->sym.sx, c)), t));
	*elem = 16;
}

/* The address of an lvalue expression (no access is recorded). */
int walk_lvalue(walk *w, ka_node *n, val *out, int *elem, const char **field)
{
	n = walk_strip(n);
	*field = NULL;
	w->sym.group_axes = 0;
	if (n->kind == KN_SUBSCRIPT && n->nkids == 2) {
		val b = walk_ev(w, n->kids[0], 0);
		if (!b.base)
			return 0;
		const sx *i = walk_ev_int(w, n->kids[1]);
		w->sym.group_axes = b.x ? walk_thread_axes(w, b.x) & ~walk_thread_axes(w, i) : 0;
		w->sym.group_base = b.x;
		int eb = walk_subscript_elem_size(w, n, b.base);
		if (eb <= 0)
			eb = walk_elem_size(w, n, walk_strip(n->kids[0]));
		if (eb <= 0)
			eb = 4;
		out->base = b.base;
		out->space = b.space;
		out->x = sx_add(&w->sym.sx, b.x ? b.x : sx_const(&w->sym.sx, 0),
				sx_mul(&w->sym.sx, i, sx_const(&w->sym.sx, eb)));
		*elem = eb;
		return 1;
	}
	if (n->kind == KN_UNOP && n->op == OP_DEREF && n->nkids == 1) {
		val p = walk_ev(w, n->kids[0], 0);
		if (!p.base)
			return 0;
		*out = p;
		if (!out->x)
			out->x = sx_const(&w->sym.sx, 0);
		*elem = walk_elem_size(w, n, walk_strip(n->kids[0]));
		if (*elem <= 0 && (n->tflags & (KT_DEPENDENT | KT_RECORD)))
			pack_per_lane(w, out, elem);
		return 1;
	}
	if (n->kind == KN_MEMBER && n->nkids == 1) {
		int e2;
		const char *f2;
		val b;
		if (n->is_arrow) {
			b = walk_ev(w, n->kids[0], 0);
			if (!b.base)
				return 0;
			e2 = walk_pointee_size(w, walk_strip(n->kids[0]));
		} else if (!walk_lvalue(w, n->kids[0], &b, &e2, &f2)) {
			return 0;
		}
		int off = n->field_offset > 0 ? n->field_offset : 0;
		out->base = b.base;
		out->space = b.space;
		out->x = sx_add(&w->sym.sx, b.x ? b.x : sx_const(&w->sym.sx, 0), sx_const(&w->sym.sx, off));
		*elem = e2;
		*field = n->name;
		return 1;
	}
	if (n->kind == KN_DECLREF && n->ref && n->ref->kind == KD_VAR && n->ref->init &&
	    walk_lvalue_ref(n->ref) && w->ctl.ref_depth < 4) {
		/* a local reference (`Scratch &s = scratch[threadIdx.y];`):
		 * the element it was bound to, whose subscripts the body does
		 * not change (they are read again here) */
		w->ctl.ref_depth++;
		int ok = walk_lvalue(w, n->ref->init, out, elem, field);
		w->ctl.ref_depth--;
		return ok;
	}
	return 0;
}

/* The thread's own struct variable an lvalue names through fields,
 * subscripts of array fields and a class's operator[] (`p.start[0]`,
 * `s.a.b`, `arr[0]` of a cuda::std::array, also as a template's dependent
 * subscript), else NULL. */
static ka_decl *private_root(ka_node *n)
{
	for (int depth = 0; n && depth < 16; depth++) {
		n = walk_strip(n);
		if (!n)
			return NULL;
		if (n->kind == KN_DECLREF)
			return walk_private_record(n->ref) ? n->ref : NULL;
		ka_node *k = n->nkids ? walk_strip(n->kids[0]) : NULL;
		if ((n->kind == KN_MEMBER && !n->is_arrow && n->nkids == 1) ||
		    (n->kind == KN_CALL && n->name && !strcmp(n->name, "operator[]") && n->nkids == 2) ||
		    (n->kind == KN_SUBSCRIPT && n->nkids == 2 && k && k->kind == KN_DECLREF &&
		     walk_private_record(k->ref)) ||
		    (n->kind == KN_SUBSCRIPT && n->nkids == 2 && k && k->kind == KN_MEMBER && !k->is_arrow &&
		     (k->tflags & KT_ARRAY)))
			n = k;
		else
			return NULL;
	}
	return NULL;
}

/* A thread's own array or struct d holds what the thread stored in it: a
 * table of per-thread indices (`int v[8] = {j - 1, j, ...}`) read at a
 * constant subscript still differs between threads, and so does
 * `p.start[0]` of `pos p = locate(x, i)`.  A store (rw != 0; ++ and +=
 * mix what was there with the value) adds the stored value's dependence;
 * the result is what a load from d depends on. */
static unsigned stored_dep(walk *w, const ka_decl *d, int rw)
{
	if (!d || d->id < 0 || d->id >= w->file.nenv)
		return 0;
	dstat *ds = &w->sym.ds[d->id];
	if (rw != 0)
		ds->stored_dep |= w->ctl.store_dep ? w->ctl.store_dep : (D_LANE | D_DATA);
	return ds->stored_dep & ~D_OPAQUE;
}

val walk_access_expr(walk *w, ka_node *n, int rw)
{
	val addr;
	int elem = 0;
	const char *field = NULL;
	if (!walk_lvalue(w, n, &addr, &elem, &field)) {
		/* an address the model cannot place (`bvh.nodes[tid]`, a pointer
		 * held in a struct): the value loaded is unknown, but it still
		 * varies with whatever the address varies with, and a field of
		 * the thread's own struct with what the thread stored there */
		unsigned dep = 0;
		uint64_t loops = 0;
		walk_kids_dep(w, n, &dep, &loops);
		dep |= stored_dep(w, private_root(n), rw);
		return (val){.x = sx_opaque(&w->sym.sx, dep ? (dep & ~D_OPAQUE) | D_DATA : 0, loops)};
	}
	int abytes = field ? walk_value_size(w, n) : elem;
	walk_record_access(w, n, addr, abytes, elem, field, rw);
	unsigned dep = (addr.x->dep & ~D_OPAQUE) | D_DATA;
	if (addr.space == SP_LOCAL || walk_private_record(addr.base))
		dep |= stored_dep(w, addr.base, rw);
	int sym = sx_new_sym(&w->sym.sx, SYM_LOAD, addr.base->name, dep, addr.x->loops);
	w->sym.sx.syms[sym].lane_varying = (dep & D_LANE) != 0;
	if ((dep & D_LANE) &&
	    (addr.space == SP_GLOBAL || addr.space == SP_SHARED || addr.space == SP_CONSTANT) &&
	    !walk_private_record(addr.base)) {
		/* lanes that read one address read one value: a warp's own
		 * slot of a shared scratch (`scratch[threadIdx.y].count` with
		 * 32-wide rows), a record a group of lanes shares (`in[i / 4]`) */
		if (walk_lanes_agree(w, addr.x))
			w->sym.sx.syms[sym].warp_uniform = 1;
		else
			w->sym.sx.syms[sym].seg_uniform = walk_segment_width(w, addr.x);
	}
	val v = {.x = sx_symref(&w->sym.sx, sym)};
	if (n->tflags & KT_POINTER) { /* a pointer loaded from memory */
		v.base = addr.base;
		v.space = SP_GLOBAL;
		/* loaded where lanes differ (`scDesc->articulations[a].jointPositions`
		 * with a per-thread a), each lane holds its own pointer: where it
		 * points is not known, but it is not one address for all */
		v.x = (dep & D_LANE) && !w->sym.sx.syms[sym].warp_uniform
			      ? sx_opaque(&w->sym.sx, (dep & ~D_DATA) | D_OPAQUE, addr.x->loops)
			      : sx_const(&w->sym.sx, 0);
	}
	return v;
}

val walk_access(walk *w, ka_node *n, int rw)
{
	return walk_access_expr(w, n, rw);
}
