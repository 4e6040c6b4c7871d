/* rules/sqlfn.h: what rule SQL may use, and what it may not.
 *
 * regexp(pattern, text) is PCRE2 (so `text REGEXP 'pat'` works); compiled
 * patterns are cached per database connection.  Rule statements are
 * compiled under an authorizer that allows reading (SELECT, column reads,
 * function calls, recursive CTEs) and denies everything else: writes,
 * ATTACH, PRAGMA, schema changes, transactions, load_extension().
 */
#ifndef KA_RULES_SQLFN_H
#define KA_RULES_SQLFN_H
#include <sqlite3.h>

/* Register regexp() on db.  KA_OK or < 0. */
int ka_sql_register(sqlite3 *db);

/* Compile one statement read-only.  Errors: KA_EINPUT with the SQLite
 * message (or "not allowed in a rule: ..." for a denied action) in
 * ka_error_last(); more than one statement is also an error. */
int ka_sql_prepare_readonly(sqlite3 *db, const char *sql, sqlite3_stmt **out);

/* Check the regular expressions that appear as string literals right after
 * REGEXP or as the first argument of regexp(...) in a SQL text.  KA_OK, or
 * KA_EINPUT with "bad regular expression '...': reason at offset N". */
int ka_sql_check_regexes(const char *sql);

#endif
