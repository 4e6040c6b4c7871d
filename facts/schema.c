/* facts/schema.c: the facts schema as data and as SQL.
 *
 * The table and column lists are generated from facts_tables.def by the
 * preprocessor; the CREATE TABLE statements are printed from them, so the
 * writer, the database and the docs check (tests/facts) read one source.
 */
#include "facts/facts.h"
#include "util/buf.h"
#include "util/error.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Every table fits a row (no column is ever dropped for lack of room). */
#define KA_FACTS_TABLE(t, constraint, flags)
#define KA_FACTS_COL(t, c, type)
#define KA_FACTS_END(t) \
	_Static_assert(KA_FCOL_##t##__END_ - KA_FCOL_##t##__BEGIN_ - 1 <= KA_FACTS_MAX_COLS, \
		       "table " #t " has more columns than KA_FACTS_MAX_COLS");
#include "facts/facts_tables.def"
#undef KA_FACTS_TABLE
#undef KA_FACTS_COL
#undef KA_FACTS_END

static const ka_facts_table_info tables[KA_FACTS_NTABLES] = {
#define KA_FACTS_TABLE(t, constraint, flags) \
	[KA_TABLE_##t] = {#t, constraint, flags, KA_FCOL_##t##__BEGIN_, \
			  KA_FCOL_##t##__END_ - KA_FCOL_##t##__BEGIN_ - 1},
#define KA_FACTS_COL(t, c, type)
#define KA_FACTS_END(t)
#include "facts/facts_tables.def"
#undef KA_FACTS_TABLE
#undef KA_FACTS_COL
#undef KA_FACTS_END
};

typedef struct col_info {
	const char *name; /* NULL for the table markers */
	signed char table;
	signed char type;
} col_info;

static const col_info cols[KA_FACTS_NCOLS_ALL] = {
#define KA_FACTS_TABLE(t, constraint, flags) [KA_FCOL_##t##__BEGIN_] = {NULL, KA_TABLE_##t, -1},
#define KA_FACTS_COL(t, c, type) [KA_FCOL_##t##__##c] = {#c, KA_TABLE_##t, KA_FACTS_##type},
#define KA_FACTS_END(t) [KA_FCOL_##t##__END_] = {NULL, KA_TABLE_##t, -1},
#include "facts/facts_tables.def"
#undef KA_FACTS_TABLE
#undef KA_FACTS_COL
#undef KA_FACTS_END
};

const ka_facts_table_info *ka_facts_table_get(ka_facts_table t)
{
	return t >= 0 && t < KA_FACTS_NTABLES ? &tables[t] : NULL;
}

ka_facts_table ka_facts_col_table(ka_facts_col c)
{
	return (ka_facts_table)cols[c].table;
}

int ka_facts_col_index(ka_facts_col c)
{
	return (int)c - tables[cols[c].table].first - 1;
}

const char *ka_facts_col_name(ka_facts_col c)
{
	return c >= 0 && c < KA_FACTS_NCOLS_ALL ? cols[c].name : NULL;
}

ka_facts_type ka_facts_col_type(ka_facts_col c)
{
	return (ka_facts_type)cols[c].type;
}

int ka_facts_table_find(const char *name)
{
	for (int t = 0; name && t < KA_FACTS_NTABLES; t++)
		if (strcmp(tables[t].name, name) == 0)
			return t;
	return -1;
}

static const char *const sql_types[] = {
	[KA_FACTS_ID] = "INTEGER PRIMARY KEY",
	[KA_FACTS_TEXT_KEY] = "TEXT PRIMARY KEY",
	[KA_FACTS_TEXT] = "TEXT",
	[KA_FACTS_INT] = "INT",
	[KA_FACTS_REAL] = "REAL",
};

char *ka_facts_schema_sql(void)
{
	ka_buf b;
	ka_buf_init(&b, 0);
	int rc = KA_OK;
	for (int t = 0; t < KA_FACTS_NTABLES && rc == KA_OK; t++) {
		const ka_facts_table_info *ti = &tables[t];
		rc = ka_buf_printf(&b, "CREATE TABLE \"%s\"(", ti->name);
		for (int i = 1; i <= ti->ncols && rc == KA_OK; i++) {
			const col_info *c = &cols[ti->first + i];
			rc = ka_buf_printf(&b, "%s\"%s\" %s", i > 1 ? ", " : "", c->name, sql_types[c->type]);
		}
		if (rc == KA_OK && ti->constraint[0])
			rc = ka_buf_printf(&b, ", %s", ti->constraint);
		if (rc == KA_OK)
			rc = ka_buf_adds(&b, ");\n");
	}
	if (rc != KA_OK) {
		ka_buf_free(&b);
		return NULL;
	}
	return ka_buf_steal(&b);
}

int ka_facts_open(sqlite3 **out)
{
	sqlite3 *db = NULL;
	char *sql = NULL, *err = NULL;
	int rc = KA_OK;
	*out = NULL;
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		rc = ka_error_set(KA_ENOMEM, "cannot open the facts database");
		goto out;
	}
	sql = ka_facts_schema_sql();
	if (!sql) {
		rc = ka_error_set(KA_ENOMEM, "facts schema: out of memory");
		goto out;
	}
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		rc = ka_error_set(KA_ERR, "facts schema: %s", err ? err : "?");
		goto out;
	}
	*out = db;
	db = NULL;
out:
	sqlite3_free(err);
	free(sql);
	sqlite3_close(db);
	return rc;
}

