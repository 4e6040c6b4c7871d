/* analyzer/walk_scope.c: what one function's walk can touch, and the
 * per-file budget.
 *
 * The environment (w->env, w->ds) is indexed by declaration id over the
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
	w->scope_pos = ka_arena_alloc(w->a, sizeof *w->scope_pos * (size_t)w->nenv);
	w->scope_gen_of = ka_arena_alloc(w->a, sizeof *w->scope_gen_of * (size_t)w->nenv);
	w->nscope = w->capscope = 0;
	w->scope = NULL;
	w->scope_gen = 0;
}

int walk_scope_index(const walk *w, const ka_decl *d)
{
	if (!d || d->id < 0 || d->id >= w->nenv || w->scope_gen_of[d->id] != w->scope_gen)
		return -1;
	return w->scope_pos[d->id];
}

static void scope_add(walk *w, int id)
{
	if (w->nscope == w->capscope) {
		int ncap = w->capscope ? w->capscope * 2 : 256;
		int *n = realloc(w->scope, sizeof *n * (size_t)ncap);
		if (!n)
			abort();
		w->scope = n;
		w->capscope = ncap;
	}
	w->scope_gen_of[id] = w->scope_gen;
	w->scope_pos[id] = w->nscope;
	w->scope[w->nscope++] = id;
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
	if (!d || d->id < 0 || d->id >= w->nenv || w->scope_gen_of[d->id] == w->scope_gen)
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

void walk_scope_enter(walk *w, ka_decl *fn)
{
	for (int i = 0; i < w->nscope; i++) {
		memset(&w->env[w->scope[i]], 0, sizeof *w->env);
		memset(&w->ds[w->scope[i]], 0, sizeof *w->ds);
	}
	w->nscope = 0;
	w->scope_gen++;
	nstack s = {0};
	add_decl(w, &s, fn);
	while (s.n) {
		ka_node *n = s.v[--s.n];
		add_decl(w, &s, n->ref);
		push(&s, n->cfg);
		for (int i = 0; i < n->nkids; i++)
			push(&s, n->kids[i]);
	}
	free(s.v);
	/* Entries outside every earlier scope were never written; clear the
	 * new ones anyway so a missed link cannot leak a stale value. */
	for (int i = 0; i < w->nscope; i++) {
		memset(&w->env[w->scope[i]], 0, sizeof *w->env);
		memset(&w->ds[w->scope[i]], 0, sizeof *w->ds);
	}
}

val *env_save(walk *w)
{
	val *c = malloc(sizeof *c * (size_t)(w->nscope ? w->nscope : 1));
	if (!c)
		abort();
	for (int i = 0; i < w->nscope; i++)
		c[i] = w->env[w->scope[i]];
	return c;
}

void env_restore(walk *w, const val *saved)
{
	for (int i = 0; i < w->nscope; i++)
		w->env[w->scope[i]] = saved[i];
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int walk_budget_spent(walk *w)
{
	if (w->over_budget)
		return 1;
	if (++w->budget_ticks % 256)
		return 0;
	if ((w->deadline > 0 && now_s() > w->deadline) ||
	    (w->mem_limit && ka_arena_bytes(w->a) > w->mem_limit))
		w->over_budget = 1;
	return w->over_budget;
}
