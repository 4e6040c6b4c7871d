/* knowledge/knowledge_stats.c: what the knowledge DB holds, counted.
 *
 * `kcheck knowledge stats` reads these: rules by status, evidence by
 * verdict, skills, optimize runs and their steps (ka_kdb_stats_get), and
 * the evidence tallied per rule and arch (ka_kdb_tally_each), from which
 * the CLI sums the arches and ranks the rules by standing; `kcheck
 * --explain` walks one rule's tallies for the arches it has evidence on.
 * Read-only: every query here works on a DB opened KA_KDB_READONLY, and
 * each function reads one snapshot (a read transaction).
 */
#include "knowledge/knowledge_int.h"
#include <stdio.h>
#include <string.h>

static const char *const statuses[] = {"stable", "preview", "candidate", "retired"};
static const char *const verdicts[] = {"faster", "same", "slower", "rejected", "error"};

/* Index of s in v[0..n), or -1. */
static int index_of(const char *const *v, int n, const char *s)
{
	for (int i = 0; s && i < n; i++)
		if (!strcmp(v[i], s))
			return i;
	return -1;
}

/* BEGIN when no transaction is open; returns whether it began one. */
static int read_begin(ka_kdb *k)
{
	return sqlite3_get_autocommit(k->db) && sqlite3_exec(k->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
}

static void read_end(ka_kdb *k, int began)
{
	if (began)
		sqlite3_exec(k->db, "COMMIT", NULL, NULL, NULL);
}

/* Rows of `SELECT key, origin-or-NULL, count` folded into counts by key. */
static int group_counts(ka_kdb *k, const char *sql, const char *const *keys, int nkeys, int *counts,
			int *learned)
{
	sqlite3_stmt *st = NULL;
	int rc = kdb_prepare(k, sql, &st), s;
	while (rc == KA_OK && (s = sqlite3_step(st)) == SQLITE_ROW) {
		int i = index_of(keys, nkeys, (const char *)sqlite3_column_text(st, 0));
		int n = sqlite3_column_int(st, 2);
		if (i >= 0)
			counts[i] += n;
		if (learned && !strcmp((const char *)sqlite3_column_text(st, 1), "learned"))
			*learned += n;
	}
	if (rc == KA_OK && s != SQLITE_DONE)
		rc = kdb_fail(k, "cannot count rows");
	sqlite3_finalize(st);
	return rc;
}

int ka_kdb_stats_get(ka_kdb *k, ka_kdb_stats *out)
{
	int began = read_begin(k);
	memset(out, 0, sizeof *out);
	int rc = group_counts(k, "SELECT status, origin, count(*) FROM rules GROUP BY status, origin",
			      statuses, 4, out->rules, &out->learned);
	if (rc == KA_OK)
		rc = group_counts(k, "SELECT verdict, NULL, count(*) FROM evidence GROUP BY verdict",
				  verdicts, 5, out->verdicts, NULL);
	if (rc == KA_OK)
		rc = kdb_int(k, "SELECT count(*) FROM evidence", &out->evidence);
	if (rc == KA_OK)
		rc = kdb_int(k, "SELECT count(*) FROM skills", &out->skills);
	if (rc == KA_OK)
		rc = kdb_int(k, "SELECT count(DISTINCT run_id) FROM trajectory", &out->runs);
	if (rc == KA_OK)
		rc = kdb_int(k, "SELECT count(*) FROM trajectory", &out->steps);
	read_end(k, began);
	return rc;
}

int ka_kdb_tally_each(ka_kdb *k, const char *rule, ka_kdb_tally_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int began = read_begin(k), s = SQLITE_DONE;
	int rc = kdb_prepare(
		k,
		"SELECT rule, arch, verdict, count(*) FROM evidence WHERE ?1 IS NULL OR rule = ?1"
		" GROUP BY rule, arch, verdict ORDER BY rule, arch",
		&st);
	char cur_rule[256] = "", cur_arch[128] = "";
	int count[KA_KDB_NVERDICTS] = {0}, have = 0;
	if (rc == KA_OK)
		kdb_bind_text(st, 1, rule);
	while (rc == KA_OK && (s = sqlite3_step(st)) == SQLITE_ROW) {
		const char *r = (const char *)sqlite3_column_text(st, 0);
		const char *a = (const char *)sqlite3_column_text(st, 1);
		if (have && (strcmp(r, cur_rule) != 0 || strcmp(a, cur_arch) != 0)) {
			if ((rc = fn(ud, cur_rule, cur_arch, count)) != 0)
				break;
			memset(count, 0, sizeof count), have = 0;
		}
		snprintf(cur_rule, sizeof cur_rule, "%s", r);
		snprintf(cur_arch, sizeof cur_arch, "%s", a);
		int i = index_of(verdicts, KA_KDB_NVERDICTS, (const char *)sqlite3_column_text(st, 2));
		if (i >= 0)
			count[i] += sqlite3_column_int(st, 3);
		have = 1;
	}
	if (rc == KA_OK && s != SQLITE_DONE && s != SQLITE_ROW)
		rc = kdb_fail(k, "cannot read evidence");
	sqlite3_finalize(st);
	if (rc == KA_OK && have)
		rc = fn(ud, cur_rule, cur_arch, count);
	read_end(k, began);
	return rc;
}
