/* analyzer/walk_host.c: launch sites.  A <<<grid, block, smem, stream>>>
 * launch (hipLaunchKernelGGL expands to the same shape) has its
 * configuration folded where it is constant (dim3, macros, constexpr, local
 * constants), feeds the kernel's block shape and becomes a launch row
 * (emit_code.c). */
#include "analyzer/walk.h"
#include "util/checked.h"
#include <stdlib.h>
#include <string.h>

void walk_note_array(walk *w, ka_decl *d)
{
	for (int i = 0; i < w->tally.narrays; i++)
		if (w->tally.arrays[i] == d)
			return;
	if (w->tally.narrays < WALK_MAX_ARRAYS)
		w->tally.arrays[w->tally.narrays++] = d;
	else
		walk_limit_reached(w, WALK_LIMIT_ARRAYS, &d->loc);
}

static int is_dim3(const ka_node *n)
{
	return n && n->type && strstr(n->type, "dim3") != NULL;
}

static int fold_dim3_axes(walk *w, ka_node *n, int64_t out[3], int depth, unsigned *axes);

static int fold_dim3(walk *w, ka_node *n, int64_t out[3], int depth)
{
	unsigned axes;
	return fold_dim3_axes(w, n, out, depth, &axes) && axes == 7;
}

/* A launch size the way host code often spells it, beyond what the integer
 * walk folds: an axis of a dim3 variable (`N / block.x`), arithmetic over
 * such values, and `ceil(float(N) / block.x)` (with `ceilf`, `std::ceil`,
 * casts around it), which is the ceiling of an exact quotient of integers.
 * Only positive divisors; 0 when any part is not a constant. */
static int fold_size(walk *w, ka_node *n, int64_t *v, int depth)
{
	if (walk_fold_int(w, n, v))
		return 1;
	ka_node *m = walk_strip(n);
	if (!m || depth > 16)
		return 0;
	if (m != n && walk_fold_int(w, m, v)) /* float(N): an integer under a cast */
		return 1;
	n = m;
	if (n->kind == KN_MEMBER && n->nkids == 1 && n->name && n->name[0] >= 'x' && n->name[0] <= 'z' &&
	    !n->name[1] && is_dim3(walk_strip(n->kids[0]))) {
		int64_t d[3];
		if (!fold_dim3(w, n->kids[0], d, depth + 1))
			return 0;
		*v = d[n->name[0] - 'x'];
		return 1;
	}
	if (n->kind == KN_CALL && n->nkids == 1 && n->name &&
	    (!strcmp(n->name, "ceil") || !strcmp(n->name, "ceilf") || !strcmp(n->name, "std::ceil"))) {
		ka_node *q = walk_strip(n->kids[0]);
		int64_t a, b;
		if (!q || q->kind != KN_BINOP || q->op != OP_DIV || q->nkids != 2 ||
		    !fold_size(w, q->kids[0], &a, depth + 1) || !fold_size(w, q->kids[1], &b, depth + 1) ||
		    b <= 0 || a < 0)
			return 0;
		*v = a / b + (a % b != 0);
		return 1;
	}
	if (n->kind == KN_BINOP && n->nkids == 2 &&
	    (n->op == OP_ADD || n->op == OP_SUB || n->op == OP_MUL || n->op == OP_DIV)) {
		int64_t a, b;
		if (!fold_size(w, n->kids[0], &a, depth + 1) || !fold_size(w, n->kids[1], &b, depth + 1))
			return 0;
		switch (n->op) {
		case OP_ADD:
			return !__builtin_add_overflow(a, b, v);
		case OP_SUB:
			return !__builtin_sub_overflow(a, b, v);
		case OP_MUL:
			return !__builtin_mul_overflow(a, b, v);
		default:
			if (b <= 0)
				return 0;
			*v = a / b;
			return 1;
		}
	}
	return 0;
}

/* Fold a launch dimension: a dim3(...) construction, a dim3 variable with
 * such an initializer, or an integer expression.  `axes` gets one bit per
 * axis whose size is a constant (`dim3(n / 32, 4096)`: y alone); the
 * return is 0 on a shape it cannot read at all. */
