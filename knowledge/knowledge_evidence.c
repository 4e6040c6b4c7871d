/* knowledge/knowledge_evidence.c: evidence rows and a rule's standing.
 *
 * Evidence is what the bench measured when a rule's fix (or a recipe the
 * rule called for) was applied: the paired speedup, its confidence
 * interval and the verdict.  The standing of a rule on an architecture is
 * computed from those rows each time it is asked for, never stored, so it
 * cannot drift from the evidence:
 *   posterior = mean of Beta(1 + wins, 1 + failures)
 *             = (wins + 1) / (wins + failures + 2)
 * where a win is the verdict `faster` and a failure one of `same`,
 * `slower`, `rejected` (a candidate that did not build says nothing about
 * the rule, only about the coder, and is counted apart).
 */
#include "knowledge/knowledge_int.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int verdict_valid(const char *v)
{
	static const char *const ok[] = {"faster", "same", "slower", "rejected", "error", NULL};
	for (int i = 0; v && ok[i]; i++)
		if (!strcmp(v, ok[i]))
			return 1;
	return 0;
}

static int check_evidence(const ka_kdb_evidence *e)
{
	if (!e->rule || !*e->rule)
		return ka_error_set(KA_EINPUT, "evidence: no rule id");
	if (!e->arch || !*e->arch)
		return ka_error_set(KA_EINPUT, "evidence for %s: no arch", e->rule);
	if (!verdict_valid(e->verdict))
		return ka_error_set(KA_EINPUT,
				    "evidence for %s: unknown verdict '%s' (faster, same, slower, "
				    "rejected, error)",
				    e->rule, e->verdict ? e->verdict : "");
	if (!isfinite(e->speedup) || e->speedup < 0 || !isfinite(e->ci_low) || !isfinite(e->ci_high) ||
	    e->ci_low < 0 || e->ci_high < 0 || (e->ci_low > 0 && e->ci_high > 0 && e->ci_low > e->ci_high))
		return ka_error_set(KA_EINPUT, "evidence for %s: bad speedup %g [%g, %g]", e->rule,
				    e->speedup, e->ci_low, e->ci_high);
	if (!strcmp(e->verdict, "faster") && !(e->speedup > 0))
		return ka_error_set(KA_EINPUT, "evidence for %s: verdict faster without a speedup", e->rule);
	return KA_OK;
}

/* The columns that make two evidence rows the same row. */
#define SEEN_COLS "rule, arch, verdict, at, speedup, fix, task, kernel_hash"

int kdb_seen_begin(ka_kdb *k)
{
	if (sqlite3_exec(k->db,
			 "DROP TABLE IF EXISTS temp.kdb_seen;"
			 "CREATE TEMP TABLE kdb_seen(" SEEN_COLS ");"
			 "CREATE INDEX temp.kdb_seen_all ON kdb_seen(" SEEN_COLS ");"
			 "INSERT INTO temp.kdb_seen SELECT " SEEN_COLS " FROM main.evidence",
			 NULL, NULL, NULL) != SQLITE_OK)
		return kdb_fail(k, "cannot index the evidence for an import");
	return KA_OK;
}

void kdb_seen_end(ka_kdb *k)
{
	sqlite3_exec(k->db, "DROP TABLE IF EXISTS temp.kdb_seen", NULL, NULL, NULL);
}

/* 1 when the same row is there already (an import seen twice), else 0 and
 * the row is noted: one index lookup in temp.kdb_seen (kdb_seen_begin), so
 * an import stays linear however many rows one rule has. */
