/* knowledge/knowledge_store.c: skills (verified kernels) and trajectories
 * (every step of every optimize run) in the knowledge DB.
 *
 * A skill is keyed by (task, SHA-256 of its source): the same kernel found
 * again keeps the better speedup.  A trajectory step is keyed by (run id,
 * step); the loop asks ka_kdb_failed_before() so that a strategy that
 * failed is not retried with the same parameters.
 */
#include "knowledge/knowledge_int.h"
#include "util/sha256.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kdb_put_skill(ka_kdb *k, const ka_kdb_skill *s, char hash[65])
{
	sqlite3_stmt *st = NULL;
	if (!s->task || !*s->task || !s->source || !*s->source)
		return ka_error_set(KA_EINPUT, "skill: a task and a source are required");
	if (!isfinite(s->speedup) || s->speedup < 0)
		return ka_error_set(KA_EINPUT, "skill for %s: bad speedup %g", s->task, s->speedup);
	ka_sha256_of(s->source, strlen(s->source), hash);
	int rc = kdb_prepare(k,
			     "INSERT INTO skills(hash, task, source, speedup, at, arch, summary, rules)"
			     " VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(task, hash) DO UPDATE SET"
			     " speedup = excluded.speedup, at = excluded.at, arch = excluded.arch,"
			     " summary = coalesce(excluded.summary, skills.summary),"
			     " rules = coalesce(excluded.rules, skills.rules)"
			     " WHERE coalesce(skills.speedup, 0) < coalesce(excluded.speedup, 0)",
			     &st);
	if (rc == KA_OK) {
		kdb_bind_text(st, 1, hash);
		kdb_bind_text(st, 2, s->task);
		kdb_bind_text(st, 3, s->source);
		kdb_bind_real0(st, 4, s->speedup);
		sqlite3_bind_int64(st, 5, s->when ? s->when : kdb_now());
		kdb_bind_text(st, 6, s->arch);
		kdb_bind_text(st, 7, s->summary);
		kdb_bind_text(st, 8, s->rules);
		rc = kdb_step_done(k, st, "cannot write a skill");
	}
	sqlite3_finalize(st);
	return rc;
}

int ka_kdb_add_skill(ka_kdb *k, const ka_kdb_skill *s, char hash_out[65])
{
	char hash[65];
	int rc = kdb_begin(k);
	if (rc == KA_OK)
		rc = kdb_put_skill(k, s, hash);
	if (rc == KA_OK && hash_out)
		memcpy(hash_out, hash, sizeof hash);
	return rc == KA_OK ? kdb_commit(k) : (kdb_rollback(k), rc);
}

static char *dup_col(sqlite3_stmt *st, int i)
{
	const char *t = (const char *)sqlite3_column_text(st, i);
	return t ? strdup(t) : NULL;
}

int ka_kdb_best_skill(ka_kdb *k, const char *task, const char *arch, char **source, char **summary,
		      double *speedup)
{
	sqlite3_stmt *st = NULL;
	*source = NULL;
	if (summary)
		*summary = NULL;
	int rc = kdb_prepare(k,
			     "SELECT source, summary, coalesce(speedup, 0) FROM skills"
			     " WHERE task = ?1 AND (?2 IS NULL OR arch = ?2)"
			     " ORDER BY coalesce(speedup, 0) DESC, at, hash LIMIT 1",
			     &st);
	if (rc != KA_OK)
		return rc;
	kdb_bind_text(st, 1, task);
	kdb_bind_text(st, 2, arch);
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		*source = dup_col(st, 0);
		if (summary)
			*summary = dup_col(st, 1);
		if (speedup)
			*speedup = sqlite3_column_double(st, 2);
		if (!*source)
			rc = ka_error_set(KA_ENOMEM, "out of memory");
	} else {
		rc = s == SQLITE_DONE ? ka_error_set(KA_ENOTFOUND, "no skill for task '%s'", task)
				      : kdb_fail(k, "cannot read skills");
	}
	sqlite3_finalize(st);
	return rc;
}

static int outcome_valid(const char *o)
{
	static const char *const ok[] = {"compile_error", "incorrect", "slower", "same",  "faster",
					 "unverified",    "declined",  "known",  "error", NULL};
	for (int i = 0; o && ok[i]; i++)
		if (!strcmp(o, ok[i]))
			return 1;
	return 0;
}

