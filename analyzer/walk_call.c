/* analyzer/walk_call.c: calls in the kernel and host walks.  Classifies the
 * callee (math, warp intrinsics, atomics, barriers, host API), keeps the
 * barrier tallies, hands the call, barrier and atomic rows to emit_code.c,
 * and inlines device functions so that their accesses are seen in the
 * context of the calling kernel. */
#include "analyzer/walk.h"
#include <stdlib.h>
#include <string.h>

static int in_list(const char *s, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (strcmp(s, list[i]) == 0)
			return 1;
	return 0;
}

static const char *const math_names[] = {
	"sqrt",  "exp",   "exp2",   "exp10",     "expm1",     "log",      "log2",   "log10",
	"log1p", "sin",   "cos",    "tan",       "asin",      "acos",     "atan",   "atan2",
	"sinh",  "cosh",  "tanh",   "pow",       "fmod",      "erf",      "erfc",   "cbrt",
	"rsqrt", "hypot", "sincos", "sinpi",     "cospi",     "floor",    "ceil",   "round",
	"trunc", "fabs",  "fmin",   "fmax",      "fma",       "rcbrt",    "lgamma", "tgamma",
	"ldexp", "frexp", "rint",   "nearbyint", "remainder", "copysign", NULL};
static const char *const fast_names[] = {
	"__expf",     "__exp10f",    "__logf",      "__log2f",   "__log10f",   "__sinf",
	"__cosf",     "__tanf",      "__sincosf",   "__powf",    "__fdividef", "__frcp_rn",
	"__fsqrt_rn", "__frsqrt_rn", "__saturatef", "__fmul_rn", "__fadd_rn",  NULL};

static int is_math(const char *s)
{
	if (in_list(s, math_names))
		return 1;
	size_t n = strlen(s);
	if (n > 1 && s[n - 1] == 'f') {
		char b[32];
		if (n - 1 >= sizeof b)
			return 0;
		memcpy(b, s, n - 1);
		b[n - 1] = '\0';
		return in_list(b, math_names);
	}
	return 0;
}

const char *walk_call_category(const char *s, ka_decl *ref)
{
	if (is_math(s))
		return "math";
	if (in_list(s, fast_names))
		return "fast_math";
	if (strncmp(s, "__syncthreads", 13) == 0)
		return "sync";
	if (strncmp(s, "__threadfence", 13) == 0)
		return "fence";
	if (strncmp(s, "__any", 5) == 0 || strncmp(s, "__all", 5) == 0 || strncmp(s, "__ballot", 8) == 0)
		return "vote";
	if (strncmp(s, "__shfl", 6) == 0 || strcmp(s, "__syncwarp") == 0 || strcmp(s, "__activemask") == 0 ||
	    strncmp(s, "__match", 7) == 0 || strncmp(s, "__reduce_", 9) == 0)
		return "warp";
	if (strncmp(s, "atomic", 6) == 0)
		return "atomic";
	if (strncmp(s, "cuda", 4) == 0 || strncmp(s, "hip", 3) == 0)
		return "host_api";
	if (ref && ref->body && (ref->flags & KDF_DEVICE))
		return "device_fn";
	return "other";
}

void walk_barrier(walk *w, ka_node *n, const char *kind)
{
	walk_uni why = WALK_UNI_GRID;
	int line = 0, warp = strcmp(kind, "warp") == 0;
	const char *file = NULL;
	int div = walk_in_divergent(w, &why, &line, &file, warp);
	for (int i = 0; i < w->ctl.nbrs; i++) {
		if (warp)
			w->ctl.brs[i].n_syncwarp++;
		else if (strcmp(kind, "block") == 0)
			w->ctl.brs[i].n_barriers++;
	}
	if (strcmp(kind, "block") == 0) {
		w->tally.n_barriers++;
		for (int i = 0; i < w->ctl.nloops; i++)
			w->ctl.loops[i].n_barriers++;
	}
	if (!w->ctl.quiet)
		walk_emit_barrier(w, n, kind, div, why, line, file, warp);
}

