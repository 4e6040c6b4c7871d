/* lint/run.c: the analysis workers of a lint run.
 *
 * Each job is one file: a fresh facts database (ka_facts_open), the
 * analyzer (ka_analyze_file), the rules (ka_rules_eval).  Workers take the
 * next job under a mutex and write only into their own job, so -j N needs
 * no other locking and the merge in file order makes the output identical
 * to -j 1.  A file that does not parse is reported with clang's
 * diagnostics and the run goes on with the others. */
#include "lint/lint_int.h"
#include "analyzer/analyzer.h"
#include "rules/engine.h"
#include "rules/report.h"
#include "rewriter/rewriter.h"
#include <pthread.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

typedef struct pool {
	const ka_lint_opts *cfg;
	const ka_ruleset *rs;
	const ka_compdb *cdb;
	int collect_fixes;
	ka_lint_job *jobs;
	int njobs, next;
	pthread_mutex_t mu;
} pool;

void ka_lint_job_clear(ka_lint_job *j)
{
	ka_findings_free(&j->findings);
	ka_fixset_free(j->fixes);
	j->fixes = NULL;
	free(j->diags);
	free(j->rule_ms);
	j->rule_ms = NULL;
	for (int i = 0; i < j->nincluded; i++)
		free(j->included[i]);
	free(j->included);
	j->diags = NULL;
	j->included = NULL;
	j->nincluded = 0;
}

/* clang's errors for this file, as a compiler prints them. */
static void collect_diags(sqlite3 *db, ka_lint_job *j, ka_buf *out)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db,
			       "SELECT file, line, col, severity, message FROM diag "
			       "WHERE severity IN ('error', 'fatal') ORDER BY rowid",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *file = (const char *)sqlite3_column_text(st, 0);
		ka_report_escape(out, file ? file : j->file->path); /* names from the repository */
		ka_buf_printf(out, ":%d:%d: error: ", sqlite3_column_int(st, 1), sqlite3_column_int(st, 2));
		ka_report_escape(out, (const char *)sqlite3_column_text(st, 4));
		ka_buf_addc(out, '\n');
	}
	sqlite3_finalize(st);
}

/* kcheck's own warnings (analysis limits: a cut expression, a spent
 * budget): the file's findings are partial, and the user must know. */
static void collect_limits(sqlite3 *db, ka_lint_job *j, ka_buf *out)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db,
			       "SELECT file, line, col, message FROM diag WHERE severity = 'warning'"
			       " AND (message LIKE 'expression too deep%' OR"
			       " message LIKE 'analysis budget exceeded%') ORDER BY rowid",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *file = (const char *)sqlite3_column_text(st, 0);
		ka_buf_printf(out, "%s:%d:%d: warning: %s\n", file ? file : j->file->path,
			      sqlite3_column_int(st, 1), sqlite3_column_int(st, 2),
			      (const char *)sqlite3_column_text(st, 3));
	}
	sqlite3_finalize(st);
}

/* A file analyzed in part: clang's errors become findings of the pseudo-rule
 * clang-diagnostic-error (clang-tidy's name), so text, JSON and SARIF show
 * them with their locations; a HIP parse on the shim headers is a note of
 * frontend-shim-headers. */
static int push_diag_findings(sqlite3 *db, ka_lint_job *j)
{
	sqlite3_stmt *st = NULL;
	int rc = KA_OK;
	if (sqlite3_prepare_v2(db,
			       "SELECT file, line, col, message, severity = 'note' FROM diag "
			       "WHERE severity IN ('error', 'fatal', 'note') ORDER BY rowid",
			       -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "facts: %s", sqlite3_errmsg(db));
	while (rc == KA_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *file = (const char *)sqlite3_column_text(st, 0);
		const char *msg = (const char *)sqlite3_column_text(st, 3);
		int note = sqlite3_column_int(st, 4); /* kcheck's own: the HIP shim fallback */
		ka_finding f = {.line = sqlite3_column_int(st, 1),
				.col = sqlite3_column_int(st, 2),
				.begin_off = -1,
				.end_off = -1,
				.severity = note ? KA_SEV_NOTE : KA_SEV_ERROR};
		f.file = strdup(file ? file : j->file->path);
		f.rule = strdup(note ? "frontend-shim-headers" : "clang-diagnostic-error");
		f.message = strdup(msg ? msg : "clang error");
		f.scope = strdup("diag");
		if (!f.file || !f.rule || !f.message || !f.scope ||
		    ka_findings_push(&j->findings, &f) != KA_OK) {
			ka_finding_clear(&f);
			rc = ka_error_set(KA_ENOMEM, "out of memory");
		}
	}
	sqlite3_finalize(st);
	return rc;
}

static void collect_included(sqlite3 *db, ka_lint_job *j)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, "SELECT path FROM file WHERE is_main = 0", -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(st, 0);
		char *real = p ? realpath(p, NULL) : NULL;
		char **nv = real ? realloc(j->included, (size_t)(j->nincluded + 1) * sizeof *nv) : NULL;
		if (!nv) {
			free(real);
			continue;
		}
		j->included = nv;
		j->included[j->nincluded++] = real;
	}
	sqlite3_finalize(st);
}

