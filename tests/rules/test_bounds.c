/* tests/rules/test_bounds.c: rule SQL cannot hang a run or eat the
 * machine (limits and per-rule budgets), rule errors say what went wrong
 * in one line that names the rule, load-time checks agree with what
 * happens at evaluation, and regexp() runs under PCRE2 limits. */
#include "test_rules.h"
#include <unistd.h>

static const char ONE_KERNEL[] =
	"INSERT INTO file(path, lang, is_main) VALUES ('k.cu', 'cuda', 1);"
	"INSERT INTO kernel(id, name, kernel, file, line) VALUES (1, 'k', 'k', 'k.cu', 1);"
	"INSERT INTO line VALUES ('k.cu', 1, '__global__ void k() {}');";

/* Evaluate one rule on a one-kernel database; returns the status and
 * leaves the message in ka_error_last(). */
static int eval_one(const char *id, const char *where, const ka_sql_budget *b)
{
	sqlite3 *db = test_facts();
	test_exec(db, ONE_KERNEL);
	ka_ruleset *rs = test_rule(id, "warning", "kernel", where, "m");
	ka_eval_opts o = KA_EVAL_OPTS_INIT;
	o.budget = b;
	ka_findings fs = KA_FINDINGS_INIT;
	int rc = ka_rules_eval(rs, db, &o, &fs);
	ka_findings_free(&fs);
	ka_ruleset_free(rs);
	sqlite3_close(db);
	return rc;
}

#define ENDLESS "(WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n) > 0"

static void endless_cte_stops(void **state)
{
	alarm(120); /* without a budget this never returns */
	assert_int_equal(eval_one("test-endless", ENDLESS, NULL), KA_EINPUT);
	/* steps or time, whichever runs out first on this machine */
	assert_true(strncmp(ka_error_last(), "t.md: rule test-endless: stopped: ran ", 38) == 0);
	ka_sql_budget small = {100000, 10000, 256 << 20};
	assert_int_equal(eval_one("test-endless", ENDLESS, &small), KA_EINPUT);
	assert_string_equal(ka_error_last(), "t.md: rule test-endless: stopped: ran more than 100000 "
					     "SQL steps (the budget of one rule; see docs/security.md)");
	alarm(0);
}

static void slow_steps_stop_on_time(void **state)
{
	ka_sql_budget b = {200000000, 200, 256 << 20};
	alarm(120);
	assert_int_equal(eval_one("test-slow",
				  "(WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
				  "SELECT count(*) FROM n WHERE length(randomblob(100000)) > 0) > 0",
				  &b),
			 KA_EINPUT);
	assert_string_equal(ka_error_last(), "t.md: rule test-slow: stopped: ran longer than 200 ms "
					     "(the budget of one rule; see docs/security.md)");
	alarm(0);
}

static void huge_values_refused(void **state)
{
	sqlite3_memory_highwater(1);
	assert_int_equal(eval_one("test-blob", "length(randomblob(999999999)) > 0", NULL), KA_EINPUT);
	assert_string_equal(ka_error_last(), "t.md: rule test-blob: string or blob too big");
	assert_int_equal(eval_one("test-blob", "length(zeroblob(999999999) || 'x') > 0", NULL), KA_EINPUT);
	assert_string_equal(ka_error_last(), "t.md: rule test-blob: string or blob too big");
	assert_true(sqlite3_memory_highwater(1) < (16 << 20));
}

/* 2,000 rows of 500 kB through a sort: 1 GB without a bound.  The rows
 * spill to disk, and setting up the merge then reads a row per spilled
 * run in one step: the heap's hard limit stops that step. */
#define PILE \
	"(SELECT count(*) FROM (SELECT zeroblob(500000) || x AS v FROM " \
	"(WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2000) SELECT x FROM n) " \
	"ORDER BY v)) > 0"

