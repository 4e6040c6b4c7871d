/* tests/rules/test_main.c: the rules module's unit tests (cmocka), plus
 * the helpers they share: facts databases filled by INSERTs, so the engine
 * is tested without parsing anything. */
#include "test_rules.h"

sqlite3 *test_facts(void)
{
	sqlite3 *db = NULL;
	assert_int_equal(ka_facts_open(&db), KA_OK);
	assert_int_equal(ka_sql_register(db), KA_OK);
	return db;
}

void test_exec(sqlite3 *db, const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "SQL failed: %s\n%s\n", err, sql);
		sqlite3_free(err);
		fail();
	}
}

ka_ruleset *test_rule(const char *id, const char *severity, const char *scope, const char *where,
		      const char *message)
{
	char text[4096];
	ka_ruleset *rs;
	snprintf(
		text, sizeof text,
		"---\nid: %s\ntitle: t\nseverity: %s\ncategory: memory\nscope: %s\nwhere: \"%s\"\nmessage: \"%s\"\n---\nbody\n",
		id, severity, scope, where, message);
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_add_text(rs, "t.md", text, strlen(text), 0, 0), KA_OK);
	if (ka_ruleset_check(rs) != KA_OK) {
		fprintf(stderr, "%s", ka_ruleset_errors(rs));
		fail();
	}
	return rs;
}

int main(void)
{
	int failed = 0;
	failed += run_loader_tests();
	failed += run_engine_tests();
	failed += run_select_tests();
	failed += run_suppress_tests();
	failed += run_report_tests();
	failed += run_baseline_tests();
	failed += run_examples_tests();
	failed += run_bounds_tests();
	failed += run_utf8_tests();
	return failed ? 1 : 0;
}
