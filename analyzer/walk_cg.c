/* analyzer/walk_cg.c: idioms of real CUDA that hide memory and
 * synchronization behind classes.
 *
 * Cooperative groups: `block.sync()`, `cg::sync(block)`, `grid.sync()` and
 * the `sync()` of a tiled partition are barriers of block, grid or warp
 * scope; a tile's shfl/any/all/ballot/match and `cg::reduce`/scans are warp
 * operations; `thread_rank()`, `size()`, `meta_group_rank()` are values of
 * the index analysis (the linear thread id, the tile size, the tile index).
 *
 * SharedMemory<T>: the cuda-samples struct whose `operator T*` returns the
 * `extern __shared__` array.  Its body sits in a class template that the
 * front end does not lower, so the conversion is recognised by name and
 * yields the kernel's dynamic shared memory. */
#include "analyzer/walk.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void walk_smem_init(ka_tu *tu, ka_arena *a, walk *w)
{
	ka_decl *d = ka_arena_alloc(a, sizeof *d);
	d->id = ++tu->next_decl_id;
	d->kind = KD_VAR;
	d->flags = KDF_SHARED | KDF_EXTERN;
	d->tflags = KT_ARRAY;
	d->name = "SharedMemory";
	d->type = "extern __shared__ T[] (SharedMemory<T>)";
	d->type_bytes = d->elem_bytes = -1;
	d->ndims = 1;
	d->dims[0] = -1;
	d->lb_max = d->lb_min = -1;
	d->inner_dim_begin = d->inner_dim_end = -1;
	d->loc.file = tu->main_file;
	d->loc.begin = d->loc.end = -1;
	w->file.smem_decl = d;
}

static int has_ci(const char *s, const char *needle)
{
	if (!s)
		return 0;
	size_t n = strlen(needle);
	for (; *s; s++)
		if (strncasecmp(s, needle, n) == 0)
			return 1;
	return 0;
}

static int smem_call(walk *w, ka_node *n, val *out)
{
	const char *name = n->name ? n->name : "";
	int conv = strncmp(name, "operator ", 9) == 0 && (n->tflags & KT_POINTER);
	/* in a template, `SharedMemory<T>()` is a dependent construction whose
	 * conversion to T* is implicit: the object stands for the pointer */
	int dep = !*name && (n->tflags & KT_DEPENDENT) && has_ci(n->type, "sharedmem");
	if (!w->file.smem_decl || !w->is_device ||
	    !(dep || ((conv || strcmp(name, "getPointer") == 0) && has_ci(n->ref_usr, "sharedmem"))))
		return 0;
	ka_decl *d = w->file.smem_decl;
	if (n->pointee_bytes > 0)
		d->elem_bytes = n->pointee_bytes;
	d->loc = n->loc;
	walk_note_array(w, d);
	*out = (val){.base = d, .space = SP_SHARED, .x = sx_const(&w->sym.sx, 0)};
	return 1;
}

/* ---- cooperative groups -------------------------------------------------- */

/* The group object a call works on: `g.f()` or `f(g, ...)`. */
static ka_node *group_of(ka_node *n)
{
	ka_node *c = n->callee ? walk_strip(n->callee) : NULL;
	if (c && c->kind == KN_MEMBER && c->nkids >= 1) /* (a dependent one has 2) */
		return walk_strip(c->kids[0]);
	return n->nkids ? walk_strip(n->kids[0]) : NULL;
}

/* A plain cg::thread_group variable or parameter that holds a tile: its
 * initializer is tiled_partition(...), or an inlined caller passed one. */
static int holds_tile(walk *w, ka_node *g)
{
	if (!g || g->kind != KN_DECLREF || !g->ref)
		return 0;
	if (w && g->ref->id < w->file.nenv && w->sym.ds[g->ref->id].holds_tile)
		return 1;
	ka_node *i = g->ref->init ? walk_strip(g->ref->init) : NULL;
	return i && i->kind == KN_CALL && i->name && strcmp(i->name, "tiled_partition") == 0;
}

void walk_cg_bind_args(walk *w, ka_node *call, ka_decl *f)
{
	for (int i = 0; i < f->nparams && i < call->nkids; i++)
		if (f->params[i]->id < w->file.nenv) {
			ka_node *a = walk_strip(call->kids[i]);
			for (int k = 0; k < 3 && a && a->kind != KN_DECLREF && a->nkids == 1; k++)
				a = walk_strip(a->kids[0]); /* the copy of a by-value group */
			w->sym.ds[f->params[i]->id].holds_tile = holds_tile(w, a);
		}
}

/* grid | block | warp from the group's type ("" unknown); w may be NULL
 * (then a tile passed down through parameters is not seen). */