static int is_dup(ka_kdb *k, const ka_kdb_evidence *e)
{
	static const char *const sql[2] = {
		"SELECT 1 FROM temp.kdb_seen WHERE rule = ?1 AND arch = ?2 AND verdict = ?3 AND at = ?4"
		" AND speedup IS ?5 AND fix IS ?6 AND task IS ?7 AND kernel_hash IS ?8",
		"INSERT INTO temp.kdb_seen(" SEEN_COLS ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"};
	int rc = KA_OK;
	for (int i = 0; i < 2 && rc == KA_OK; i++) {
		sqlite3_stmt *st = NULL;
		if ((rc = kdb_cached(k, i ? KDB_ST_SEEN_PUT : KDB_ST_SEEN_GET, sql[i], &st)) != KA_OK)
			return rc;
		kdb_bind_text(st, 1, e->rule);
		kdb_bind_text(st, 2, e->arch);
		kdb_bind_text(st, 3, e->verdict);
		sqlite3_bind_int64(st, 4, e->when);
		kdb_bind_real0(st, 5, e->speedup);
		kdb_bind_text(st, 6, e->fix);
		kdb_bind_text(st, 7, e->task);
		kdb_bind_text(st, 8, e->kernel_hash);
		int s = sqlite3_step(st);
		if (i == 0 && s == SQLITE_ROW)
			rc = 1;
		else if (s != SQLITE_DONE)
			rc = kdb_fail(k, "cannot read evidence");
		sqlite3_reset(st);
	}
	return rc;
}

int kdb_insert_evidence(ka_kdb *k, const ka_kdb_evidence *e, int skip_dup, long long *id_out)
{
	sqlite3_stmt *st = NULL;
	int rc = check_evidence(e);
	if (rc == KA_OK && skip_dup && (rc = is_dup(k, e)) != 0)
		return rc > 0 ? KA_KDB_DUP : rc;
	if (rc != KA_OK)
		return rc;
	rc = kdb_cached(k, KDB_ST_EVIDENCE_PUT,
			"INSERT INTO evidence(rule, fix, task, kernel_hash, gpu, arch, speedup,"
			" ci_low, ci_high, verdict, at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
			&st);
	if (rc == KA_OK) {
		kdb_bind_text(st, 1, e->rule);
		kdb_bind_text(st, 2, e->fix);
		kdb_bind_text(st, 3, e->task);
		kdb_bind_text(st, 4, e->kernel_hash);
		kdb_bind_text(st, 5, e->gpu);
		kdb_bind_text(st, 6, e->arch);
		kdb_bind_real0(st, 7, e->speedup);
		kdb_bind_real0(st, 8, e->ci_low);
		kdb_bind_real0(st, 9, e->ci_high);
		kdb_bind_text(st, 10, e->verdict);
		sqlite3_bind_int64(st, 11, e->when ? e->when : kdb_now());
		rc = kdb_step_done(k, st, "cannot write evidence");
		sqlite3_reset(st);
	}
	if (rc == KA_OK && id_out)
		*id_out = sqlite3_last_insert_rowid(k->db);
	return rc;
}

int ka_kdb_add_evidence(ka_kdb *k, const ka_kdb_evidence *e, long long *id_out)
{
	int rc = check_evidence(e);
	if (rc != KA_OK || (rc = kdb_begin(k)) != KA_OK)
		return rc;
	rc = kdb_insert_evidence(k, e, 0, id_out);
	if (rc == KA_OK)
		rc = kdb_rule_review(k, e->rule);
	return rc == KA_OK ? kdb_commit(k) : (kdb_rollback(k), rc);
}

int ka_kdb_evidence_each(ka_kdb *k, const char *rule, ka_kdb_evidence_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int rc = kdb_prepare(k,
			     "SELECT rule, fix, task, kernel_hash, gpu, arch, coalesce(speedup, 0),"
			     " coalesce(ci_low, 0), coalesce(ci_high, 0), verdict, at FROM evidence"
			     " WHERE rule = ? ORDER BY at, id",
			     &st),
	    s = SQLITE_DONE;
	if (rc != KA_OK)
		return rc;
	kdb_bind_text(st, 1, rule);
	while (rc == KA_OK && (s = sqlite3_step(st)) == SQLITE_ROW) {
		ka_kdb_evidence e = {.rule = (const char *)sqlite3_column_text(st, 0),
				     .fix = (const char *)sqlite3_column_text(st, 1),
				     .task = (const char *)sqlite3_column_text(st, 2),
				     .kernel_hash = (const char *)sqlite3_column_text(st, 3),
				     .gpu = (const char *)sqlite3_column_text(st, 4),
				     .arch = (const char *)sqlite3_column_text(st, 5),
				     .speedup = sqlite3_column_double(st, 6),
				     .ci_low = sqlite3_column_double(st, 7),
				     .ci_high = sqlite3_column_double(st, 8),
				     .verdict = (const char *)sqlite3_column_text(st, 9),
				     .when = sqlite3_column_int64(st, 10)};
		rc = fn(ud, &e);
	}
	if (rc == KA_OK && s != SQLITE_DONE)
		rc = kdb_fail(k, "cannot read evidence");
	sqlite3_finalize(st);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Fold one row into the standing; wins' speedups go to v. */
static void fold(ka_kdb_standing *s, const char *verdict, double speedup, double *logsum, double *v, int *nv)
{
	if (!strcmp(verdict, "error")) {
		s->errors++;
		return;
	}
	if (!strcmp(verdict, "faster")) {
		s->wins++;
		if (speedup > 0) {
			v[(*nv)++] = speedup;
			*logsum += log(speedup);
		}
		return;
	}
	s->failures++;
	if (strcmp(verdict, "rejected") != 0 && speedup > 1)
		*logsum += log(speedup);
}

int kdb_standing(ka_kdb *k, const char *rule, const char *fix, const char *arch, ka_kdb_standing *out)
{
	sqlite3_stmt *st = NULL;
	double *v = NULL, logsum = 0;
	int nv = 0, cap = 0, rc;
	char last_task[256] = "";
	memset(out, 0, sizeof *out);
	rc = kdb_prepare(k,
			 "SELECT verdict, coalesce(speedup, 0), coalesce(task, '') FROM evidence"
			 " WHERE rule = ?1 AND (?2 IS NULL OR fix = ?2) AND (?3 IS NULL OR arch = ?3)"
			 " ORDER BY verdict = 'faster' DESC, task",
			 &st);
	if (rc != KA_OK)
		return rc;
	kdb_bind_text(st, 1, rule);
	kdb_bind_text(st, 2, fix);
	kdb_bind_text(st, 3, arch);
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		const char *verdict = (const char *)sqlite3_column_text(st, 0);
		const char *task = (const char *)sqlite3_column_text(st, 2);
		if (nv == cap) {
			int ncap = cap ? cap * 2 : 16;
			double *nvv = realloc(v, (size_t)ncap * sizeof *v);
			if (!nvv) {
				rc = ka_error_set(KA_ENOMEM, "out of memory");
				break;
			}
			v = nvv, cap = ncap;
		}
		int was = out->wins;
		fold(out, verdict ? verdict : "error", sqlite3_column_double(st, 1), &logsum, v, &nv);
		if (out->wins > was && *task && strcmp(task, last_task) != 0) { /* rows come by task */
			out->tasks++;
			snprintf(last_task, sizeof last_task, "%s", task);
		}
	}
	if (rc == KA_OK && s != SQLITE_DONE)
		rc = kdb_fail(k, "cannot read evidence");
	sqlite3_finalize(st);
	out->verified = out->wins + out->failures;
	out->posterior = (out->wins + 1.0) / (out->verified + 2.0);
	out->gain = out->verified ? exp(logsum / out->verified) : 1.0;
	if (nv) {
		qsort(v, (size_t)nv, sizeof *v, cmp_double);
		out->median = nv % 2 ? v[nv / 2] : (v[nv / 2 - 1] + v[nv / 2]) / 2;
		out->lo = v[0];
		out->hi = v[nv - 1];
	}
	free(v);
	return rc;
}

int ka_kdb_standing_get(ka_kdb *k, const char *rule, const char *fix, const char *arch, ka_kdb_standing *out)
{
	/* One read transaction: the rows and the counts are one snapshot. */
	int rc, began = sqlite3_get_autocommit(k->db) &&
			sqlite3_exec(k->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
	rc = kdb_standing(k, rule, fix, arch, out);
	if (began)
		sqlite3_exec(k->db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

void ka_kdb_standing_text(const ka_kdb_standing *s, const char *arch, char *buf, size_t cap)
{
	char where[80];
	int n = 0;
	snprintf(where, sizeof where, "on %s", arch ? arch : "all GPUs");
	if (cap)
		buf[0] = '\0';
	if (s->wins && s->median > 0)
		n = snprintf(buf, cap, "fixed %d time%s %s, median %.1fx [%.1f, %.1f]", s->wins,
			     s->wins == 1 ? "" : "s", where, s->median, s->lo, s->hi);
	else if (s->wins)
		n = snprintf(buf, cap, "fixed %d time%s %s", s->wins, s->wins == 1 ? "" : "s", where);
	else if (s->failures)
		n = snprintf(buf, cap, "tried %d time%s %s, never faster", s->failures,
			     s->failures == 1 ? "" : "s", where);
	else if (s->errors)
		n = snprintf(buf, cap, "tried %d time%s %s, never built", s->errors,
			     s->errors == 1 ? "" : "s", where);
	if (s->wins && s->failures && n >= 0 && (size_t)n < cap)
		snprintf(buf + n, cap - (size_t)n, ", %d failure%s", s->failures,
			 s->failures == 1 ? "" : "s");
}

double ka_kdb_corrected_estimate(double estimate, const ka_kdb_standing *s)
{
	if (!(estimate > 0) || !s || s->verified == 0)
		return estimate;
	double w0 = KA_KDB_PRIOR_WEIGHT, n = s->verified;
	double g = s->gain > 0 ? s->gain : 1.0;
	return exp((w0 * log(estimate) + n * log(g)) / (w0 + n));
}

int ka_kdb_correct_estimate(ka_kdb *k, const char *rule, const char *arch, double estimate, double *out)
{
	ka_kdb_standing s;
	int rc = ka_kdb_standing_get(k, rule, NULL, arch, &s);
	*out = rc == KA_OK ? ka_kdb_corrected_estimate(estimate, &s) : estimate;
	return rc;
}
