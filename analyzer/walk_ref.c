/* analyzer/walk_ref.c: variables a call may change.  A local passed to a
 * function by non-const reference (`udivmod(i, n, r)` taking `int &`) or by
 * address (`f(&i)`) may hold anything after the call: its value becomes an
 * opaque one, which keeps its dependences and takes those of the call's
 * arguments (a thread-derived index stays thread-varying, an out parameter
 * filled from one becomes so) but is no longer affine in the thread ids, so
 * no coefficient or lane stride is read off the value it had before the
 * call.  A helper the walk inlines hands back what its body left in a
 * reference parameter (`deterministic_thread_index(n, tid)` storing
 * `blockIdx.x * blockDim.x + threadIdx.x` into `int &tid`): that value,
 * not an opaque one, is the caller's variable after the call. */
#include "analyzer/walk.h"
#include <string.h>

int walk_lvalue_ref(const ka_decl *p)
{
	const char *t = p ? p->type : NULL;
	if (!t)
		return 0;
	size_t n = strlen(t);
	while (n > 0 && t[n - 1] == ' ')
		n--;
	return n > 0 && t[n - 1] == '&' && !(n > 1 && t[n - 2] == '&');
}

/* `int &`, `T &`: a reference that is not to const.  `const int &` and
 * `int const &` are read-only. */
static int mutable_ref(const ka_decl *p)
{
	const char *t = p ? p->type : NULL;
	return walk_lvalue_ref(p) && strstr(t, "const ") == NULL && strstr(t, " const") == NULL;
}

static ka_decl *clobbered(ka_node *a, const ka_decl *param, int by_ref)
{
	ka_node *s = walk_strip(a);
	if (s && s->kind == KN_UNOP && s->op == OP_ADDROF && s->nkids == 1) {
		ka_node *v = walk_strip(s->kids[0]);
		if (v && v->kind == KN_DECLREF && v->ref && !(v->ref->tflags & KT_ARRAY))
			return v->ref;
		return NULL;
	}
	if (s && s->kind == KN_DECLREF && s->ref && (by_ref || mutable_ref(param)))
		return s->ref;
	return NULL;
}

unsigned walk_ref_write_back(walk *w, ka_node *n, const ka_decl *f)
{
	unsigned done = 0;
	for (int i = 0; f && i < n->nkids && i < f->nparams && i < 32; i++) {
		const ka_decl *p = f->params[i];
		ka_node *s = walk_strip(n->kids[i]);
		if (!p || p->id >= w->file.nenv || !mutable_ref(p) || !s || s->kind != KN_DECLREF ||
		    !s->ref || (s->ref->tflags & KT_ARRAY) || s->ref->id >= w->file.nenv)
			continue;
		walk_assign(w, s->ref, w->sym.env[p->id]);
		done |= 1u << i;
	}
	return done;
}

/* The thread's own array an argument hands over (`split(off, idx)` with
 * `long idx[N]`, or `&idx[0]`), else NULL: a callee the walk does not
 * inline may fill it. */
static ka_decl *private_array_arg(ka_node *a)
{
	ka_node *s = walk_strip(a);
	if (s && s->kind == KN_UNOP && s->op == OP_ADDROF && s->nkids == 1) {
		ka_node *k = walk_strip(s->kids[0]);
		s = k && k->kind == KN_SUBSCRIPT && k->nkids == 2 ? walk_strip(k->kids[0]) : NULL;
	}
	if (!s || s->kind != KN_DECLREF || !s->ref || s->ref->kind != KD_VAR ||
	    !(s->ref->tflags & KT_ARRAY) || (s->ref->flags & (KDF_SHARED | KDF_CONSTANT)))
		return NULL;
	return s->ref;
}

/* What a callee the walk does not inline writes into the thread's array
 * comes from the call's arguments (dep: what they depend on): the indices
 * `OffsetToNdIndex(i, idx)` leaves in `idx` vary as `i` does.  A helper the
 * walk inlines records its own stores instead. */
void walk_clobber_arrays(walk *w, ka_node *n, unsigned dep)
{
	dep &= ~D_OPAQUE;
	for (int i = 0; dep && i < n->nkids; i++) {
		ka_decl *d = private_array_arg(n->kids[i]);
		if (d && d->id >= 0 && d->id < w->file.nenv)
			w->sym.ds[d->id].stored_dep |= dep | D_DATA;
	}
}

/* What the thread stored in its own array that an argument hands over
 * (`join(idx)` after `idx[i] = ...`): a callee the walk does not inline
 * computes its result from it too. */
unsigned walk_arg_dep_stored(walk *w, ka_node *a)
{
	ka_decl *d = private_array_arg(a);
	if (!d || d->id < 0 || d->id >= w->file.nenv)
		return 0;
	return w->sym.ds[d->id].stored_dep & ~D_OPAQUE;
}

void walk_clobber_args(walk *w, ka_node *n, const ka_decl *f, unsigned skip)
{
	unsigned dep = 0;
	uint64_t loops = 0;
	int any = 0;
	for (int i = 0; i < n->nkids && !any; i++)
		any = !(i < 32 && ((skip >> i) & 1)) &&
		      clobbered(n->kids[i], f && i < f->nparams ? f->params[i] : NULL,
				i < 32 && ((n->mut_ref_args >> i) & 1)) != NULL;
	if (!any)
		return;
	/* what the call may store there is computed from its arguments: an out
	 * parameter of `hD.divmod(index, q, r)` varies as `index` does, even when
	 * it held nothing before the call */
	walk_kids_dep(w, n, &dep, &loops);
	for (int i = 0; i < n->nkids; i++) {
		const ka_decl *p = f && i < f->nparams ? f->params[i] : NULL;
		if (i < 32 && ((skip >> i) & 1))
			continue;
		ka_decl *d = clobbered(n->kids[i], p, i < 32 && ((n->mut_ref_args >> i) & 1));
		if (!d || d->id >= w->file.nenv)
			continue;
		val v = w->sym.env[d->id];
		unsigned od = v.x ? v.x->dep : 0;
		uint64_t ol = v.x ? v.x->loops : 0;
		v.x = sx_opaque(&w->sym.sx, od | dep, ol | loops);
		walk_assign(w, d, v);
	}
}
