/* agents/optimize_plan.c: the planner of the optimize loop.  It turns the
 * findings of the current best kernel into ranked strategies (a recipe and
 * one of its parameter sets): a finding's impact estimate, corrected by
 * the rule's verified evidence on this architecture (ka_kdb_correct_estimate),
 * times a factor from the recipe's own standing for that rule (the Beta
 * posterior of "verified faster", 0.5 with no evidence).  BM25 retrieval
 * over the rule base with the fired rule ids and the kernels' names as
 * features adds the recipes of related rules, ranked below the fired
 * ones, and every other recipe comes last (it proves its own shape or
 * declines, which costs no bench run).  After an accepted step, a recipe
 * the step opened (one that applies to its result and either did not apply
 * to its input or rewrites lines the step wrote: a composition) is tried
 * first, with its grid's first set, then the accepted recipe's other
 * parameter sets (launch tuning over a small grid) on the kernel it was
 * applied to, then the opened recipes' other sets. */
#include "agents/optimize_int.h"
#include "analyzer/kmodel.h"
#include "recipes/csrc.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_cand(const void *a, const void *b)
{
	const ka_opt_cand *x = a, *y = b;
	return x->score < y->score ? 1 : x->score > y->score ? -1 : 0;
}

/* 1 when recipe r (with params) rewrites text. */
static int applies(const ka_recipe *r, const char *params, const char *text, size_t len, char **out,
		   size_t *olen)
{
	char why[256];
	*out = NULL;
	*olen = 0;
	int rc = ka_recipe_apply(r->name, text, len, NULL, params, out, olen, why, sizeof why);
	if (rc != KA_OK) {
		free(*out);
		*out = NULL;
	}
	return rc == KA_OK;
}

void ka_opt_plan_sequences(ka_opt_plan *p, const char *text, size_t len)
{
	const ka_recipe *seen[KA_OPT_MAX_CANDS];
	const char *params[KA_OPT_MAX_CANDS];
	double bscore[KA_OPT_MAX_CANDS], bonus[KA_OPT_MAX_CANDS];
	int direct[KA_OPT_MAX_CANDS], then[KA_OPT_MAX_CANDS], nseen = 0, first = 0, any = 0;
	/* each recipe once: its first parameter set, and its best score from a fired rule */
	for (int i = 0; i < p->n; i++) {
		ka_opt_cand *c = &p->c[i];
		if (c->on_parent) {
			first = i + 1;
			continue;
		}
		int k = 0;
		while (k < nseen && seen[k] != c->recipe)
			k++;
		if (k == nseen) {
			seen[nseen] = c->recipe;
			params[nseen] = c->params;
			bscore[nseen] = bonus[nseen] = 0;
			then[nseen] = -1;
			direct[nseen++] = -1; /* not tried yet */
		}
		if (!c->retrieved && c->rule[0] && c->score > bscore[k])
			bscore[k] = c->score;
		any |= bscore[k] > 1.0;
	}
	for (int a = 0; any && a < nseen; a++) {
		char *mid = NULL;
		size_t mlen;
		if (!applies(seen[a], params[a], text, len, &mid, &mlen))
			continue;
		direct[a] = 1;
		for (int k = 0; k < nseen; k++) {
			if (bscore[k] <= 1.0 || k == a || (then[a] >= 0 && bscore[k] <= bscore[then[a]]))
				continue;
			char *x = NULL, *y = NULL;
			size_t xl, yl;
			if (direct[k] < 0) /* a recipe that applies now needs no first step */
				direct[k] = applies(seen[k], params[k], text, len, &x, &xl);
			free(x);
			if (!direct[k] && applies(seen[k], NULL, mid, mlen, &y, &yl))
				then[a] = k;
			free(y);
		}
		free(mid);
		if (then[a] >= 0)
			bonus[a] = 0.5 * (bscore[then[a]] - 1.0);
	}
	for (int i = first; i < p->n; i++)
		for (int k = 0; k < nseen; k++)
			if (seen[k] == p->c[i].recipe && then[k] >= 0) {
				p->c[i].then = seen[then[k]];
				p->c[i].score += bonus[k];
			}
	qsort(p->c + first, (size_t)(p->n - first), sizeof p->c[0], cmp_cand);
}

