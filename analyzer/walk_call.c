/* analyzer/walk_call.c: calls in the kernel and host walks.  Classifies the
 * callee (math, warp intrinsics, atomics, barriers, host API), emits the
 * call, barrier, atomic and launch facts, and inlines device functions so
 * that their accesses are seen in the context of the calling kernel. */
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

static const char *const math_names[] = {"sqrt", "exp", "exp2", "exp10", "expm1", "log", "log2",
	"log10", "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh",
	"tanh", "pow", "fmod", "erf", "erfc", "cbrt", "rsqrt", "hypot", "sincos", "sinpi", "cospi",
	"floor", "ceil", "round", "trunc", "fabs", "fmin", "fmax", "fma", "rcbrt", "lgamma",
	"tgamma", "ldexp", "frexp", "rint", "nearbyint", "remainder", "copysign", NULL};
static const char *const fast_names[] = {"__expf", "__exp10f", "__logf", "__log2f", "__log10f",
	"__sinf", "__cosf", "__tanf", "__sincosf", "__powf", "__fdividef", "__frcp_rn",
	"__fsqrt_rn", "__frsqrt_rn", "__saturatef", "__fmul_rn", "__fadd_rn", NULL};
static const char *const legacy_names[] = {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
	"__any", "__all", "__ballot", NULL};

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

static const char *category(const char *s, ka_decl *ref)
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
	if (strncmp(s, "__shfl", 6) == 0 || strcmp(s, "__syncwarp") == 0 ||
	    strcmp(s, "__activemask") == 0 || strncmp(s, "__match", 7) == 0 ||
	    strncmp(s, "__reduce_", 9) == 0)
		return "warp";
	if (strncmp(s, "atomic", 6) == 0)
		return "atomic";
	if (strncmp(s, "cuda", 4) == 0 || strncmp(s, "hip", 3) == 0)
		return "host_api";
	if (ref && ref->body && (ref->flags & KDF_DEVICE))
		return "device_fn";
	return "other";
}