static int64_t atomic_fact(walk *w, ka_node *n)
{
	if (w->ctl.quiet || n->nkids < 1)
		return 0;
	w->ctl.quiet++;
	val addr = walk_ev(w, n->kids[0], 0);
	w->ctl.quiet--;
	const sx *v = n->nkids > 1 ? walk_ev_int(w, n->kids[1]) : sx_const(&w->sym.sx, 0);
	ka_node *vn = n->nkids > 1 ? walk_strip(n->kids[1]) : NULL;
	const sx *ax = addr.x ? addr.x : sx_opaque(&w->sym.sx, 0, 0);
	return walk_emit_atomic(w, n, &addr, ax, v, vn);
}

/* Host pointer provenance for cudaMemcpy: malloc'ed vs pinned. */
static void note_host_alloc(walk *w, ka_node *n)
{
	if (n->nkids < 1)
		return;
	ka_node *p = walk_strip(n->kids[0]);
	if (!p || p->kind != KN_UNOP || p->op != OP_ADDROF || !p->nkids)
		return;
	ka_node *v = walk_strip(p->kids[0]);
	if (!v || v->kind != KN_DECLREF || !v->ref)
		return;
	if (strstr(n->name, "Host") || strstr(n->name, "Register"))
		w->sym.ds[v->ref->id].host_kind = 2;
	else
		w->sym.ds[v->ref->id].host_kind = 3;
}

/* The lambda a name stands for: the lambda itself, a local initialized
 * with one, or a parameter one was passed to; else NULL. */
static ka_decl *lambda_of(ka_decl *v)
{
	if (!v)
		return NULL;
	if (v->flags & KDF_LAMBDA)
		return v;
	if (v->kind == KD_PARAM)
		return v->lambda;
	ka_node *ini = v->kind == KD_VAR && v->init ? walk_strip(v->init) : NULL;
	return ini && ini->kind == KN_DECLREF && ini->ref && (ini->ref->flags & KDF_LAMBDA) ? ini->ref : NULL;
}

static ka_decl *arg_lambda(ka_node *a)
{
	a = a ? walk_strip(a) : NULL;
	return a && a->kind == KN_DECLREF ? lambda_of(a->ref) : NULL;
}

val walk_inline_call(walk *w, ka_node *n, ka_decl *f, unsigned *written)
{
	val args[WALK_MAX_ARGS];
	*written = 0;
	int na = n->nkids < WALK_MAX_ARGS ? n->nkids : WALK_MAX_ARGS;
	if (n->nkids > WALK_MAX_ARGS && f->nparams > WALK_MAX_ARGS)
		walk_limit_reached(w, WALK_LIMIT_ARGS, &n->loc);
	for (int i = 0; i < na; i++)
		args[i] = walk_ev(w, n->kids[i], 0);
	for (int i = 0; i < w->ctl.inline_depth; i++)
		if (w->ctl.inline_stack[i] == f)
			return (val){.x = sx_opaque(&w->sym.sx, 0, 0)};
	if (w->ctl.inline_depth >= WALK_MAX_INLINE) {
		walk_limit_reached(w, WALK_LIMIT_INLINE, &n->loc);
		return (val){.x = sx_opaque(&w->sym.sx, 0, 0)};
	}
	ka_decl *lambdas[WALK_MAX_ARGS];
	for (int i = 0; i < f->nparams && i < na; i++) {
		if (f->params[i]->id < w->file.nenv)
			w->sym.env[f->params[i]->id] = args[i];
		/* a lambda passed on: called through the parameter, its body runs */
		lambdas[i] = f->params[i]->lambda;
		f->params[i]->lambda = arg_lambda(n->kids[i]);
	}
	/* past the first WALK_MAX_ARGS the arguments are bound too (by value: a
	 * lambda among them is not followed); an unbound parameter would read
	 * as a fresh value, the same in every thread, whatever was passed */
	for (int i = na; i < f->nparams && i < n->nkids; i++) {
		val v = walk_ev(w, n->kids[i], 0);
		if (f->params[i]->id < w->file.nenv)
			w->sym.env[f->params[i]->id] = v;
	}
	walk_bind_call_tparams(w, n, f);
	walk_cg_bind_args(w, n, f);
	const char *saved_func = w->func;
	const sx *saved_ret = w->sym.ret_val;
	int saved_base = w->sym.ret_brs_base, saved_div = w->sym.ret_div;
	ka_node *saved_site = w->ctl.call_site;
	if (w->ctl.inline_depth == 0)
		w->ctl.call_site = n;
	w->ctl.inline_stack[w->ctl.inline_depth++] = f;
	w->func = f->name;
	w->sym.ret_val = NULL;
	w->sym.ret_brs_base = w->ctl.nbrs;
	w->sym.ret_div = 0;
	walk_stmt(w, f->body);
	val r = {.x = w->sym.ret_val ? w->sym.ret_val : sx_opaque(&w->sym.sx, 0, 0)};
	for (int i = 0; i < f->nparams && i < na; i++)
		f->params[i]->lambda = lambdas[i];
	w->ctl.inline_depth--;
	*written = walk_ref_write_back(w, n, f);
	w->ctl.call_site = saved_site;
	w->func = saved_func;
	w->sym.ret_val = saved_ret;
	w->sym.ret_brs_base = saved_base;
	w->sym.ret_div = saved_div;
	return r;
}

