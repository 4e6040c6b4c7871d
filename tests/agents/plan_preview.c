/* tests/agents/plan_preview.c: the offline planner's order without a GPU.
 * It reads a bench task's baseline, takes the steps given on the command
 * line as accepted (each a recipe and its parameters, applied the way the
 * optimize loop applies them: the recipe just accepted again is a tuning
 * set on the kernel it rewrote, any other recipe rewrites the best), and
 * after each prints the first N strategies the loop would try next: the
 * plan (findings from the lint pipeline in process, no knowledge DB), with
 * the strategies whose recipe declines on their kernel left out, as the
 * loop leaves them out.
 *
 *     plan_preview [-n N] [-I DIR] [-o FILE] [-s SMS] TASKDIR [RECIPE[:PARAMS]]...
 *
 * PARAMS is one set of the recipe's grid ("block=512 lanes=block"); none:
 * the grid's first.  -I: the folder of ka_task.h (default
 * TASKDIR/../../harness); -o: write the kernel after the last step (the
 * best, the text the next recipe rewrites) to FILE; -s: the GPU's SM count
 * for the row-starved test (ka_opt_row_starved; default 132, as the loop
 * assumes before the bench reports its device).  Prints the task's rows
 * and whether a warp per row starves the GPU, then "after STEPS:" and one line per
 * strategy (rank, recipe, parameters, "tune" for a tuning set).  Exit 0,
 * 1 when a given step declines (its reason on stderr), 2 on a usage or
 * I/O error.  A tool, not a ctest (docs/optimize.md, "Checking the plan
 * without a GPU"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agents/optimize_int.h"
#include "util/error.h"
#include "util/fs.h"

typedef struct state {
	char *best, *parent, *orig;
	char recipe[64], params[96], opened[256];
	int starved; /* ka_opt_row_starved of the task's rows */
} state;

/* The plan for st->best as plan_view (agents/optimize.c) makes it. */
static void make(const state *st, const char *file, const char *inc, ka_opt_plan *plan)
{
	ka_findings f = {0};
	const char *extra[1] = {inc};
	if (ka_fs_write_atomic(file, st->best, strlen(st->best)) != KA_OK ||
	    ka_opt_lint(NULL, file, "sm_90", extra, 1, &f) != KA_OK)
		fprintf(stderr, "plan_preview: warning: no findings: %s\n", ka_error_last());
	ka_opt_make_plan(NULL, "sm_90", &f, st->recipe[0] ? st->recipe : NULL, st->params, plan);
	ka_recipe_set_source_path("kernel.cu");
	ka_opt_plan_sequences(plan, st->best, strlen(st->best));
	ka_opt_plan_follow(plan, st->opened);
	ka_opt_plan_size(plan, st->starved, st->recipe[0] ? st->recipe : NULL, st->params);
	if (strcmp(st->orig, st->best) != 0)
		ka_opt_plan_rebase(plan);
	ka_findings_free(&f);
}

static void show(const state *st, const char *file, const char *inc, int n)
{
	static ka_opt_plan plan;
	make(st, file, inc, &plan);
	const ka_recipe *declined[KA_OPT_MAX_CANDS];
	int nd = 0, k = 0, on_orig[KA_OPT_MAX_CANDS];
	for (int i = 0; i < plan.n && k < n; i++) {
		const ka_opt_cand *c = &plan.c[i];
		const char *base = c->on_orig ? st->orig : c->on_parent ? st->parent : st->best;
		int d = 0;
		while (d < nd && (declined[d] != c->recipe || on_orig[d] != c->on_orig))
			d++;
		if (!base || d < nd)
			continue;
		char *out = NULL, why[256];
		size_t ol;
		int rc = ka_recipe_apply(c->recipe->name, base, strlen(base), NULL, c->params, &out, &ol, why,
					 sizeof why);
		free(out);
		if (rc != KA_OK) { /* the loop marks every set of a declined recipe tried */
			on_orig[nd] = c->on_orig;
			declined[nd++] = c->recipe;
			continue;
		}
		printf("  %d. %s%s%s%s\n", ++k, c->recipe->name, c->params[0] ? " " : "", c->params,
		       c->on_parent ? " (tune)"
		       : c->on_orig ? " (on the baseline)"
				    : "");
	}
}

