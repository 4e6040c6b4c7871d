/* lint/reach.c: which kernels the analysed files launch, across the run.
 *
 * Each job (one translation unit) reports the kernels its file defines
 * and the names it may launch; the run joins them.  A kernel that no job
 * launches, while the jobs do launch another kernel defined in the same
 * file, is code the program does not run: the backward kernels of an
 * inference plugin, a variant nothing selects any more.  Its performance
 * findings cost nothing as the code stands, so they are at most notes and
 * say why (correctness findings keep their severity: the code is still
 * wrong if someone launches it).  The test is conservative: a name counts
 * as launched when a launch names it, when a host or device call names it
 * among its arguments (`cudaFuncSetAttribute(k, ...)`, an occupancy query,
 * a graph node), and every kernel of a translation unit counts when its
 * host code is not all there (a function that clang errors kept from being
 * analyzed) or a launch goes through a pointer the analyzer did not
 * resolve. */
#include "lint/lint_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int push(char ***v, int *n, const char *s)
{
	char **nv = realloc(*v, (size_t)(*n + 1) * sizeof **v);
	if (!nv)
		return ka_error_set(KA_ENOMEM, "out of memory");
	*v = nv;
	if (!(nv[*n] = strdup(s)))
		return ka_error_set(KA_ENOMEM, "out of memory");
	(*n)++;
	return KA_OK;
}

/* The rows of sql (one text column each) pushed onto v. */
static int collect(sqlite3 *db, const char *sql, char ***v, int *n)
{
	sqlite3_stmt *st = NULL;
	int rc = KA_OK;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "facts: %s (reach)", sqlite3_errmsg(db));
	while (rc == KA_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);
		if (s)
			rc = push(v, n, s);
	}
	sqlite3_finalize(st);
	return rc;
}

int ka_lint_reach_collect(sqlite3 *db, ka_lint_job *j)
{
	sqlite3_stmt *st = NULL;
	int rc = KA_OK;
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT name, file FROM kernel WHERE kind = 'global' AND body_begin_off IS NOT NULL "
		    "GROUP BY name, file",
		    -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "facts: %s (reach)", sqlite3_errmsg(db));
	while (rc == KA_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *file = (const char *)sqlite3_column_text(st, 1);
		char *real = file ? realpath(file, NULL) : NULL;
		char buf[4096];
		if (name && (real || file)) {
			snprintf(buf, sizeof buf, "%s\t%s", name, real ? real : file);
			rc = push(&j->kernels, &j->nkernels, buf);
		}
		free(real);
	}
	sqlite3_finalize(st);
	if (rc != KA_OK)
		return rc;
	/* host code not all there (a function that a clang error kept from
	 * being analyzed: every lost function has a listed error that names
	 * it), or a launch whose kernel is no kernel of the file: any of them
	 * may be launched.  Errors outside every function (a missing header,
	 * an unknown type in a class's declaration) lose no launch. */
	int all = 0;
	st = NULL; /* the statement above is finalized */
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT EXISTS (SELECT 1 FROM diag WHERE severity IN ('error', 'fatal') AND func IS NOT NULL)"
		    " OR EXISTS (SELECT 1 FROM launch l WHERE l.kernel_id IS NULL AND NOT EXISTS "
		    "(SELECT 1 FROM kernel k WHERE k.name = l.kernel))",
		    -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		all = 1;
	else
		all = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (all)
		return collect(db, "SELECT DISTINCT name FROM kernel WHERE kind = 'global'", &j->launched,
			       &j->nlaunched);
	return collect(
		db,
		"SELECT COALESCE(k.name, l.kernel) FROM launch l LEFT JOIN kernel k ON k.id = l.kernel_id "
		"UNION SELECT k.name FROM kernel k WHERE k.kind = 'global' AND EXISTS (SELECT 1 FROM "
		"call c WHERE c.callee = k.name OR instr(COALESCE(c.args_text, ''), k.name) > 0)",
		&j->launched, &j->nlaunched);
}

static int launched(const ka_lint_job *jobs, int njobs, const char *name)
{
	for (int i = 0; i < njobs; i++)
		for (int k = 0; k < jobs[i].nlaunched; k++)
			if (strcmp(jobs[i].launched[k], name) == 0)
				return 1;
	return 0;
}

/* The file (real path) that defines kernel `name`, or NULL when no job
 * saw one, or two files define kernels of that name. */
static const char *defined_in(const ka_lint_job *jobs, int njobs, const char *name)
{
	const char *file = NULL;
	size_t len = strlen(name);
	for (int i = 0; i < njobs; i++)
		for (int k = 0; k < jobs[i].nkernels; k++) {
			const char *e = jobs[i].kernels[k];
			if (strncmp(e, name, len) != 0 || e[len] != '\t')
				continue;
			if (file && strcmp(file, e + len + 1) != 0)
				return NULL;
			file = e + len + 1;
		}
	return file;
}

/* A kernel defined in `file` that some job launches (its name), or NULL. */
static const char *launched_beside(const ka_lint_job *jobs, int njobs, const char *file)
{
	size_t fl = strlen(file);
	for (int i = 0; i < njobs; i++)
		for (int k = 0; k < jobs[i].nkernels; k++) {
			const char *e = jobs[i].kernels[k];
			const char *tab = strchr(e, '\t');
			if (!tab || strlen(tab + 1) != fl || strcmp(tab + 1, file) != 0)
				continue;
			char name[512];
			size_t nl = (size_t)(tab - e);
			if (nl >= sizeof name)
				continue;
			memcpy(name, e, nl);
			name[nl] = 0;
			if (launched(jobs, njobs, name))
				return jobs[i].kernels[k];
		}
	return NULL;
}

/* Whether kernel `name` is one that no job launches beside a launched one
 * of its file; *other gets that one ("name\tfile"). */
static int unlaunched(const ka_lint_job *jobs, int njobs, const char *name, const char **other)
{
	if (!name || launched(jobs, njobs, name))
		return 0;
	const char *file = defined_in(jobs, njobs, name);
	if (!file)
		return 0;
	*other = launched_beside(jobs, njobs, file);
	return *other != NULL;
}

void ka_lint_reach_apply(const ka_lint *l, const ka_lint_job *jobs, int njobs, ka_findings *all)
{
	for (size_t i = 0; i < all->n; i++) {
		ka_finding *f = &all->v[i];
		if (f->severity <= KA_SEV_NOTE || f->cold || !f->kernel)
			continue;
		const ka_rule *r = ka_ruleset_find(l->rs, f->rule);
		if (!r || r->cat == KA_CAT_CORRECTNESS)
			continue;
		const char *other = NULL;
		int cold = unlaunched(jobs, njobs, f->kernel, &other);
		for (size_t k = 0; cold && k < f->nalso; k++) {
			const char *o2 = NULL;
			cold = unlaunched(jobs, njobs, f->also[k], &o2);
		}
		if (!cold)
			continue;
		const char *tab = strchr(other, '\t');
		ka_buf b;
		ka_buf_init(&b, 1 << 20);
		if (ka_buf_printf(
			    &b,
			    "%s [cold: none of the analysed files launches %s; they launch %.*s, defined in the same file]",
			    f->message, f->kernel, (int)(tab ? tab - other : (long)strlen(other)),
			    other) == KA_OK &&
		    b.data) {
			free(f->message);
			f->message = ka_buf_steal(&b);
			f->severity = KA_SEV_NOTE;
			f->cold = 1;
		}
		ka_buf_free(&b);
	}
}
