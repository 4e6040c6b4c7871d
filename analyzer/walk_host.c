/* analyzer/walk_host.c: launch sites.  A <<<grid, block, smem, stream>>>
 * launch (hipLaunchKernelGGL expands to the same shape) becomes a launch
 * fact with its configuration folded where it is constant (dim3, macros,
 * constexpr, local constants), and feeds the kernel's block shape. */
#include "analyzer/walk.h"
#include "util/checked.h"
#include <stdlib.h>
#include <string.h>

void note_array(walk *w, ka_decl *d)
{
	for (int i = 0; i < w->narrays; i++)
		if (w->arrays[i] == d)
			return;
	if (w->narrays < 64)
		w->arrays[w->narrays++] = d;
}

static int is_dim3(const ka_node *n)
{
	return n && n->type && strstr(n->type, "dim3") != NULL;
}

/* Fold a launch dimension: a dim3(...) construction, a dim3 variable with
 * such an initializer, or an integer expression. */
static int fold_dim3(walk *w, ka_node *n, int64_t out[3], int depth)
{
	out[0] = out[1] = out[2] = 1;
	n = strip(n);
	if (!n || depth > 4)
		return 0;
	if (n->kind == KN_CALL && n->name && strcmp(n->name, "dim3") == 0) {
		if (n->nkids == 1 && is_dim3(strip(n->kids[0])))
			return fold_dim3(w, n->kids[0], out, depth + 1);
		int ok = 1;
		for (int i = 0; i < n->nkids && i < 3; i++) {
			ka_node *k = strip(n->kids[i]);
			if (k && (k->kind == KN_OTHER || k->kind == KN_CAST) && k->nkids == 0) /* default arg */
				out[i] = 1;
			else
				ok &= fold_int(w, n->kids[i], &out[i]);
		}
		return ok;
	}
	if (n->kind == KN_INITLIST) {
		int ok = 1;
		for (int i = 0; i < n->nkids && i < 3; i++)
			ok &= fold_int(w, n->kids[i], &out[i]);
		return ok;
	}
	if (n->kind == KN_DECLREF && is_dim3(n)) {
		if (!n->ref)
			return 0;
		int ok = n->ref->init ? fold_dim3(w, n->ref->init, out, depth + 1) : 1;
		const dstat *ds = n->ref->id < w->nenv ? &w->ds[n->ref->id] : NULL;
		for (int i = 0; ds && i < 3; i++) {     /* dim3 b; b.x = 256; */
			if (ds->dim3_set[i] == 1)
				out[i] = ds->dim3v[i];
			else if (ds->dim3_set[i] == 2)
				ok = 0;
		}
		return ok;
	}
	return fold_int(w, n, &out[0]);
}

/* `b.x = 256` on a host dim3 variable: remembered for the launches below
 * (the walk is in statement order; a component set under a branch keeps
 * the last value assigned). */
int host_dim3_assign(walk *w, ka_node *lhs, ka_node *rhs, ka_op op)
{
	if (!lhs || lhs->kind != KN_MEMBER || lhs->nkids != 1 || !lhs->name ||
	    strlen(lhs->name) != 1 || lhs->name[0] < 'x' || lhs->name[0] > 'z')
		return 0;
	ka_node *v = strip(lhs->kids[0]);
	if (!v || v->kind != KN_DECLREF || !v->ref || !is_dim3(v) || v->ref->id >= w->nenv)
		return 0;
	dstat *ds = &w->ds[v->ref->id];
	int axis = lhs->name[0] - 'x';
	int64_t val;
	if (op == OP_ASSIGN && fold_int(w, rhs, &val)) {
		ds->dim3v[axis] = val;
		ds->dim3_set[axis] = 1;
	} else {
		ds->dim3_set[axis] = 2;
	}
	return 1;
}