static const char *group_scope(walk *w, ka_node *g, const char *usr)
{
	const char *t = g && g->type ? g->type : "";
	if (strstr(t, "grid_group") || strstr(usr, "grid_group"))
		return "grid";
	if (holds_tile(w, g)) /* the dynamic tiled_partition: sizes up to the warp */
		return "warp";
	if (strstr(t, "tile") || strstr(t, "coalesced") || strstr(usr, "tile_base") ||
	    strstr(usr, "thread_block_tile") || strstr(usr, "coalesced_group"))
		return "warp";
	if (strstr(t, "thread_block") || strstr(t, "cluster_group") || strstr(usr, "thread_block") ||
	    strstr(usr, "cluster_group"))
		return "block";
	return "";
}

static int tile_size(ka_node *g, const char *usr)
{
	const char *t = g && g->type ? strstr(g->type, "thread_block_tile<") : NULL;
	if (t)
		return atoi(t + strlen("thread_block_tile<"));
	const char *u = strstr(usr, "tile_base>#Vi");
	if (!u)
		u = strstr(usr, "thread_block_tile>#Vi");
	return u ? atoi(strstr(u, "#Vi") + 3) : 0;
}

static const sx *sym_of(walk *w, sx_sym_kind k)
{
	for (int i = 0; i < w->sym.sx.nsyms; i++)
		if (w->sym.sx.syms[i].kind == k)
			return sx_symref(&w->sym.sx, i);
	return sx_opaque(&w->sym.sx, 0, 0);
}

/* Block axis a is 1 wide at every launch (its thread index is 0). */
static int flat_axis(const walk *w, int a)
{
	return w->kernel && ((w->block_axes_known >> a) & 1) && w->block[a] == 1;
}

/* The thread's rank in its block; the y and z terms dropped on axes every
 * launch makes 1 wide, so that a 1-D block's rank is threadIdx.x. */
static const sx *linear_tid(walk *w)
{
	const sx *bx = sym_of(w, SYM_BDIM_X), *by = sym_of(w, SYM_BDIM_Y);
	const sx *t = sym_of(w, SYM_TID_X);
	if (!flat_axis(w, 1))
		t = sx_add(&w->sym.sx, t, sx_mul(&w->sym.sx, sym_of(w, SYM_TID_Y), bx));
	if (!flat_axis(w, 2))
		t = sx_add(&w->sym.sx, t,
			   sx_mul(&w->sym.sx, sym_of(w, SYM_TID_Z),
				  flat_axis(w, 1) ? bx : sx_mul(&w->sym.sx, bx, by)));
	return t;
}

static const sx *block_size(walk *w)
{
	const sx *n = sym_of(w, SYM_BDIM_X);
	if (!flat_axis(w, 1))
		n = sx_mul(&w->sym.sx, n, sym_of(w, SYM_BDIM_Y));
	if (!flat_axis(w, 2))
		n = sx_mul(&w->sym.sx, n, sym_of(w, SYM_BDIM_Z));
	return n;
}

static const sx *block_rank(walk *w)
{
	const sx *gx = sym_of(w, SYM_GDIM_X), *gy = sym_of(w, SYM_GDIM_Y);
	const sx *b = sx_add(&w->sym.sx, sym_of(w, SYM_BID_X), sx_mul(&w->sym.sx, sym_of(w, SYM_BID_Y), gx));
	return sx_add(&w->sym.sx, b, sx_mul(&w->sym.sx, sym_of(w, SYM_BID_Z), sx_mul(&w->sym.sx, gx, gy)));
}

/* A cooperative-groups call that returns one of the built-in dim3s: the
 * index of builtin_member's vars[] in walk_expr.c (thread_block's
 * thread_index() is threadIdx,
 * group_index() blockIdx, dim_threads() and group_dim() blockDim; the grid's
 * block_index() blockIdx, dim_blocks() gridDim); -1 for any other call. */
int walk_cg_dim3(const ka_node *c)
{
	static const struct {
		const char *name;
		int var;
	} t[] = {{"thread_index", 0}, {"group_index", 1}, {"block_index", 1},
		 {"dim_threads", 2},  {"group_dim", 2},   {"dim_blocks", 3}};
	const ka_node *callee = c->callee ? walk_strip(c->callee) : NULL;
	const char *name = c->name && *c->name                   ? c->name
			   : callee && callee->kind == KN_MEMBER ? callee->name
								 : NULL;
	if (!name || !c->ref_usr || !strstr(c->ref_usr, "cooperative_groups"))
		return -1;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(name, t[i].name) == 0)
			return t[i].var;
	return -1;
}

