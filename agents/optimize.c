/* agents/optimize.c: the optimize loop (agents/optimize.h): plan, code,
 * verify, summarize, one step at a time, until the budget ends, no strategy
 * is left, or the best kernel is near the roofline the task implies.
 * The verifier is the bench, called through its library (bench/runner.h):
 * the candidate is timed against the current best, with the correctness
 * gate on every configuration.  The trajectory is kept here and, unless
 * compile_only, in the knowledge DB, with the evidence of every verified
 * outcome and the accepted kernels as skills (agents/optimize_summarize.c,
 * which also distills an accepted LLM candidate into a candidate rule). */
#include "agents/optimize_int.h"
#include "agents/llm_prompt.h"
#include "bench/runner.h"
#include "util/sha256.h"
#include "rewriter/rewriter.h"
#include "rules/rule.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/utf8.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Bench verdicts onto trajectory outcomes. */
static const char *outcome_of(const ka_bench_result *r)
{
	if (!strcmp(r->verdict, "compiled"))
		return "unverified";
	if (!strcmp(r->verdict, "rejected"))
		return !strcmp(r->gate, "compile") || !strcmp(r->gate, "static") ? "compile_error"
										 : "incorrect";
	if (!strcmp(r->verdict, "faster") || !strcmp(r->verdict, "same") || !strcmp(r->verdict, "slower"))
		return r->verdict;
	return "error";
}

/* The bench on a candidate file, against the current best. */
static int verify(ka_opt_loop *L, const char *cand_path, ka_bench_result *res)
{
	static ka_bench_job job;
	ka_bench_job_init(&job, &L->spec);
	int rc = ka_bench_job_path(job.candidate, sizeof job.candidate, cand_path, NULL);
	if (!rc)
		rc = ka_bench_job_path(job.baseline, sizeof job.baseline, L->best_file, NULL);
	if (rc)
		return rc; /* build_dir: the bench's shared object cache */
	snprintf(job.arch, sizeof job.arch, "%s", L->arch);
	job.compile_only = L->o->compile_only;
	job.configs = KA_BENCH_CONFIGS_VISIBLE; /* timed; correctness covers every config */
	if (L->o->samples)
		job.samples = L->o->samples;
	job.seed = ka_bench_fresh_seed();
	memset(res, 0, sizeof *res);
	const ka_bench_runner *rn = L->o->runner ? L->o->runner : ka_bench_runner_local();
	return rn->run(rn, &job, res);
}

/* The rules whose texts condition the rewrite: the one the planner chose,
 * the fired ones and the retrieved ones. */
static int gather_rules(ka_opt_loop *L, const ka_findings *f, const ka_opt_plan *p, const char *chosen,
			ka_coder_rule *out, int max)
{
	int n = 0;
	const char *ids[80];
	int nid = 0;
	if (chosen && *chosen)
		ids[nid++] = chosen;
	for (size_t i = 0; i < f->n && nid < 70; i++)
		if (f->v[i].rule)
			ids[nid++] = f->v[i].rule;
	for (int i = 0; i < p->nret && nid < 80; i++)
		ids[nid++] = p->retrieved[i];
	for (int i = 0; i < nid && n < max; i++) {
		const ka_rule *r = ka_ruleset_find(L->rs, ids[i]);
		int dup = 0;
		for (int j = 0; j < n; j++)
			dup |= !strcmp(out[j].id, ids[i]);
		if (!r || dup)
			continue;
		out[n++] = (ka_coder_rule){r->id, r->title, r->body, r->fix};
	}
	return n;
}

/* Seconds on a monotonic clock (a step's time: fractions matter). */
static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A step the budget counts: one that ran the bench (or tried to build). */
static int counted(const ka_opt_step *st)
{
	return strcmp(st->outcome, "declined") && strcmp(st->outcome, "known");
}

/* "step 3 (2/12): ..." -- the step, the steps --budget counted so far and
 * the budget; a declined or known step says it was not counted. */
