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
#include "bench/report.h"
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
	if (st->gpu >= 0)
		fprintf(L->o->progress, " on GPU %d", st->gpu);
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

/* One candidate of a round: its strategy, the kernel it rewrites, the
 * coder's reply, the bench's verdict and its trajectory step. */
typedef struct slot {
	ka_opt_cand c;    /* a copy: pick's storage serves the next pick */
	const char *base; /* the round's copy of the best (or of its parent) */
	ka_coder_request req;
	ka_coder_rule cr[24];
	char titles[8][240]; /* the learned hints' titles (their storage is reused) */
	ka_coder_reply rep;
	int prc;   /* the coder's return */
	int bench; /* written and not known: to bench in this pass */
	char suffix[16];
	ka_bench_result res;
	char path[1100];  /* candidates/step-N*.cu */
	int written;      /* path written (prepare) while the round was being filled */
	int on;           /* the slot whose candidate base is (a sequence); -1: the round's kernels */
	char opened[256]; /* what the loop's best_opened becomes when this one is accepted */
	ka_opt_step st;
} slot;

/* What the planner sees of one kernel: its findings, the ranked plan and
 * the findings as the coder is given them. */
typedef struct view {
	ka_findings f;
	ka_opt_plan plan;
	ka_coder_finding cf[64];
	char ev[64][200];
	int ncf;
} view;

/* The loop's state as the planner reads it: the best kernel (its text and
 * file), the kernel it was made from, the step that made it and what that
 * step opened.  A round starts from the loop's own; a speculative slot
 * (--gpus) from the state the one-GPU loop would be in had the slot
 * before it been accepted.  best_from, parent_from: the round's slot whose
 * candidate that kernel is; -1: the round's own kernels. */
typedef struct head {
	const char *best, *parent, *file, *orig;
	const char *recipe, *params, *rule, *opened;
	const char *kept, *kept_opened; /* the runner-up and what it opened, or NULL */
	int best_from, parent_from;
} head;

/* Write the slot's candidate; unless the knowledge DB already measured
 * it on this arch (then the step is "known"), it is to be benched. */
static int prepare(ka_opt_loop *L, slot *x, const char *suffix)
{
	ka_opt_step *st = &x->st;
	const char *src = x->rep.source;
	char name[64], cd[1100];
	snprintf(x->suffix, sizeof x->suffix, "%s", suffix);
	snprintf(name, sizeof name, "step-%d%s.cu", st->step, suffix);
	if (snprintf(cd, sizeof cd, "%s/candidates", L->o->out_dir) >= (int)sizeof cd)
		return ka_error_set(KA_EINPUT, "path too long: %.80s...", L->o->out_dir);
	ka_sha256_of(src, strlen(src), st->hash);
	int rc = ka_opt_write_text(cd, name, src, x->path, sizeof x->path);
	if (rc)
		return rc;
	char was[16];
	double sp = 0, lo = 0, hi = 0;
	if (L->db && !L->o->compile_only &&
	    ka_kdb_measured_before(L->db, L->spec.name, L->arch, st->hash, was, sizeof was, &sp, &lo, &hi) ==
		    1) {
		/* long-term memory: this very candidate was measured on this arch */
		snprintf(st->outcome, sizeof st->outcome, "known");
		snprintf(
			st->error, sizeof st->error,
			"this very candidate was measured before on %s: %s %.3fx [%.3f, %.3f]; not benched again",
			L->arch, was, sp, lo, hi);
		return KA_OK;
	}
	x->bench = 1;
	return KA_OK;
}

