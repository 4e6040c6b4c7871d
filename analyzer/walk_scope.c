/* analyzer/walk_scope.c: what one function's walk can touch, and the
 * per-file budget.
 *
 * The environment (w->sym.env, w->sym.ds) is indexed by declaration id over the
 * whole translation unit.  Copying or clearing all of it at every function,
 * branch and loop made the analysis quadratic in the number of kernels of a
 * file.  Before a function is walked we collect its scope instead: every
 * declaration reachable from its body through references (its parameters and
 * locals, the device functions it calls with theirs, the globals they use
 * and what their initializers use).  The walk reaches declarations only
 * through those links, so entries outside the scope stay zero, and saving,
 * restoring and merging the environment costs the scope's size.
 *
 * The budget: a deadline and an arena size; walk_budget_spent() is polled
 * by the statement and expression walkers. */
#include "analyzer/walk.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

void walk_scope_alloc(walk *w)
{
	w->sym.scope_pos = ka_arena_alloc(w->file.a, sizeof *w->sym.scope_pos * (size_t)w->file.nenv);
	w->sym.scope_gen_of = ka_arena_alloc(w->file.a, sizeof *w->sym.scope_gen_of * (size_t)w->file.nenv);
	w->sym.nscope = w->sym.capscope = 0;
	w->sym.scope = NULL;
	w->sym.scope_gen = 0;
}

int walk_scope_index(const walk *w, const ka_decl *d)
{
	if (!d || d->id < 0 || d->id >= w->file.nenv || w->sym.scope_gen_of[d->id] != w->sym.scope_gen)
		return -1;
	return w->sym.scope_pos[d->id];
}

static void scope_add(walk *w, int id)
{
	if (w->sym.nscope == w->sym.capscope) {
		int ncap = w->sym.capscope ? w->sym.capscope * 2 : 256;
		int *n = realloc(w->sym.scope, sizeof *n * (size_t)ncap);
		if (!n)
			abort();
		w->sym.scope = n;
		w->sym.capscope = ncap;
	}
	w->sym.scope_gen_of[id] = w->sym.scope_gen;
	w->sym.scope_pos[id] = w->sym.nscope;
	w->sym.scope[w->sym.nscope++] = id;
}

/* An explicit stack of nodes still to visit (bodies reach other bodies:
 * a chain of calls must not become a chain of C frames). */
typedef struct nstack {
	ka_node **v;
	size_t n, cap;
} nstack;

static void push(nstack *s, ka_node *n)
{
	if (!n)
		return;
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 256;
		ka_node **v = realloc(s->v, sizeof *v * ncap);
		if (!v)
			abort();
		s->v = v;
		s->cap = ncap;
	}
	s->v[s->n++] = n;
}

static void add_decl(walk *w, nstack *s, ka_decl *d)
{
	if (!d || d->id < 0 || d->id >= w->file.nenv || w->sym.scope_gen_of[d->id] == w->sym.scope_gen)
		return;
	scope_add(w, d->id);
	push(s, d->init);
	if (d->kind == KD_FUNC) {
		push(s, d->body);
		for (int i = 0; i < d->nparams; i++)
			add_decl(w, s, d->params[i]);
		for (int i = 0; i < d->ntparams; i++)
			add_decl(w, s, d->tparams[i]);
	}
}

/* Functions by name: walk_find_function() and the scope look callees up by
 * name (templates), and a scan of every function per call is quadratic in
 * the kernels of a file.  Sorted by (name, list position), so the
 * functions of one name come in list order. */
typedef struct fn_ent {
	ka_decl *f;
	int pos;
} fn_ent;

static int fn_cmp(const void *a, const void *b)
{
	const fn_ent *x = a, *y = b;
	int c = strcmp(x->f->name ? x->f->name : "", y->f->name ? y->f->name : "");
	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

void walk_funcs_index(walk *w)
{
	int n = 0;
	for (ka_decl *f = w->file.tu->funcs; f; f = f->next)
		n++;
	fn_ent *e = malloc(sizeof *e * (size_t)(n ? n : 1));
	if (!e)
		abort();
	n = 0;
	for (ka_decl *f = w->file.tu->funcs; f; f = f->next, n++)
		e[n] = (fn_ent){f, n};
	qsort(e, (size_t)n, sizeof *e, fn_cmp);
	w->file.fn_sorted = ka_arena_alloc(w->file.a, sizeof *w->file.fn_sorted * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++)
		w->file.fn_sorted[i] = e[i].f;
	w->file.nfn_sorted = n;
	free(e);
}

int walk_funcs_named(const walk *w, const char *name, ka_decl *const **first)
{
	int lo = 0, hi = w->file.nfn_sorted;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const char *m = w->file.fn_sorted[mid]->name ? w->file.fn_sorted[mid]->name : "";
		if (strcmp(m, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	int end = lo;
	while (end < w->file.nfn_sorted &&
	       strcmp(w->file.fn_sorted[end]->name ? w->file.fn_sorted[end]->name : "", name) == 0)
		end++;
	*first = w->file.fn_sorted + lo;
	return end - lo;
}

void walk_scope_enter(walk *w, ka_decl *fn)
{
	for (int i = 0; i < w->sym.nscope; i++) {
		memset(&w->sym.env[w->sym.scope[i]], 0, sizeof *w->sym.env);
		memset(&w->sym.ds[w->sym.scope[i]], 0, sizeof *w->sym.ds);
	}
	w->sym.nscope = 0;
	w->sym.scope_gen++;
	nstack s = {0};
	add_decl(w, &s, fn);
	while (s.n) {
		ka_node *n = s.v[--s.n];
		add_decl(w, &s, n->ref);
		if (n->kind == KN_CALL && n->name && (!n->ref || !n->ref->body) && w->file.fn_sorted) {
			ka_decl *const *same; /* callees the walk resolves by name */
			int k = walk_funcs_named(w, n->name, &same);
			for (int i = 0; i < k; i++)
				add_decl(w, &s, same[i]);
		}
		push(&s, n->cfg);
		for (int i = 0; i < n->nkids; i++)
			push(&s, n->kids[i]);
	}
	free(s.v);
	/* Entries outside every earlier scope were never written; clear the
	 * new ones anyway so a missed link cannot leak a stale value. */
	for (int i = 0; i < w->sym.nscope; i++) {
		memset(&w->sym.env[w->sym.scope[i]], 0, sizeof *w->sym.env);
		memset(&w->sym.ds[w->sym.scope[i]], 0, sizeof *w->sym.ds);
	}
}

val *walk_env_save(walk *w)
{
	val *c = malloc(sizeof *c * (size_t)(w->sym.nscope ? w->sym.nscope : 1));
	if (!c)
		abort();
	for (int i = 0; i < w->sym.nscope; i++)
		c[i] = w->sym.env[w->sym.scope[i]];
	return c;
}

void walk_env_restore(walk *w, const val *saved)
{
	for (int i = 0; i < w->sym.nscope; i++)
		w->sym.env[w->sym.scope[i]] = saved[i];
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int walk_budget_spent(walk *w)
{
	if (w->file.over_budget)
		return 1;
	if (++w->file.budget_ticks % 256)
		return 0;
	if ((w->file.deadline > 0 && now_s() > w->file.deadline) ||
	    (w->file.mem_limit && ka_arena_bytes(w->file.a) > w->file.mem_limit))
		w->file.over_budget = 1;
	return w->file.over_budget;
}