static int fold_dim3_axes(walk *w, ka_node *n, int64_t out[3], int depth, unsigned *axes)
{
	out[0] = out[1] = out[2] = 1;
	*axes = 0;
	n = walk_strip(n);
	if (!n || depth > 16)
		return 0;
	if (n->kind == KN_CALL && n->name && strcmp(n->name, "dim3") == 0) {
		if (n->nkids == 1 && is_dim3(walk_strip(n->kids[0])))
			return fold_dim3_axes(w, n->kids[0], out, depth + 1, axes);
		*axes = 7;
		for (int i = 0; i < n->nkids && i < 3; i++) {
			ka_node *k = walk_strip(n->kids[i]);
			if (k && (k->kind == KN_OTHER || k->kind == KN_CAST) &&
			    k->nkids == 0) /* default arg */
				out[i] = 1;
			else if (!fold_size(w, n->kids[i], &out[i], depth + 1))
				*axes &= ~(1u << i);
		}
		return 1;
	}
	if (n->kind == KN_INITLIST) {
		*axes = 7;
		for (int i = 0; i < n->nkids && i < 3; i++)
			if (!fold_size(w, n->kids[i], &out[i], depth + 1))
				*axes &= ~(1u << i);
		return 1;
	}
	if (n->kind == KN_DECLREF && is_dim3(n)) {
		if (!n->ref)
			return 0;
		/* a parameter's value comes from the caller: unknown, unless every
		 * axis is assigned a constant here (`void f(dim3 b) { ... }` is not
		 * a block of 1x1x1) */
		int param = n->ref->kind == KD_PARAM;
		unsigned init = 7;
		if (n->ref->init && !fold_dim3_axes(w, n->ref->init, out, depth + 1, &init))
			init = 0;
		*axes = param ? 0 : init;
		const dstat *ds = n->ref->id < w->file.nenv ? &w->sym.ds[n->ref->id] : NULL;
		/* the sizes it was made with, where they were constants then (`int
		 * n = 64; dim3 g(n / 32); n = 128;` is 2 blocks) */
		int64_t c;
		for (int i = 0; ds && ds->dim3_snap && i < 3; i++)
			if ((*axes >> i) & 1 && ds->dim3_decl[i] && sx_is_const(ds->dim3_decl[i], &c))
				out[i] = c;
		for (int i = 0; i < 3; i++) { /* dim3 b; b.x = 256; */
			if (ds && ds->dim3_set[i] == 1) {
				out[i] = ds->dim3v[i];
				*axes |= 1u << i;
			} else if (ds && ds->dim3_set[i] == 2) {
				*axes &= ~(1u << i);
			}
		}
		return 1;
	}
	if (!fold_size(w, n, &out[0], depth + 1))
		return 0;
	*axes = 7;
	return 1;
}

/* `b.x = 256` on a host dim3 variable: remembered for the launches below
 * (the walk is in statement order; a component set under a branch keeps
 * the last value assigned). */
int walk_host_dim3_assign(walk *w, ka_node *lhs, ka_node *rhs, ka_op op)
{
	if (!lhs || lhs->kind != KN_MEMBER || lhs->nkids != 1 || !lhs->name || strlen(lhs->name) != 1 ||
	    lhs->name[0] < 'x' || lhs->name[0] > 'z')
		return 0;
	ka_node *v = walk_strip(lhs->kids[0]);
	if (!v || v->kind != KN_DECLREF || !v->ref || !is_dim3(v) || v->ref->id >= w->file.nenv)
		return 0;
	dstat *ds = &w->sym.ds[v->ref->id];
	int axis = lhs->name[0] - 'x';
	int64_t val;
	if (op == OP_ASSIGN && walk_fold_int(w, rhs, &val)) {
		ds->dim3v[axis] = val;
		ds->dim3_set[axis] = 1;
	} else {
		ds->dim3_set[axis] = 2;
	}
	return 1;
}

static ka_node *grid_axis_node(ka_node *n, int a, int depth);

/* A host dim3 variable's declaration with sizes: each axis's value there.
 * A dim3 copies its sizes when it is made, so `dim3 g(n / 32); n = 128;`
 * still launches the old n / 32 blocks, whatever n holds at the launch. */