/* Calls whose result is one value in all lanes of a warp, though it may
 * differ between warps: votes (`__ballot_sync`, `__any_sync`, ...), warp
 * reductions (`__reduce_add_sync`), a full-width shuffle from a source lane
 * the lanes agree on (`__shfl_sync(mask, v, 0)`: a broadcast), and pure
 * integer or math functions of such values (`__ffs(ballot) - 1`).  A
 * shuffle narrower than the warp (`width` 16) broadcasts per segment only. */
static int warp_uniform_result(walk *w, ka_node *n, const sx *const *argx, const char *name, const char *cat)
{
	static const char *const pure[] = {"__ffs",  "__ffsll",  "__popc", "__popcll", "__clz", "__clzll",
					   "__brev", "__brevll", "min",    "max",      "abs",   NULL};
	if (strcmp(cat, "vote") == 0 || strncmp(name, "__reduce_", 9) == 0)
		return 1;
	int legacy = strcmp(name, "__shfl") == 0;
	if (legacy || strcmp(name, "__shfl_sync") == 0) {
		int src = legacy ? 1 : 2;
		if (n->nkids <= src || n->nkids > src + 2)
			return 0;
		if (n->nkids == src + 2) {
			int64_t width;
			const sx *wx = src + 1 < WALK_MAX_ARGS ? argx[src + 1] : NULL;
			if (!walk_shfl_width(w, n, n->kids[src + 1], wx, &width) ||
			    width < w->file.arch->warp_size)
				return 0;
		}
		return src < WALK_MAX_ARGS && walk_uniformity(w, argx[src]) != WALK_UNI_THREAD;
	}
	if (strcmp(cat, "math") != 0 && strcmp(cat, "fast_math") != 0 && !in_list(name, pure))
		return 0;
	for (int i = 0; i < n->nkids; i++)
		if (i >= WALK_MAX_ARGS || walk_uniformity(w, argx[i]) == WALK_UNI_THREAD)
			return 0;
	return 1;
}

/* The lambda a call runs, or NULL: `f(i)` and `f.operator()(i)` (the
 * object then the first kid, *skip 1) with `auto f = [&](auto i) {...}`,
 * or a lambda called where it is written. */
static ka_decl *called_lambda(ka_node *n, int *skip)
{
	*skip = 0;
	ka_decl *v = n->ref;
	if (n->name && strcmp(n->name, "operator()") == 0 && n->nkids >= 1) {
		ka_node *obj = walk_strip(n->kids[0]);
		*skip = 1;
		v = obj && obj->kind == KN_DECLREF ? obj->ref : NULL;
	}
	ka_node *callee = !v && n->callee ? walk_strip(n->callee) : NULL;
	if (callee && callee->kind == KN_DECLREF) /* in a template: a dependent call of the variable */
		v = callee->ref;
	return lambda_of(v);
}