static void piled_rows_stop_on_heap(void **state)
{
	long long before = sqlite3_hard_heap_limit64(64 << 20);
	/* the default budget's 10 s can run out first on a loaded machine:
	 * here only the heap's limit may stop it */
	ka_sql_budget roomy = {200000000, 600000, 256LL << 20};
	sqlite3_memory_highwater(1);
	alarm(120);
	assert_int_equal(eval_one("test-pile", PILE, &roomy), KA_EINPUT);
	assert_string_equal(ka_error_last(), "t.md: rule test-pile: stopped: out of memory "
					     "(SQLite's heap is limited to 64 MB)");
	assert_true(sqlite3_memory_highwater(1) <= (64 << 20));
	sqlite3_hard_heap_limit64(before);
	/* rows that pile up in memory step by step meet the rule's own budget */
	ka_sql_budget b = {200000000, 60000, 1 << 20};
	assert_int_equal(eval_one("test-pile", PILE, &b), KA_EINPUT);
	assert_string_equal(ka_error_last(), "t.md: rule test-pile: stopped: used more than 1 MB of memory "
					     "(the budget of one rule; see docs/security.md)");
	alarm(0);
}

/* The load check of one rule: its first error line, or "" when it loads. */
static const char *load_error(const char *where)
{
	static char line[1024];
	char text[8192];
	ka_ruleset *rs;
	snprintf(text, sizeof text,
		 "---\nid: test-load\ntitle: t\nseverity: note\ncategory: memory\n"
		 "scope: kernel\nwhere: \"%s\"\nmessage: m\n---\n",
		 where);
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_add_text(rs, "t.md", text, strlen(text), 0, 0), KA_OK);
	line[0] = '\0';
	if (ka_ruleset_check(rs) != KA_OK)
		snprintf(line, sizeof line, "%s", ka_ruleset_errors(rs));
	ka_ruleset_free(rs);
	return line;
}

static void limits_apply_at_load(void **state)
{
	char sql[4096] = "id IN (SELECT 1";
	for (int i = 0; i < KA_SQL_MAX_COMPOUND + 4; i++)
		strcat(sql, " UNION ALL SELECT 1");
	strcat(sql, ")");
	assert_string_equal(load_error(sql), "t.md:7: where: too many terms in compound SELECT\n");
	strcpy(sql, "id = 1");
	for (int i = 0; i < KA_SQL_MAX_DEPTH + 10; i++)
		strcat(sql, " + 1");
	assert_string_equal(load_error(sql),
			    "t.md:7: where: Expression tree is too large (maximum depth 200)\n");
	assert_string_equal(load_error("id = 1 + 1 + 1"), "");
}

/* pragma_table_info passed the load check (check.c had already used it)
 * and was then denied at evaluation as "a schema change". */