void walk_host_dim3_decl(walk *w, ka_decl *d)
{
	if (w->is_device || !d->init || d->id < 0 || d->id >= w->file.nenv || !d->type ||
	    !strstr(d->type, "dim3"))
		return;
	dstat *ds = &w->sym.ds[d->id];
	w->ctl.quiet++;
	for (int a = 0; a < 3; a++) {
		ka_node *e = walk_strip(grid_axis_node(d->init, a, 0));
		ds->dim3_decl[a] = e && !is_dim3(e) ? walk_ev_int(w, e) : NULL;
	}
	w->ctl.quiet--;
	ds->dim3_snap = 1;
}

/* 1 when axis a of the dim3 variable v still has, by the expression of its
 * declaration evaluated here, the value it was made with (no variable in
 * it assigned since) */
static int dim3_axis_unchanged(walk *w, const ka_node *v, int a, const sx *now)
{
	if (!v->ref || v->ref->id < 0 || v->ref->id >= w->file.nenv)
		return 0;
	const dstat *ds = &w->sym.ds[v->ref->id];
	return !ds->dim3_snap ||
	       (ds->dim3_decl[a] && now && sx_same_value(&w->sym.sx, ds->dim3_decl[a], now));
}

static ka_decl *find_kernel(walk *w, ka_node *n)
{
	if (n->ref && (n->ref->flags & KDF_GLOBAL) && n->ref->body)
		return n->ref;
	const char *name = walk_call_name(w, n);
	ka_decl *loose = NULL;
	for (ka_decl *f = w->file.tu->funcs; f; f = f->next)
		if ((f->flags & KDF_GLOBAL) && strcmp(f->name, name) == 0) {
			if (f->nparams == n->nkids)
				return f;
			loose = loose ? loose : f;
		}
	return loose ? loose : n->ref;
}

#define LAUNCH_MAX_TARGETS 8

/* Kernels a launch through a function pointer can reach in this file: a
 * variable initialized with a kernel (`auto k = transpose<32>;`), a table of
 * kernels (`kernels[i]<<<...>>>` with `kernels[] = {a, b}`), either side of
 * `c ? a : b`; a function the front end leaves without its body (a
 * template's instance) is looked up by name among funcs.  Adds to
 * out[0..*n), at most `max`. */
static void kernels_behind(const ka_node *x, ka_decl **out, int *n, int max, int depth, ka_decl *funcs)
{
	while (x &&
	       (x->kind == KN_CAST || x->kind == KN_PAREN ||
		(x->kind == KN_UNOP && (x->op == OP_ADDROF || x->op == OP_DEREF))) &&
	       x->nkids == 1)
		x = x->kids[0];
	if (!x || depth > 4 || *n >= max)
		return;
	switch (x->kind) {
	case KN_DECLREF:
		if (x->ref && (x->ref->flags & KDF_GLOBAL) && x->ref->body) {
			for (int i = 0; i < *n; i++)
				if (out[i] == x->ref)
					return;
			out[(*n)++] = x->ref;
		} else if ((!x->ref || x->ref->kind == KD_FUNC) && (x->ref ? x->ref->name : x->name)) {
			/* a template's instance (`transpose<32>`), which the front
			 * end may leave unresolved: the kernel of that name whose
			 * body the file defines */
			const char *nm = x->ref ? x->ref->name : x->name;
			for (ka_decl *f = funcs; f; f = f->next)
				if ((f->flags & KDF_GLOBAL) && f->body && strcmp(f->name, nm) == 0) {
					for (int i = 0; i < *n; i++)
						if (out[i] == f)
							return;
					out[(*n)++] = f;
					return;
				}
		} else if (x->ref && x->ref->kind == KD_VAR && x->ref->init) {
			kernels_behind(x->ref->init, out, n, max, depth + 1, funcs);
		}
		return;
	case KN_SUBSCRIPT:
		if (x->nkids >= 1)
			kernels_behind(x->kids[0], out, n, max, depth + 1, funcs);
		return;
	case KN_INITLIST:
		for (int i = 0; i < x->nkids; i++)
			kernels_behind(x->kids[i], out, n, max, depth + 1, funcs);
		return;
	case KN_COND:
		for (int i = 1; i < x->nkids; i++)
			kernels_behind(x->kids[i], out, n, max, depth + 1, funcs);
		return;
	default:
		return;
	}
}

int walk_kernels_behind(walk *w, const ka_node *x, ka_decl **out, int max)
{
	int n = 0;
	kernels_behind(x, out, &n, max, 0, w->file.tu->funcs);
	return n;
}

