/* rules/check.c: the checks that need the facts schema.
 *
 * Every rule is compiled against an empty facts database (ka_facts_open),
 * so a typo in a column name, a scope that is not a facts table, a
 * placeholder with no column behind it or a bad regular expression stops
 * the run before any file is analyzed, pointing at the rule file's line.
 */
#include "facts/facts.h"
#include "rules/engine.h"
#include "rules/rules_int.h"
#include "rules/sqlfn.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cols {
	char **v;
	int n;
} cols;

static void cols_free(cols *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->v[i]);
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

static int scope_columns(sqlite3 *db, const char *scope, cols *out)
{
	sqlite3_stmt *st = NULL;
	int rc = KA_OK;
	if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?1)", -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "%s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, scope, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		char **nv = realloc(out->v, (size_t)(out->n + 1) * sizeof *nv);
		if (!nv) {
			rc = ka_error_set(KA_ENOMEM, "out of memory");
			break;
		}
		out->v = nv;
		out->v[out->n++] = strdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return rc;
}

static int cols_has(const cols *c, const char *name, size_t len)
{
	for (int i = 0; i < c->n; i++)
		if (c->v[i] && strlen(c->v[i]) == len && strncmp(c->v[i], name, len) == 0)
			return 1;
	return 0;
}

typedef struct ph_state {
	const cols *cols;
	char missing[128];
} ph_state;

static int check_placeholder(const char *name, size_t len, void *ud)
{
	ph_state *ps = ud;
	if (cols_has(ps->cols, name, len))
		return 0;
	snprintf(ps->missing, sizeof ps->missing, "%.*s", (int)(len < 100 ? len : 100), name);
	return KA_EINPUT;
}

static void check_rule(ka_ruleset *rs, sqlite3 *db, ka_rule *r)
{
	cols c = {0};
	ka_buf sql;
	sqlite3_stmt *st = NULL;
	ka_buf_init(&sql, 1 << 20);
	if (scope_columns(db, r->scope, &c) != KA_OK)
		goto out;
	if (c.n == 0) {
		ka_ruleset_error(rs, r->path, r->lines.scope,
				 "unknown scope '%s' (not a facts table; see docs/facts.md)", r->scope);
		goto out;
	}
	for (int i = 0; i < r->let_names.n; i++) { /* `let:` names are columns too */
		char **nv = realloc(c.v, (size_t)(c.n + 1) * sizeof *nv);
		if (!nv)
			goto out;
		c.v = nv;
		c.v[c.n++] = strdup(r->let_names.v[i]);
	}
	if (!cols_has(&c, "file", 4) || !cols_has(&c, "line", 4)) {
		ka_ruleset_error(rs, r->path, r->lines.scope,
				 "scope '%s' has no location (file, line) columns", r->scope);
		goto out;
	}
	ph_state ps = {.cols = &c};
	int prc = ka_template_each(r->message, check_placeholder, &ps);
	if (prc != KA_OK && ps.missing[0])
		ka_ruleset_error(rs, r->path, r->lines.message,
				 "message: unknown placeholder {%s} (no such column in '%s')", ps.missing,
				 r->scope);
	else if (prc != KA_OK)
		ka_ruleset_error(rs, r->path, r->lines.message, "message: %s", ka_error_last());
	ph_state bs = {.cols = &c};
	if (r->basis && ka_template_each(r->basis, check_placeholder, &bs) != KA_OK) {
		if (bs.missing[0])
			ka_ruleset_error(rs, r->path, r->lines.basis,
					 "basis: unknown placeholder {%s} (no such column in '%s')",
					 bs.missing, r->scope);
		else
			ka_ruleset_error(rs, r->path, r->lines.basis, "basis: %s", ka_error_last());
	}
	if (r->estimate && ka_sql_check_regexes(r->estimate) != KA_OK) {
		ka_ruleset_error(rs, r->path, r->lines.estimate, "estimate: %s", ka_error_last());
		goto out;
	}
	if (ka_sql_check_regexes(r->where) != KA_OK) {
		ka_ruleset_error(rs, r->path, r->lines.where, "where: %s", ka_error_last());
		goto out;
	}
	if (r->estimate) { /* compiled alone first, so an error points at its line */
		ka_buf_printf(&sql, "SELECT (\n%s\n) FROM \"%s\"", r->estimate, r->scope);
		if (ka_sql_prepare_readonly(db, sql.data, &st) != KA_OK) {
			ka_ruleset_error(rs, r->path, r->lines.estimate, "estimate: %s", ka_error_last());
			goto out;
		}
		sqlite3_finalize(st);
		st = NULL;
		ka_buf_reset(&sql);
	}
	ka_rule_select_sql(r, &sql);
	if (ka_sql_prepare_readonly(db, sql.data, &st) != KA_OK)
		ka_ruleset_error(rs, r->path, r->let_names.n ? r->lines.let : r->lines.where, "%s: %s",
				 r->let_names.n ? "where or let" : "where", ka_error_last());
out:
	sqlite3_finalize(st);
	ka_buf_free(&sql);
	cols_free(&c);
}

int ka_ruleset_check(ka_ruleset *rs)
{
	sqlite3 *db = NULL;
	int rc = ka_facts_open(&db);
	if (rc != KA_OK)
		goto out;
	if ((rc = ka_sql_register(db)) != KA_OK)
		goto out;
	int before = rs->nerrors;
	for (size_t i = 0; i < rs->n; i++)
		check_rule(rs, db, rs->v[i]);
	rc = rs->nerrors > before ? ka_error_set(KA_EINPUT, "malformed rule files") : KA_OK;
	if (rs->nerrors && rc == KA_OK)
		rc = KA_EINPUT;
out:
	sqlite3_close(db);
	return rc;
}