static void pragma_functions_denied_at_load_and_eval(void **state)
{
	assert_string_equal(
		load_error("EXISTS (SELECT 1 FROM pragma_table_info('kernel'))"),
		"t.md:7: where: not allowed in a rule: PRAGMA (pragma_table_info) (rule SQL is read-only)\n");
	sqlite3 *db = test_facts();
	sqlite3_stmt *st = NULL;
	assert_int_equal(ka_sql_prepare_readonly(db,
						 "SELECT * FROM kernel WHERE EXISTS "
						 "(SELECT 1 FROM pragma_table_info('kernel'))",
						 &st),
			 KA_EINPUT);
	assert_string_equal(ka_error_last(),
			    "not allowed in a rule: PRAGMA (pragma_table_info) (rule SQL is read-only)");
	/* one that was never used on the connection says the same */
	assert_int_equal(ka_sql_prepare_readonly(db,
						 "SELECT * FROM kernel WHERE EXISTS "
						 "(SELECT 1 FROM pragma_index_list('kernel'))",
						 &st),
			 KA_EINPUT);
	assert_string_equal(ka_error_last(),
			    "not allowed in a rule: PRAGMA (pragma_index_list) (rule SQL is read-only)");
	assert_string_equal(
		load_error("EXISTS (SELECT 1 FROM pragma_index_list('kernel'))"),
		"t.md:7: where: not allowed in a rule: PRAGMA (pragma_index_list) (rule SQL is read-only)\n");
	/* the schema itself stays out of reach */
	assert_int_equal(ka_sql_prepare_readonly(db, "UPDATE sqlite_master SET sql = 'x'", &st), KA_EINPUT);
	assert_null(st);
	/* json_each is a read-only table function: fine at load and at evaluation */
	assert_string_equal(load_error("id IN (SELECT value FROM json_each('[1, 2]'))"), "");
	assert_int_equal(ka_sql_prepare_readonly(db,
						 "SELECT * FROM kernel WHERE id IN "
						 "(SELECT value FROM json_each('[1, 2]'))",
						 &st),
			 KA_OK);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* An error at evaluation used to be formatted into its own buffer. */
static void eval_error_names_rule_once(void **state)
{
	sqlite3 *db = test_facts();
	test_exec(db, ONE_KERNEL);
	ka_ruleset *rs = test_rule("test-gone", "note", "kernel",
				   "EXISTS (SELECT 1 FROM launch WHERE launch.kernel_id = kernel.id)", "m");
	test_exec(db, "DROP TABLE launch");
	ka_findings fs = KA_FINDINGS_INIT;
	assert_int_equal(ka_rules_eval(rs, db, NULL, &fs), KA_EINPUT);
	assert_string_equal(ka_error_last(), "t.md: rule test-gone: no such table: launch");
	ka_findings_free(&fs);
	ka_ruleset_free(rs);
	sqlite3_close(db);
}

static void regex_check_reads_whole_pattern(void **state)
{
	assert_int_equal(ka_sql_check_regexes("regexp('ab' || '(', text)"), KA_EINPUT);
	assert_string_equal(ka_error_last(),
			    "bad regular expression 'ab(': missing closing parenthesis at offset 3");
	assert_int_equal(ka_sql_check_regexes("text REGEXP 'x' || 'y' || '['"), KA_EINPUT);
	assert_string_equal(
		ka_error_last(),
		"bad regular expression 'xy[': missing terminating ] for character class at offset 3");
	/* not constant: left to evaluation */
	assert_int_equal(ka_sql_check_regexes("regexp('(' || name, text)"), KA_OK);
	assert_int_equal(ka_sql_check_regexes("regexp('a' || 'b', text) AND text REGEXP '^x'"), KA_OK);
	/* a pattern longer than 1,023 bytes is read whole */
	char sql[3000] = "regexp('";
	memset(sql + 8, 'a', 1500);
	strcpy(sql + 1508, "(', text)");
	assert_int_equal(ka_sql_check_regexes(sql), KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "missing closing parenthesis at offset 1501"));
}

static void regexp_reports_pcre2_reason(void **state)
{
	alarm(120);
	assert_int_equal(eval_one("test-backtrack",
				  "regexp('^(a+)+$', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab')", NULL),
			 KA_EINPUT);
	assert_string_equal(
		ka_error_last(),
		"t.md: rule test-backtrack: regexp: matching '^(a+)+$' failed: match limit exceeded");
	alarm(0);
	/* an ordinary pattern still matches */
	assert_int_equal(eval_one("test-fine", "regexp('^a+b$', 'aaab')", NULL), KA_OK);
}

int run_bounds_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(endless_cte_stops),
		cmocka_unit_test(slow_steps_stop_on_time),
		cmocka_unit_test(huge_values_refused),
		cmocka_unit_test(piled_rows_stop_on_heap),
		cmocka_unit_test(limits_apply_at_load),
		cmocka_unit_test(pragma_functions_denied_at_load_and_eval),
		cmocka_unit_test(eval_error_names_rule_once),
		cmocka_unit_test(regex_check_reads_whole_pattern),
		cmocka_unit_test(regexp_reports_pcre2_reason),
	};
	return cmocka_run_group_tests_name("bounds", tests, NULL, NULL);
}