/* Accept RECIPE[:PARAMS] on the state; 0, or 1 when it declines. */
static int accept(state *st, const char *step)
{
	char name[64], why[256];
	const char *colon = strchr(step, ':');
	snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - step) : (int)strlen(step), step);
	const ka_recipe *r = ka_recipe_find(name);
	if (!r) {
		fprintf(stderr, "plan_preview: no recipe '%s'\n", name);
		return 2;
	}
	const char *params = colon ? colon + 1 : r->grid && r->grid[0] ? r->grid[0] : "";
	int tune = !strcmp(st->recipe, name) && st->parent;
	const char *base = tune ? st->parent : st->best;
	char *out = NULL;
	size_t ol;
	ka_recipe_set_source_path("kernel.cu");
	if (ka_recipe_apply(name, base, strlen(base), NULL, params, &out, &ol, why, sizeof why) != KA_OK) {
		fprintf(stderr, "plan_preview: %s declined: %s\n", step, why);
		free(out);
		return 1;
	}
	if (!tune) { /* a tuning step keeps what its recipe opened */
		ka_opt_plan_opened(name, base, out, st->opened, sizeof st->opened);
		free(st->parent);
		st->parent = st->best;
	} else {
		free(st->best);
	}
	st->best = out;
	snprintf(st->recipe, sizeof st->recipe, "%s", name);
	snprintf(st->params, sizeof st->params, "%s", params);
	return 0;
}

int main(int argc, char **argv)
{
	int n = 6, a = 1, sms = 0;
	const char *incdir = NULL, *outfile = NULL;
	for (; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "-n") && a + 1 < argc)
			n = atoi(argv[++a]);
		else if (!strcmp(argv[a], "-I") && a + 1 < argc)
			incdir = argv[++a];
		else if (!strcmp(argv[a], "-o") && a + 1 < argc)
			outfile = argv[++a];
		else if (!strcmp(argv[a], "-s") && a + 1 < argc)
			sms = atoi(argv[++a]);
		else
			break;
	}
	if (a >= argc || n < 1) {
		fprintf(stderr,
			"usage: plan_preview [-n N] [-I DIR] [-o FILE] [-s SMS] TASKDIR [RECIPE[:PARAMS]]...\n");
		return 2;
	}
	const char *task = argv[a++];
	char path[1200], inc[1300], file[64];
	snprintf(path, sizeof path, "%s/baseline.cu", task);
	if (incdir)
		snprintf(inc, sizeof inc, "-I%s", incdir);
	else
		snprintf(inc, sizeof inc, "-I%s/../../harness", task);
	state st = {0};
	size_t len;
	if (ka_fs_read(path, 16u << 20, &st.best, &len) != KA_OK || !(st.orig = strdup(st.best))) {
		fprintf(stderr, "plan_preview: %s\n", ka_error_last());
		return 2;
	}
	snprintf(file, sizeof file, "/tmp/plan_preview.%ld.cu", (long)getpid());
	int rc = 0;
	static ka_bench_spec spec;
	long long rows = 0;
	ka_recipe_set_source_path("kernel.cu");
	if (ka_bench_spec_load(task, &spec) == KA_OK)
		rows = ka_opt_task_rows(&spec, st.orig, strlen(st.orig));
	else
		fprintf(stderr, "plan_preview: warning: no task spec: %s\n", ka_error_last());
	st.starved = ka_opt_row_starved(rows, sms);
	printf("rows %lld: %s on %d SMs\n", rows, st.starved ? "row-starved" : "not row-starved",
	       sms > 0 ? sms : 132);
	printf("after the baseline:\n");
	show(&st, file, inc, n);
	for (; a < argc && !rc; a++) {
		rc = accept(&st, argv[a]);
		if (!rc) {
			printf("after %s:\n", argv[a]);
			show(&st, file, inc, n);
		}
	}
	unlink(file);
	if (!rc && outfile && ka_fs_write_atomic(outfile, st.best, strlen(st.best)) != KA_OK) {
		fprintf(stderr, "plan_preview: %s\n", ka_error_last());
		rc = 2;
	}
	free(st.best);
	free(st.parent);
	free(st.orig);
	return rc;
}
