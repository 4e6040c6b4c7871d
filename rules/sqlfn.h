/* rules/sqlfn.h: what rule SQL may use, and what it may not.
 *
 * regexp(pattern, text) is PCRE2 (so `text REGEXP 'pat'` works); compiled
 * patterns are cached per database connection.  Rule statements are
 * compiled under an authorizer that allows reading (SELECT, column reads,
 * function calls, recursive CTEs, json_each/json_tree) and denies
 * everything else: writes, ATTACH, PRAGMA and the pragma_* table functions,
 * schema changes, transactions, load_extension().  regexp() runs under
 * PCRE2 match, depth and heap limits; a match that hits one fails the
 * statement with PCRE2's reason.
 */
#ifndef KA_RULES_SQLFN_H
#define KA_RULES_SQLFN_H
#include <sqlite3.h>

/* Register regexp() on db and bound the connection for rule SQL
 * (ka_sql_bound).  Call it after the facts are written.  KA_OK or < 0. */
int ka_sql_register(sqlite3 *db);

/* What one statement may build (sqlite3_limit, sqlbound.c): strings and
 * blobs no longer than KA_SQL_MIN_LENGTH or twice the longest source line
 * in db, whichever is more; SQL text, expression depth and compound
 * SELECTs as below; no ATTACH.  Registering regexp() does this too. */
#define KA_SQL_MIN_LENGTH (16 << 20)
#define KA_SQL_MAX_SQL 65536
#define KA_SQL_MAX_DEPTH 200
#define KA_SQL_MAX_COMPOUND 16
/* Also sets SQLite's hard heap limit (sqlite3_hard_heap_limit64, for the
 * whole process) to KA_SQL_HEAP_HARD unless one is set already. */
#define KA_SQL_HEAP_HARD ((long long)2 << 30)
int ka_sql_bound(sqlite3 *db);

/* What one rule's statement may spend while it runs. */
typedef struct ka_sql_budget {
	long long steps; /* SQLite VM steps */
	long long ms;    /* wall-clock milliseconds */
	long long heap;  /* bytes of SQLite heap above the level at the start */
} ka_sql_budget;

/* The step budget is the deterministic guard; the wall clock is the
 * backstop for what steps do not meter (a slow user function).  Under
 * AddressSanitizer every step costs three to five times as much (a 5,000
 * kernel file's rule: 1 s in a release build, 4 s under ASan, past 10 s
 * with two other tests on the same two cores), so a sanitizer build gets
 * five times the clock and the same steps. */
#if defined(__SANITIZE_ADDRESS__)
#define KA_SQL_BUDGET_MS 50000LL
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KA_SQL_BUDGET_MS 50000LL
#endif
#endif
#ifndef KA_SQL_BUDGET_MS
#define KA_SQL_BUDGET_MS 10000LL
#endif
#define KA_SQL_BUDGET_DEFAULT {200000000LL, KA_SQL_BUDGET_MS, 256LL << 20}

/* A running meter: while started, statements on db that overspend stop
 * with SQLITE_INTERRUPT and why says which budget ran out, e.g. "ran
 * more than 200000000 SQL steps". */
typedef struct ka_sql_meter {
	ka_sql_budget budget;
	long long steps, heap0;
	double t0;
	char why[96];
} ka_sql_meter;

/* b NULL = KA_SQL_BUDGET_DEFAULT.  One meter per connection at a time. */
void ka_sql_meter_start(sqlite3 *db, ka_sql_meter *m, const ka_sql_budget *b);
void ka_sql_meter_stop(sqlite3 *db);

/* Compile one statement read-only.  Errors: KA_EINPUT with the SQLite
 * message (or "not allowed in a rule: ..." for a denied action) in
 * ka_error_last(); more than one statement is also an error. */
int ka_sql_prepare_readonly(sqlite3 *db, const char *sql, sqlite3_stmt **out);

/* Check the constant regular expressions of a SQL text: a string literal,
 * or literals joined by ||, right after REGEXP or as the whole first
 * argument of regexp(...).  KA_OK, or KA_EINPUT with "bad regular
 * expression '...': reason at offset N". */
int ka_sql_check_regexes(const char *sql);

#endif