/* The step from the bench's verdict on the slot's candidate. */
static void fill(ka_opt_loop *L, slot *x)
{
	ka_opt_step *st = &x->st;
	const ka_bench_result *res = &x->res;
	snprintf(st->outcome, sizeof st->outcome, "%s", outcome_of(res));
	ka_utf8_copy(st->error, sizeof st->error, res->reason, strcspn(res->reason, "\n"));
	if (!strcmp(st->outcome, "unverified")) { /* compile-only: something to apply by hand */
		char pname[48], cd[1100];
		snprintf(pname, sizeof pname, "step-%d%.16s.patch", st->step, x->suffix);
		snprintf(cd, sizeof cd, "%s/candidates", L->o->out_dir);
		if (ka_opt_write_candidate_patch(L, x->rep.source, cd, pname) == KA_OK)
			snprintf(st->patch, sizeof st->patch, "candidates/%s", pname);
	}
	const char *sm = strstr(res->device, "sms=");
	if (sm && atoi(sm + 4) > 0) /* the planner's row-starved test reads it */
		L->sms = atoi(sm + 4);
	if (!strcmp(res->verdict, "faster") || !strcmp(res->verdict, "same") ||
	    !strcmp(res->verdict, "slower")) {
		st->speedup = res->geomean;
		st->lo = res->lo;
		st->hi = res->hi;
		st->roofline = res->roof_mean;
		st->roofline_large = res->roof_large > 0 ? res->roof_large : 0;
	}
}

/* The bench's whole report on the slot's candidate (every config's times,
 * rates and roofline fraction, which the trajectory sums up) next to it as
 * candidates/step-N.bench.json.  A report that cannot be written costs the
 * step nothing: the trajectory holds its verdict. */
static void keep_bench_json(ka_opt_loop *L, const slot *x, const ka_bench_job *j)
{
	char name[96], cd[1100], path[1200];
	ka_buf b;
	ka_buf_init(&b, 1 << 14);
	snprintf(name, sizeof name, "step-%d%.32s.bench.json", x->st.step, x->suffix);
	if (snprintf(cd, sizeof cd, "%s/candidates", L->o->out_dir) < (int)sizeof cd &&
	    ka_bench_report_json(&b, j, &x->res) == KA_OK && b.data && ka_buf_addc(&b, '\n') == KA_OK)
		(void)ka_opt_write_text(cd, name, b.data, path, sizeof path);
	ka_buf_free(&b);
}

/* A slot whose bench could not run: an "error" step saying why. */
static void failed(slot *x, const char *why)
{
	snprintf(x->st.outcome, sizeof x->st.outcome, "error");
	ka_utf8_copy(x->st.error, sizeof x->st.error, why, (size_t)-1);
}

/* The bench on the slots marked bench, each against the current best,
 * with the correctness gate on every configuration.  A runner with
 * run_many (the GPUs of this host, bench/scale.h) takes them as one batch:
 * side by side, one per GPU, each one's pairs interleaved with the best on
 * its own GPU; otherwise one after the other.  A job that could not run
 * is that step's error; the others' verdicts stand.  The steps' seconds
 * grow by the pass's wall time. */