/* What a launch tells about the kernel's template: integer arguments in
 * the order of its integer parameters, and the size behind each argument. */
static void launch_template(walk *w, ka_node *n, ka_decl *k, launch_info *li)
{
	for (int i = 0; i < n->nkids && i < 16; i++) {
		ka_node *a = walk_strip(n->kids[i]);
		int b = !a                                      ? -1
			: (a->tflags & (KT_POINTER | KT_ARRAY)) ? walk_pointee_size(w, a)
								: walk_value_size(w, a);
		li->argb[i] = b > 0 && !w->sym.elem_assumed ? b : 0;
		w->sym.elem_assumed = NULL;
		if (a && !(a->tflags & (KT_POINTER | KT_ARRAY | KT_FLOAT | KT_DOUBLE)) &&
		    walk_fold_int(w, a, &li->argv[i]))
			li->argv_known |= 1u << i;
	}
	if (!k || !k->ntparams)
		return;
	int64_t v[8];
	int known[8];
	int c = walk_call_targs(w, n, k, v, known, 8);
	li->ntargs = 0;
	for (int i = 0; i < k->ntparams && i < c && li->ntargs < 4; i++) {
		if (!(k->tparams[i]->tflags & KT_INT))
			continue;
		if (!known[i])
			break;
		li->targs[li->ntargs++] = v[i];
	}
}

/* A folded dim3 is used only when every dimension is in [1, INT32_MAX]
 * and their product is at most `cap`: anything else (a negative or zero
 * size, an overflow in the folded text) is unknown, never a wrapped number. */
static int dims_valid(const int64_t d[3], int64_t cap)
{
	int64_t p;
	for (int i = 0; i < 3; i++)
		if (d[i] < 1 || d[i] > INT32_MAX)
			return 0;
	return ka_prod64(d, 3, &p) && p <= cap;
}

static void launch_one(walk *w, ka_node *n, ka_decl *k);

void walk_launch(walk *w, ka_node *n)
{
	ka_decl *k = find_kernel(w, n);
	ka_decl *via[LAUNCH_MAX_TARGETS];
	int nvia = 0;
	if (!k || !(k->flags & KDF_GLOBAL))
		kernels_behind(n->callee, via, &nvia, LAUNCH_MAX_TARGETS, 0, w->file.tu->funcs);
	if (nvia == 0) {
		launch_one(w, n, k);
		return;
	}
	for (int i = 0; i < nvia; i++) /* one launch row per kernel the pointer can hold */
		launch_one(w, n, via[i]);
}

/* The kernel arguments behind a launch API's `void *args[]`: when a is a
 * local array initialized with the addresses of variables (`void *args[] =
 * {(void *)&d_in, &n}`), those variables, in order; NULL (none known)
 * otherwise. */
static ka_node **args_from_array(walk *w, ka_node *a, int *n)
{
	ka_node *s = a ? walk_strip(a) : NULL;
	ka_decl *d = s && s->kind == KN_DECLREF ? s->ref : NULL;
	if (!d || d->kind != KD_VAR || !(d->tflags & KT_ARRAY) || !d->init || d->init->kind != KN_INITLIST ||
	    d->init->nkids <= 0)
		return NULL;
	ka_node **v = ka_arena_alloc(w->file.a, (size_t)d->init->nkids * sizeof *v);
	if (!v)
		return NULL;
	for (int i = 0; i < d->init->nkids; i++) {
		ka_node *e = walk_strip(d->init->kids[i]);
		if (!e || e->kind != KN_UNOP || e->op != OP_ADDROF || e->nkids != 1)
			return NULL;
		v[i] = e->kids[0];
	}
	*n = d->init->nkids;
	return v;
}

/* The runtime's launch calls: cudaLaunchKernel(func, grid, block, args,
 * smem, stream), its cooperative form and HIP's hipLaunchKernel /
 * hipLaunchCooperativeKernel.  The kernel is the first argument (through
 * casts, a variable or a table, as for a launch through a pointer); the
 * kernel's own arguments sit in a void *[]: known when it is a local array
 * of the variables' addresses (args_from_array), else none is.  The call
 * becomes a launch row whose grid, block and shared memory texts are the
 * call's arguments (their ranges are edited as a chevron's are).  1 when n
 * is such a call. */
