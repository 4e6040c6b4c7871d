/* knowledge/knowledge_rules.c: the rules table of the knowledge DB.
 *
 * Rule files (built in, or from --rules-dir) are mirrored into the DB so
 * that retrieval (knowledge_search.c) can rank them; learned rules live
 * only here, as the Markdown text of a rule file that passed the same
 * checks as a shipped one.  The FTS5 index follows the table through
 * triggers (knowledge.c, migration 3).
 */
#include "knowledge/knowledge_int.h"
#include "util/buf.h"
#include "util/sha256.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *join_tags(const ka_rule *r)
{
	ka_buf b;
	ka_buf_init(&b, 1 << 14);
	for (int i = 0; i < r->tags.n; i++)
		ka_buf_printf(&b, "%s%s", i ? " " : "", r->tags.v[i]);
	if (!b.data)
		ka_buf_adds(&b, "");
	return ka_buf_steal(&b);
}

/* Insert or refresh one rule row.  A file rule never replaces a learned
 * one of the same id, and a row is rewritten only when its text or
 * status changed (the FTS index is left alone otherwise). */
static int upsert(ka_kdb *k, sqlite3_stmt *st, const ka_rule *r, const char *origin, const char *status)
{
	char hash[65];
	char *tags = join_tags(r);
	if (!tags)
		return ka_error_set(KA_ENOMEM, "out of memory");
	ka_sha256_of(r->text, strlen(r->text), hash);
	sqlite3_reset(st);
	kdb_bind_text(st, 1, r->id);
	kdb_bind_text(st, 2, r->title);
	kdb_bind_text(st, 3, tags);
	kdb_bind_text(st, 4, r->body);
	kdb_bind_text(st, 5, r->text);
	kdb_bind_text(st, 6, hash);
	kdb_bind_text(st, 7, origin);
	kdb_bind_text(st, 8, status);
	sqlite3_bind_int64(st, 9, kdb_now());
	int rc = kdb_step_done(k, st, "cannot write a rule");
	free(tags);
	return rc;
}

static const char upsert_sql[] =
	"INSERT INTO rules(id, title, tags, body, text, text_hash, origin, status, added, updated)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)"
	" ON CONFLICT(id) DO UPDATE SET title = excluded.title, tags = excluded.tags,"
	"  body = excluded.body, text = excluded.text, text_hash = excluded.text_hash,"
	"  origin = excluded.origin, status = excluded.status, updated = excluded.updated"
	" WHERE (rules.origin != 'learned' OR excluded.origin = 'learned')"
	"  AND (rules.text_hash != excluded.text_hash OR rules.status != excluded.status"
	"       OR rules.origin != excluded.origin)";

int ka_kdb_sync_rules(ka_kdb *k, const ka_ruleset *rs)
{
	sqlite3_stmt *st = NULL;
	int rc = kdb_begin(k);
	if (rc != KA_OK)
		return rc;
	if ((rc = kdb_prepare(k, upsert_sql, &st)) != KA_OK)
		goto out;
	for (size_t i = 0; rc == KA_OK && i < ka_ruleset_count(rs); i++) {
		const ka_rule *r = ka_ruleset_at(rs, i);
		char status[32];
		if (kdb_front_field(r->text, "status", status, sizeof status) != 0 ||
		    !kdb_status_valid(status))
			snprintf(status, sizeof status, "stable");
		rc = upsert(k, st, r, r->builtin ? "builtin" : "file", status);
	}
out:
	sqlite3_finalize(st);
	if (rc != KA_OK) {
		kdb_rollback(k);
		return rc;
	}
	return kdb_commit(k);
}

int ka_kdb_parse_rule(const char *name, const char *text, ka_ruleset **out)
{
	ka_ruleset *rs = NULL;
	*out = NULL;
	int rc = ka_ruleset_new(&rs);
	if (rc == KA_OK)
		rc = ka_ruleset_add_text(rs, name, text, strlen(text), 0, 0);
	if (rc == KA_OK)
		rc = ka_ruleset_check(rs);
	if (rc == KA_OK && ka_ruleset_count(rs) != 1)
		rc = ka_error_set(KA_EINPUT, "%s: expected one rule", name);
	if (rc != KA_OK && rs && *ka_ruleset_errors(rs)) {
		const char *e = ka_ruleset_errors(rs);
		rc = ka_error_set(KA_EINPUT, "%.*s", (int)strcspn(e, "\n"), e);
	}
	if (rc != KA_OK) {
		ka_ruleset_free(rs);
		return rc;
	}
	*out = rs;
	return KA_OK;
}

/* One text column of rule id (sql selects it by id) into buf: KA_OK,
 * KA_ENOTFOUND (no message set) when there is no such rule. */
