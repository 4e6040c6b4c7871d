/* tests/facts/test_facts.c: the facts module on its own (no parsing): the
 * schema made from facts_tables.def, the typed writer (one statement per
 * table, NULL for unset columns, the sticky error), and docs/facts.md
 * checked against the table list in both directions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "facts/facts.h"
#include "util/error.h"
#include "util/fs.h"

static int64_t count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	int64_t n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* Every table and column of the list is in the database, in order, with
 * its declared type; nothing else is. */
static void test_schema_matches_list(void **state)
{
	(void)state;
	sqlite3 *db;
	assert_int_equal(ka_facts_open(&db), KA_OK);
	assert_int_equal(count(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"),
			 KA_FACTS_NTABLES);
	static const char *const decl[] = {"INTEGER", "TEXT", "TEXT", "INT", "REAL"};
	for (int t = 0; t < KA_FACTS_NTABLES; t++) {
		const ka_facts_table_info *ti = ka_facts_table_get((ka_facts_table)t);
		assert_int_equal(ka_facts_table_find(ti->name), t);
		char sql[128];
		snprintf(sql, sizeof sql, "SELECT name, type, pk FROM pragma_table_info('%s')", ti->name);
		sqlite3_stmt *s;
		assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
		int i = 0;
		while (sqlite3_step(s) == SQLITE_ROW) {
			assert_true(i < ti->ncols);
			ka_facts_col c = (ka_facts_col)(ti->first + 1 + i);
			assert_int_equal(ka_facts_col_table(c), t);
			assert_int_equal(ka_facts_col_index(c), i);
			assert_string_equal((const char *)sqlite3_column_text(s, 0), ka_facts_col_name(c));
			assert_string_equal((const char *)sqlite3_column_text(s, 1),
					    decl[ka_facts_col_type(c)]);
			i++;
		}
		sqlite3_finalize(s);
		assert_int_equal(i, ti->ncols);
		assert_true(ti->ncols <= KA_FACTS_MAX_COLS);
	}
	assert_int_equal(ka_facts_table_find("no_such_table"), -1);
	assert_string_equal(ka_facts_col_name(KA_COL(access, sectors_per_request)), "sectors_per_request");
	assert_int_equal(ka_facts_col_table(KA_COL(launch, block_threads)), KA_TABLE(launch));
	assert_int_equal(ka_facts_index(db), KA_OK);
	assert_int_equal(ka_facts_index(db), KA_OK); /* idempotent */
	assert_true(count(db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' "
			      "AND name = 'ka_access_kernel'") == 1);
	sqlite3_close(db);
}

static void loop_row(ka_facts_writer *fw, int64_t id, int depth)
{
	ka_facts_row r;
	ka_facts_begin(&r, fw, KA_TABLE(loop));
	ka_facts_int(&r, KA_COL(loop, id), id);
	ka_facts_text(&r, KA_COL(loop, kind), "for");
	ka_facts_int(&r, KA_COL(loop, depth), depth);
	ka_facts_opt(&r, KA_COL(loop, trip_count), depth > 0, 8);
	ka_facts_loc loc = {"k.cu", 3, 5, 4, 6, 10, -1};
	ka_facts_loc_set(&r, &loc);
	ka_facts_insert(&r);
}

/* Values land in their columns; what is not set (or set unknown) is NULL;
 * the one statement per table serves every row. */
static void test_writer_rows(void **state)
{
	(void)state;
	sqlite3 *db;
	ka_facts_writer *fw;
	assert_int_equal(ka_facts_open(&db), KA_OK);
	assert_int_equal(ka_facts_writer_new(&fw, db), KA_OK);
	for (int i = 0; i < 1000; i++)
		loop_row(fw, 100 + i, i % 3);
	ka_facts_row r;
	ka_facts_begin(&r, fw, KA_TABLE(call));
	ka_facts_real(&r, KA_COL(call, arg1_const), 2.5);
	ka_facts_textn(&r, KA_COL(call, callee), "powfXXXX", 4);
	ka_facts_text(&r, KA_COL(call, func), NULL);
	ka_facts_insert(&r);
	assert_int_equal(ka_facts_writer_check(fw), KA_OK);
	assert_int_equal(ka_facts_writer_rows(fw), 1001);
	assert_int_equal(count(db, "SELECT count(*) FROM loop"), 1000);
	assert_int_equal(count(db, "SELECT count(*) FROM loop WHERE trip_count IS NULL"), 334);
	assert_int_equal(count(db, "SELECT count(*) FROM loop WHERE file = 'k.cu' AND line = 3 "
				   "AND col = 5 AND end_line = 4 AND end_col = 6 AND begin_off = 10 "
				   "AND end_off IS NULL AND iv IS NULL AND kind = 'for'"),
			 1000);
	assert_int_equal(count(db, "SELECT sum(id) FROM loop"), 1000 * 100 + 999 * 1000 / 2);
	assert_int_equal(count(db, "SELECT count(*) FROM call WHERE callee = 'powf' AND "
				   "arg1_const = 2.5 AND func IS NULL AND id IS NOT NULL"),
			 1);
	ka_facts_writer_free(fw);
	sqlite3_close(db);
}

/* A column of another table is a sticky error: that row and every row
 * after it are dropped, and the check reports the first failure. */
static void test_writer_sticky_wrong_table(void **state)
{
	(void)state;
	sqlite3 *db;
	ka_facts_writer *fw;
	assert_int_equal(ka_facts_open(&db), KA_OK);
	assert_int_equal(ka_facts_writer_new(&fw, db), KA_OK);
	loop_row(fw, 1, 0);
	ka_facts_row r;
	ka_facts_begin(&r, fw, KA_TABLE(loop));
	ka_facts_text(&r, KA_COL(branch, cond_text), "i < n");
	ka_facts_insert(&r);
	loop_row(fw, 2, 0);
	ka_error_clear();
	assert_int_equal(ka_facts_writer_check(fw), KA_ERR);
	assert_string_equal(ka_error_last(), "facts: column branch.cond_text set on a loop row");
	assert_int_equal(count(db, "SELECT count(*) FROM loop"), 1);
	assert_int_equal(ka_facts_writer_rows(fw), 1);
	ka_facts_writer_free(fw);
	sqlite3_close(db);
}

/* An SQLite failure is sticky too, with SQLite's message and the table;
 * a table that keeps the first row of a key drops a duplicate quietly. */
static void test_writer_sticky_sqlite(void **state)
{
	(void)state;
	sqlite3 *db;
	ka_facts_writer *fw;
	assert_int_equal(ka_facts_open(&db), KA_OK);
	assert_int_equal(ka_facts_writer_new(&fw, db), KA_OK);
	for (int i = 0; i < 2; i++) {
		ka_facts_row r;
		ka_facts_begin(&r, fw, KA_TABLE(line));
		ka_facts_text(&r, KA_COL(line, file), "a.cu");
		ka_facts_int(&r, KA_COL(line, line), 1);
		ka_facts_text(&r, KA_COL(line, text), i ? "second" : "first");
		ka_facts_insert(&r);
	}
	assert_int_equal(ka_facts_writer_check(fw), KA_OK);
	assert_int_equal(count(db, "SELECT count(*) FROM line WHERE text = 'first'"), 1);
	assert_int_equal(count(db, "SELECT count(*) FROM line"), 1);
	loop_row(fw, 7, 0);
	loop_row(fw, 7, 1); /* the same id */
	loop_row(fw, 8, 0);
	assert_int_equal(ka_facts_writer_check(fw), KA_ERR);
	assert_non_null(strstr(ka_error_last(), "UNIQUE constraint failed"));
	assert_non_null(strstr(ka_error_last(), "(loop)"));
	assert_int_equal(count(db, "SELECT count(*) FROM loop"), 1);
	ka_facts_writer_free(fw);
	sqlite3_close(db);
}

/* A location on a table that has none is a programming error, reported. */
static void test_writer_loc_needs_columns(void **state)
{
	(void)state;
	sqlite3 *db;
	ka_facts_writer *fw;
	assert_int_equal(ka_facts_open(&db), KA_OK);
	assert_int_equal(ka_facts_writer_new(&fw, db), KA_OK);
	ka_facts_row r;
	ka_facts_begin(&r, fw, KA_TABLE(arch));
	ka_facts_loc loc = {"k.cu", 1, 1, 1, 1, 0, 0};
	ka_facts_loc_set(&r, &loc);
	ka_facts_insert(&r);
	assert_int_equal(ka_facts_writer_check(fw), KA_ERR);
	assert_string_equal(ka_error_last(), "facts: table arch has no location column file");
	assert_int_equal(count(db, "SELECT count(*) FROM arch"), 0);
	assert_int_equal(ka_facts_writer_fail(fw, KA_EIO, "later"), KA_EIO);
	ka_facts_writer_check(fw);
	assert_string_equal(ka_error_last(), "facts: table arch has no location column file");
	ka_facts_writer_free(fw);
	sqlite3_close(db);
}

/* test_docs.c */
void test_docs_every_column(void **state);
void test_docs_no_stale_column(void **state);

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema_matches_list),       cmocka_unit_test(test_writer_rows),
		cmocka_unit_test(test_writer_sticky_wrong_table), cmocka_unit_test(test_writer_sticky_sqlite),
		cmocka_unit_test(test_writer_loc_needs_columns),  cmocka_unit_test(test_docs_every_column),
		cmocka_unit_test(test_docs_no_stale_column),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