int walk_launch_api(walk *w, ka_node *n)
{
	static const char *const names[] = {"cudaLaunchKernel", "cudaLaunchCooperativeKernel",
					    "hipLaunchKernel", "hipLaunchCooperativeKernel"};
	const char *name = n->name;
	int is_api = 0;
	for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
		is_api |= strcmp(name, names[i]) == 0;
	if (!is_api || n->nkids < 3 || w->is_device)
		return 0;
	ka_decl *via[LAUNCH_MAX_TARGETS];
	int nvia = 0;
	kernels_behind(n->kids[0], via, &nvia, LAUNCH_MAX_TARGETS, 0, w->file.tu->funcs);
	if (!nvia)
		return 0;
	ka_node *cfg = ka_arena_alloc(w->file.a, sizeof *cfg);
	ka_node **kids = ka_arena_alloc(w->file.a, 4 * sizeof *kids);
	ka_node *call = ka_arena_alloc(w->file.a, sizeof *call);
	if (!cfg || !kids || !call)
		return 0;
	memset(cfg, 0, sizeof *cfg);
	cfg->kind = KN_OTHER;
	cfg->kids = kids;
	kids[cfg->nkids++] = n->kids[1];
	kids[cfg->nkids++] = n->kids[2];
	if (n->nkids > 4)
		kids[cfg->nkids++] = n->kids[4];
	if (n->nkids > 5)
		kids[cfg->nkids++] = n->kids[5];
	*call = *n;
	call->cfg = cfg;
	call->nkids = 0; /* the kernel's arguments are behind the void *[] */
	call->kids = n->nkids > 3 ? args_from_array(w, n->kids[3], &call->nkids) : NULL;
	call->ntargs = 0;
	for (int i = 0; i < nvia; i++)
		launch_one(w, call, via[i]);
	return 1;
}

/* The divisors M of the conjuncts `e % M == 0` (or `0 == e % M`) of the
 * condition c whose e is the same value as arg, in the order written; at
 * most max of them.  Returns their number. */
static int guard_divisors(walk *w, const sx *c, const sx *arg, const sx **out, int n, int max, int depth)
{
	if (!c || depth > 8 || n >= max)
		return n;
	if (c->k == SX_AND) {
		n = guard_divisors(w, c->a, arg, out, n, max, depth + 1);
		return guard_divisors(w, c->b, arg, out, n, max, depth + 1);
	}
	int64_t z;
	if (c->k != SX_CMP || c->c != OP_EQ - OP_LT + 1) /* walk_expr.c: op - OP_LT + 1 */
		return n;
	const sx *r = sx_is_const(c->b, &z) && z == 0 ? c->a : sx_is_const(c->a, &z) && z == 0 ? c->b : NULL;
	if (r && r->k == SX_REM && sx_same_value(&w->sym.sx, r->a, arg))
		out[n++] = r->b;
	return n;
}

/* 1 when the condition c tests that arg is a multiple of the block's x
 * size: the constant bx, or the same value as bxs (the launch's block-x
 * expression). */
static int tests_multiple(walk *w, const sx *c, const sx *arg, int64_t bx, const sx *bxs)
{
	const sx *d[8];
	int64_t m;
	int n = guard_divisors(w, c, arg, d, 0, 8, 0);
	for (int i = 0; i < n; i++)
		if ((bx > 0 && sx_is_const(d[i], &m) && m == bx) ||
		    (bxs && sx_same_value(&w->sym.sx, d[i], bxs)))
			return 1;
	return 0;
}

/* The first constant M of a conjunct `arg % M == 0` of c; 0 when none. */
static int64_t guard_modulus(walk *w, const sx *c, const sx *arg)
{
	const sx *d[8];
	int64_t m;
	int n = guard_divisors(w, c, arg, d, 0, 8, 0);
	for (int i = 0; i < n; i++)
		if (sx_is_const(d[i], &m) && m > 0)
			return m;
	return 0;
}

/* Makes room for one more element in an arena array of *n elements and
 * *cap capacity (doubling from first); the array, or NULL out of memory
 * (the old one is then kept as it was). */
static void *grow(walk *w, void *v, int n, int *cap, size_t elem, int first)
{
	if (n < *cap)
		return v;
	int nc = *cap ? *cap * 2 : first;
	void *nv = ka_arena_alloc(w->file.a, elem * (size_t)nc);
	if (!nv)
		return NULL;
	if (n)
		memcpy(nv, v, elem * (size_t)n);
	*cap = nc;
	return nv;
}

