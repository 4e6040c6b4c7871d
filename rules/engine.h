/* rules/engine.h: running the rule set over one facts database.
 *
 * Pipeline position: facts (analyzer) -> [engine] -> findings -> report.
 * Each enabled rule that applies to the file's language and the target
 * architecture runs as `SELECT * FROM <scope> WHERE (<where>)`, compiled
 * read-only (sqlfn.h); every row is a finding, located by the row's
 * file/line/col/end_line/end_col/begin_off/end_off columns, its message
 * rendered from the rule's template with the row's columns.
 */
#ifndef KA_RULES_ENGINE_H
#define KA_RULES_ENGINE_H
#include <sqlite3.h>
#include "rules/finding.h"
#include "rules/rule.h"
#include "rules/sqlfn.h"
#include "util/buf.h"

typedef struct ka_eval_opts {
	const char *lang;            /* "cuda" | "hip"; NULL = the main file's (file table) */
	const char *arch;            /* NULL = the arch table's row */
	const char *only_rule;       /* evaluate just this id (rules test); NULL = all enabled */
	double *rule_ms;             /* optional: per rule (ka_ruleset_at order), ms are added */
	const ka_sql_budget *budget; /* what one rule may spend; NULL = KA_SQL_BUDGET_DEFAULT */
} ka_eval_opts;

#define KA_EVAL_OPTS_INIT {0}

/* Append the findings of rs on db to out.  Registers regexp() on db and
 * bounds it (sqlfn.h); each rule runs under its own budget.  KA_OK, or
 * < 0 when a rule's SQL fails at run time or overspends: a one-line
 * message that names the rule file and id. */
int ka_rules_eval(const ka_ruleset *rs, sqlite3 *db, const ka_eval_opts *opts, ka_findings *out);

/* The statement a rule runs: `SELECT *, (<estimate>) AS ka_estimate,
 * (<let expr>) AS "<let name>"... FROM <scope> WHERE (<where>)` (NULL when
 * the rule has no estimate). */
int ka_rule_select_sql(const ka_rule *r, ka_buf *out);

/* Render a message template against the current row of st (appends to
 * out).  A NULL value renders as "?". */
int ka_template_render(const char *tmpl, sqlite3_stmt *st, ka_buf *out);

#endif
