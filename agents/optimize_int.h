/* agents/optimize_int.h: what the optimize loop's files share: the
 * planner's candidate strategies (agents/optimize_plan.c). */
#ifndef KA_AGENTS_OPTIMIZE_INT_H
#define KA_AGENTS_OPTIMIZE_INT_H
#include "knowledge/knowledge.h"
#include "agents/optimize.h"
#include "recipes/recipe.h"
#include "agents/coder.h"
#include "agents/llm.h"
#include "bench/runner.h"
#include "rules/rule.h"

#define KA_OPT_MAX_CANDS 96
#define KA_OPT_MAX_RETRIEVED 6

typedef struct ka_opt_cand {
	const ka_recipe *recipe;
	const char *params; /* one of the recipe's grid sets */
	char rule[96];      /* the fired (or retrieved) rule that calls for it */
	double score;       /* impact estimate x standing */
	int on_parent;      /* tune: the accepted recipe again, other parameters, on its input */
	int on_orig;        /* the recipe's first set on the baseline (ka_opt_plan_rebase) */
	int retrieved;      /* called for by BM25-retrieved knowledge, not a finding */
	int on_kept;        /* a recipe the runner-up opened, on the runner-up (ka_opt_plan_kept) */
	/* the second step of the best two-step sequence this one opens: a
	 * recipe a finding calls for that applies to this one's result but not
	 * to the kernel as it is (ka_opt_plan_sequences), or NULL */
	const ka_recipe *then;
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
int ka_opt_make_plan(ka_kdb *db, const char *arch, const ka_findings *f, const char *tuned,
		     const char *tuned_params, ka_opt_plan *out);

/* Sequences: each strategy of the plan (but tuning) whose recipe applies
 * to the kernel text[0..len) is tried with its parameters, and on its
 * result every recipe a fired rule calls for (score above 1) that does
 * not apply to text itself; the best of those (by its score, then the
 * plan's order) becomes the strategy's `then`, and the strategy gains
 * half of that recipe's impact above 1.  The plan is sorted again past
 * its first `base` entries.  Recipes prove or decline without a compiler
 * or the bench, so this is cheap and deterministic. */
void ka_opt_plan_sequences(ka_opt_plan *p, const char *text, size_t len);
/* The recipes other than `recipe` that apply to after and either did not
 * apply to before (the kernel `recipe` rewrote) or, applied to after,
 * rewrite a line the step wrote (a line of after that before lacks): what
 * the step opened, a composition, by the recipes' own proofs,
 * space-separated into out ("" when none). */
void ka_opt_plan_opened(const char *recipe, const char *before, const char *after, char *out, size_t cap);
/* The recipes named in opened (space-separated), each with its grid's
 * first set and in the list's order, rank ahead of every tuning set of the
 * accepted recipe; their other sets after the last tuning set, ahead of
 * the findings' recipes: a step's composition is tried before the budget
 * goes to launch tuning.  NULL or "": no change. */
void ka_opt_plan_follow(ka_opt_plan *p, const char *opened);

/* When the best is no longer the baseline: each recipe's first set once
 * more, on the baseline, below every other strategy.  An accepted step
 * can rewrite away the shape a stronger recipe needs (a vectorized
 * grid-stride loop is no flat 2-D index any more); once the recipes for
 * the best are spent, those that applied only to the baseline get their
 * turn, and like every step their result must beat the best to be kept. */
void ka_opt_plan_rebase(ka_opt_plan *p);

/* A runner-up: a verified candidate of another branch (a tuning set on
 * the best's input, or a recipe on the baseline) a little slower than the
 * best, whose own rewrite opened recipes (space-separated in opened) that
 * the best cannot take.  Its first two opened recipes, each with its
 * grid's first set, rank ahead of everything else, on the runner-up: a
 * two-step sequence of the other branch measured against the best (a
 * greedy loop would never return to the branch it left).  NULL or "": no
 * change. */
void ka_opt_plan_kept(ka_opt_plan *p, const char *opened);
/* Whether a candidate at `ratio` of the best (its bench's geomean) is worth
 * keeping as the runner-up beside one kept at `kept_ratio` (0: none): at
 * least KA_OPT_KEEP_RATIO, and faster than the one kept (a candidate not
 * accepted may still be a little faster: `same`, or a round's second).  A follow-up
 * recipe can bring it past the best: on an H100 vectorize measured 1.44x
 * on a warp-per-row softmax and vectorize-2byte 1.64x on a warp-per-row
 * bf16 softmax, whose plain warp-per-row was 0.69 of the size-dispatched
 * best (docs/benchmarks.md, 2026-12-05). */
#define KA_OPT_KEEP_RATIO 0.6
int ka_opt_keep_runner_up(double ratio, double kept_ratio);

/* The row count of the task's row kernel: the fewest rows of any visible
 * configuration of spec, where a row is what the guard of a kernel of
 * text bounds along x (`if (r >= rows) return;`, a row-per-thread
 * kernel, or its rewrites: a warp or a block per row) and the bound is a
 * parameter of the task by name, or a product of them (`B * T`).  The
 * first kernel of the file whose bound resolves so; 0 when none does. */
long long ka_opt_task_rows(const ka_bench_spec *spec, const char *text, size_t len);
/* 1 when a warp per row leaves the GPU row-starved: rows * 32 lanes fill
 * less than half of its thread slots, rows * 64 < sms * 2048 (the test
 * warp-per-row's dispatch=size makes at run time, ka_rows_by_block, with
 * 2048 threads an SM); sms <= 0 (not known yet): 132.  rows <= 0: 0. */
int ka_opt_row_starved(long long rows, int sms);
/* Whether ka_opt_plan_size should put dispatch=size first on the kernel
 * src: a row-starved task, unless col-reduce applies to src (a column
 * walk, whose own recipe measured faster). */
int ka_opt_size_first(int starved, const char *src, size_t len);
/* After warp-per-row was accepted, its sets on the kernel it wrote leave
 * the plan: they are its tuning sets (on its input) again, and
 * dispatch=size derives the same kernels from either.  On a row-starved
 * task (starved != 0) the size-dispatched schedule is the strategy
 * expected to help most: warp-per-row's first `dispatch=size` set (a
 * tuning set after warp-per-row, else on the best: a warp-per-row kernel,
 * vectorized or not, or the baseline; not a rebased one) ranks first,
 * ahead of what the step opened (vectorize would otherwise come first and
 * the tuning sets after it).  A set that does not apply declines at no
 * bench cost.  Not starved, or the step accepted was a dispatch=size set:
 * nothing else changes.  After ka_opt_plan_follow. */
void ka_opt_plan_size(ka_opt_plan *p, int starved, const char *accepted, const char *accepted_params);

/* The state of one run (agents/optimize.c), set up by ka_opt_setup. */
typedef struct ka_opt_loop {
	const ka_opt_opts *o;
	ka_bench_spec spec;
	ka_kdb *db;
	ka_ruleset *rs;
	ka_coder *coder;
	ka_llm *llm;          /* the summarizer's client (LLM coder, a DB, not compile-only) */
	ka_ruleset *learned;  /* the DB's learned rules, hints for the LLM coder; or NULL */
	char inc[1400];       /* -I of the task's ABI header, for analyzing its kernels */
	const char *extra[1]; /* {inc} */
	char run_id[96], arch[16];
	char *orig, *best, *parent; /* baseline, current best, the best's input */
	char best_recipe[64], best_params[96], best_rule[96];
	char best_opened[256]; /* the recipes the accepted step opened, space-separated, or "" */
	char *kept;            /* the runner-up (ka_opt_plan_kept), or NULL */
	char kept_recipe[128], kept_opened[256]; /* kept_recipe: a step's strategy */
	double kept_ratio;                       /* the runner-up's speed over the current best's */
	int kept_step;                           /* the step that measured it */
	char *skill; /* the DB's best verified kernel for this task, tried first */
	char skill_summary[160];
	char best_file[1100];
	ka_opt_summary *s;
	ka_coder_attempt tried[64];
	char tried_text[64][600];
	int ntried;
	char keys[256][400];
	int nkeys;
	char abi[4096];
	char cfg_text[KA_BENCH_MAX_CONFIGS][160];
	const char *cfgs[KA_BENCH_MAX_CONFIGS];
	int ncfg;
	double roof;
	long long rows; /* ka_opt_task_rows of the baseline (0: not a row kernel) */
	int sms;        /* the SM count of the bench's device, from its result; 0 until known */
	int rounds;     /* rounds begun: a round benches its candidates side by side */
} ka_opt_loop;

/* agents/optimize_summarize.c: after a step, its evidence (for the rule
 * that called for it and the learned rules in the prompt), the skill of an
 * accepted kernel and the trajectory row. */
void ka_opt_summarize(ka_opt_loop *L, const ka_opt_cand *c, const ka_opt_step *st, const ka_bench_result *res,
		      const char *src);
/* Before an LLM step: the learned rules that fire on kernel, except on the
 * task each was distilled from, as rules for the prompt (out, at most
 * max); their ids go into st->learned.  Returns how many. */
int ka_opt_learned_hints(ka_opt_loop *L, const char *kernel, ka_opt_step *st, ka_coder_rule *out, int max);
/* After an accepted LLM step: its win distilled into a candidate rule
 * (st->distilled) or the reason not (st->distill_refused). */
void ka_opt_distill(ka_opt_loop *L, const ka_opt_cand *c, ka_opt_step *st, const ka_bench_result *res,
		    const char *before, const ka_coder_reply *rep);

/* agents/optimize_setup.c: the task, the baseline, the output folder, the
 * rule base, the knowledge DB and the coder of a run; the ABI text the
 * coder is given. */
int ka_opt_setup(ka_opt_loop *L);
/* best.patch: the current best against the task's baseline. */
int ka_opt_write_patch(ka_opt_loop *L);
/* candidates/NAME: the diff of one candidate against the task's baseline.cu. */
int ka_opt_write_candidate_patch(ka_opt_loop *L, const char *src, const char *dir, const char *name);
/* dir/name, atomically; its path in path (cap bytes) when path != NULL. */
int ka_opt_write_text(const char *dir, const char *name, const char *text, char *path, size_t cap);

#endif