/* [*a, *b) without its leading and trailing blanks */
static void trim(const char **a, const char **b)
{
	while (*a < *b && (**a == ' ' || **a == '\t'))
		(*a)++;
	while (*b > *a && ((*b)[-1] == ' ' || (*b)[-1] == '\t' || (*b)[-1] == '\r'))
		(*b)--;
}

/* 1 when line [p, e) of a file, blanks trimmed, has text and is no line
 * of text (blanks trimmed alike). */
static int line_is_new(const char *p, const char *e, const char *text)
{
	trim(&p, &e);
	size_t n = (size_t)(e - p);
	if (!n)
		return 0;
	for (const char *q = text; *q;) {
		const char *qe = strchr(q, '\n');
		if (!qe)
			qe = q + strlen(q);
		const char *a = q, *b = qe;
		trim(&a, &b);
		if ((size_t)(b - a) == n && !memcmp(a, p, n))
			return 0;
		q = *qe ? qe + 1 : qe;
	}
	return 1;
}

/* 1 when some line of after that the step wrote (no line of before) is
 * one that rewrite no longer has: the recipe works on what the step
 * wrote, a composition with it. */
static int rewrites_new_lines(const char *before, const char *after, const char *rewrite)
{
	for (const char *p = after; *p;) {
		const char *e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		if (line_is_new(p, e, before) && line_is_new(p, e, rewrite))
			return 1;
		p = *e ? e + 1 : e;
	}
	return 0;
}

void ka_opt_plan_opened(const char *recipe, const char *before, const char *after, char *out, size_t cap)
{
	size_t n = 0;
	out[0] = '\0';
	for (size_t k = 0; before && after && k < ka_recipe_count(); k++) {
		const ka_recipe *r = ka_recipe_get(k);
		char *x = NULL, *y = NULL;
		size_t xl, yl;
		if (!strcmp(r->name, recipe) || !applies(r, NULL, after, strlen(after), &x, &xl)) {
			free(x);
			continue;
		}
		/* it did not apply before, or it rewrites what the step wrote */
		int opened = rewrites_new_lines(before, after, x);
		free(x);
		if (!opened) {
			opened = !applies(r, NULL, before, strlen(before), &y, &yl);
			free(y);
		}
		if (opened && n + strlen(r->name) + 2 < cap)
			n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? " " : "", r->name);
	}
}

/* name's place among the words of the space-separated list, from 1; 0
 * when it is not one of them */
static int listed(const char *list, const char *name)
{
	size_t l = strlen(name);
	for (const char *p = list; p && (p = strstr(p, name)); p += l)
		if ((p == list || p[-1] == ' ') && (p[l] == ' ' || !p[l])) {
			int k = 1;
			for (const char *q = list; q < p; q++)
				k += *q == ' ';
			return k;
		}
	return 0;
}

void ka_opt_plan_follow(ka_opt_plan *p, const char *opened)
{
	int any = 0, tuned = 0;
	/* the tuning sets' highest and lowest scores; the plan's highest */
	double top = 0, low = 0, most = 0;
	for (int i = 0; i < p->n; i++) {
		if (p->c[i].on_parent) {
			if (!tuned++ || p->c[i].score > top)
				top = p->c[i].score;
			if (tuned == 1 || p->c[i].score < low)
				low = p->c[i].score;
		}
		if (!i || p->c[i].score > most)
			most = p->c[i].score;
	}
	if (!tuned)
		top = low = most;
	for (int i = 0; opened && *opened && i < p->n; i++) {
		ka_opt_cand *c = &p->c[i];
		int at = c->on_parent ? 0 : listed(opened, c->recipe->name);
		if (!at)
			continue;
		int g = 0; /* the set's place in its recipe's grid */
		while (c->recipe->grid[g] && strcmp(c->recipe->grid[g], c->params))
			g++;
		/* composition before tuning: each opened recipe's first set, in the
		 * list's order, ahead of every tuning set of the accepted recipe;
		 * their other sets (at most 16 recipes of under 20 sets stay within
		 * half a point) after the last tuning set, ahead of the findings'
		 * recipes */
		c->score = g ? low - 0.5 - 0.02 * at - 0.001 * g : top + 1.0 - 0.02 * at;
		any = 1;
	}
	if (any)
		qsort(p->c, (size_t)p->n, sizeof p->c[0], cmp_cand);
}