static ka_decl *find_kernel(walk *w, ka_node *n)
{
	if (n->ref && (n->ref->flags & KDF_GLOBAL) && n->ref->body)
		return n->ref;
	const char *name = call_name(w, n);
	ka_decl *loose = NULL;
	for (ka_decl *f = w->tu->funcs; f; f = f->next)
		if ((f->flags & KDF_GLOBAL) && strcmp(f->name, name) == 0) {
			if (f->nparams == n->nkids)
				return f;
			loose = loose ? loose : f;
		}
	return loose ? loose : n->ref;
}

/* What a launch tells about the kernel's template: integer arguments in
 * the order of its integer parameters, and the size behind each argument. */
static void launch_template(walk *w, ka_node *n, ka_decl *k, launch_info *li)
{
	for (int i = 0; i < n->nkids && i < 16; i++) {
		ka_node *a = strip(n->kids[i]);
		int b = !a ? -1 : (a->tflags & (KT_POINTER | KT_ARRAY)) ? pointee_size(w, a) :
		        value_size(w, a);
		li->argb[i] = b > 0 && !w->elem_assumed ? b : 0;
		w->elem_assumed = NULL;
	}
	if (!k || !k->ntparams)
		return;
	int64_t v[8];
	int known[8];
	int c = call_targs(w, n, k, v, known, 8);
	li->ntargs = 0;
	for (int i = 0; i < k->ntparams && i < c && li->ntargs < 4; i++) {
		if (!(k->tparams[i]->tflags & KT_INT))
			continue;
		if (!known[i])
			break;
		li->targs[li->ntargs++] = v[i];
	}
}

static int is_ceil_div(walk *w, ka_node *n)
{
	ka_node *d = strip(n);
	while (d && d->kind == KN_CALL && d->nkids >= 1 && d->name && strcmp(d->name, "dim3") == 0)
		d = strip(d->kids[0]);
	int64_t by, add;
	if (d && d->kind == KN_BINOP && d->op == OP_DIV && fold_int(w, d->kids[1], &by)) {
		ka_node *s = strip(d->kids[0]);
		if (s && s->kind == KN_BINOP && s->op == OP_ADD && fold_int(w, s->kids[1], &add) &&
		    add == by - 1)
			return 1;
	}
	const char *t = node_text(w, n);
	if (!t || !strchr(t, '/'))
		return 0;
	return strstr(t, "- 1") || strstr(t, "-1") || strstr(t, "ceil") || strstr(t, "div_up") ||
	       strstr(t, "DIV_UP") || strstr(t, "cdiv");
}

static int checked_after(walk *w)
{
	const char *t = w->next_stmt ? node_text(w, w->next_stmt) : NULL;
	return t && (strstr(t, "GetLastError") || strstr(t, "PeekAtLastError") ||
	             strstr(t, "DeviceSynchronize") || strstr(t, "CHECK") || strstr(t, "check"));
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

static void dims_cols(ka_facts_row *r, const char *p, const int64_t d[3], int ok)
{
	static const ka_facts_col gx[] = {KA_COL(launch, grid_x), KA_COL(launch, grid_y),
		KA_COL(launch, grid_z), KA_COL(launch, grid_blocks)};
	static const ka_facts_col bx[] = {KA_COL(launch, block_x), KA_COL(launch, block_y),
		KA_COL(launch, block_z), KA_COL(launch, block_threads)};
	const ka_facts_col *c = p[0] == 'g' ? gx : bx;
	int64_t prod = 0;
	ok = ok && ka_prod64(d, 3, &prod);
	for (int i = 0; i < 3; i++)
		ka_facts_opt(r, c[i], ok, d[i]);
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
				out[idx - 1] = ka_arena_strndup(w->a, start, (size_t)(p - start));
			}
			idx++;
			start = p + 1;
			if (depth < 0)
				break;
		}
	}
}