static void progress(ka_opt_loop *L, const ka_opt_step *st)
{
	if (!L->o->progress)
		return;
	int used = 0, budget = L->o->budget_steps > 0 ? L->o->budget_steps : 12;
	for (int i = 0; i < L->s->nsteps; i++)
		used += counted(&L->s->steps[i]);
	fprintf(L->o->progress, "step %d (%d/%d): %s%s%s -> %s", st->step, used, budget > 64 ? 64 : budget,
		st->strategy, st->params[0] ? " " : "", st->params, st->outcome);
	if (!counted(st))
		fputs(" (not counted against --budget)", L->o->progress);
	if (st->speedup > 0)
		fprintf(L->o->progress, " %.3fx [%.3f, %.3f]", st->speedup, st->lo, st->hi);
	if (st->accepted)
		fprintf(L->o->progress, " accepted, best %.3fx", st->total);
	if (st->error[0])
		fprintf(L->o->progress, " (%s)", st->error);
	fprintf(L->o->progress, " %.2fs\n", st->seconds);
	fflush(L->o->progress);
}

/* Tried before on this very kernel with these parameters? */
static int tried_before(ka_opt_loop *L, const char *key)
{
	for (int i = 0; i < L->nkeys; i++)
		if (!strcmp(L->keys[i], key))
			return 1;
	return 0;
}

/* Write the candidate, bench it; fill the step from the verdict. */
static int try_candidate(ka_opt_loop *L, ka_opt_step *st, const char *src, const char *suffix,
			 ka_bench_result *res, char *path, size_t cap)
{
	char name[64], cd[1100];
	snprintf(name, sizeof name, "step-%d%s.cu", st->step, suffix);
	if (snprintf(cd, sizeof cd, "%s/candidates", L->o->out_dir) >= (int)sizeof cd)
		return ka_error_set(KA_EINPUT, "path too long: %.80s...", L->o->out_dir);
	ka_sha256_of(src, strlen(src), st->hash);
	int rc = ka_opt_write_text(cd, name, src, path, cap);
	if (rc)
		return rc;
	char was[16];
	double sp = 0, lo = 0, hi = 0;
	if (L->db && !L->o->compile_only &&
	    ka_kdb_measured_before(L->db, L->spec.name, L->arch, st->hash, was, sizeof was, &sp, &lo, &hi) ==
		    1) {
		/* long-term memory: this very candidate was measured on this arch */
		snprintf(st->outcome, sizeof st->outcome, "known");
		snprintf(st->error, sizeof st->error,
			 "measured in an earlier run on %s: %s %.3fx [%.3f, %.3f]; not benched again",
			 L->arch, was, sp, lo, hi);
		return KA_OK;
	}
	rc = verify(L, path, res);
	if (rc) {
		snprintf(st->outcome, sizeof st->outcome, "error");
		ka_utf8_copy(st->error, sizeof st->error, ka_error_last(), (size_t)-1);
		return KA_OK;
	}
	snprintf(st->outcome, sizeof st->outcome, "%s", outcome_of(res));
	ka_utf8_copy(st->error, sizeof st->error, res->reason, strcspn(res->reason, "\n"));
	if (!strcmp(st->outcome, "unverified")) { /* compile-only: something to apply by hand */
		char pname[48];
		snprintf(pname, sizeof pname, "step-%d%.16s.patch", st->step, suffix);
		if (ka_opt_write_candidate_patch(L, src, cd, pname) == KA_OK)
			snprintf(st->patch, sizeof st->patch, "candidates/%s", pname);
	}
	if (!strcmp(res->verdict, "faster") || !strcmp(res->verdict, "same") ||
	    !strcmp(res->verdict, "slower")) {
		st->speedup = res->geomean;
		st->lo = res->lo;
		st->hi = res->hi;
		st->roofline = res->roof_mean;
	}
	return KA_OK;
}

