/* lint/run.c: one file's analysis in a lint run.
 *
 * Each job is one file: a fresh facts database (ka_facts_open), the
 * analyzer (ka_analyze_file), the rules (ka_rules_eval), the fixes.  It
 * runs in a worker process of its own (worker.c), -j N at a time, and
 * writes only into its own job, so the merge in file order makes the
 * output identical to -j 1.  The job's status says how far the file was
 * analyzed: in full; partial, with clang's errors or an analysis limit
 * (the findings of what was analyzed are kept; clang's errors are not
 * findings); failed, when it did not parse or could not be read. */
#include "lint/lint_int.h"
#include "analyzer/analyzer.h"
#include "rules/engine.h"
#include "rules/report.h"
#include "rewriter/rewriter.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct pool {
	const ka_lint_opts *cfg;
	const ka_ruleset *rs;
	const ka_compdb *cdb;
	int collect_fixes;
} pool;

void ka_lint_job_clear(ka_lint_job *j)
{
	ka_findings_free(&j->findings);
	ka_fixset_free(j->fixes);
	j->fixes = NULL;
	for (int i = 0; i < j->nkernels; i++)
		free(j->kernels[i]);
	for (int i = 0; i < j->nlaunched; i++)
		free(j->launched[i]);
	free(j->kernels);
	free(j->launched);
	j->kernels = j->launched = NULL;
	j->nkernels = j->nlaunched = 0;
	free(j->rule_ms);
	j->rule_ms = NULL;
	for (int i = 0; i < j->nincluded; i++)
		free(j->included[i]);
	free(j->included);
	j->included = NULL;
	j->nincluded = 0;
	ka_report_file_clear(&j->st);
}

/* clang's errors and kcheck's own warnings of its analysis limits (a cut
 * expression, a spent budget), in order, into the job's status; they are
 * not findings. */