static void verify_all(ka_opt_loop *L, slot *S, int ns)
{
	const ka_bench_runner *rn = L->o->runner ? L->o->runner : ka_bench_runner_local();
	ka_bench_job *jobs = calloc((size_t)ns, sizeof *jobs);
	ka_bench_result *res = calloc((size_t)ns, sizeof *res);
	int *gpu = calloc((size_t)ns, sizeof *gpu), *map = calloc((size_t)ns, sizeof *map), m = 0;
	double t0 = mono_s();
	for (int i = 0; i < ns; i++) {
		slot *x = &S[i];
		if (!x->bench)
			continue;
		memset(&x->res, 0, sizeof x->res);
		if (!jobs || !res || !gpu || !map) {
			failed(x, "out of memory");
			continue;
		}
		ka_bench_job *j = &jobs[m];
		ka_bench_job_init(j, &L->spec); /* build_dir: the bench's shared object cache */
		if (ka_bench_job_path(j->candidate, sizeof j->candidate, x->path, NULL) ||
		    ka_bench_job_path(j->baseline, sizeof j->baseline, L->best_file, NULL)) {
			failed(x, ka_error_last());
			continue;
		}
		snprintf(j->arch, sizeof j->arch, "%s", L->arch);
		j->compile_only = L->o->compile_only;
		j->configs = KA_BENCH_CONFIGS_VISIBLE; /* timed; correctness covers every config */
		if (L->o->samples)
			j->samples = L->o->samples;
		j->seed = ka_bench_fresh_seed();
		map[m++] = i;
	}
	if (m && rn->run_many) {
		if (rn->run_many(rn, jobs, m, res, gpu) != KA_OK) {
			char why[512];
			snprintf(why, sizeof why, "%s", ka_error_last());
			for (int k = 0; k < m; k++) {
				ka_bench_result_free(&res[k]);
				failed(&S[map[k]], why);
			}
			m = 0;
		}
	} else {
		for (int k = 0; k < m; k++) {
			gpu[k] = -1;
			if (rn->run(rn, &jobs[k], &res[k]) != KA_OK) {
				failed(&S[map[k]], ka_error_last());
				ka_bench_result_free(&res[k]);
				map[k] = -1;
			}
		}
	}
	for (int k = 0; k < m; k++) {
		if (map[k] < 0)
			continue;
		slot *x = &S[map[k]];
		x->res = res[k]; /* the slot owns its arrays now */
		x->st.gpu = gpu[k];
		fill(L, x);
		if (!L->o->compile_only)
			keep_bench_json(L, x, &jobs[k]);
	}
	double dt = mono_s() - t0;
	for (int i = 0; i < ns; i++) {
		S[i].st.seconds += S[i].bench ? dt : 0;
		S[i].bench = 0;
	}
	free(jobs);
	free(res);
	free(gpu);
	free(map);
}

/* The best-ranked strategy not tried on its kernel; NULL when none is left.
 * key gets its trajectory key. */