static int rule_text(ka_kdb *k, const char *sql, const char *id, char *buf, size_t cap)
{
	sqlite3_stmt *st = NULL;
	int rc = kdb_prepare(k, sql, &st);
	if (rc != KA_OK)
		return rc;
	kdb_bind_text(st, 1, id);
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW)
		snprintf(buf, cap, "%s", (const char *)sqlite3_column_text(st, 0));
	else
		rc = s == SQLITE_DONE ? KA_ENOTFOUND : kdb_fail(k, "cannot read a rule");
	sqlite3_finalize(st);
	return rc;
}

static int origin_of(ka_kdb *k, const char *id, char *buf, size_t cap)
{
	return rule_text(k, "SELECT origin FROM rules WHERE id = ?", id, buf, cap);
}

/* A built-in id is taken even where the DB never mirrored the built-in
 * rules (the built-in set is loaded once per connection). */
static int not_builtin(ka_kdb *k, const char *id)
{
	int rc = KA_OK;
	if (!k->builtin && ((rc = ka_ruleset_new(&k->builtin)) != KA_OK ||
			    (rc = ka_ruleset_load_builtin(k->builtin)) != KA_OK)) {
		ka_ruleset_free(k->builtin);
		k->builtin = NULL;
		return rc;
	}
	if (ka_ruleset_find(k->builtin, id))
		return ka_error_set(KA_EINPUT, "rule '%s' is built in; a learned rule needs its own id", id);
	return KA_OK;
}

int kdb_put_learned(ka_kdb *k, const char *id, const char *text, const char *status)
{
	ka_ruleset *rs = NULL;
	sqlite3_stmt *st = NULL;
	char origin[16];
	if (!kdb_status_valid(status))
		return ka_error_set(KA_EINPUT,
				    "unknown rule status '%s' (stable, preview, candidate, retired)",
				    status ? status : "");
	int rc = ka_kdb_parse_rule("learned rule", text, &rs);
	if (rc != KA_OK)
		return rc;
	const ka_rule *r = ka_ruleset_at(rs, 0);
	if (id && strcmp(id, r->id) != 0) {
		rc = ka_error_set(KA_EINPUT, "learned rule: the text's id is '%s', not '%s'", r->id, id);
		goto out;
	}

	rc = origin_of(k, r->id, origin, sizeof origin);
	if (rc == KA_OK && strcmp(origin, "learned") != 0)
		rc = ka_error_set(KA_EINPUT,
				  "rule '%s' comes from a rule file; a learned rule needs its own id", r->id);
	else if (rc == KA_ENOTFOUND || rc == KA_OK)
		rc = not_builtin(k, r->id);
	if (rc == KA_OK)
		rc = kdb_prepare(k, upsert_sql, &st);
	if (rc == KA_OK)
		rc = upsert(k, st, r, "learned", status);
	sqlite3_finalize(st);
out:
	ka_ruleset_free(rs);
	return rc;
}

int ka_kdb_add_rule(ka_kdb *k, const char *id, const char *text, const char *status)
{
	int rc = kdb_begin(k);
	if (rc == KA_OK)
		rc = kdb_put_learned(k, id, text, status);
	if (rc == KA_OK)
		rc = kdb_rule_review(k, id ? id : "");
	return rc == KA_OK ? kdb_commit(k) : (kdb_rollback(k), rc);
}

int ka_kdb_add_learned(ka_kdb *k, const char *text, const struct ka_kdb_evidence *first)
{
	ka_ruleset *rs = NULL;
	char id[256], origin[16];
	int rc = ka_kdb_parse_rule("learned rule", text, &rs);
	if (rc != KA_OK)
		return rc;
	snprintf(id, sizeof id, "%s", ka_ruleset_at(rs, 0)->id);
	ka_ruleset_free(rs);
	ka_kdb_evidence e = *first;
	e.rule = id;
	if ((rc = kdb_begin(k)) != KA_OK)
		return rc;
	rc = origin_of(k, id, origin, sizeof origin);
	if (rc == KA_OK)
		rc = ka_error_set(KA_EINPUT, "rule id '%s' is taken (a %s rule)", id, origin);
	else if (rc == KA_ENOTFOUND)
		rc = kdb_put_learned(k, id, text, "candidate");
	if (rc == KA_OK)
		rc = kdb_insert_evidence(k, &e, 0, NULL);
	if (rc == KA_OK)
		rc = kdb_rule_review(k, id);
	return rc == KA_OK ? kdb_commit(k) : (kdb_rollback(k), rc);
}