static int collect_diags(sqlite3 *db, ka_lint_job *j)
{
	sqlite3_stmt *st = NULL;
	int rc = KA_OK;
	if (sqlite3_prepare_v2(db,
			       "SELECT file, line, col, severity <> 'warning', message FROM diag "
			       "WHERE severity IN ('error', 'fatal') OR (severity = 'warning' AND "
			       "(message LIKE 'expression too deep%' OR "
			       "message LIKE 'analysis budget exceeded%')) ORDER BY rowid",
			       -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "facts: %s", sqlite3_errmsg(db));
	while (rc == KA_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *file = (const char *)sqlite3_column_text(st, 0);
		const char *msg = (const char *)sqlite3_column_text(st, 4);
		ka_report_diag *v = realloc(j->st.diags, (j->st.ndiags + 1) * sizeof *v);
		if (!v) {
			rc = ka_error_set(KA_ENOMEM, "out of memory");
			break;
		}
		j->st.diags = v;
		ka_report_diag *d = &v[j->st.ndiags];
		*d = (ka_report_diag){.file = strdup(file ? file : j->file->path),
				      .line = sqlite3_column_int(st, 1),
				      .col = sqlite3_column_int(st, 2),
				      .is_error = sqlite3_column_int(st, 3),
				      .message = strdup(msg ? msg : "clang error")};
		j->st.ndiags++;
		j->st.clang_errors += d->is_error;
		if (!d->file || !d->message)
			rc = ka_error_set(KA_ENOMEM, "out of memory");
	}
	sqlite3_finalize(st);
	if (rc == KA_OK &&
	    sqlite3_prepare_v2(db, "SELECT sum(errors_unlisted) FROM file", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			j->st.clang_errors += sqlite3_column_int(st, 0); /* past the ones listed */
		sqlite3_finalize(st);
	}
	return rc;
}

/* The HIP parse on kcheck's shim headers is a note of the pseudo-rule
 * frontend-shim-headers: the findings may be incomplete, and the user can
 * do something about it (install the ROCm headers). */
static int push_shim_notes(sqlite3 *db, ka_lint_job *j)
{
	sqlite3_stmt *st = NULL;
	int rc = KA_OK;
	if (sqlite3_prepare_v2(
		    db, "SELECT file, line, col, message FROM diag WHERE severity = 'note' ORDER BY rowid",
		    -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "facts: %s", sqlite3_errmsg(db));
	while (rc == KA_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *file = (const char *)sqlite3_column_text(st, 0);
		const char *msg = (const char *)sqlite3_column_text(st, 3);
		ka_finding f = {.line = sqlite3_column_int(st, 1),
				.col = sqlite3_column_int(st, 2),
				.begin_off = -1,
				.end_off = -1,
				.severity = KA_SEV_NOTE};
		f.file = strdup(file ? file : j->file->path);
		f.rule = strdup("frontend-shim-headers");
		f.message = strdup(msg ? msg : "shim headers");
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

/* The job's state and its reason (printf-style; one line). */
static void set_state(ka_lint_job *j, ka_file_state state, const char *fmt, ...) KA_PRINTF(3, 4);
static void set_state(ka_lint_job *j, ka_file_state state, const char *fmt, ...)
{
	ka_buf b;
	va_list ap;
	ka_buf_init(&b, 1 << 16);
	va_start(ap, fmt);
	ka_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	free(j->st.reason);
	j->st.reason = ka_buf_steal(&b);
	j->st.state = state;
	j->failed = state == KA_FILE_FAILED;
}

/* A message without the "PATH: " it starts with (the file is named apart). */
static const char *without_path(const char *msg, const char *path)
{
	size_t n = strlen(path);
	return strncmp(msg, path, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ' ? msg + n + 2 : msg;
}

/* Why the file is not analyzed in full, from its diagnostics: clang's
 * errors first (the first of them named), else the analysis limit met. */
static void status_from_diags(ka_lint_job *j, int parsed)
{
	const ka_report_diag *first = NULL, *limit = NULL;
	for (size_t i = 0; i < j->st.ndiags; i++) {
		const ka_report_diag *d = &j->st.diags[i];
		if (d->is_error && !first)
			first = d;
		if (!d->is_error && !limit)
			limit = d;
	}
	int n = j->st.clang_errors;
	if (!parsed && first)
		set_state(j, KA_FILE_FAILED,
			  "no function analyzed: %d clang error%s; the first: %s:%d:%d: %s", n,
			  n == 1 ? "" : "s", first->file, first->line, first->col, first->message);
	else if (!parsed)
		set_state(j, KA_FILE_FAILED, "%s", without_path(ka_error_last(), j->file->path));
	else if (first)
		set_state(j, KA_FILE_PARTIAL, "%d clang error%s; the first: %s:%d:%d: %s", n,
			  n == 1 ? "" : "s", first->file, first->line, first->col, first->message);
	else if (limit)
		set_state(j, KA_FILE_PARTIAL, "%s", limit->message);
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

static void run_job(void *ctx, ka_lint_job *j)
{
	const pool *p = ctx;
	const ka_lint_opts *c = p->cfg;
	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	sqlite3 *db = NULL;
	int nargs = 0;
	const char **args = file_args(p, j->file, &nargs, &o.directory);
	o.arch = c->arch;
	o.extra_args = args;
	o.n_extra_args = nargs;
	o.cuda_path = c->cuda_path;
	o.force_shim = c->force_shim;
	o.ptxas = c->ptxas;
	memcpy(o.assume_block, c->assume_block, sizeof o.assume_block);
	/* the walk's own budget stops it with partial findings well before the
	 * worker's limits kill it with none */
	o.budget_s = 0.75 * (c->file_timeout_s > 0 ? c->file_timeout_s : KA_LINT_FILE_TIMEOUT_S);
	o.budget_mb = (c->file_memory_mb > 0 ? c->file_memory_mb : KA_LINT_FILE_MEMORY_MB) / 2;
	double t0 = now_ms();
	int rc = ka_facts_open(&db);
	if (rc == KA_OK)
		rc = ka_analyze_file(&o, j->file->path, db);
	double t1 = now_ms();
	j->analyze_ms = t1 - t0;
	if (rc == KA_EPARSE) {
		if (collect_diags(db, j) != KA_OK)
			set_state(j, KA_FILE_FAILED, "%s", ka_error_last());
		else
			status_from_diags(j, 0);
	} else if (rc != KA_OK) {
		set_state(j, KA_FILE_FAILED, "%s", without_path(ka_error_last(), j->file->path));
	} else {
		int erc = collect_diags(db, j);
		collect_included(db, j);
		ka_eval_opts eo = KA_EVAL_OPTS_INIT;
		if (c->stats)
			eo.rule_ms = j->rule_ms = calloc(ka_ruleset_count(p->rs) + 1, sizeof *j->rule_ms);
		if (erc == KA_OK)
			erc = ka_rules_eval(p->rs, db, &eo, &j->findings);
		j->rules_ms = now_ms() - t1;
		if (erc == KA_OK)
			erc = push_shim_notes(db, j);
		if (erc == KA_OK)
			erc = ka_lint_reach_collect(db, j);
		if (erc == KA_OK && p->collect_fixes)
			erc = ka_lint_fix_collect(db, &j->findings, &j->fixes);
		if (erc != KA_OK)
			set_state(j, KA_FILE_FAILED, "%s", ka_error_last());
		else
			status_from_diags(j, 1);
	}
	sqlite3_close(db);
	free(args);
}

void ka_lint_run_jobs(ka_lint *l, ka_lint_job *jobs, int njobs, int collect_fixes)
{
	pool p = {.cfg = &l->o, .rs = l->rs, .cdb = l->cdb, .collect_fixes = collect_fixes};
	ka_lint_workers(l, jobs, njobs, run_job, &p);
}