static int have(const ka_opt_plan *p, const ka_recipe *r, const char *params)
{
	for (int i = 0; i < p->n; i++)
		if (p->c[i].recipe == r && !strcmp(p->c[i].params, params))
			return 1;
	return 0;
}

static void add_recipe(ka_opt_plan *p, const ka_recipe *r, const char *rule, double score, int retrieved)
{
	for (int g = 0; r->grid && r->grid[g] && p->n < KA_OPT_MAX_CANDS; g++) {
		if (have(p, r, r->grid[g]))
			continue;
		ka_opt_cand *c = &p->c[p->n++];
		memset(c, 0, sizeof *c);
		c->recipe = r;
		c->params = r->grid[g];
		snprintf(c->rule, sizeof c->rule, "%s", rule);
		c->score = score * (1.0 - 0.01 * g); /* the grid's first set first */
		c->retrieved = retrieved;
	}
}

/* The estimate of the rule's strongest finding, corrected by evidence. */
static double rule_score(ka_kdb *db, const char *arch, const char *rule, double est, const ka_recipe *r)
{
	if (est <= 0)
		est = 1.2; /* no estimate: a modest prior */
	double s = est, corrected;
	ka_kdb_standing st;
	if (db && ka_kdb_correct_estimate(db, rule, arch, est, &corrected) == KA_OK)
		s = corrected;
	if (db && ka_kdb_standing_get(db, rule, r->name, arch, &st) == KA_OK)
		s *= 0.5 + st.posterior;
	else
		s *= 1.0;
	return s;
}

/* feat gets s unless it is empty or there already. */
static void add_feature(const char **feat, int *nfeat, const char *s)
{
	if (!s || !*s)
		return;
	for (int j = 0; j < *nfeat; j++)
		if (!strcmp(feat[j], s))
			return;
	feat[(*nfeat)++] = s;
}

static void retrieve(ka_kdb *db, const ka_findings *f, ka_opt_plan *p)
{
	const char *feat[40];
	int nfeat = 0;
	for (size_t i = 0; f && i < f->n && nfeat < 38; i++) {
		if (!f->v[i].rule || !f->v[i].rule[0])
			continue; /* an empty rule id is no feature */
		add_feature(feat, &nfeat, f->v[i].rule);
		add_feature(feat, &nfeat, f->v[i].kernel);
		/* the other kernels that share the finding (a helper they call) */
		for (size_t a = 0; a < f->v[i].nalso && nfeat < 38; a++)
			add_feature(feat, &nfeat, f->v[i].also[a]);
	}
	ka_kdb_hit hits[KA_OPT_MAX_RETRIEVED];
	int nh = 0;
	if (!db || !nfeat ||
	    ka_kdb_retrieve(db, "rule", feat, nfeat, hits, KA_OPT_MAX_RETRIEVED, &nh) != KA_OK)
		return;
	for (int i = 0; i < nh; i++) {
		snprintf(p->retrieved[p->nret++], sizeof p->retrieved[0], "%.127s", hits[i].id);
		for (size_t k = 0; k < ka_recipe_count(); k++)
			if (ka_recipe_serves(ka_recipe_get(k), hits[i].id))
				add_recipe(p, ka_recipe_get(k), hits[i].id, 1.0 - 0.01 * i, 1);
	}
}