void launch_fact(walk *w, ka_node *n)
{
	ka_node *cfg = n->cfg;
	ka_decl *k = find_kernel(w, n);
	int64_t g[3], b[3], smem = 0;
	int gok = cfg->nkids > 0 && fold_dim3(w, cfg->kids[0], g, 0) && dims_valid(g, INT64_MAX);
	int bok = cfg->nkids > 1 && fold_dim3(w, cfg->kids[1], b, 0) && dims_valid(b, INT32_MAX);
	int sok = cfg->nkids > 2 ? fold_int(w, cfg->kids[2], &smem) : 1;
	if (w->nlaunches == w->caplaunches) {
		w->caplaunches = w->caplaunches ? w->caplaunches * 2 : 16;
		launch_info *nl = ka_arena_alloc(w->a, sizeof *nl * (size_t)w->caplaunches);
		if (w->nlaunches)
			memcpy(nl, w->launches, sizeof *nl * (size_t)w->nlaunches);
		w->launches = nl;
	}
	launch_info *li = &w->launches[w->nlaunches++];
	memset(li, 0, sizeof *li);
	li->call = n;
	li->kernel = k;
	if (bok) {
		li->bx = (int)b[0];
		li->by = (int)b[1];
		li->bz = (int)b[2];
	}
	sok = sok && smem >= 0 && smem <= INT32_MAX;   /* else unknown, not a wrapped size */
	li->dyn_smem = sok ? smem : -1;
	li->ntargs = n->ntargs;
	memcpy(li->targs, n->targs, sizeof li->targs);
	launch_template(w, n, k, li);
	if (w->quiet)
		return;
	const char *text = node_text(w, n);
	ka_facts_row r;
	ka_facts_begin(&r, w->fw, KA_TABLE(launch));
	ka_facts_int(&r, KA_COL(launch, id), next_id(w));
	ka_facts_text(&r, KA_COL(launch, kernel), k ? k->name : call_name(w, n));
	ka_facts_text(&r, KA_COL(launch, func), w->func);
	walk_emit_loc(&r, &n->loc);
	ka_facts_text(&r, KA_COL(launch, api), text && strstr(text, "<<<") ? "chevron" : "hipLaunchKernelGGL");
	static const ka_facts_col tc[] = {KA_COL(launch, grid_text), KA_COL(launch, block_text),
		KA_COL(launch, smem_text), KA_COL(launch, stream_text)};
	const char *margs[4] = {0};
	int hip = text && strncmp(text, "hipLaunchKernelGGL", 18) == 0;
	if (hip)
		macro_args(w, text, margs);
	for (int i = 0; i < 4; i++)
		ka_facts_text(&r, tc[i], hip ? margs[i] : i < cfg->nkids ? node_text(w, cfg->kids[i]) : NULL);
	dims_cols(&r, "grid", g, gok);
	dims_cols(&r, "block", b, bok);
	if (cfg->nkids > 1 && !cfg->kids[1]->loc.in_macro) {
		ka_facts_int(&r, KA_COL(launch, block_begin_off), cfg->kids[1]->loc.begin);
		ka_facts_int(&r, KA_COL(launch, block_end_off), cfg->kids[1]->loc.end);
	}
	if (cfg->nkids > 0 && !cfg->kids[0]->loc.in_macro) {
		ka_facts_int(&r, KA_COL(launch, grid_begin_off), cfg->kids[0]->loc.begin);
		ka_facts_int(&r, KA_COL(launch, grid_end_off), cfg->kids[0]->loc.end);
	}
	ka_facts_int(&r, KA_COL(launch, grid_is_ceil_div), cfg->nkids > 0 && is_ceil_div(w, cfg->kids[0]));
	ka_facts_opt(&r, KA_COL(launch, dyn_smem), sok, smem);
	ka_facts_int(&r, KA_COL(launch, smem_optin), 0);
	ka_facts_int(&r, KA_COL(launch, in_loop), w->nloops > 0);
	ka_facts_int(&r, KA_COL(launch, checked_after), checked_after(w));
	ka_facts_opt(&r, KA_COL(launch, stmt_begin_off), !n->loc.in_macro, n->loc.begin);
	ka_facts_opt(&r, KA_COL(launch, stmt_end_off), !n->loc.in_macro, n->loc.end);
	ka_facts_opt(&r, KA_COL(launch, func_begin_off), w->fn && !w->fn->loc.in_macro, w->fn ? w->fn->decl_begin : 0);
	ka_facts_insert(&r);
}