int ka_kdb_add_step(ka_kdb *k, const ka_kdb_step *s)
{
	sqlite3_stmt *st = NULL;
	char err[1025];
	if (!s->run_id || !*s->run_id || s->step < 1)
		return ka_error_set(KA_EINPUT, "trajectory: a run id and a step number from 1 are required");
	if (s->outcome && !outcome_valid(s->outcome))
		return ka_error_set(KA_EINPUT,
				    "trajectory: unknown outcome '%s' (compile_error, incorrect, "
				    "slower, same, faster, unverified, declined, known, error)",
				    s->outcome);
	if (s->error)
		snprintf(err, sizeof err, "%s", s->error); /* the first KiB says what broke */
	int rc = kdb_begin(k);
	if (rc == KA_OK)
		rc = kdb_prepare(k,
				 "INSERT INTO trajectory(run_id, step, task, role, strategy, params,"
				 " candidate_hash, outcome, speedup, ci_low, ci_high, error, at, arch)"
				 " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
				 &st);
	if (rc == KA_OK) {
		kdb_bind_text(st, 1, s->run_id);
		sqlite3_bind_int(st, 2, s->step);
		kdb_bind_text(st, 3, s->task);
		kdb_bind_text(st, 4, s->role);
		kdb_bind_text(st, 5, s->strategy);
		kdb_bind_text(st, 6, s->params);
		kdb_bind_text(st, 7, s->candidate_hash);
		kdb_bind_text(st, 8, s->outcome);
		kdb_bind_real0(st, 9, s->speedup);
		kdb_bind_real0(st, 10, s->ci_low);
		kdb_bind_real0(st, 11, s->ci_high);
		kdb_bind_text(st, 12, s->error ? err : NULL);
		sqlite3_bind_int64(st, 13, s->when ? s->when : kdb_now());
		kdb_bind_text(st, 14, s->arch);
		int r = sqlite3_step(st);
		if (r == SQLITE_CONSTRAINT)
			rc = ka_error_set(KA_EINPUT, "trajectory %s: step %d is recorded already", s->run_id,
					  s->step);
		else if (r != SQLITE_DONE)
			rc = kdb_fail(k, "cannot write a trajectory step");
	}
	sqlite3_finalize(st);
	return rc == KA_OK ? kdb_commit(k) : (kdb_rollback(k), rc);
}

int ka_kdb_failed_before(ka_kdb *k, const char *run_id, const char *strategy, const char *params)
{
	sqlite3_stmt *st = NULL;
	int rc = kdb_prepare(k,
			     "SELECT count(*) FROM trajectory WHERE run_id = ?1 AND strategy = ?2"
			     " AND coalesce(params, '') = coalesce(?3, '')"
			     " AND outcome NOT IN ('faster', 'unverified')",
			     &st);
	if (rc != KA_OK)
		return rc;
	kdb_bind_text(st, 1, run_id);
	kdb_bind_text(st, 2, strategy);
	kdb_bind_text(st, 3, params);
	if (sqlite3_step(st) == SQLITE_ROW)
		rc = sqlite3_column_int(st, 0) > 0;
	else
		rc = kdb_fail(k, "cannot read the trajectory");
	sqlite3_finalize(st);
	return rc;
}

int ka_kdb_measured_before(ka_kdb *k, const char *task, const char *arch, const char *kernel_hash,
			   char *verdict, size_t cap, double *speedup, double *ci_low, double *ci_high)
{
	sqlite3_stmt *st = NULL;
	if (!task || !arch || !kernel_hash)
		return 0;
	int rc = kdb_prepare(k,
			     "SELECT outcome, coalesce(speedup, 0), coalesce(ci_low, 0), coalesce(ci_high, 0)"
			     " FROM trajectory WHERE task = ?1 AND arch = ?2 AND candidate_hash = ?3"
			     " AND outcome IN ('same', 'slower', 'incorrect') ORDER BY at DESC LIMIT 1",
			     &st);
	if (rc != KA_OK)
		return rc;
	kdb_bind_text(st, 1, task);
	kdb_bind_text(st, 2, arch);
	kdb_bind_text(st, 3, kernel_hash);
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		if (verdict && cap)
			snprintf(verdict, cap, "%s", (const char *)sqlite3_column_text(st, 0));
		if (speedup)
			*speedup = sqlite3_column_double(st, 1);
		if (ci_low)
			*ci_low = sqlite3_column_double(st, 2);
		if (ci_high)
			*ci_high = sqlite3_column_double(st, 3);
		rc = 1;
	} else if (s == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = kdb_fail(k, "cannot read the trajectory");
	}
	sqlite3_finalize(st);
	return rc;
}