/* thread_rank(), size(), meta_group_rank(), meta_group_size(). */
static int group_value(walk *w, const char *name, const char *scope, int tsz, val *out)
{
	const sx *x = NULL;
	int tile = strcmp(scope, "warp") == 0;
	if (strcmp(name, "thread_rank") == 0)
		x = !tile     ? linear_tid(w)
		    : tsz > 0 ? sx_bin(&w->sym.sx, SX_REM, linear_tid(w), sx_const(&w->sym.sx, tsz))
			      : NULL;
	else if (strcmp(name, "size") == 0 || strcmp(name, "num_threads") == 0)
		x = !tile ? block_size(w) : tsz > 0 ? sx_const(&w->sym.sx, tsz) : NULL;
	else if (strcmp(name, "meta_group_rank") == 0 && tile && tsz > 0)
		x = sx_bin(&w->sym.sx, SX_DIV, linear_tid(w), sx_const(&w->sym.sx, tsz));
	else if (strcmp(name, "meta_group_size") == 0 && tile && tsz > 0)
		x = sx_bin(&w->sym.sx, SX_DIV, block_size(w), sx_const(&w->sym.sx, tsz));
	else if (strcmp(name, "thread_rank") == 0 && strcmp(scope, "grid") == 0)
		x = sx_add(&w->sym.sx, sx_mul(&w->sym.sx, block_rank(w), block_size(w)), linear_tid(w));
	else
		return 0;
	*out = (val){.x = x ? x : sx_opaque(&w->sym.sx, D_LANE, 0)};
	return 1;
}

static int is_warp_op(const char *name)
{
	static const char *const ops[] = {"shfl",      "shfl_down", "shfl_up",        "shfl_xor",
					  "any",       "all",       "ballot",         "match_any",
					  "match_all", "reduce",    "inclusive_scan", "exclusive_scan",
					  NULL};
	for (int i = 0; ops[i]; i++)
		if (strcmp(name, ops[i]) == 0)
			return 1;
	return 0;
}

int walk_ev_cg_call(walk *w, ka_node *n, val *out)
{
	if (smem_call(w, n, out))
		return 1;
	const char *usr = n->ref_usr ? n->ref_usr : "";
	const char *name = n->name ? n->name : "";
	ka_node *g = group_of(n);
	ka_node *c = n->callee ? walk_strip(n->callee) : NULL;
	if (!*name && c && c->kind == KN_MEMBER && c->name)
		name = c->name; /* tile.shfl_down(...) in a template */
	const char *scope = group_scope(w, g, usr);
	if (!w->is_device || !*name ||
	    (!strstr(usr, "cooperative_groups") && !(c && c->kind == KN_MEMBER && *scope)))
		return 0;
	if (!n->name || !*n->name)
		n->name = name;
	if (strcmp(name, "sync") == 0 || strcmp(name, "barrier_wait") == 0) {
		walk_barrier(w, n, *scope ? scope : "block");
		int warp = strcmp(scope, "warp") == 0;
		if (warp)
			w->tally.uses_warp = 1;
		walk_emit_call(w, n, warp ? "warp" : "sync", 1);
		*out = (val){.x = sx_opaque(&w->sym.sx, 0, 0)};
		return 1;
	}
	if (group_value(w, name, scope, tile_size(g, usr), out))
		return 1;
	if (!is_warp_op(name))
		return 0;
	/* a warp (tile) operation: the result differs per lane for shuffles
	 * and scans; reductions and votes give every lane of the tile one value */
	w->tally.uses_warp = 1;
	walk_emit_call(w, n,
		       strcmp(name, "any") == 0 || strcmp(name, "all") == 0 || strcmp(name, "ballot") == 0
			       ? "vote"
			       : "warp",
		       1);
	unsigned dep = 0;
	uint64_t loops = 0;
	int first = n->callee && walk_strip(n->callee)->kind == KN_MEMBER ? 0 : 1;
	for (int i = first; i < n->nkids; i++) {
		const sx *x = walk_ev_int(w, n->kids[i]);
		dep |= x->dep;
		loops |= x->loops;
	}
	*out = (val){.x = sx_opaque(&w->sym.sx, dep & ~D_OPAQUE, loops)};
	return 1;
}

int walk_is_block_barrier(ka_node *n)
{
	if (!n || n->kind != KN_CALL || !n->name)
		return 0;
	if (strcmp(n->name, "__syncthreads") == 0)
		return 1;
	if (strcmp(n->name, "sync") != 0 || !n->ref_usr || !strstr(n->ref_usr, "cooperative_groups"))
		return 0;
	return strcmp(group_scope(NULL, group_of(n), n->ref_usr), "block") == 0;
}