int64_t ka_facts_max_id(sqlite3 *db)
{
	int64_t most = 0;
	for (int t = 0; t < KA_FACTS_NTABLES; t++) {
		const ka_facts_table_info *ti = &tables[t];
		ka_facts_col first = (ka_facts_col)(ti->first + 1);
		if (ti->ncols < 1 || ka_facts_col_type(first) != KA_FACTS_ID)
			continue;
		char sql[160];
		sqlite3_stmt *s;
		snprintf(sql, sizeof sql, "SELECT max(%s) FROM %s", ka_facts_col_name(first), ti->name);
		if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
			continue;
		if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int64(s, 0) > most)
			most = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	return most;
}

int ka_facts_index(sqlite3 *db)
{
	/* Without these each correlated subquery of a rule
	 * (`... WHERE p.kernel_id = access.kernel_id`) scans a table per row,
	 * quadratic in the number of kernels of a file. */
	static const char *const by_kernel[] = {
		"access",  "atomic",      "branch", "call",  "divergent_warp_code", "early_return", "launch",
		"literal", "local_array", "loop",   "param", "reduction_loop",      "shared_array"};
	ka_buf b;
	ka_buf_init(&b, 0);
	int rc = ka_buf_adds(
		&b, "CREATE INDEX IF NOT EXISTS ka_kernel_name ON kernel(name, kind);"
		    "CREATE INDEX IF NOT EXISTS ka_barrier_kernel ON barrier(kernel_id, kind, line);");
	for (size_t i = 0; i < sizeof by_kernel / sizeof by_kernel[0] && rc == KA_OK; i++)
		rc = ka_buf_printf(&b, "CREATE INDEX IF NOT EXISTS ka_%s_kernel ON %s(kernel_id);",
				   by_kernel[i], by_kernel[i]);
	if (rc == KA_OK) /* the other columns rules join on */
		rc = ka_buf_adds(&b, "CREATE INDEX IF NOT EXISTS ka_loop_parent ON loop(parent_id);"
				     "CREATE INDEX IF NOT EXISTS ka_access_loop ON access(loop_id);"
				     "CREATE INDEX IF NOT EXISTS ka_call_func ON call(func);"
				     /* the host call graph the cold-kernel query walks (rules/eval.c) */
				     "CREATE INDEX IF NOT EXISTS ka_call_callee ON call(callee);"
				     "CREATE INDEX IF NOT EXISTS ka_launch_func ON launch(func, in_loop);");
	if (rc != KA_OK) {
		ka_buf_free(&b);
		return ka_error_set(KA_ENOMEM, "facts indexes: out of memory");
	}
	char *err = NULL;
	if (sqlite3_exec(db, b.data, NULL, NULL, &err) != SQLITE_OK)
		rc = ka_error_set(KA_ERR, "facts indexes: %s", err ? err : "?");
	sqlite3_free(err);
	ka_buf_free(&b);
	return rc;
}