/* The analyzer's flags for a file: its compile-database entry, then the
 * flags after `--`. */
static const char **file_args(const pool *p, const ka_lint_file *f, int *n, const char **dir)
{
	const char **cargs = NULL;
	int ncargs = 0;
	*dir = NULL;
	if (p->cdb)
		ka_compdb_lookup(p->cdb, f->real, &cargs, &ncargs, dir);
	const char **v = malloc((size_t)(ncargs + p->cfg->nextra + 1) * sizeof *v);
	if (!v)
		return NULL;
	*n = 0;
	for (int i = 0; i < ncargs; i++)
		v[(*n)++] = cargs[i];
	for (int i = 0; i < p->cfg->nextra; i++)
		v[(*n)++] = p->cfg->extra[i];
	return v;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void run_job(pool *p, ka_lint_job *j)
{
	const ka_lint_opts *c = p->cfg;
	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	sqlite3 *db = NULL;
	ka_buf diags;
	int nargs = 0;
	const char **args = file_args(p, j->file, &nargs, &o.directory);
	ka_buf_init(&diags, 1 << 20);
	o.arch = c->arch;
	o.extra_args = args;
	o.n_extra_args = nargs;
	o.cuda_path = c->cuda_path;
	o.force_shim = c->force_shim;
	o.ptxas = c->ptxas;
	memcpy(o.assume_block, c->assume_block, sizeof o.assume_block);
	double t0 = now_ms();
	int rc = ka_facts_open(&db);
	if (rc == KA_OK)
		rc = ka_analyze_file(&o, j->file->path, db);
	double t1 = now_ms();
	j->analyze_ms = t1 - t0;
	if (rc == KA_EPARSE) {
		collect_diags(db, j, &diags);
		if (!diags.len)
			ka_buf_printf(&diags, "%s: error: %s\n", j->file->path, ka_error_last());
		j->failed = 1;
	} else if (rc != KA_OK) {
		ka_buf_printf(&diags, "kcheck: error: %s\n", ka_error_last());
		j->failed = 1;
	} else {
		collect_limits(db, j, &diags);
		collect_included(db, j);
		ka_eval_opts eo = KA_EVAL_OPTS_INIT;
		if (c->stats)
			eo.rule_ms = j->rule_ms = calloc(ka_ruleset_count(p->rs) + 1, sizeof *j->rule_ms);
		int erc = ka_rules_eval(p->rs, db, &eo, &j->findings);
		j->rules_ms = now_ms() - t1;
		if (erc == KA_OK)
			erc = push_diag_findings(db, j);
		if (erc != KA_OK ||
		    (p->collect_fixes && ka_lint_fix_collect(db, &j->findings, &j->fixes) != KA_OK)) {
			ka_buf_printf(&diags, "kcheck: error: %s\n", ka_error_last());
			j->failed = 1;
		}
	}
	j->diags = ka_buf_steal(&diags);
	ka_buf_free(&diags);
	sqlite3_close(db);
	free(args);
}

static void *worker(void *arg)
{
	pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		int i = p->next < p->njobs ? p->next++ : -1;
		pthread_mutex_unlock(&p->mu);
		if (i < 0)
			break;
		run_job(p, &p->jobs[i]);
	}
	return NULL;
}

void ka_lint_run_jobs(ka_lint *l, ka_lint_job *jobs, int njobs, int collect_fixes)
{
	pool p = {.cfg = &l->o,
		  .rs = l->rs,
		  .cdb = l->cdb,
		  .jobs = jobs,
		  .njobs = njobs,
		  .collect_fixes = collect_fixes};
	const ka_lint_opts *cfg = &l->o;
	int nthreads = cfg->jobs < njobs ? cfg->jobs : njobs;
	pthread_t tids[256];
	int started = 0;
	pthread_mutex_init(&p.mu, NULL);
	if (nthreads <= 1) {
		worker(&p);
	} else {
		for (int i = 0; i < nthreads && i < 256; i++)
			if (pthread_create(&tids[i], NULL, worker, &p) == 0)
				started++;
		if (!started)
			worker(&p); /* no threads to be had: do it here */
		for (int i = 0; i < started; i++)
			pthread_join(tids[i], NULL);
	}
	pthread_mutex_destroy(&p.mu);
}