/* The block's x size as the launch writes it: the first argument of
 * `dim3(x, ...)` or the block expression itself; NULL for a dim3 variable
 * (only its folded x size is known). */
static ka_node *block_x_node(ka_node *cfg)
{
	ka_node *b = cfg->nkids > 1 ? walk_strip(cfg->kids[1]) : NULL;
	if (b && b->kind == KN_CALL && b->name && strcmp(b->name, "dim3") == 0 && b->nkids >= 1 &&
	    !is_dim3(walk_strip(b->kids[0])))
		return walk_strip(b->kids[0]);
	return b && is_dim3(b) ? NULL : b;
}

/* The values of a call's integer arguments (ax[i]; NULL for pointers and
 * floating point), evaluated without facts; at most 16. */
static void int_args(walk *w, ka_node *n, const sx *ax[16])
{
	w->ctl.quiet++;
	for (int i = 0; i < 16; i++) {
		ka_node *a = i < n->nkids ? walk_strip(n->kids[i]) : NULL;
		ax[i] = a && !(a->tflags & (KT_POINTER | KT_ARRAY | KT_FLOAT | KT_DOUBLE)) ? walk_ev_int(w, a)
											   : NULL;
	}
	w->ctl.quiet--;
}

/* A host call's guards (host_call_guard): what the branches around it test
 * of its integer arguments, and its template arguments. */
void walk_host_call_guard(walk *w, ka_node *n, const char *name, ka_decl *callee)
{
	if (w->is_device || !name || !*name)
		return;
	host_call_guard *ng = grow(w, w->host.guards, w->host.nguards, &w->host.capguards, sizeof *ng, 32);
	if (!ng)
		return;
	w->host.guards = ng;
	host_call_guard *g = &w->host.guards[w->host.nguards++];
	memset(g, 0, sizeof *g);
	g->callee = name;
	const sx *ax[16];
	if (w->ctl.nbrs)
		int_args(w, n, ax);
	for (int i = 0; i < 16 && w->ctl.nbrs; i++)
		for (int j = 0; ax[i] && j < w->ctl.nbrs && !g->argmod[i]; j++)
			if (!w->ctl.brs[j].in_else)
				g->argmod[i] = guard_modulus(w, w->ctl.brs[j].cond, ax[i]);
	if (callee && callee->ntparams) {
		int64_t v[8];
		int known[8];
		int c = walk_call_targs(w, n, callee, v, known, 8);
		for (int j = 0; j < c && j < 8; j++)
			if (known[j]) {
				g->targv[j] = v[j];
				g->targ_known |= 1u << j;
			}
	}
}

/* The launching function's parameter that a launch argument names, and
 * its template parameter that the block's x size names; the kernel's
 * template arguments spelled as the block's x size (launch_info). */
static void launch_names(walk *w, ka_node *n, ka_decl *k, launch_info *li)
{
	memset(li->arg_param, -1, sizeof li->arg_param);
	li->bx_tparam = -1;
	li->func = w->fn ? w->fn->name : NULL;
	ka_node *b = block_x_node(n->cfg);
	const char *bt = b ? walk_text(w, b) : NULL;
	for (int i = 0; w->fn && i < n->nkids && i < 16; i++) {
		ka_node *a = walk_strip(n->kids[i]);
		for (int q = 0; a && a->kind == KN_DECLREF && a->ref && q < w->fn->nparams && q < 127; q++)
			if (w->fn->params[q] == a->ref)
				li->arg_param[i] = (signed char)q;
	}
	if (b && b->kind == KN_DECLREF && b->name)
		for (int t = 0; w->fn && t < w->fn->ntparams && t < 8; t++)
			if (w->fn->tparams[t]->name && strcmp(w->fn->tparams[t]->name, b->name) == 0)
				li->bx_tparam = (signed char)t;
	if (!bt || !k || !k->ntparams || n->loc.in_macro)
		return;
	/* the kernel's template arguments, as written */
	for (int j = 0; j < k->ntparams && j < 8; j++) {
		char buf[128];
		if (walk_call_targ_text(w, n, j, buf, sizeof buf) && strcmp(buf, bt) == 0)
			li->targ_is_bx |= 1u << j;
	}
}

