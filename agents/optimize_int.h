/* agents/optimize_int.h: what the optimize loop's files share: the
 * planner's candidate strategies (agents/optimize_plan.c). */
#ifndef KA_AGENTS_OPTIMIZE_INT_H
#define KA_AGENTS_OPTIMIZE_INT_H
#include "agents/knowledge.h"
#include "agents/optimize.h"
#include "agents/recipe.h"

#define KA_OPT_MAX_CANDS 64
#define KA_OPT_MAX_RETRIEVED 6

typedef struct ka_opt_cand {
	const ka_recipe *recipe;
	const char *params; /* one of the recipe's grid sets */
	char rule[96];      /* the fired (or retrieved) rule that calls for it */
	double score;       /* impact estimate x standing */
	int on_parent;      /* tune: the accepted recipe again, other parameters, on its input */
	int retrieved;      /* called for by BM25-retrieved knowledge, not a finding */
} ka_opt_cand;

typedef struct ka_opt_plan {
	int n;
	ka_opt_cand c[KA_OPT_MAX_CANDS];
	int nret;
	char retrieved[KA_OPT_MAX_RETRIEVED][128]; /* rule ids BM25 found for the features */
} ka_opt_plan;

/* Rank strategies: recipes serving the fired rules (score: the finding's
 * estimate corrected by the rule's measured evidence, times the recipe's
 * posterior on this arch), then recipes serving BM25-retrieved rules, and,
 * when a recipe was just accepted (tuned != NULL), its other parameter sets
 * first.  No findings and no DB: every recipe at score 1. */
int ka_opt_make_plan(ka_kdb *db, const char *arch, const ka_opt_finding *f, int nf, const char *tuned,
		     const char *tuned_params, ka_opt_plan *out);

#endif