/* The best-ranked strategy not tried on its kernel; NULL when none is left.
 * key gets its trajectory key. */
static const ka_opt_cand *pick(ka_opt_loop *L, ka_opt_plan *plan, int llm, char *key, size_t kcap)
{
	static const char *const free_grid[] = {"", NULL};
	static const ka_recipe free_rewrite = {.name = "free-rewrite", .grid = free_grid};
	static ka_opt_cand free_cand;
	char bh[65], ph[65] = "";
	ka_sha256_of(L->best, strlen(L->best), bh);
	if (L->parent)
		ka_sha256_of(L->parent, strlen(L->parent), ph);
	for (int i = 0; i < plan->n; i++) {
		const ka_opt_cand *c = &plan->c[i];
		snprintf(key, kcap, "%s|%s|%s", c->recipe->name, c->params, c->on_parent ? ph : bh);
		if ((c->on_parent && !L->parent) || tried_before(L, key))
			continue;
		if (llm) {
			/* the hint an LLM gets is a recipe whose shape this kernel has */
			const char *base = c->on_parent ? L->parent : L->best;
			char why[256], *x = NULL;
			size_t xl;
			int ar = ka_recipe_apply(c->recipe->name, base, strlen(base), NULL, c->params, &x,
						 &xl, why, sizeof why);
			free(x);
			if (ar != KA_OK) {
				if (L->nkeys < 256)
					snprintf(L->keys[L->nkeys++], sizeof L->keys[0], "%s", key);
				continue;
			}
		}
		return c;
	}
	/* an LLM with no recipe hint left may still rewrite freely, once per kernel */
	snprintf(key, kcap, "free-rewrite||%s", bh);
	if (!llm || tried_before(L, key))
		return NULL;
	memset(&free_cand, 0, sizeof free_cand);
	free_cand.recipe = &free_rewrite;
	free_cand.params = ""; /* no rule called for it: no evidence is filed */
	return &free_cand;
}

/* The coder's candidate through the bench, with one repair turn for an
 * LLM candidate that does not compile.  *prc: the coder's return. */
static int code_and_verify(ka_opt_loop *L, const ka_coder_request *req, int llm, ka_opt_step *st,
			   ka_coder_reply *rep, ka_bench_result *res, char *cand, size_t cap, int *prc)
{
	int rc = KA_OK;
	*prc = ka_coder_propose(L->coder, req, rep);
	if (*prc != KA_OK) {
		snprintf(st->outcome, sizeof st->outcome, "%s",
			 *prc == KA_ENOTFOUND && !llm ? "declined" : "error");
		ka_utf8_copy(st->error, sizeof st->error, ka_error_last(), (size_t)-1);
		return KA_OK;
	}
	if (rep->strategy)
		snprintf(st->strategy, sizeof st->strategy, "%s", rep->strategy);
	rc = try_candidate(L, st, rep->source, "", res, cand, cap);
	if (rc == KA_OK && llm && !strcmp(st->outcome, "compile_error")) {
		ka_coder_reply fix;
		char err[600];
		ka_utf8_copy(err, sizeof err, res->reason, (size_t)-1);
		ka_bench_result_free(res);
		memset(res, 0, sizeof *res);
		if (ka_coder_repair(L->coder, req, rep->source, rep->source_len, err, &fix) == KA_OK) {
			st->repaired = 1;
			ka_coder_reply_clear(rep);
			*rep = fix;
			rc = try_candidate(L, st, rep->source, "-repair", res, cand, cap);
		}
	}
	return rc;
}