int walk_lambda_builtin(ka_node *call)
{
	static const char *const vars[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
	int skip;
	ka_decl *f = call && call->kind == KN_CALL ? called_lambda(call, &skip) : NULL;
	ka_node *b = f ? f->body : NULL;
	if (!b || b->kind != KN_COMPOUND || b->nkids != 1 || !b->kids[0] || b->kids[0]->kind != KN_RETURN ||
	    b->kids[0]->nkids != 1)
		return -1;
	ka_node *r = walk_strip(b->kids[0]->kids[0]);
	/* `return threadIdx;` as a dim3: the conversion operator on the variable,
	 * in a template also inside dim3's copy constructor */
	for (int i = 0; r && i < 4 && r->kind != KN_DECLREF; i++) {
		if (r->kind == KN_CALL && r->name && strncmp(r->name, "operator ", 9) == 0 && r->callee)
			r = walk_strip(r->callee);
		else if (r->kind == KN_CALL && r->name &&
			 (!strcmp(r->name, "dim3") || !strcmp(r->name, "uint3")) && r->nkids == 1)
			r = walk_strip(r->kids[0]);
		else if (r->kind == KN_MEMBER && r->nkids == 1)
			r = walk_strip(r->kids[0]);
		else
			r = NULL;
	}
	for (int v = 0; r && r->kind == KN_DECLREF && r->name && v < 4; v++)
		if (strcmp(r->name, vars[v]) == 0)
			return v;
	return -1;
}

/* 1 when a parameter of a is of another kind than b's (a scalar against a
 * vector or a struct, an integer against a floating type, a pointer
 * against a value); dependent types match anything. */
static int param_kinds_differ(const ka_decl *a, const ka_decl *b)
{
	const unsigned kinds = KT_INT | KT_FLOAT | KT_DOUBLE | KT_POINTER | KT_RECORD | KT_VECTOR;
	for (int i = 0; i < a->nparams && i < b->nparams; i++) {
		unsigned x = a->params[i]->tflags, y = b->params[i]->tflags;
		if (!((x | y) & KT_DEPENDENT) && (x & kinds) != (y & kinds))
			return 1;
	}
	return 0;
}

val walk_ev_call(walk *w, ka_node *n)
{
	int checked = !w->ctl.stmt_level_call;
	w->ctl.stmt_level_call = 0;
	if ((!n->name || !*n->name) && (n->callee || n->name_begin >= 0)) {
		/* a dependent call in a template: k<T>(...), f<N>(...) */
		const char *rn = walk_call_name(w, n);
		if (n->cfg || walk_find_function(w, rn, n->nkids, -1))
			n->name = rn;
	}
	if (n->cfg) {
		walk_launch(w, n);
		for (int i = 0; i < n->nkids; i++)
			walk_ev(w, n->kids[i], 0);
		return (val){.x = sx_opaque(&w->sym.sx, 0, 0)};
	}
	const char *name = n->name ? n->name : "";
	val tv;
	w->ctl.api_result_used = checked;
	int api = !w->is_device && walk_launch_api(w, n);
	w->ctl.api_result_used = 0;
	if (api) {
		for (int i = 0; i < n->nkids; i++)
			walk_ev(w, n->kids[i], 0);
		return (val){.x = sx_opaque(&w->sym.sx, 0, 0)};
	}
	if (walk_ev_cg_call(w, n, &tv) || (w->is_device && walk_ev_typed_call(w, n, &tv)))
		return tv;
	int skip;
	ka_decl *lam = w->is_device ? called_lambda(n, &skip) : NULL;
	if (lam && lam->body) { /* the lambda's body, here, with the captures' values of here */
		ka_node call = *n;
		call.kids = n->kids + skip;
		call.nkids = n->nkids - skip;
		unsigned written;
		val r = walk_inline_call(w, &call, lam, &written);
		walk_clobber_args(w, &call, lam, written);
		return r;
	}
	if (!*name || strcmp(name, "dim3") == 0 || strncmp(name, "operator", 8) == 0) {
		unsigned dep = 0;
		const sx *ax[2] = {NULL, NULL};
		for (int i = 0; i < n->nkids; i++) {
			const sx *x = walk_ev_int(w, n->kids[i]);
			if (i < 2)
				ax[i] = x;
			dep |= x->dep | walk_arg_dep_stored(w, n->kids[i]);
		}
		walk_clobber_arrays(w, n, dep); /* `h.split(i, idx)` of a dependent `h` */
		/* `OP::op(v, partner)` of a functor the template leaves open */
		const sx *bf = n->nkids == 2 && strcmp(name, "dim3") != 0 ? walk_butterfly(w, ax[0], ax[1])
									  : NULL;
		return (val){.x = bf ? bf : sx_opaque(&w->sym.sx, dep, 0)};
	}
	ka_decl *ref = n->ref;
	if ((!ref || !ref->body) && w->is_device) {
		/* clang named a declaration without its body (a prototype, an
		 * overload's): its definition has the same parameter types, and
		 * an overload whose parameters are of other kinds (`dot(float,
		 * float)` for `dot(float3, float3)`) is not it */
		ka_decl *named = ref,
			*def = ref && ref->nparams == n->nkids ? walk_find_definition(w, ref) : NULL;
		ref = def ? def
			  : walk_find_function_targs(w, name, n->nkids, 1,
						     n->ntargs); /* templates: f<N>(...) */
		if (!def && ref && named && named->nparams == ref->nparams && param_kinds_differ(named, ref))
			ref = named;
		/* a method call (`v.magnitude()`) counts no object among its
		 * arguments: a free function of the name with one parameter
		 * more (`magnitude(float)`) is not the method */
		ka_node *cl = n->callee ? walk_strip(n->callee) : NULL;
		if (!def && ref && ref->nparams != n->nkids && cl && cl->kind == KN_MEMBER)
			ref = named;
	}
	const char *cat = walk_call_category(name, ref);
	if (strcmp(cat, "device_fn") == 0 && w->is_device) {
		n->ref = ref;
		walk_emit_call(w, n, cat, checked);
		w->file.called[n->ref->id] = 1;
		unsigned written;
		val r = walk_inline_call(w, n, n->ref, &written);
		walk_clobber_args(w, n, n->ref, written);
		return r;
	}
	if (strcmp(cat, "sync") == 0)
		walk_barrier(w, n, "block");
	else if (strcmp(name, "__syncwarp") == 0)
		walk_barrier(w, n, "warp");
	else if (strcmp(cat, "fence") == 0)
		walk_barrier(w, n, "fence");
	int64_t atomic_id = strcmp(cat, "atomic") == 0 ? atomic_fact(w, n) : 0;
	if (strcmp(cat, "warp") == 0 || strcmp(cat, "vote") == 0)
		w->tally.uses_warp = 1;
	if (!w->is_device && (strcmp(name, "cudaMallocHost") == 0 || strcmp(name, "cudaHostAlloc") == 0 ||
			      strcmp(name, "hipHostMalloc") == 0 || strcmp(name, "cudaMalloc") == 0 ||
			      strcmp(name, "hipMalloc") == 0 || strcmp(name, "cudaMallocManaged") == 0))
		note_host_alloc(w, n);
	if (!w->is_device && strstr(name, "FuncSetAttribute") && n->nkids >= 2) {
		/* the attribute by its text, or by the enumerator's name when the
		 * call is written in a macro (the text is then the macro's) */
		const char *t = walk_text(w, n->kids[1]);
		ka_node *a = walk_strip(n->kids[1]);
		if (a && a->name && strstr(a->name, "MaxDynamicSharedMemorySize"))
			t = a->name;
		ka_node *k = walk_strip(n->kids[0]);
		while (k && k->kind == KN_UNOP && k->nkids == 1)
			k = walk_strip(k->kids[0]);
		if (t && strstr(t, "MaxDynamicSharedMemorySize") && k) {
			/* the kernel, or the kernels a local `auto kern = k<...>;`
			 * or a table names (the launch finds them the same way) */
			ka_decl *behind[8];
			int nb = walk_kernels_behind(w, n->kids[0], behind, 8);
			for (int i = -1; i < nb; i++) {
				const char *kn = i < 0 ? k->name : behind[i]->name;
				if (!kn || (i >= 0 && k->name && strcmp(kn, k->name) == 0))
					continue;
				int seen = 0; /* a name once: a dispatch macro repeats it */
				for (int o = 0; o < w->host.noptin && !seen; o++)
					seen = strcmp(w->host.optin_kernels[o], kn) == 0;
				if (seen)
					continue;
				if (w->host.noptin < WALK_MAX_OPTIN)
					w->host.optin_kernels[w->host.noptin++] = kn;
				else
					walk_limit_reached(w, WALK_LIMIT_OPTIN, &n->loc);
			}
		}
	}
	if (!w->is_device)
		walk_host_call_guard(w, n, name,
				     ref && ref->body ? ref : walk_find_function(w, name, n->nkids, 0));
	walk_emit_call(w, n, cat, checked);
	unsigned dep = 0;
	uint64_t loops = 0;
	const sx *argx[WALK_MAX_ARGS];
	for (int i = 0; i < n->nkids; i++) {
		const sx *x = walk_ev_int(w, n->kids[i]);
		if (i < WALK_MAX_ARGS)
			argx[i] = x;
		/* and of an array the thread filled: `join(idx)` */
		dep |= x->dep | walk_arg_dep_stored(w, n->kids[i]);
		loops |= x->loops;
	}
	walk_clobber_args(w, n, ref, 0);
	walk_clobber_arrays(w, n, dep);
	/* __syncthreads_or/_and/_count: a block-wide vote, one result for every
	 * thread of the block whatever each thread's predicate was */
	if ((dep & D_LANE) && strcmp(cat, "sync") == 0 &&
	    (strcmp(name, "__syncthreads_or") == 0 || strcmp(name, "__syncthreads_and") == 0 ||
	     strcmp(name, "__syncthreads_count") == 0))
		return (val){.x = sx_opaque(&w->sym.sx, (dep & ~D_LANE) | D_OPAQUE, loops)};
	if ((dep & D_LANE) && warp_uniform_result(w, n, argx, name, cat)) {
		int s = sx_new_sym(&w->sym.sx, SYM_VAR, "warp-uniform", dep | D_OPAQUE, loops);
		w->sym.sx.syms[s].warp_uniform = 1;
		return (val){.x = sx_symref(&w->sym.sx, s)};
	}
	/* an atomic returns the old value at each thread's turn: one slot per
	 * thread of `i = atomicAdd(&count, 1)`, whatever the arguments; which
	 * lane gets which is not known (no axis) */
	if (strcmp(cat, "atomic") == 0)
		return (val){.x = sx_atomic_result(&w->sym.sx, dep | D_DATA | D_LANE, loops, atomic_id)};
	/* a butterfly: `__shfl_xor_sync(m, v, k)`, then v combined with it
	 * (`fmaxf(v, partner)`, `min(v, partner)`) */
	int legacy_xor = strcmp(name, "__shfl_xor") == 0;
	if ((legacy_xor || strcmp(name, "__shfl_xor_sync") == 0) && n->nkids >= (legacy_xor ? 2 : 3) &&
	    n->nkids <= WALK_MAX_ARGS)
		return (val){.x = walk_shfl_xor(w, argx[legacy_xor ? 0 : 1], argx[legacy_xor ? 1 : 2], dep,
						loops)};
	if (n->nkids == 2 &&
	    (strcmp(cat, "math") == 0 || strcmp(cat, "fast_math") == 0 || strcmp(cat, "other") == 0)) {
		const sx *bf = walk_butterfly(w, argx[0], argx[1]);
		if (bf)
			return (val){.x = bf};
	}
	return (val){.x = sx_opaque(&w->sym.sx, dep, loops)};
}
