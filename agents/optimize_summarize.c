/* agents/optimize_summarize.c: the summarizer of the optimize loop.  After
 * each step: the verified outcome becomes evidence for the rule that called
 * for it and for the learned rules that were in the LLM's prompt, an
 * accepted kernel a skill, the step a trajectory row; an accepted LLM
 * candidate is distilled into a candidate rule (agents/distill.h).  Before
 * each LLM step, the learned rules that fire on the kernel join the
 * prompt's rules.  Nothing is written with compile_only. */
#include "agents/optimize_int.h"
#include "agents/distill.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEARNED_HINTS 8

/* The task of a learned rule's first evidence row: the win it was
 * distilled from. */
static int first_task(void *ud, const ka_kdb_evidence *e)
{
	snprintf(ud, 128, "%s", e->task ? e->task : "");
	return 1; /* stop: the rows come oldest first */
}

int ka_opt_learned_hints(ka_opt_loop *L, const char *kernel, ka_opt_step *st, ka_coder_rule *out, int max)
{
	static char ids[MAX_LEARNED_HINTS][96], titles[MAX_LEARNED_HINTS][240];
	int nf = 0, n = 0;
	if (!L->learned || !ka_ruleset_count(L->learned))
		return 0;
	if (max > MAX_LEARNED_HINTS)
		max = MAX_LEARNED_HINTS;
	if (ka_learned_fired(L->learned, kernel, L->arch, L->extra, 1, ids, max, &nf) != KA_OK) {
		if (L->o->progress)
			fprintf(L->o->progress, "kcheck: warning: learned rules not evaluated: %s\n",
				ka_error_last());
		return 0;
	}
	for (int i = 0; i < nf; i++) {
		const ka_rule *r = ka_ruleset_find(L->learned, ids[i]);
		size_t used = strlen(st->learned);
		char origin[128] = "";
		if (!r || used + strlen(r->id) + 2 > sizeof st->learned)
			continue;
		/* on the task it came from it proves nothing: its evidence must come
		 * from other tasks */
		if (ka_kdb_evidence_each(L->db, r->id, first_task, origin) < 0 ||
		    !strcmp(origin, L->spec.name))
			continue;
		snprintf(titles[n], sizeof titles[n], "%.160s (learned: distilled from a verified win)",
			 r->title);
		out[n] = (ka_coder_rule){r->id, titles[n], r->body, NULL};
		n++;
		snprintf(st->learned + used, sizeof st->learned - used, "%s%s", used ? " " : "", r->id);
	}
	return n;
}

/* One evidence row: the step's outcome for rule (verified: the bench's
 * verdict; otherwise, a candidate that did not build, "error"). */
static void file_evidence(ka_opt_loop *L, const char *rule, const ka_opt_step *st, const ka_bench_result *res,
			  int verified)
{
	ka_kdb_evidence e = {.rule = rule,
			     .fix = st->strategy,
			     .task = L->spec.name,
			     .kernel_hash = st->hash,
			     .gpu = res->device,
			     .arch = L->arch,
			     .speedup = st->speedup,
			     .ci_low = st->lo,
			     .ci_high = st->hi,
			     .verdict = verified ? res->verdict : "error"};
	if (ka_kdb_add_evidence(L->db, &e, NULL) && L->o->progress)
		fprintf(L->o->progress, "kcheck: warning: evidence for %s not recorded: %s\n", rule,
			ka_error_last());
}

/* The step's outcome as evidence for each learned rule in its prompt. */
static void learned_evidence(ka_opt_loop *L, const ka_opt_step *st, const ka_bench_result *res, int verified)
{
	char ids[sizeof st->learned];
	snprintf(ids, sizeof ids, "%s", st->learned);
	for (char *save = NULL, *id = strtok_r(ids, " ", &save); id; id = strtok_r(NULL, " ", &save))
		file_evidence(L, id, st, res, verified);
}