/* Accept (or not), summarize, and append the step to the trajectory. */
static int record(ka_opt_loop *L, const ka_opt_cand *c, ka_opt_step *st, const ka_bench_result *res,
		  const char *src, const char *cand, int proposed)
{
	const ka_opt_opts *o = L->o;
	int rc = KA_OK;
	st->accepted = proposed && !o->compile_only && !strcmp(res->verdict, "faster") &&
		       res->lo > (o->threshold > 0 ? o->threshold : 1.02) &&
		       res->correct_unseen == res->total_unseen;
	if (st->accepted) {
		char *copy = strdup(src);
		if (!copy)
			return ka_error_set(KA_ENOMEM, "out of memory");
		if (!c->on_parent) {
			free(L->parent);
			L->parent = L->best;
		} else {
			free(L->best);
		}
		L->best = copy;
		snprintf(L->best_file, sizeof L->best_file, "%s", cand);
		snprintf(L->best_recipe, sizeof L->best_recipe, "%s", c->recipe->name);
		snprintf(L->best_params, sizeof L->best_params, "%s", c->params);
		snprintf(L->best_rule, sizeof L->best_rule, "%s", c->rule);
		L->s->speedup *= res->geomean;
		L->roof = res->roof_mean;
	}
	st->total = L->s->speedup;
	if (proposed)
		ka_opt_summarize(L, c, st, res, src);
	if (L->ntried < 64) {
		int k = L->ntried++;
		snprintf(L->tried_text[k], sizeof L->tried_text[k], "%s|%s|%s|%s", st->strategy, st->params,
			 st->outcome, st->error);
		char *p1 = L->tried_text[k], *p2 = strchr(p1, '|');
		*p2++ = 0;
		char *p3 = strchr(p2, '|');
		*p3++ = 0;
		char *p4 = strchr(p3, '|');
		*p4++ = 0;
		L->tried[k] = (ka_coder_attempt){p1, p2, p3, st->speedup, *p4 ? p4 : NULL};
	}
	L->s->nsteps++;
	progress(L, st);
	return rc;
}

/* One step: findings -> plan -> coder -> bench -> record.  *more = 0 when
 * no strategy is left. */