int ka_opt_make_plan(ka_kdb *db, const char *arch, const ka_findings *f, const char *tuned,
		     const char *tuned_params, ka_opt_plan *out)
{
	memset(out, 0, sizeof *out);
	/* the accepted recipe's other parameter sets, on the kernel it was applied to */
	const ka_recipe *tr = tuned ? ka_recipe_find(tuned) : NULL;
	for (int g = 0; tr && tr->grid && tr->grid[g] && out->n < KA_OPT_MAX_CANDS; g++) {
		if (tuned_params && !strcmp(tr->grid[g], tuned_params))
			continue;
		ka_opt_cand *c = &out->c[out->n++];
		memset(c, 0, sizeof *c);
		c->recipe = tr;
		c->params = tr->grid[g];
		c->on_parent = 1;
		snprintf(c->rule, sizeof c->rule, "%s", "launch-tune");
		c->score = 1000.0 - g;
	}
	int base = out->n;
	/* fired rules: each recipe that serves one, scored by the strongest finding */
	for (size_t k = 0; k < ka_recipe_count(); k++) {
		const ka_recipe *r = ka_recipe_get(k);
		double best = 0;
		const char *why = NULL;
		for (size_t i = 0; f && i < f->n; i++) {
			const ka_finding *x = &f->v[i];
			if (!x->rule || !ka_recipe_serves(r, x->rule))
				continue;
			double s = rule_score(db, arch, x->rule, x->estimate, r);
			if (s > best) {
				best = s;
				why = x->rule;
			}
		}
		if (why)
			add_recipe(out, r, why, 1.0 + best - 1e-4 * (double)k, 0); /* ties: table order */
	}
	retrieve(db, f, out);
	/* then every other recipe, below what the knowledge called for: a recipe
	 * proves its own shape or declines, at no bench cost */
	for (size_t k = 0; k < ka_recipe_count(); k++)
		add_recipe(out, ka_recipe_get(k), "", 0.5 - 0.01 * (double)k, 0);
	qsort(out->c + base, (size_t)(out->n - base), sizeof out->c[0], cmp_cand);
	return KA_OK;
}

void ka_opt_plan_kept(ka_opt_plan *p, const char *opened)
{
	double top = 0;
	int k = 0, evicted = 0;
	for (int i = 0; i < p->n; i++)
		if (!i || p->c[i].score > top)
			top = p->c[i].score;
	/* each named recipe once, in the list's order, at most two: a bench
	 * step each.  They rank first, so a plan that is full (every recipe's
	 * every set at its tail) gives up its lowest-ranked candidates for
	 * them, never the other way round. */
	for (const char *w = opened; w && *w && k < 2;) {
		size_t l = strcspn(w, " ");
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)(l < sizeof name ? l : sizeof name - 1), w);
		w += l + (w[l] == ' ');
		const ka_recipe *r = ka_recipe_find(name);
		if (!r || !r->grid || !r->grid[0])
			continue;
		/* full: the lowest-ranked candidate (sorted once: this call's kept
		 * ones, ranked first, stay at the front) */
		int at = p->n;
		if (p->n < KA_OPT_MAX_CANDS) {
			p->n++;
		} else {
			if (!evicted)
				qsort(p->c, (size_t)p->n, sizeof p->c[0], cmp_cand);
			at = KA_OPT_MAX_CANDS - 1 - evicted++;
		}
		ka_opt_cand *c = &p->c[at];
		memset(c, 0, sizeof *c);
		c->recipe = r;
		c->params = r->grid[0];
		c->on_kept = 1;
		c->score = top + 2.0 - 0.01 * k++;
	}
	if (k)
		qsort(p->c, (size_t)p->n, sizeof p->c[0], cmp_cand);
}

int ka_opt_keep_runner_up(double ratio, double kept_ratio)
{
	return ratio >= KA_OPT_KEEP_RATIO && ratio > kept_ratio;
}

void ka_opt_plan_rebase(ka_opt_plan *p)
{
	double low = 0;
	for (int i = 0; i < p->n; i++)
		if (!i || p->c[i].score < low)
			low = p->c[i].score;
	for (size_t k = 0; k < ka_recipe_count() && p->n < KA_OPT_MAX_CANDS; k++) {
		const ka_recipe *r = ka_recipe_get(k);
		if (!r->grid || !r->grid[0])
			continue;
		ka_opt_cand *c = &p->c[p->n++];
		memset(c, 0, sizeof *c);
		c->recipe = r;
		c->params = r->grid[0];
		c->on_orig = 1;
		c->score = low - 1.0 - 0.001 * (double)k; /* the list's order */
	}
}