/* The value of a launch's block-x expression, seeing through a local
 * whose initializer is a `?:` that an enclosing host branch decides
 * (`num_threads = (c > 1024) ? 1024 : c` under the else of `if (c > 1024)`:
 * c); NULL when it is neither. */
static const sx *block_x_value(walk *w, ka_node *b)
{
	if (!b)
		return NULL;
	ka_node *d = walk_strip(b);
	ka_node *init = d && d->kind == KN_DECLREF && d->ref && d->ref->kind != KD_PARAM
				? walk_strip(d->ref->init)
				: NULL;
	w->ctl.quiet++;
	const sx *v = walk_ev_int(w, b);
	if (init && init->kind == KN_COND && init->nkids == 3) {
		const sx *c = walk_ev_int(w, init->kids[0]);
		for (int j = 0; j < w->ctl.nbrs; j++)
			if (w->ctl.brs[j].cond && sx_same_value(&w->sym.sx, w->ctl.brs[j].cond, c)) {
				v = walk_ev_int(w, init->kids[w->ctl.brs[j].in_else ? 2 : 1]);
				break;
			}
	}
	w->ctl.quiet--;
	return v;
}

/* The arguments that are multiples of the block's x size
 * (launch_info.argmul): a product with it as a factor, or tested so by a
 * host branch around the launch; *notmul gets those that the else branch
 * of such a test shows not to be. */
static unsigned args_multiple_of_block(walk *w, ka_node *n, int64_t bx, unsigned *notmul)
{
	*notmul = 0;
	if (n->cfg->nkids < 2)
		return 0;
	ka_node *b = block_x_node(n->cfg);
	const sx *bxs = block_x_value(w, b);
	const sx *ax[16];
	int_args(w, n, ax);
	unsigned mask = 0;
	const sx *bconst = bx > 0 ? sx_const(&w->sym.sx, bx) : NULL;
	for (int i = 0; i < 16; i++) {
		if (ax[i] && (walk_has_factor(w, ax[i], bxs) || walk_has_factor(w, ax[i], bconst)))
			mask |= 1u << i;
		for (int j = 0; ax[i] && j < w->ctl.nbrs; j++)
			if (tests_multiple(w, w->ctl.brs[j].cond, ax[i], bx, bxs)) {
				if (w->ctl.brs[j].in_else)
					*notmul |= 1u << i;
				else
					mask |= 1u << i;
			}
	}
	return mask & ~*notmul;
}

/* The expression of grid axis a in a launch's grid argument: an argument
 * of a dim3(...) construction, of a dim3 variable's initializer, or the
 * whole integer for axis 0; NULL when it cannot be read. */
static ka_node *grid_axis_node(ka_node *n, int a, int depth)
{
	n = walk_strip(n);
	if (!n || depth > 8)
		return NULL;
	if (n->kind == KN_CALL && n->name && strcmp(n->name, "dim3") == 0) {
		if (n->nkids == 1 && is_dim3(walk_strip(n->kids[0])))
			return grid_axis_node(n->kids[0], a, depth + 1);
		return a < n->nkids ? n->kids[a] : NULL;
	}
	if (n->kind == KN_INITLIST)
		return a < n->nkids ? n->kids[a] : NULL;
	if (n->kind == KN_DECLREF && is_dim3(n))
		return n->ref && n->ref->kind != KD_PARAM && n->ref->init
			       ? grid_axis_node(n->ref->init, a, depth + 1)
			       : NULL;
	return a == 0 ? n : NULL;
}

/* launch_info.argfloor: the grid axes spelled `X / B`, X an integer
 * argument of the launch and B the block's extent along that axis (a
 * constant here), so that the grid stops at the last whole block below X.
 * A dim3 variable whose axis is assigned after its declaration is not
 * read. */
