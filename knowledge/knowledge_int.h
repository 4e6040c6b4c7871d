/* knowledge/knowledge_int.h: what the knowledge*.c files share: the handle,
 * transactions and small statement helpers.  Not a public header. */
#ifndef KA_KNOWLEDGE_INT_H
#define KA_KNOWLEDGE_INT_H
#include "knowledge/knowledge.h"
#include "util/error.h"
#include <sqlite3.h>
#include "rules/sqlfn.h"

/* Statements an import runs once per row, kept prepared (kdb_cached). */
enum { KDB_ST_SEEN_GET, KDB_ST_SEEN_PUT, KDB_ST_EVIDENCE_PUT, KDB_ST_TOUCH, KDB_ST_COUNT };

struct ka_kdb {
	sqlite3 *db;
	char *path;
	int readonly;
	sqlite3_stmt *cached[KDB_ST_COUNT];
	ka_sql_meter meter;  /* the running statement's budget (rules/sqlfn.h) */
	ka_ruleset *builtin; /* the built-in rules, loaded on first need */
};

/* The application id stamped on every knowledge DB ("KAKB"). */
#define KDB_APP_ID 0x4B414B42

/* Error from the connection: sets "knowledge DB PATH: what: sqlite's message". */
int kdb_fail(ka_kdb *k, const char *what);
/* BEGIN IMMEDIATE (writers queue on the busy timeout), COMMIT, ROLLBACK. */
int kdb_begin(ka_kdb *k);
int kdb_commit(ka_kdb *k);
void kdb_rollback(ka_kdb *k);
int kdb_prepare(ka_kdb *k, const char *sql, sqlite3_stmt **st);
/* The statement of slot (prepared from sql the first time), reset and with
 * no bindings.  The caller resets it after use and never finalizes it
 * (ka_kdb_close does). */
int kdb_cached(ka_kdb *k, int slot, const char *sql, sqlite3_stmt **st);
/* The first column of the first row of sql (a count, a PRAGMA) into *out. */
int kdb_int(ka_kdb *k, const char *sql, int *out);
/* Bind text, NULL as SQL NULL. */
void kdb_bind_text(sqlite3_stmt *st, int i, const char *s);
/* Bind a double, 0 (meaning "not measured") as SQL NULL. */
void kdb_bind_real0(sqlite3_stmt *st, int i, double v);
long long kdb_now(void);
/* Step a statement that returns no row; SQLITE_DONE -> KA_OK. */
int kdb_step_done(ka_kdb *k, sqlite3_stmt *st, const char *what);
/* The value of the front-matter field `key:` in a rule file's text (a
 * plain scalar, quotes removed) into buf; 0 when found, -1 when absent. */
int kdb_front_field(const char *text, const char *key, char *buf, size_t cap);
/* 1 for stable, preview, candidate, retired. */
int kdb_status_valid(const char *s);
/* Recompute a learned rule's status after new evidence (inside the
 * caller's transaction). */
int kdb_rule_review(ka_kdb *k, const char *rule);
/* Collect the standing inside an open transaction (no locking of its own). */
int kdb_standing(ka_kdb *k, const char *rule, const char *fix, const char *arch, ka_kdb_standing *out);

/* The parts of the public writers that run inside the caller's
 * transaction (import runs them all in one). */
int kdb_put_learned(ka_kdb *k, const char *id, const char *text, const char *status);
#define KA_KDB_DUP 1 /* kdb_insert_evidence with skip_dup: the row exists */
int kdb_insert_evidence(ka_kdb *k, const ka_kdb_evidence *e, int skip_dup, long long *id_out);
/* skip_dup needs temp.kdb_seen: the DB's evidence, indexed for the
 * duplicate check (kdb_seen_begin), dropped by kdb_seen_end. */
int kdb_seen_begin(ka_kdb *k);
void kdb_seen_end(ka_kdb *k);
int kdb_put_skill(ka_kdb *k, const ka_kdb_skill *s, char hash[65]);

#endif