static const ka_opt_cand *pick(ka_opt_loop *L, const head *h, ka_opt_plan *plan, int llm, char *key,
			       size_t kcap)
{
	static const char *const free_grid[] = {"", NULL};
	static const ka_recipe free_rewrite = {.name = "free-rewrite", .grid = free_grid};
	static ka_opt_cand free_cand;
	char bh[65], ph[65] = "", oh[65] = "", kh[65] = "";
	ka_sha256_of(h->best, strlen(h->best), bh);
	if (h->parent)
		ka_sha256_of(h->parent, strlen(h->parent), ph);
	if (h->kept)
		ka_sha256_of(h->kept, strlen(h->kept), kh);
	int rebased = h->orig && strcmp(h->orig, h->best) != 0;
	if (rebased)
		ka_sha256_of(h->orig, strlen(h->orig), oh);
	for (int i = 0; i < plan->n; i++) {
		const ka_opt_cand *c = &plan->c[i];
		snprintf(key, kcap, "%s|%s|%s", c->recipe->name, c->params,
			 c->on_orig     ? oh
			 : c->on_parent ? ph
			 : c->on_kept   ? kh
					: bh);
		if ((c->on_parent && !h->parent) || (c->on_orig && !rebased) || (c->on_kept && !h->kept) ||
		    tried_before(L, key))
			continue;
		if (llm) {
			/* the hint an LLM gets is a recipe whose shape this kernel has */
			const char *base = c->on_orig     ? h->orig
					   : c->on_parent ? h->parent
					   : c->on_kept   ? h->kept
							  : h->best;
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

/* What the slot's step opened (ka_opt_plan_opened) into x->opened; a
 * tuning step keeps what its recipe opened (copied when it was picked). */
static void slot_opened(slot *x)
{
	if (!x->c.on_parent)
		ka_opt_plan_opened(x->c.recipe->name, x->base, x->rep.source, x->opened, sizeof x->opened);
}

/* Accept (the round's chosen candidate, which acceptable() passed) or
 * not, summarize, and append the step to the trajectory.  Accepted: the
 * candidate is the best, the kernel it rewrote its parent (for a
 * sequence, the candidate of the slot it builds on). */
static int record(ka_opt_loop *L, slot *x, ka_opt_step *st, int accept)
{
	int rc = KA_OK, proposed = x->prc == KA_OK;
	const ka_opt_cand *c = &x->c;
	const ka_bench_result *res = &x->res;
	const char *src = proposed ? x->rep.source : NULL;
	st->accepted = proposed && accept;
	if (st->accepted) {
		char *copy = strdup(src), *parent = strdup(x->base);
		if (!copy || !parent) {
			free(copy);
			free(parent);
			return ka_error_set(KA_ENOMEM, "out of memory");
		}
		slot_opened(x);
		free(L->best);
		free(L->parent);
		L->best = copy;
		L->parent = parent;
		snprintf(L->best_file, sizeof L->best_file, "%s", x->path);
		snprintf(L->best_recipe, sizeof L->best_recipe, "%s", c->recipe->name);
		snprintf(L->best_params, sizeof L->best_params, "%s", c->params);
		snprintf(L->best_rule, sizeof L->best_rule, "%s", c->rule);
		snprintf(L->best_opened, sizeof L->best_opened, "%s", x->opened);
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

/* The coder's rewrite for the slot's strategy; a declined recipe (the
 * kernel lacks its shape) has all its parameter sets marked tried. */
static void propose(ka_opt_loop *L, slot *x, int llm, const ka_findings *f, const ka_opt_plan *plan,
		    ka_coder_finding *cf, int ncf)
{
	const ka_opt_cand *c = &x->c;
	int free_rw = !strcmp(c->recipe->name, "free-rewrite");
	x->req = (ka_coder_request){.path = "kernel.cu",
				    .source = x->base,
				    .source_len = strlen(x->base),
				    .arch = L->arch,
				    .flags = L->extra,
				    .nflags = 1,
				    .findings = cf,
				    .n_findings = (size_t)ncf,
				    .rules = x->cr,
				    .strategy = free_rw ? NULL : c->recipe->name,
				    .params = free_rw ? NULL : c->params,
				    .abi = L->abi,
				    .configs = L->cfgs,
				    .n_configs = (size_t)L->ncfg,
				    .tried = L->tried,
				    .n_tried = (size_t)L->ntried};
	ka_coder_rule lr[8];
	int nl = llm ? ka_opt_learned_hints(L, x->base, &x->st, lr, 8) : 0;
	x->req.n_rules = (size_t)gather_rules(L, f, plan, c->rule, x->cr, 24 - nl);
	for (int i = 0; i < nl; i++) { /* learned rules that fire here, after the shipped ones */
		snprintf(x->titles[i], sizeof x->titles[i], "%s", lr[i].title);
		lr[i].title = x->titles[i];
		x->cr[x->req.n_rules++] = lr[i];
	}
	x->prc = ka_coder_propose(L->coder, &x->req, &x->rep);
	if (x->prc != KA_OK) {
		snprintf(x->st.outcome, sizeof x->st.outcome, "%s",
			 x->prc == KA_ENOTFOUND && !llm ? "declined" : "error");
		ka_utf8_copy(x->st.error, sizeof x->st.error, ka_error_last(), (size_t)-1);
	} else if (x->rep.strategy) {
		snprintf(x->st.strategy, sizeof x->st.strategy, "%s", x->rep.strategy);
	}
	if (!strcmp(x->st.outcome, "declined") && !strstr(x->st.error, "bad parameters")) {
		/* the kernel lacks the recipe's shape: no parameter set will do */
		char bh[65];
		ka_sha256_of(x->base, strlen(x->base), bh);
		for (int g = 0; c->recipe->grid && c->recipe->grid[g] && L->nkeys < 256; g++) {
			char k2[400];
			snprintf(k2, sizeof k2, "%s|%s|%s", c->recipe->name, c->recipe->grid[g], bh);
			if (!tried_before(L, k2))
				snprintf(L->keys[L->nkeys++], sizeof L->keys[0], "%s", k2);
		}
	}
}

/* The verdict that may be accepted: faster, the CI's lower bound over the
 * threshold, every unseen configuration correct. */
static int acceptable(const ka_opt_loop *L, const slot *x)
{
	const ka_bench_result *res = &x->res;
	return x->prc == KA_OK && !L->o->compile_only && !strcmp(res->verdict, "faster") &&
	       res->lo > (L->o->threshold > 0 ? L->o->threshold : 1.02) &&
	       res->correct_unseen == res->total_unseen;
}

/* The planner's view of the kernel h->best: the findings of its file, the
 * plan (the tuning sets of the step that made it, what that step opened,
 * the findings' recipes, sequences) and the findings as the coder is
 * given them, with their rules' standing. */
static void plan_view(ka_opt_loop *L, const head *h, view *v)
{
	const ka_opt_opts *o = L->o;
	ka_findings *f = &v->f;
	if (o->lint && o->lint(o->lint_ud, h->file, L->arch, L->extra, 1, f) != KA_OK) {
		if (o->progress)
			fprintf(o->progress, "kcheck: warning: no findings: %s\n", ka_error_last());
		ka_findings_free(f);
	}
	ka_opt_plan *plan = &v->plan;
	ka_opt_make_plan(L->db, L->arch, f, h->recipe[0] ? h->recipe : NULL, h->params, plan);
	ka_recipe_set_source_path("kernel.cu"); /* as the coder sees it */
	ka_opt_plan_sequences(plan, h->best, strlen(h->best));
	ka_opt_plan_follow(plan, h->opened);
	/* a row-starved task: the size-dispatched schedule first (SMs: the
	 * bench's device once it reported) */
	ka_opt_plan_size(plan,
			 ka_opt_size_first(ka_opt_row_starved(L->rows, L->sms), h->best, strlen(h->best)),
			 h->recipe[0] ? h->recipe : NULL, h->params);
	if (strcmp(h->orig, h->best) != 0)
		ka_opt_plan_rebase(plan);
	if (h->kept)
		ka_opt_plan_kept(plan, h->kept_opened);
	for (int i = 0; i < plan->n; i++) /* tuning serves the rule the recipe did */
		if (plan->c[i].on_parent)
			snprintf(plan->c[i].rule, sizeof plan->c[i].rule, "%s", h->rule);
	int ncf = 0;
	for (size_t i = 0; i < f->n && ncf < 64; i++) {
		const ka_finding *x = &f->v[i];
		ka_kdb_standing sd;
		if (!x->rule)
			continue;
		v->ev[ncf][0] = 0;
		if (L->db && ka_kdb_standing_get(L->db, x->rule, NULL, L->arch, &sd) == KA_OK)
			ka_kdb_standing_text(&sd, L->arch, v->ev[ncf], sizeof v->ev[ncf]);
		/* once for its kernel, once for each other kernel that shares it */
		for (size_t a = 0; a <= x->nalso && ncf < 64; a++, ncf++) {
			const char *kn = a ? x->also[a - 1] : x->kernel;
			if (a)
				memcpy(v->ev[ncf], v->ev[ncf - 1], sizeof v->ev[ncf]);
			v->cf[ncf] = (ka_coder_finding){x->rule,
							x->message,
							NULL,
							0,
							0,
							kn && *kn ? kn : NULL,
							v->ev[ncf][0] ? v->ev[ncf] : NULL};
		}
	}
	v->ncf = ncf;
}

/* Write slot i's candidate while the round is being filled; an error
 * stops the round after the slots before it (*nkeep, emsg). */
static int write_slot(ka_opt_loop *L, slot *S, int i, int *nkeep, char *emsg, size_t cap)
{
	slot *x = &S[i];
	double t0 = mono_s();
	int rc = prepare(L, x, !strcmp(x->c.recipe->name, "skill") ? "-skill" : "");
	x->st.seconds += mono_s() - t0;
	x->written = 1;
	if (rc != KA_OK) {
		*nkeep = i;
		snprintf(emsg, cap, "%s", ka_error_last());
	}
	return rc;
}

/* After a round's steps are recorded: the runner-up the loop keeps.  An
 * accepted step from it makes it the new best's input (no longer kept);
 * any other moves the kept one's ratio to the new best, and drops it
 * below KA_OPT_KEEP_RATIO.  Then each verified candidate not accepted that
 * grew on another branch (a tuning set on the best's input, a recipe on
 * the baseline, a sequence on the runner-up) and opened recipes of its
 * own may replace it (ka_opt_keep_runner_up). */
static int keep_runner_up(ka_opt_loop *L, slot *S, int n, int chosen)
{
	double g = chosen >= 0 ? S[chosen].res.geomean : 1.0;
	if (chosen >= 0 && L->kept && (S[chosen].c.on_kept || (L->kept_ratio /= g) < KA_OPT_KEEP_RATIO)) {
		free(L->kept);
		L->kept = NULL;
		L->kept_ratio = 0;
	}
	for (int i = 0; i < n; i++) {
		slot *x = &S[i];
		const ka_bench_result *res = &x->res;
		if (i == chosen || x->prc != KA_OK || !(x->c.on_parent || x->c.on_orig || x->c.on_kept) ||
		    (strcmp(res->verdict, "slower") && strcmp(res->verdict, "same") &&
		     strcmp(res->verdict, "faster")) ||
		    res->correct_unseen != res->total_unseen ||
		    !ka_opt_keep_runner_up(res->geomean / g, L->kept_ratio))
			continue;
		char opened[256];
		ka_opt_plan_opened(x->c.recipe->name, x->base, x->rep.source, opened, sizeof opened);
		if (!opened[0])
			continue;
		char *copy = strdup(x->rep.source);
		if (!copy)
			return ka_error_set(KA_ENOMEM, "out of memory");
		free(L->kept);
		L->kept = copy;
		L->kept_ratio = res->geomean / g;
		L->kept_step = x->st.step;
		snprintf(L->kept_recipe, sizeof L->kept_recipe, "%s", x->st.strategy);
		snprintf(L->kept_opened, sizeof L->kept_opened, "%s", opened);
	}
	return KA_OK;
}

/* One round: findings -> plan -> up to `width` candidates (the runner's
 * GPUs, at most `room`, the steps left in --budget), each proposed by the
 * coder (a declined recipe makes room for the next one and is not
 * counted) -> the bench on all of them side by side, each against the
 * current best -> the best verified one accepted -> every candidate
 * recorded as a step, in order.  One GPU: one candidate per round, the
 * loop as it always was.  Several, with the offline coder: the slots
 * speculate on the one-GPU loop: slot 1 is the planner's top candidate,
 * and each next slot what the one-GPU loop would pick next had the slot
 * before it been accepted (its findings and plan on that candidate: a
 * tuning set of its recipe on the kernel it rewrote, or a recipe on its
 * result, a sequence).  A slot that cannot be accepted (declined, an
 * error, known from the DB) leaves the state as it was, as in the one-GPU
 * loop.  *more = 0 when no strategy is left. */
static int one_round(ka_opt_loop *L, int room, int *more)
{
	const ka_bench_runner *rn = L->o->runner ? L->o->runner : ka_bench_runner_local();
	int rc = KA_OK, width = rn->run_many && rn->width > 1 ? rn->width : 1;
	*more = 0;
	if (width > room)
		width = room;
	int llm = !strcmp(ka_coder_name(L->coder), "llm");
	/* an LLM's candidate may need its repair turn before it is one to build
	 * on: with the LLM coder the slots are the ranking's top, all on the best */
	int spec = !llm && width > 1 && !L->o->compile_only; /* compile-only accepts nothing */
	/* the round's kernels: an accepted step replaces L->best and L->parent */
	char *best0 = strdup(L->best), *parent0 = L->parent ? strdup(L->parent) : NULL;
	char *kept0 = L->kept ? strdup(L->kept) : NULL;
	slot *S = calloc(64, sizeof *S);
	view *V = calloc((size_t)width, sizeof *V);
	if (!best0 || !S || !V || (L->parent && !parent0) || (L->kept && !kept0)) {
		free(best0);
		free(parent0);
		free(kept0);
		free(S);
		free(V);
		return ka_error_set(KA_ENOMEM, "out of memory");
	}
	head h = {.best = best0,
		  .parent = parent0,
		  .file = L->best_file,
		  .orig = L->orig,
		  .recipe = L->best_recipe,
		  .params = L->best_params,
		  .rule = L->best_rule,
		  .opened = L->best_opened,
		  .kept = kept0,
		  .kept_opened = L->kept_opened,
		  .best_from = -1,
		  .parent_from = -1};
	int nv = 1;
	view *v = &V[0];
	plan_view(L, &h, v);
	static const char *const skill_grid[] = {"", NULL};
	static const ka_recipe skill_recipe = {.name = "skill", .grid = skill_grid};
	int ns = 0, ncounted = 0, nkeep = -1;
	char emsg[1024] = "";
	L->rounds++;
	while (ncounted < width && L->nkeys < 256 && L->s->nsteps + ns < 64) {
		char key[400];
		slot *x = &S[ns];
		if (L->skill) { /* the stored kernel is the candidate; the bench decides again */
			x->c = (ka_opt_cand){.recipe = &skill_recipe, .params = ""};
			snprintf(key, sizeof key, "skill||");
		} else {
			const ka_opt_cand *c = pick(L, &h, &v->plan, llm, key, sizeof key);
			if (!c)
				break;
			x->c = *c;
		}
		ns++;
		snprintf(L->keys[L->nkeys++], sizeof L->keys[0], "%s", key);
		x->base = x->c.on_orig ? L->orig : x->c.on_parent ? h.parent : x->c.on_kept ? h.kept : h.best;
		x->on = x->c.on_orig || x->c.on_kept ? -1 : x->c.on_parent ? h.parent_from : h.best_from;
		snprintf(x->opened, sizeof x->opened, "%s", h.opened);
		ka_opt_step *st = &x->st;
		st->step = L->s->nsteps + ns;
		st->round = L->rounds;
		st->gpu = -1;
		snprintf(st->rule, sizeof st->rule, "%s", x->c.rule);
		snprintf(st->strategy, sizeof st->strategy, "%s", x->c.recipe->name);
		snprintf(st->params, sizeof st->params, "%s%s%s", llm ? "hint=" : "",
			 llm ? x->c.recipe->name : x->c.params, x->c.on_orig ? " (on the baseline)" : "");
		double t0 = mono_s();
		if (L->skill) {
			x->rep.source = L->skill;
			x->rep.source_len = strlen(L->skill);
			L->skill = NULL;
			ka_utf8_copy(st->params, sizeof st->params, L->skill_summary, (size_t)-1);
			x->prc = KA_OK;
		} else {
			propose(L, x, llm, &v->f, &v->plan, v->cf, v->ncf);
		}
		if (x->on >= 0) { /* a sequence: the slot's strategy after the one it builds on */
			char pre[sizeof st->strategy], own[sizeof st->strategy];
			snprintf(pre, sizeof pre, "%s", S[x->on].st.strategy);
			snprintf(own, sizeof own, "%s", st->strategy);
			snprintf(st->strategy, sizeof st->strategy, "%.60s+%.60s", pre, own);
			st->builds_on = S[x->on].st.step;
		} else if (x->c.on_kept) { /* a sequence on the runner-up of an earlier round */
			char own[sizeof st->strategy];
			snprintf(own, sizeof own, "%s", st->strategy);
			snprintf(st->strategy, sizeof st->strategy, "%.60s+%.60s", L->kept_recipe, own);
			st->builds_on = L->kept_step;
		}
		st->seconds = mono_s() - t0;
		int declined = !strcmp(st->outcome, "declined");
		ncounted += !declined;
		if (!spec || declined || ncounted >= width || x->prc != KA_OK || nv >= width)
			continue;
		/* the next slot: as if this one were accepted (its file is the best's) */
		if ((rc = write_slot(L, S, ns - 1, &nkeep, emsg, sizeof emsg)) != KA_OK)
			break;
		if (!x->bench) /* known: not benched, so never accepted */
			continue;
		slot_opened(x);
		h = (head){.best = x->rep.source,
			   .parent = x->base,
			   .file = x->path,
			   .orig = L->orig,
			   .recipe = x->c.recipe->name,
			   .params = x->c.params,
			   .rule = x->c.rule,
			   .opened = x->opened,
			   .kept = kept0,
			   .kept_opened = L->kept_opened,
			   .best_from = ns - 1,
			   .parent_from = x->on};
		v = &V[nv++];
		plan_view(L, &h, v);
	}
	if (!ns) {
		free(best0);
		free(parent0);
		free(kept0);
		free(S);
		for (int i = 0; i < nv; i++)
			ka_findings_free(&V[i].f);
		free(V);
		return KA_OK;
	}
	*more = 1;
	/* write the candidates; an error stops the round after the steps before it */
	if (nkeep < 0)
		nkeep = ns;
	for (int i = 0; i < nkeep && rc == KA_OK; i++)
		if (S[i].prc == KA_OK && !S[i].written)
			rc = write_slot(L, S, i, &nkeep, emsg, sizeof emsg);
	verify_all(L, S, nkeep);
	/* an LLM candidate that does not compile gets one repair turn */
	int nrep = 0;
	for (int i = 0; llm && rc == KA_OK && i < nkeep; i++) {
		slot *x = &S[i];
		if (x->prc != KA_OK || strcmp(x->st.outcome, "compile_error"))
			continue;
		ka_coder_reply fix;
		char err[600];
		double t0 = mono_s();
		ka_utf8_copy(err, sizeof err, x->res.reason, (size_t)-1);
		ka_bench_result_free(&x->res);
		memset(&x->res, 0, sizeof x->res);
		if (ka_coder_repair(L->coder, &x->req, x->rep.source, x->rep.source_len, err, &fix) ==
		    KA_OK) {
			x->st.repaired = 1;
			ka_coder_reply_clear(&x->rep);
			x->rep = fix;
			rc = prepare(L, x, "-repair");
			nrep += rc == KA_OK;
			if (rc != KA_OK) {
				nkeep = i;
				snprintf(emsg, sizeof emsg, "%s", ka_error_last());
			}
		}
		x->st.seconds += mono_s() - t0;
	}
	if (nrep)
		verify_all(L, S, nkeep);
	/* the best verified candidate of the round is the one accepted */
	int chosen = -1;
	for (int i = 0; i < nkeep; i++)
		if (acceptable(L, &S[i]) && (chosen < 0 || S[i].res.geomean > S[chosen].res.geomean))
			chosen = i;
	int rrc = KA_OK;
	for (int i = 0; i < nkeep && rrc == KA_OK; i++) {
		slot *x = &S[i];
		ka_opt_step *st = &L->s->steps[L->s->nsteps];
		*st = x->st;
		st->total = L->s->speedup;
		rrc = record(L, x, st, i == chosen);
		if (rrc == KA_OK && x->prc == KA_OK) /* the round's base: the parent of the new best */
			ka_opt_distill(L, &x->c, st, &x->res, x->base, &x->rep);
	}
	if (rrc == KA_OK)
		rrc = keep_runner_up(L, S, nkeep, chosen);
	for (int i = 0; i < ns; i++) {
		ka_coder_reply_clear(&S[i].rep);
		ka_bench_result_free(&S[i].res);
	}
	free(S);
	free(best0);
	free(parent0);
	free(kept0);
	for (int i = 0; i < nv; i++)
		ka_findings_free(&V[i].f);
	free(V);
	if (rc != KA_OK) /* the error that stopped the round, not a later message */
		return ka_error_set(rc, "%s", emsg);
	return rrc;
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
		rc = one_round(&L, budget - used, &more);
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
	free(L.kept);
	free(L.skill);
	return rc;
}