static void args_floor_grid(walk *w, ka_node *n, const int64_t b[3], unsigned bax, unsigned out[3])
{
	memset(out, 0, 3 * sizeof *out);
	if (n->cfg->nkids < 1)
		return;
	ka_node *g = walk_strip(n->cfg->kids[0]);
	/* the launch copies a dim3 variable (`dim3(grid)`): the variable */
	while (g && g->kind == KN_CALL && g->name && strcmp(g->name, "dim3") == 0 && g->nkids == 1 &&
	       is_dim3(walk_strip(g->kids[0])))
		g = walk_strip(g->kids[0]);
	if (g && g->kind == KN_DECLREF && g->ref && g->ref->id < w->file.nenv) {
		const dstat *ds = &w->sym.ds[g->ref->id];
		for (int a = 0; a < 3; a++)
			if (ds->dim3_set[a])
				return;
	}
	const sx *ax[16];
	int have = 0;
	for (int a = 0; a < 3; a++) {
		if (!((bax >> a) & 1) || b[a] <= 0)
			continue;
		ka_node *e = walk_strip(grid_axis_node(n->cfg->kids[0], a, 0));
		int64_t d;
		if (!e || e->kind != KN_BINOP || e->op != OP_DIV || e->nkids != 2 ||
		    !walk_fold_int(w, e->kids[1], &d) || d != b[a])
			continue;
		if (!have) {
			int_args(w, n, ax);
			have = 1;
		}
		w->ctl.quiet++;
		const sx *num = walk_ev_int(w, e->kids[0]);
		/* a dim3 variable's axis whose numerator was assigned since the
		 * declaration was made from another value than `num` */
		int same = g && g->kind == KN_DECLREF ? dim3_axis_unchanged(w, g, a, walk_ev_int(w, e)) : 1;
		w->ctl.quiet--;
		if (!same)
			continue;
		for (int i = 0; i < 16; i++)
			if (ax[i] && num && sx_same_value(&w->sym.sx, ax[i], num))
				out[a] |= 1u << i;
	}
}

static void launch_one(walk *w, ka_node *n, ka_decl *k)
{
	ka_node *cfg = n->cfg;
	int64_t g[3], b[3], smem = 0;
	unsigned gax = 0;
	if (cfg->nkids > 0 && fold_dim3_axes(w, cfg->kids[0], g, 0, &gax))
		for (int i = 0; i < 3; i++) /* an axis outside [1, INT32_MAX] is unknown */
			if (g[i] < 1 || g[i] > INT32_MAX)
				gax &= ~(1u << i);
	int gok = gax == 7 && dims_valid(g, INT64_MAX);
	unsigned bax = 0;
	int bok = cfg->nkids > 1 && fold_dim3_axes(w, cfg->kids[1], b, 0, &bax) && bax == 7 &&
		  dims_valid(b, INT32_MAX);
	for (int i = 0; i < 3; i++) /* a partial block's axis outside [1, 1024] is unknown */
		if (b[i] < 1 || b[i] > 1024)
			bax &= ~(1u << i);
	int sok = cfg->nkids > 2 ? walk_fold_int(w, cfg->kids[2], &smem) : 1;
	launch_info *nl = grow(w, w->host.launches, w->host.nlaunches, &w->host.caplaunches, sizeof *nl, 16);
	if (!nl)
		return;
	w->host.launches = nl;
	launch_info *li = &w->host.launches[w->host.nlaunches++];
	memset(li, 0, sizeof *li);
	li->call = n;
	li->kernel = k;
	if (gok)
		memcpy(li->grid, g, sizeof li->grid);
	for (int i = 0; i < 3; i++)
		li->gpart[i] = (gax >> i) & 1 ? g[i] : 0;
	if (bok) {
		li->bx = (int)b[0];
		li->by = (int)b[1];
		li->bz = (int)b[2];
	} else {
		for (int i = 0; i < 3; i++)
			li->bpart[i] = (bax >> i) & 1 ? (int)b[i] : 0;
	}
	sok = sok && smem >= 0 && smem <= INT32_MAX; /* else unknown, not a wrapped size */
	li->dyn_smem = sok ? smem : -1;
	li->ntargs = n->ntargs;
	memcpy(li->targs, n->targs, sizeof li->targs);
	launch_template(w, n, k, li);
	li->argmul = args_multiple_of_block(w, n, li->bx, &li->argnotmul);
	if (cfg->nkids > 1)
		args_floor_grid(w, n, b, bok ? 7 : bax, li->argfloor);
	launch_names(w, n, k, li);
	if (!w->ctl.quiet)
		walk_emit_launch(w, n, k, g, gok ? 7 : (int)gax, b, bok ? 7 : 0, smem, sok);
}