int ka_kdb_learned_each(ka_kdb *k, ka_kdb_rule_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int rc = kdb_prepare(k,
			     "SELECT id, status, text FROM rules WHERE origin = 'learned'"
			     " AND status != 'retired' ORDER BY id",
			     &st),
	    s = SQLITE_DONE;
	while (rc == KA_OK && (s = sqlite3_step(st)) == SQLITE_ROW)
		rc = fn(ud, (const char *)sqlite3_column_text(st, 0),
			(const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2));
	if (rc == KA_OK && s != SQLITE_DONE)
		rc = kdb_fail(k, "cannot read the rules");
	sqlite3_finalize(st);
	return rc;
}

int ka_kdb_rule_get(ka_kdb *k, const char *id, char **text, char origin[16], char status[16])
{
	sqlite3_stmt *st = NULL;
	if (text)
		*text = NULL;
	int rc = kdb_prepare(k, "SELECT text, origin, status FROM rules WHERE id = ?", &st);
	if (rc != KA_OK)
		return rc;
	kdb_bind_text(st, 1, id);
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		snprintf(origin, 16, "%s", (const char *)sqlite3_column_text(st, 1));
		snprintf(status, 16, "%s", (const char *)sqlite3_column_text(st, 2));
		if (text && !(*text = strdup((const char *)sqlite3_column_text(st, 0))))
			rc = ka_error_set(KA_ENOMEM, "out of memory");
	} else {
		rc = s == SQLITE_DONE ? ka_error_set(KA_ENOTFOUND, "no rule '%s' in the knowledge DB", id)
				      : kdb_fail(k, "cannot read a rule");
	}
	sqlite3_finalize(st);
	return rc;
}

int ka_kdb_rule_status(ka_kdb *k, const char *id, char *buf, size_t cap)
{
	int rc = rule_text(k, "SELECT status FROM rules WHERE id = ?", id, buf, cap);
	return rc == KA_ENOTFOUND ? ka_error_set(KA_ENOTFOUND, "no rule '%s' in the knowledge DB", id) : rc;
}

int ka_kdb_set_rule_status(ka_kdb *k, const char *id, const char *status)
{
	sqlite3_stmt *st = NULL;
	if (!kdb_status_valid(status))
		return ka_error_set(KA_EINPUT,
				    "unknown rule status '%s' (stable, preview, candidate, retired)",
				    status ? status : "");
	int rc = kdb_begin(k);
	if (rc == KA_OK)
		rc = kdb_prepare(k, "UPDATE rules SET status = ?, updated = ? WHERE id = ?", &st);
	if (rc == KA_OK) {
		kdb_bind_text(st, 1, status);
		sqlite3_bind_int64(st, 2, kdb_now());
		kdb_bind_text(st, 3, id);
		rc = kdb_step_done(k, st, "cannot write a rule");
	}
	if (rc == KA_OK && sqlite3_changes(k->db) == 0)
		rc = ka_error_set(KA_ENOTFOUND, "no rule '%s' in the knowledge DB", id);
	sqlite3_finalize(st);
	return rc == KA_OK ? kdb_commit(k) : (kdb_rollback(k), rc);
}

/* A learned rule's status after its evidence changed: retired after
 * repeated verified failures, preview once a win is reproduced on a
 * second task.  Built-in and file rules keep the status of their file. */
int kdb_rule_review(ka_kdb *k, const char *rule)
{
	ka_kdb_standing s;
	char status[32], origin[16];
	int rc = origin_of(k, rule, origin, sizeof origin);
	if (rc == KA_ENOTFOUND || (rc == KA_OK && strcmp(origin, "learned") != 0))
		return KA_OK;
	if (rc == KA_OK)
		rc = ka_kdb_rule_status(k, rule, status, sizeof status);
	if (rc == KA_OK)
		rc = kdb_standing(k, rule, NULL, NULL, &s);
	if (rc != KA_OK || strcmp(status, "candidate") != 0)
		return rc;
	const char *next = NULL;
	if (s.failures >= KA_KDB_RETIRE_FAILURES && s.posterior < KA_KDB_RETIRE_POSTERIOR)
		next = "retired";
	else if (s.tasks >= 2)
		next = "preview";
	if (!next)
		return KA_OK;
	sqlite3_stmt *st = NULL;
	if ((rc = kdb_prepare(k, "UPDATE rules SET status = ?, updated = ? WHERE id = ?", &st)) != KA_OK)
		return rc;
	kdb_bind_text(st, 1, next);
	sqlite3_bind_int64(st, 2, kdb_now());
	kdb_bind_text(st, 3, rule);
	rc = kdb_step_done(k, st, "cannot write a rule");
	sqlite3_finalize(st);
	return rc;
}