static int fold_real(ka_node *n, double *v)
{
	n = strip(n);
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

void barrier_fact(walk *w, ka_node *n, const char *kind)
{
	const char *why = NULL;
	int line = 0, warp = strcmp(kind, "warp") == 0;
	int div = in_divergent(w, &why, &line, warp);
	for (int i = 0; i < w->nbrs; i++) {
		if (warp)
			w->brs[i].n_syncwarp++;
		else if (strcmp(kind, "block") == 0)
			w->brs[i].n_barriers++;
	}
	if (strcmp(kind, "block") == 0) {
		w->n_barriers++;
		for (int i = 0; i < w->nloops; i++)
			w->loops[i].n_barriers++;
	}
	if (w->quiet)
		return;
	int nonuni = 0;
	for (int i = 0; i < w->nloops; i++)
		nonuni |= w->loops[i].nonuniform;
	ka_row r;
	ka_row_begin(&r, "barrier");
	ka_row_int(&r, "id", next_id(w));
	ka_row_opt(&r, "kernel_id", w->kernel != NULL, w->kernel_id);
	ka_row_text(&r, "kernel", w->kernel ? w->kernel->name : NULL);
	ka_row_text(&r, "func", w->func);
	ka_row_loc(&r, &n->loc);
	ka_row_text(&r, "name", n->name);
	ka_row_text(&r, "kind", kind);
	ka_row_int(&r, "in_divergent_branch", div);
	ka_row_text(&r, "divergence", div ? why : NULL);
	ka_row_opt(&r, "divergent_branch_line", div, line);
	ka_row_int(&r, "after_divergent_return", w->div_return_line > 0 && !warp);
	ka_row_opt(&r, "divergent_return_line", w->div_return_line > 0, w->div_return_line);
	ka_row_int(&r, "in_loop", w->nloops > 0);
	ka_row_int(&r, "in_nonuniform_loop", nonuni);
	ka_row_int(&r, "follows_barrier", w->last_was_barrier);
	ka_row_int(&r, "is_last_stmt", w->at_last_stmt && w->nbrs == 0 && w->nloops == 0);
	ka_row_insert(w->db, &r);
}

static void atomic_fact(walk *w, ka_node *n)
{
	if (w->quiet || n->nkids < 1)
		return;
	w->quiet++;
	val addr = ev(w, n->kids[0], 0);
	w->quiet--;
	const sx *v = n->nkids > 1 ? ev_int(w, n->kids[1]) : sx_const(&w->sx, 0);
	ka_node *vn = n->nkids > 1 ? strip(n->kids[1]) : NULL;
	const sx *ax = addr.x ? addr.x : sx_opaque(&w->sx, 0, 0);
	ka_row r;
	ka_row_begin(&r, "atomic");
	ka_row_int(&r, "id", next_id(w));
	ka_row_opt(&r, "kernel_id", w->kernel != NULL, w->kernel_id);
	ka_row_text(&r, "kernel", w->kernel ? w->kernel->name : NULL);
	ka_row_text(&r, "func", w->func);
	ka_row_loc(&r, &n->loc);
	ka_row_text(&r, "op", n->name);
	ka_row_text(&r, "space", addr.space == SP_SHARED ? "shared" : addr.base ? "global" : "unknown");
	ka_row_text(&r, "base", addr.base ? addr.base->name : NULL);
	ka_row_text(&r, "elem_type", n->type);
	ka_row_int(&r, "is_float", (n->tflags & (KT_FLOAT | KT_DOUBLE)) != 0);
	ka_row_int(&r, "address_uniform", !(ax->dep & D_LANE));
	ka_row_int(&r, "address_thread_dependent", (ax->dep & D_LANE) != 0);
	ka_row_int(&r, "address_data_dependent", (ax->dep & D_DATA) != 0);
	ka_row_int(&r, "address_small_range", ax->has_rem_small);
	ka_row_int(&r, "value_uniform", !(v->dep & D_LANE));
	ka_row_int(&r, "value_const", vn && (vn->kind == KN_INT || vn->kind == KN_FLOAT));
	ka_row_int(&r, "in_loop", w->nloops > 0);
	ka_row_text(&r, "index_text", node_text(w, n->kids[0]));
	ka_row_insert(w->db, &r);
}

static void arg_cols(walk *w, ka_row *r, ka_node *n, int i)
{
	static const char *const t[] = {"arg0_text", "arg1_text"}, *const b[] = {"arg0_begin_off",
		"arg1_begin_off"}, *const e[] = {"arg0_end_off", "arg1_end_off"},
		*const ty[] = {"arg0_type", "arg1_type"};
	ka_node *a = i < n->nkids ? n->kids[i] : NULL;
	ka_node *s = a ? strip(a) : NULL;
	ka_row_text(r, t[i], a ? node_text(w, a) : NULL);
	ka_row_opt(r, b[i], a && !a->loc.in_macro, a ? a->loc.begin : 0);
	ka_row_opt(r, e[i], a && !a->loc.in_macro, a ? a->loc.end : 0);
	ka_row_text(r, ty[i], s ? s->type : NULL);
}

static const char *host_ptr_kind(walk *w, ka_node *n)
{
	if (n->nkids < 4)
		return NULL;
	ka_node *kn = strip(n->kids[3]);
	const char *kind = kn && kn->kind == KN_DECLREF ? kn->name : node_text(w, n->kids[3]);
	int idx = kind && strstr(kind, "HostToDevice") ? 1 : kind && strstr(kind, "DeviceToHost") ? 0 : -1;
	if (idx < 0)
		return "unknown";
	ka_node *p = strip(n->kids[idx]);
	while (p && ((p->kind == KN_UNOP && p->op == OP_ADDROF && p->nkids == 1) ||
	             (p->kind == KN_BINOP && (p->op == OP_ADD || p->op == OP_SUB) && p->nkids == 2)))
		p = strip(p->kids[0]);       /* &buf[k], host + offset */
	if (p && p->kind == KN_SUBSCRIPT && p->nkids)
		p = strip(p->kids[0]);
	if (!p || p->kind != KN_DECLREF || !p->ref)
		return "unknown";
	if (p->ref->tflags & KT_ARRAY)
		return "stack";
	int hk = w->ds[p->ref->id].host_kind;
	return hk == 1 ? "malloc" : hk == 2 ? "pinned" : "unknown";
}

void call_fact(walk *w, ka_node *n, const char *cat, int checked)
{
	if (w->quiet)
		return;
	int warpish = strcmp(cat, "warp") == 0 || strcmp(cat, "vote") == 0;
	const char *why = NULL;
	int div = in_divergent(w, &why, NULL, warpish);
	ka_row r;
	ka_row_begin(&r, "call");
	ka_row_int(&r, "id", next_id(w));
	ka_row_opt(&r, "kernel_id", w->kernel != NULL, w->kernel_id);
	ka_row_text(&r, "kernel", w->kernel ? w->kernel->name : NULL);
	ka_row_text(&r, "func", w->func);
	ka_row_loc(&r, &n->loc);
	ka_row_text(&r, "callee", n->name);
	ka_row_opt(&r, "callee_begin_off", n->name_begin >= 0, n->name_begin);
	ka_row_opt(&r, "callee_end_off", n->name_end >= 0, n->name_end);
	ka_row_text(&r, "category", cat);
	ka_row_int(&r, "is_device_code", w->is_device);
	ka_row_int(&r, "is_legacy_intrinsic", in_list(n->name, legacy_names));
	ka_row_int(&r, "in_loop", w->nloops > 0);
	ka_row_int(&r, "loop_depth", w->nloops);
	ka_row_int(&r, "in_divergent_branch", div);
	ka_row_text(&r, "divergence", div ? why : NULL);
	ka_row_int(&r, "nargs", n->nkids);
	if (n->nkids && n->kids[0]->loc.begin <= n->kids[n->nkids - 1]->loc.end)
		ka_row_text(&r, "args_text", ka_tu_text(w->tu, n->loc.file, n->kids[0]->loc.begin,
		                                        n->kids[n->nkids - 1]->loc.end));
	arg_cols(w, &r, n, 0);
	arg_cols(w, &r, n, 1);
	double c;
	int has1 = n->nkids > 1 && fold_real(n->kids[1], &c);
	if (has1)
		ka_row_real(&r, "arg1_const", c);
	ka_node *a0 = n->nkids ? strip(n->kids[0]) : NULL;
	ka_row_int(&r, "arg_is_float", a0 && (a0->tflags & KT_FLOAT));
	ka_row_int(&r, "returns_double", (n->tflags & KT_DOUBLE) != 0);
	ka_row_text(&r, "result_type", n->type);
	if (warpish && strstr(n->name, "_sync") && a0) {
		int64_t m;
		int known = fold_int(w, n->kids[0], &m);
		ka_row_text(&r, "mask_text", node_text(w, n->kids[0]));
		ka_row_opt(&r, "mask_is_full", known, known && (m == 0xffffffffLL || m == -1));
		ka_row_int(&r, "mask_bits", a0->type_bytes > 0 ? a0->type_bytes * 8 : 32);
	}
	if (strcmp(cat, "host_api") == 0) {
		ka_row_int(&r, "result_checked", checked);
		if (strstr(n->name, "Memcpy"))
			ka_row_text(&r, "host_ptr_kind", host_ptr_kind(w, n));
		int hl = 0;
		for (int i = 0; i < w->nloops; i++)
			hl |= w->loops[i].has_launch;
		ka_row_int(&r, "in_host_loop_with_launch", hl);
	}
	ka_row_insert(w->db, &r);
}

/* Host pointer provenance for cudaMemcpy: malloc'ed vs pinned. */
static void note_host_alloc(walk *w, ka_node *n)
{
	if (n->nkids < 1)
		return;
	ka_node *p = strip(n->kids[0]);
	if (!p || p->kind != KN_UNOP || p->op != OP_ADDROF || !p->nkids)
		return;
	ka_node *v = strip(p->kids[0]);
	if (!v || v->kind != KN_DECLREF || !v->ref)
		return;
	if (strstr(n->name, "Host") || strstr(n->name, "Register"))
		w->ds[v->ref->id].host_kind = 2;
	else
		w->ds[v->ref->id].host_kind = 3;
}

val inline_call(walk *w, ka_node *n, ka_decl *f)
{
	val args[16];
	int na = n->nkids < 16 ? n->nkids : 16;
	for (int i = 0; i < na; i++)
		args[i] = ev(w, n->kids[i], 0);
	for (int i = 0; i < w->inline_depth; i++)
		if (w->inline_stack[i] == f)
			return (val){.x = sx_opaque(&w->sx, 0, 0)};
	if (w->inline_depth >= 6)
		return (val){.x = sx_opaque(&w->sx, 0, 0)};
	for (int i = 0; i < f->nparams && i < na; i++)
		if (f->params[i]->id < w->nenv)
			w->env[f->params[i]->id] = args[i];
	bind_call_tparams(w, n, f);
	walk_cg_bind_args(w, n, f);
	const char *saved_func = w->func;
	const sx *saved_ret = w->ret_val;
	w->inline_stack[w->inline_depth++] = f;
	w->func = f->name;
	w->ret_val = NULL;
	st(w, f->body);
	val r = {.x = w->ret_val ? w->ret_val : sx_opaque(&w->sx, 0, 0)};
	w->inline_depth--;
	w->func = saved_func;
	w->ret_val = saved_ret;
	return r;
}

val ev_call(walk *w, ka_node *n)
{
	int checked = !w->stmt_level_call;
	w->stmt_level_call = 0;
	if ((!n->name || !*n->name) && (n->callee || n->name_begin >= 0)) {
		/* a dependent call in a template: k<T>(...), f<N>(...) */
		const char *rn = call_name(w, n);
		if (n->cfg || find_function(w, rn, n->nkids, -1))
			n->name = rn;
	}
	if (n->cfg) {
		launch_fact(w, n);
		for (int i = 0; i < n->nkids; i++)
			ev(w, n->kids[i], 0);
		return (val){.x = sx_opaque(&w->sx, 0, 0)};
	}
	const char *name = n->name ? n->name : "";
	val tv;
	if (ev_cg_call(w, n, &tv) || (w->is_device && ev_typed_call(w, n, &tv)))
		return tv;
	if (!*name || strcmp(name, "dim3") == 0 || strncmp(name, "operator", 8) == 0) {
		unsigned dep = 0;
		for (int i = 0; i < n->nkids; i++)
			dep |= ev_int(w, n->kids[i])->dep;
		return (val){.x = sx_opaque(&w->sx, dep, 0)};
	}
	ka_decl *ref = n->ref;
	if ((!ref || !ref->body) && w->is_device)
		ref = find_function(w, name, n->nkids, 1);     /* templates: f<N>(...) */
	const char *cat = category(name, ref);
	if (strcmp(cat, "device_fn") == 0 && w->is_device) {
		n->ref = ref;
		call_fact(w, n, cat, checked);
		w->called[n->ref->id] = 1;
		val r = inline_call(w, n, n->ref);
		walk_clobber_args(w, n, n->ref);
		return r;
	}
	if (strcmp(cat, "sync") == 0)
		barrier_fact(w, n, "block");
	else if (strcmp(name, "__syncwarp") == 0)
		barrier_fact(w, n, "warp");
	else if (strcmp(cat, "fence") == 0)
		barrier_fact(w, n, "fence");
	else if (strcmp(cat, "atomic") == 0)
		atomic_fact(w, n);
	if (strcmp(cat, "warp") == 0 || strcmp(cat, "vote") == 0)
		w->uses_warp = 1;
	if (!w->is_device && (strcmp(name, "cudaMallocHost") == 0 || strcmp(name, "cudaHostAlloc") == 0 ||
	    strcmp(name, "hipHostMalloc") == 0 || strcmp(name, "cudaMalloc") == 0 ||
	    strcmp(name, "hipMalloc") == 0 || strcmp(name, "cudaMallocManaged") == 0))
		note_host_alloc(w, n);
	if (!w->is_device && strstr(name, "FuncSetAttribute") && n->nkids >= 2) {
		const char *t = node_text(w, n->kids[1]);
		ka_node *k = strip(n->kids[0]);
		while (k && k->kind == KN_UNOP && k->nkids == 1)
			k = strip(k->kids[0]);
		if (t && strstr(t, "MaxDynamicSharedMemorySize") && k && k->name && w->noptin < 64)
			w->optin_kernels[w->noptin++] = k->name;
	}
	call_fact(w, n, cat, checked);
	unsigned dep = 0;
	uint64_t loops = 0;
	for (int i = 0; i < n->nkids; i++) {
		const sx *x = ev_int(w, n->kids[i]);
		dep |= x->dep;
		loops |= x->loops;
	}
	walk_clobber_args(w, n, ref);
	if (strcmp(cat, "warp") == 0 && strstr(name, "shfl"))
		dep |= D_LANE & dep;
	return (val){.x = sx_opaque(&w->sx, dep | (strcmp(cat, "atomic") == 0 ? D_DATA : 0), loops)};
}