static int one_step(ka_opt_loop *L, int *more)
{
	const ka_opt_opts *o = L->o;
	ka_findings f = KA_FINDINGS_INIT;
	int rc = KA_OK, prc = KA_ERR;
	*more = 0;
	if (o->lint && o->lint(o->lint_ud, L->best_file, L->arch, L->extra, 1, &f) != KA_OK) {
		if (o->progress)
			fprintf(o->progress, "kcheck: warning: no findings: %s\n", ka_error_last());
		ka_findings_free(&f);
	}
	static ka_opt_plan plan;
	ka_opt_make_plan(L->db, L->arch, &f, L->best_recipe[0] ? L->best_recipe : NULL, L->best_params,
			 &plan);
	ka_recipe_set_source_path("kernel.cu"); /* as the coder sees it */
	ka_opt_plan_sequences(&plan, L->best, strlen(L->best));
	for (int i = 0; i < plan.n; i++) /* tuning serves the rule the recipe did */
		if (plan.c[i].on_parent)
			snprintf(plan.c[i].rule, sizeof plan.c[i].rule, "%s", L->best_rule);
	int llm = !strcmp(ka_coder_name(L->coder), "llm");
	char key[400];
	static const char *const skill_grid[] = {"", NULL};
	static const ka_recipe skill_recipe = {.name = "skill", .grid = skill_grid};
	static ka_opt_cand skill_cand;
	const ka_opt_cand *c = NULL;
	if (L->skill) {
		memset(&skill_cand, 0, sizeof skill_cand);
		skill_cand.recipe = &skill_recipe;
		skill_cand.params = "";
		c = &skill_cand;
		snprintf(key, sizeof key, "skill||");
	} else {
		c = pick(L, &plan, llm, key, sizeof key);
	}
	if (!c || L->nkeys == 256 || L->s->nsteps == 64) {
		ka_findings_free(&f);
		return KA_OK;
	}
	*more = 1;
	snprintf(L->keys[L->nkeys++], sizeof L->keys[0], "%s", key);
	int free_rw = !strcmp(c->recipe->name, "free-rewrite");
	ka_opt_step *st = &L->s->steps[L->s->nsteps];
	memset(st, 0, sizeof *st);
	st->step = L->s->nsteps + 1;
	st->total = L->s->speedup;
	snprintf(st->rule, sizeof st->rule, "%s", c->rule);
	snprintf(st->strategy, sizeof st->strategy, "%s", c->recipe->name);
	snprintf(st->params, sizeof st->params, "%s%s", llm ? "hint=" : "",
		 llm ? c->recipe->name : c->params);
	double t0 = mono_s();

	static ka_coder_finding cf[64];
	static ka_coder_rule cr[24];
	static char ev[64][200];
	int ncf = 0;
	for (size_t i = 0; i < f.n && ncf < 64; i++) {
		const ka_finding *x = &f.v[i];
		ka_kdb_standing sd;
		if (!x->rule)
			continue;
		ev[ncf][0] = 0;
		if (L->db && ka_kdb_standing_get(L->db, x->rule, NULL, L->arch, &sd) == KA_OK)
			ka_kdb_standing_text(&sd, L->arch, ev[ncf], sizeof ev[ncf]);
		/* once for its kernel, once for each other kernel that shares it */
		for (size_t a = 0; a <= x->nalso && ncf < 64; a++, ncf++) {
			const char *kn = a ? x->also[a - 1] : x->kernel;
			if (a)
				memcpy(ev[ncf], ev[ncf - 1], sizeof ev[ncf]);
			cf[ncf] = (ka_coder_finding){x->rule,
						     x->message,
						     NULL,
						     0,
						     0,
						     kn && *kn ? kn : NULL,
						     ev[ncf][0] ? ev[ncf] : NULL};
		}
	}
	const char *base = c->on_parent ? L->parent : L->best;
	ka_coder_request req = {.path = "kernel.cu",
				.source = base,
				.source_len = strlen(base),
				.arch = L->arch,
				.findings = cf,
				.n_findings = (size_t)ncf,
				.rules = cr,
				.strategy = free_rw ? NULL : c->recipe->name,
				.params = free_rw ? NULL : c->params,
				.abi = L->abi,
				.configs = L->cfgs,
				.n_configs = (size_t)L->ncfg,
				.tried = L->tried,
				.n_tried = (size_t)L->ntried};
	static ka_coder_rule lr[8];
	int nl = llm && c != &skill_cand ? ka_opt_learned_hints(L, base, st, lr, 8) : 0;
	req.n_rules = (size_t)gather_rules(L, &f, &plan, c->rule, cr, 24 - nl);
	for (int i = 0; i < nl; i++) /* learned rules that fire here, after the shipped ones */
		cr[req.n_rules++] = lr[i];
	ka_coder_reply rep;
	static ka_bench_result res;
	memset(&res, 0, sizeof res);
	char cand[1100] = "";
	if (c == &skill_cand) {
		/* the stored kernel is the candidate; the bench decides again */
		memset(&rep, 0, sizeof rep);
		rep.source = L->skill;
		rep.source_len = strlen(L->skill);
		L->skill = NULL;
		ka_utf8_copy(st->params, sizeof st->params, L->skill_summary, (size_t)-1);
		prc = KA_OK;
		rc = try_candidate(L, st, rep.source, "-skill", &res, cand, sizeof cand);
	} else {
		rc = code_and_verify(L, &req, llm, st, &rep, &res, cand, sizeof cand, &prc);
	}
	if (!strcmp(st->outcome, "declined") && !strstr(st->error, "bad parameters")) {
		/* the kernel lacks the recipe's shape: no parameter set will do */
		char bh[65];
		ka_sha256_of(base, strlen(base), bh);
		for (int g = 0; c->recipe->grid && c->recipe->grid[g] && L->nkeys < 256; g++) {
			char k2[400];
			snprintf(k2, sizeof k2, "%s|%s|%s", c->recipe->name, c->recipe->grid[g], bh);
			if (!tried_before(L, k2))
				snprintf(L->keys[L->nkeys++], sizeof L->keys[0], "%s", k2);
		}
	}
	st->seconds = mono_s() - t0;
	if (rc == KA_OK)
		rc = record(L, c, st, &res, prc == KA_OK ? rep.source : NULL, cand, prc == KA_OK);
	if (rc == KA_OK && prc == KA_OK) /* base is still alive: the parent of the new best */
		ka_opt_distill(L, c, st, &res, base, &rep);
	ka_coder_reply_clear(&rep);
	ka_bench_result_free(&res);
	ka_findings_free(&f);
	return rc;
}

