/* tests/knowledge/test_kdb_main.c: the knowledge DB's unit tests (cmocka)
 * and their helpers: every test works on its own DB file in a fresh
 * folder under /tmp. */
#define _XOPEN_SOURCE 700
#include "test_kdb.h"
#include <ftw.h>
#include <stdlib.h>

void tk_tmpdir(char *buf, size_t cap)
{
	snprintf(buf, cap, "/tmp/ka-kdb-test-XXXXXX");
	assert_non_null(mkdtemp(buf));
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

void tk_rmdir(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

ka_kdb *tk_open(const char *dir, char *path, size_t cap)
{
	ka_kdb *k = NULL;
	snprintf(path, cap, "%s/k.db", dir);
	int rc = ka_kdb_open(&k, path, KA_KDB_CREATE);
	if (rc != KA_OK)
		fprintf(stderr, "%s\n", ka_error_last());
	assert_int_equal(rc, KA_OK);
	return k;
}

void tk_evidence(ka_kdb *k, const char *rule, const char *task, const char *arch, const char *verdict,
		 double speedup)
{
	ka_kdb_evidence e = {.rule = rule,
			     .task = task,
			     .arch = arch,
			     .verdict = verdict,
			     .speedup = speedup,
			     .gpu = "NVIDIA H200",
			     .fix = "recipe-x",
			     .ci_low = speedup * 0.95,
			     .ci_high = speedup * 1.05};
	int rc = ka_kdb_add_evidence(k, &e, NULL);
	if (rc != KA_OK)
		fprintf(stderr, "%s\n", ka_error_last());
	assert_int_equal(rc, KA_OK);
}

void tk_sql(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	char *err = NULL;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "SQL failed: %s\n", err);
		sqlite3_free(err);
		fail();
	}
	sqlite3_close(db);
}

long long tk_int(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	long long v = -1;
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

void tk_rule_text(char *buf, size_t cap, const char *id, const char *words)
{
	snprintf(buf, cap,
		 "---\nid: %s\ntitle: \"Learned %s\"\nseverity: warning\ncategory: memory\nscope: access\n"
		 "where: space = 'global' AND coef_tx = 0\nmessage: \"{base}[{index_text}] learned\"\n"
		 "fix: none\nfix_safety: suggest\ntags: [learned]\n---\n## Why\n\n%s\n",
		 id, words, words);
}

int main(void)
{
	int failed = 0;
	failed += _cmocka_run_group_tests("knowledge_open", tk_open_tests, tk_open_ntests, NULL, NULL);
	failed += _cmocka_run_group_tests("knowledge_standing", tk_standing_tests, tk_standing_ntests, NULL,
					  NULL);
	failed += _cmocka_run_group_tests("knowledge_share", tk_share_tests, tk_share_ntests, NULL, NULL);
	return failed ? 1 : 0;
}