void ka_opt_summarize(ka_opt_loop *L, const ka_opt_cand *c, const ka_opt_step *st, const ka_bench_result *res,
		      const char *src)
{
	if (!L->db || L->o->compile_only)
		return;
	/* verified: the bench ran it (knowledge.h); a candidate that did not
	 * build is filed as an error, which the standing does not count; a
	 * known step was not benched: only its trajectory row */
	int verified = !strcmp(st->outcome, "faster") || !strcmp(st->outcome, "same") ||
		       !strcmp(st->outcome, "slower") || !strcmp(st->outcome, "incorrect");
	/* a sequence (st->builds_on) was measured as a whole against the best
	 * before its first step: its last recipe's own share was not, so no
	 * rule's standing moves on it (docs/optimize.md); its trajectory row,
	 * and its skill when accepted, keep what it measured */
	int filed = (verified || !strcmp(st->outcome, "compile_error")) && !st->builds_on;
	if (c->rule[0] && filed)
		file_evidence(L, c->rule, st, res, verified);
	if (filed)
		learned_evidence(L, st, res, verified);
	if (st->accepted) {
		char sum[200];
		if (!strcmp(c->recipe->name, "skill"))
			snprintf(sum, sizeof sum, "%s", st->params); /* as stored */
		else
			snprintf(sum, sizeof sum, "%.120s %.70s",
				 st->builds_on ? st->strategy : c->recipe->name, c->params);
		ka_kdb_skill sk = {.task = L->spec.name,
				   .arch = L->arch,
				   .source = src,
				   .summary = sum,
				   .rules = c->rule,
				   .speedup = st->total};
		if (ka_kdb_add_skill(L->db, &sk, NULL) && L->o->progress)
			fprintf(L->o->progress, "kcheck: warning: skill not recorded: %s\n", ka_error_last());
	}
	ka_kdb_step ks = {.run_id = L->run_id,
			  .step = st->step,
			  .task = L->spec.name,
			  .role = "verifier",
			  .strategy = st->strategy,
			  .params = st->params,
			  .candidate_hash = st->hash,
			  .outcome = st->outcome,
			  .speedup = st->speedup,
			  .ci_low = st->lo,
			  .ci_high = st->hi,
			  .error = st->error[0] ? st->error : NULL,
			  .arch = L->arch};
	if (ka_kdb_add_step(L->db, &ks) && L->o->progress)
		fprintf(L->o->progress, "kcheck: warning: trajectory step not recorded: %s\n",
			ka_error_last());
}

void ka_opt_distill(ka_opt_loop *L, const ka_opt_cand *c, ka_opt_step *st, const ka_bench_result *res,
		    const char *before, const ka_coder_reply *rep)
{
	if (!L->llm || !L->db || L->o->compile_only || !st->accepted || !rep->llm_made)
		return;
	int free_rw = !strcmp(c->recipe->name, "free-rewrite");
	ka_distill_win w = {.task = L->spec.name,
			    .arch = L->arch,
			    .gpu = res->device,
			    .before = before,
			    .after = rep->source,
			    .strategy = st->strategy,
			    .hint = free_rw ? NULL : c->recipe->name,
			    .note = rep->note,
			    .kernel_hash = st->hash,
			    .speedup = st->speedup,
			    .lo = st->lo,
			    .hi = st->hi,
			    .extra = L->extra,
			    .nextra = 1};
	if (ka_distill(L->llm, L->db, &w, st->distilled, sizeof st->distilled) == KA_OK) {
		ka_ruleset_free(L->learned); /* the new rule takes part in the next steps */
		L->learned = NULL;
		if (ka_learned_load(L->db, &L->learned) != KA_OK)
			L->learned = NULL;
	} else {
		snprintf(st->distill_refused, sizeof st->distill_refused, "%s", ka_error_last());
	}
	if (!L->o->progress)
		return;
	if (st->distilled[0])
		fprintf(L->o->progress,
			"step %d: distilled into %s (candidate until reproduced on another task)\n", st->step,
			st->distilled);
	else
		fprintf(L->o->progress, "step %d: not distilled: %s\n", st->step, st->distill_refused);
	fflush(L->o->progress);
}
