/* analyzer/walk_ref.c: variables a call may change.  A local passed to a
 * function by non-const reference (`udivmod(i, n, r)` taking `int &`) or by
 * address (`f(&i)`) may hold anything after the call: its value becomes an
 * opaque one, which keeps its dependences (a thread-derived index stays
 * thread-varying) but is no longer affine in the thread ids, so no
 * coefficient or lane stride is read off the value it had before the call. */
#include "analyzer/walk.h"
#include <string.h>

/* `int &`, `T &`: a reference that is not to const.  `const int &` and
 * `int const &` are read-only. */
static int mutable_ref(const ka_decl *p)
{
	const char *t = p ? p->type : NULL;
	if (!t)
		return 0;
	size_t n = strlen(t);
	while (n > 0 && t[n - 1] == ' ')
		n--;
	if (n == 0 || t[n - 1] != '&' || (n > 1 && t[n - 2] == '&'))
		return 0; /* not an lvalue reference */
	return strstr(t, "const ") == NULL && strstr(t, " const") == NULL;
}

static ka_decl *clobbered(ka_node *a, const ka_decl *param)
{
	ka_node *s = walk_strip(a);
	if (s && s->kind == KN_UNOP && s->op == OP_ADDROF && s->nkids == 1) {
		ka_node *v = walk_strip(s->kids[0]);
		if (v && v->kind == KN_DECLREF && v->ref && !(v->ref->tflags & KT_ARRAY))
			return v->ref;
		return NULL;
	}
	if (s && s->kind == KN_DECLREF && s->ref && mutable_ref(param))
		return s->ref;
	return NULL;
}

void walk_clobber_args(walk *w, ka_node *n, const ka_decl *f)
{
	for (int i = 0; i < n->nkids; i++) {
		const ka_decl *p = f && i < f->nparams ? f->params[i] : NULL;
		ka_decl *d = clobbered(n->kids[i], p);
		if (!d || d->id >= w->file.nenv || !w->sym.env[d->id].x)
			continue;
		val v = w->sym.env[d->id];
		v.x = sx_opaque(&w->sym.sx, v.x->dep, v.x->loops);
		walk_assign(w, d, v);
	}
}