/* The index of the task parameter named [p, p + n), or -1. */
static int task_param(const ka_bench_spec *spec, const char *p, size_t n)
{
	for (int i = 0; i < spec->nparams; i++)
		if (strlen(spec->params[i]) == n && !memcmp(spec->params[i], p, n))
			return i;
	return -1;
}

/* K when the squeezed expression s is `[(cast)]... ARGS->p[K]` (what
 * ka_task_run reads a task parameter as), else -1. */
static int p_index(const char *s)
{
	while (*s == '(') { /* casts: a parenthesized type before the read */
		const char *c = strchr(s, ')');
		if (!c || memchr(s, '>', (size_t)(c - s)))
			return -1;
		s = c + 1;
	}
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	if (strncmp(s, "->p[", 4) || !isdigit((unsigned char)s[4]))
		return -1;
	char *e;
	long k = strtol(s + 4, &e, 10);
	return e[0] == ']' && !e[1] && k < KA_BENCH_MAX_PARAMS ? (int)k : -1;
}

/* The task parameter the kernel k's parameter [p, p + n) holds: through
 * its first launch, whose argument is `a->p[K]` or a local set from it
 * (`long long rows = a->p[0];`, casts allowed); else the task parameter
 * of the same name; -1 when neither. */
static int param_of(const ka_bench_spec *spec, const ka_csrc *m, const ka_csrc_kernel *k, const char *p,
		    size_t n)
{
	char name[KA_CSRC_NAME], sq[256];
	snprintf(name, sizeof name, "%.*s", (int)n, p);
	int pi = ka_csrc_param_index(k, name), l = 0;
	while (l < m->nlaunches && strcmp(m->l[l].kernel, k->name))
		l++;
	if (pi >= 0 && l < m->nlaunches && pi < m->l[l].nargs &&
	    ka_csrc_squeeze(m->text, m->l[l].args[pi].s, m->l[l].args[pi].e, sq, sizeof sq)) {
		int at = p_index(sq);
		if (at >= 0)
			return at < spec->nparams ? at : -1;
		static const char idch[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
		size_t w = strlen(sq);
		if (strspn(sq, idch) != w) /* a local's name, or no trace */
			w = 0;
		for (size_t i = k->body_close; w && i + w < m->len; i++) {
			/* `NAME = EXPR` ending at ',' or ';' outside brackets */
			if (memcmp(m->text + i, sq, w) || isalnum((unsigned char)m->text[i - 1]) ||
			    m->text[i - 1] == '_' || isalnum((unsigned char)m->text[i + w]) ||
			    m->text[i + w] == '_')
				continue;
			size_t e = ka_csrc_skip_blank(m->text, m->len, i + w), depth = 0;
			if (e >= m->len || m->text[e] != '=' || m->text[e + 1] == '=')
				continue;
			size_t f = ++e;
			for (; f < m->len && (depth || (m->text[f] != ',' && m->text[f] != ';')); f++) {
				if (m->text[f] == '(' || m->text[f] == '[')
					depth++;
				else if (depth && (m->text[f] == ')' || m->text[f] == ']'))
					depth--;
			}
			char rhs[256];
			if (f < m->len && ka_csrc_squeeze(m->text, e, f, rhs, sizeof rhs) &&
			    (at = p_index(rhs)) >= 0)
				return at < spec->nparams ? at : -1;
		}
	}
	return task_param(spec, p, n);
}

/* The fewest rows of spec's visible configurations when the row bound
 * (one parameter, or factors joined by '*': the kernel's parameters, each
 * a task parameter by param_of, or integer constants) is known; 0
 * otherwise. */
static long long rows_of(const ka_bench_spec *spec, const ka_csrc *m, const ka_csrc_kernel *kn,
			 const char *bound)
{
	int idx[8], ni = 0;
	long long k = 1;
	for (const char *p = bound; *p;) {
		while (*p == ' ' || *p == '(' || *p == ')')
			p++;
		const char *q = p;
		while (*q && *q != '*')
			q++;
		const char *e = q;
		while (e > p && (e[-1] == ' ' || e[-1] == '(' || e[-1] == ')'))
			e--;
		if (e == p)
			return 0;
		if (isdigit((unsigned char)*p)) {
			char *end;
			long long v = strtoll(p, &end, 10);
			if (end != e || v <= 0)
				return 0;
			k *= v;
		} else {
			int at = param_of(spec, m, kn, p, (size_t)(e - p));
			if (at < 0 || ni == 8)
				return 0;
			idx[ni++] = at;
		}
		p = *q ? q + 1 : q;
	}
	long long best = 0;
	for (int c = 0; ni && c < spec->nconfigs; c++) {
		if (spec->c[c].unseen || spec->c[c].drawn)
			continue;
		long long r = k;
		for (int i = 0; i < ni; i++)
			r *= spec->c[c].p[idx[i]];
		if (r > 0 && (!best || r < best))
			best = r;
	}
	return best;
}

long long ka_opt_task_rows(const ka_bench_spec *spec, const char *text, size_t len)
{
	ka_csrc *m = calloc(1, sizeof *m);
	long long rows = 0;
	if (!m || ka_csrc_scan(m, text, len) != KA_OK) {
		free(m);
		return 0;
	}
	for (int k = 0; k < m->nkernels && !rows; k++) {
		ka_kmodel_doc doc;
		if (ka_recipe_kmodel(text, len, m->k[k].name, &doc) != KA_OK)
			continue;
		const ka_kmodel *km = doc.km;
		const ka_km_index *ix = ka_kmodel_guarded_index(km);
		if (ix && ix->axis == 0 && (ix->kind == KM_IX_GLOBAL || ix->kind == KM_IX_BLOCK)) {
			const char *b = km->guard.bound_param   ? km->guard.bound_param->name
					: km->guard.bound_value ? km->guard.bound_value
								: km->guard.bound;
			if (b)
				rows = rows_of(spec, m, &m->k[k], b);
		}
		ka_recipe_kmodel_free(&doc);
	}
	free(m);
	return rows;
}

int ka_opt_row_starved(long long rows, int sms)
{
	long long slots = (long long)(sms > 0 ? sms : 132) * 2048;
	return rows > 0 && rows * 64 < slots;
}

int ka_opt_size_first(int starved, const char *src, size_t len)
{
	char *out = NULL, why[256];
	size_t n = 0;
	if (!starved)
		return 0;
	/* a column walk's own shape outranks it: col-reduce (lanes along the
	 * contiguous rows) measured 10.6x on col_sum on an H100, dispatch=size
	 * put first 6.8x, after which col-reduce no longer applies
	 * (docs/benchmarks.md, 2026-12-05) */
	int rc = ka_recipe_apply("col-reduce", src, len, NULL, NULL, &out, &n, why, sizeof why);
	free(out);
	return rc != KA_OK;
}

void ka_opt_plan_size(ka_opt_plan *p, int starved, const char *accepted, const char *accepted_params)
{
	static const char rowwarp[] = "warp-per-row";
	int after_rw = accepted && !strcmp(accepted, rowwarp), n = 0;
	/* after warp-per-row, its sets on the kernel it wrote are its tuning
	 * sets again (dispatch=size derives the same kernels from either) */
	for (int i = 0; i < p->n; i++)
		if (!after_rw || strcmp(p->c[i].recipe->name, rowwarp) || p->c[i].on_parent ||
		    p->c[i].on_orig)
			p->c[n++] = p->c[i];
	p->n = n;
	if (!starved || (after_rw && accepted_params && strstr(accepted_params, "dispatch=size")))
		return;
	ka_opt_cand *d = NULL;
	double top = 0;
	for (int i = 0; i < p->n; i++) {
		ka_opt_cand *c = &p->c[i];
		if (!i || c->score > top)
			top = c->score;
		if (!c->on_orig && !strcmp(c->recipe->name, rowwarp) && strstr(c->params, "dispatch=size") &&
		    (!d || c->score > d->score)) /* the grid's first: the highest ranked */
			d = c;
	}
	if (!d || d->score >= top)
		return;
	d->score = top + 1.0;
	qsort(p->c, (size_t)p->n, sizeof p->c[0], cmp_cand);
}