/* best.cu, best.patch, trajectory.json and report.md for the steps done. */
static int write_outputs(ka_opt_loop *L)
{
	const ka_opt_opts *o = L->o;
	ka_opt_summary *out = L->s;
	char tp[1100];
	int rc = ka_opt_write_text(o->out_dir, "best.cu", L->best, out->best_path, sizeof out->best_path);
	if (rc == KA_OK)
		rc = ka_opt_write_patch(L);
	if (rc == KA_OK && snprintf(tp, sizeof tp, "%s/trajectory.json", o->out_dir) >= (int)sizeof tp)
		rc = ka_error_set(KA_EINPUT, "path too long: %.80s...", o->out_dir);
	if (rc == KA_OK)
		rc = ka_opt_write_trajectory(tp, L->spec.name, out, o->compile_only);
	if (rc == KA_OK)
		rc = ka_opt_write_report(o->out_dir, L->spec.name, out, o->compile_only);
	return rc;
}

int ka_opt_run(const ka_opt_opts *o, ka_opt_summary *out)
{
	static ka_opt_loop L;
	memset(&L, 0, sizeof L);
	memset(out, 0, sizeof *out);
	L.o = o;
	L.s = out;
	out->speedup = 1.0;
	int rc = ka_opt_setup(&L), budget = o->budget_steps > 0 ? o->budget_steps : 12;
	if (budget > 64)
		budget = 64;
	time_t t0 = time(NULL);
	while (rc == KA_OK) {
		int used = 0; /* a declined or known candidate cost no bench run: not counted */
		for (int i = 0; i < out->nsteps; i++)
			used += counted(&out->steps[i]);
		if (used >= budget) {
			snprintf(out->stop, sizeof out->stop, "step budget (%d) used", budget);
			break;
		}
		if (o->budget_minutes > 0 && difftime(time(NULL), t0) >= o->budget_minutes * 60) {
			snprintf(out->stop, sizeof out->stop, "time budget (%.1f min) used",
				 o->budget_minutes);
			break;
		}
		if (L.roof >= 0.85) {
			snprintf(out->stop, sizeof out->stop, "near the roofline (%.0f%% of the ceiling)",
				 100 * L.roof);
			break;
		}
		int more = 0;
		rc = one_step(&L, &more);
		if (rc == KA_OK && !more) {
			snprintf(out->stop, sizeof out->stop, "no strategy left");
			break;
		}
		if (rc != KA_OK) {
			/* the steps already benched are kept: the outputs are written
			 * with the error as the stop, and the error returned */
			char msg[1024];
			snprintf(msg, sizeof msg, "%s", ka_error_last());
			memcpy(out->stop, "error: ", 8);
			ka_utf8_copy(out->stop + 7, sizeof out->stop - 7, msg, (size_t)-1);
			if (write_outputs(&L) && o->progress)
				fprintf(o->progress, "kcheck: warning: outputs not written: %s\n",
					ka_error_last());
			ka_error_set(rc, "%s", msg);
		}
	}
	if (rc == KA_OK)
		rc = write_outputs(&L);
	ka_coder_free(L.coder);
	ka_llm_free(L.llm);
	ka_ruleset_free(L.learned);
	ka_kdb_close(L.db);
	ka_ruleset_free(L.rs);
	free(L.orig);
	free(L.best);
	free(L.parent);
	free(L.skill);
	return rc;
}
