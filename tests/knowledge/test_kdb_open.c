/* tests/knowledge/test_kdb_open.c: opening, the default path, migrations,
 * refusing foreign files, concurrent writers and crash safety. */
#include "test_kdb.h"
#include "util/fs.h"
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void default_path_follows_xdg(void **state)
{
	char buf[4096], *old_xdg = getenv("XDG_DATA_HOME") ? strdup(getenv("XDG_DATA_HOME")) : NULL;
	setenv("XDG_DATA_HOME", "/data/x", 1);
	assert_int_equal(ka_kdb_default_path(buf, sizeof buf), KA_OK);
	assert_string_equal(buf, "/data/x/kernelarc/knowledge.db");
	setenv("XDG_DATA_HOME", "relative/ignored", 1); /* the spec: relative values are ignored */
	setenv("HOME", "/home/u", 1);
	assert_int_equal(ka_kdb_default_path(buf, sizeof buf), KA_OK);
	assert_string_equal(buf, "/home/u/.local/share/kernelarc/knowledge.db");
	unsetenv("XDG_DATA_HOME");
	unsetenv("HOME");
	assert_int_equal(ka_kdb_default_path(buf, sizeof buf), KA_ENOTFOUND);
	if (old_xdg)
		setenv("XDG_DATA_HOME", old_xdg, 1);
	free(old_xdg);
}

static void missing_file_is_not_created(void **state)
{
	char dir[256], path[512];
	ka_kdb *k = NULL;
	tk_tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/sub/k.db", dir);
	assert_int_equal(ka_kdb_open(&k, path, 0), KA_ENOTFOUND);
	assert_int_equal(ka_kdb_open(&k, path, KA_KDB_READONLY), KA_ENOTFOUND);
	assert_null(k);
	assert_false(ka_fs_exists(path));
	/* with CREATE, the folder is made too */
	assert_int_equal(ka_kdb_open(&k, path, KA_KDB_CREATE), KA_OK);
	ka_kdb_close(k);
	assert_true(ka_fs_exists(path));
	assert_int_equal(tk_int(path, "PRAGMA user_version"), KA_KDB_SCHEMA_VERSION);
	tk_rmdir(dir);
}

static void new_db_is_wal_and_versioned(void **state)
{
	char dir[256], path[512];
	tk_tmpdir(dir, sizeof dir);
	ka_kdb *k = tk_open(dir, path, sizeof path);
	ka_kdb_close(k);
	sqlite3 *db;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	sqlite3_close(db);
	assert_int_equal(tk_int(path, "PRAGMA application_id"), 0x4B414B42);
	tk_rmdir(dir);
}

static void old_version_is_migrated(void **state)
{
	char dir[256], path[512], *sql = NULL;
	ka_kdb *k = NULL;
	tk_tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/old.db", dir);
	assert_int_equal(ka_fs_read(FIXTURES "/knowledge_v1.sql", 0, &sql, NULL), KA_OK);
	tk_sql(path, sql);
	free(sql);
	assert_int_equal(tk_int(path, "PRAGMA user_version"), 1);
	/* a read-only open cannot migrate, and says so */
	assert_int_equal(ka_kdb_open(&k, path, KA_KDB_READONLY), KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "has schema version 1; open it once with write access"));
	assert_int_equal(ka_kdb_open(&k, path, 0), KA_OK);
	assert_int_equal(tk_int(path, "PRAGMA user_version"), KA_KDB_SCHEMA_VERSION);
	/* every row kept, the new columns there */
	assert_int_equal(tk_int(path, "SELECT count(*) FROM evidence"), 2);
	assert_int_equal(tk_int(path, "SELECT count(*) FROM evidence WHERE fix IS NULL"), 2);
	assert_int_equal(tk_int(path, "SELECT count(*) FROM trajectory WHERE task IS NULL"), 1);
	ka_kdb_standing s;
	assert_int_equal(ka_kdb_standing_get(k, "atomic-hot-bins", NULL, "sm_90", &s), KA_OK);
	assert_int_equal(s.wins, 1);
	assert_int_equal(s.failures, 1);
	/* the FTS index was filled from the rows already there */
	const char *feat[] = {"privatize"};
	ka_kdb_hit hits[4];
	int n = 0;
	assert_int_equal(ka_kdb_retrieve(k, "rule", feat, 1, hits, 4, &n), KA_OK);
	assert_int_equal(n, 1);
	assert_string_equal(hits[0].id, "atomic-hot-bins");
	/* and a new row goes through the new schema */
	ka_kdb_evidence e = {.rule = "atomic-hot-bins",
			     .fix = "smem-privatize",
			     .arch = "sm_90",
			     .verdict = "faster",
			     .speedup = 5.0};
	assert_int_equal(ka_kdb_add_evidence(k, &e, NULL), KA_OK);
	ka_kdb_close(k);
	/* opening again changes nothing */
	assert_int_equal(ka_kdb_open(&k, path, KA_KDB_READONLY), KA_OK);
	ka_kdb_close(k);
	assert_int_equal(tk_int(path, "SELECT count(*) FROM evidence WHERE fix = 'smem-privatize'"), 1);
	tk_rmdir(dir);
}

static void newer_and_foreign_files_are_refused(void **state)
{
	char dir[256], path[512], other[512], msg[1024];
	ka_kdb *k = NULL;
	tk_tmpdir(dir, sizeof dir);
	k = tk_open(dir, path, sizeof path);
	ka_kdb_close(k);
	tk_sql(path, "PRAGMA user_version = 99");
	assert_int_equal(ka_kdb_open(&k, path, 0), KA_EINPUT);
	snprintf(msg, sizeof msg, "knowledge DB %s has schema version 99, newer than this kcheck (%d)", path,
		 KA_KDB_SCHEMA_VERSION);
	assert_string_equal(ka_error_last(), msg);
	snprintf(other, sizeof other, "%s/other.db", dir);
	tk_sql(other, "CREATE TABLE t(x)");
	assert_int_equal(ka_kdb_open(&k, other, KA_KDB_CREATE), KA_EINPUT);
	snprintf(msg, sizeof msg, "%s is not a kcheck knowledge DB", other);
	assert_string_equal(ka_error_last(), msg);
	assert_int_equal(tk_int(other, "SELECT count(*) FROM sqlite_master"), 1); /* untouched */
	tk_rmdir(dir);
}

/* A file whose schema is not exactly the migrations' is refused before any
 * query runs on it: a view in place of a table (an endless recursive
 * query), an extra trigger, an extra view. */
static void foreign_schema_is_refused(void **state)
{
	static const char *const evil[] = {
		"DROP TABLE evidence; CREATE VIEW evidence AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL "
		"SELECT x + 1 FROM r) SELECT 'gmem-x' AS rule, NULL AS fix, NULL AS task, NULL AS kernel_hash,"
		" NULL AS gpu, 'sm_90' AS arch, 2.0 AS speedup, NULL AS ci_low, NULL AS ci_high,"
		" 'faster' AS verdict, x AS at, x AS id FROM r",
		"CREATE TRIGGER t AFTER INSERT ON skills BEGIN DELETE FROM rules; END",
		"CREATE VIEW v AS SELECT * FROM rules",
	};
	char dir[256], path[512], msg[1024];
	tk_tmpdir(dir, sizeof dir);
	for (size_t i = 0; i < sizeof evil / sizeof evil[0]; i++) {
		ka_kdb *k = tk_open(dir, path, sizeof path);
		ka_kdb_close(k);
		tk_sql(path, evil[i]);
		for (int ro = 0; ro < 2; ro++) {
			k = NULL;
			assert_int_equal(ka_kdb_open(&k, path, ro ? KA_KDB_READONLY : 0), KA_EINPUT);
			snprintf(
				msg, sizeof msg,
				"%s is not a kcheck knowledge DB: its schema is not the one kcheck builds (an "
				"extra or changed table, view, index or trigger)",
				path);
			assert_string_equal(ka_error_last(), msg);
			assert_null(k);
		}
		unlink(path);
	}
	tk_rmdir(dir);
}

static int exists(const char *path, const char *suffix)
{
	char p[600];
	snprintf(p, sizeof p, "%s%s", path, suffix);
	return ka_fs_exists(p);
}

/* A read-only open writes nothing beside the file, and reads a WAL file
 * where no -shm can be made (a folder without write access: here a folder
 * in the -shm file's place, which stops root too). */
static void readonly_open_leaves_no_files(void **state)
{
	char dir[256], path[512], shm[600], wal[600];
	ka_kdb_counts c;
	tk_tmpdir(dir, sizeof dir);
	ka_kdb *k = tk_open(dir, path, sizeof path);
	tk_evidence(k, "gmem-x", "t", "sm_90", "faster", 2.0);
	ka_kdb_close(k);
	assert_false(exists(path, "-wal"));
	assert_int_equal(ka_kdb_open(&k, path, KA_KDB_READONLY), KA_OK);
	assert_int_equal(ka_kdb_counts_get(k, &c, NULL), KA_OK);
	assert_int_equal(c.evidence, 1);
	ka_kdb_close(k);
	assert_false(exists(path, "-wal"));
	assert_false(exists(path, "-shm"));
	snprintf(shm, sizeof shm, "%s-shm", path);
	snprintf(wal, sizeof wal, "%s-wal", path);
	assert_int_equal(mkdir(shm, 0700), 0);
	for (int with_wal = 0; with_wal < 2; with_wal++) {
		if (with_wal) /* an empty -wal left by a writer: read normally, that fails, then immutable */
			assert_int_equal(ka_fs_write_atomic(wal, "", 0), KA_OK);
		k = NULL;
		assert_int_equal(ka_kdb_open(&k, path, KA_KDB_READONLY), KA_OK);
		assert_int_equal(ka_kdb_counts_get(k, &c, NULL), KA_OK);
		assert_int_equal(c.evidence, 1);
		ka_kdb_close(k);
	}
	rmdir(shm);
	tk_rmdir(dir);
}

#define PER_WRITER 150

static void writer(const char *path, const char *task)
{
	ka_kdb *k = NULL;
	if (ka_kdb_open(&k, path, KA_KDB_CREATE) != KA_OK)
		_exit(2);
	for (int i = 0; i < PER_WRITER; i++) {
		ka_kdb_evidence e = {.rule = "gmem-uncoalesced-access",
				     .task = task,
				     .arch = "sm_90",
				     .verdict = i % 3 ? "faster" : "slower",
				     .speedup = i % 3 ? 2.0 : 0.9};
		ka_kdb_step s = {.run_id = task, .step = i + 1, .strategy = "x", .outcome = "same"};
		if (ka_kdb_add_evidence(k, &e, NULL) != KA_OK || ka_kdb_add_step(k, &s) != KA_OK) {
			fprintf(stderr, "writer %s: %s\n", task, ka_error_last());
			_exit(3);
		}
	}
	ka_kdb_close(k);
	_exit(0);
}

/* Two processes open the same new file at once (both migrate it, once) and
 * write evidence and steps as fast as they can: every row arrives. */
static void concurrent_writers_lose_nothing(void **state)
{
	char dir[256], path[512];
	pid_t pid[2];
	tk_tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/k.db", dir);
	for (int i = 0; i < 2; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (pid[i] == 0)
			writer(path, i ? "task-b" : "task-a");
	}
	for (int i = 0; i < 2; i++) {
		int status = 0;
		assert_int_equal(waitpid(pid[i], &status, 0), pid[i]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_int_equal(tk_int(path, "SELECT count(*) FROM evidence"), 2 * PER_WRITER);
	assert_int_equal(tk_int(path, "SELECT count(*) FROM trajectory"), 2 * PER_WRITER);
	assert_int_equal(tk_int(path, "SELECT count(DISTINCT task) FROM evidence"), 2);
	ka_kdb *k = NULL;
	ka_kdb_standing s;
	assert_int_equal(ka_kdb_open(&k, path, 0), KA_OK);
	assert_int_equal(ka_kdb_standing_get(k, "gmem-uncoalesced-access", NULL, "sm_90", &s), KA_OK);
	assert_int_equal(s.wins, 2 * (PER_WRITER - PER_WRITER / 3));
	assert_int_equal(s.failures, 2 * (PER_WRITER / 3));
	ka_kdb_close(k);
	tk_rmdir(dir);
}

/* A process that dies in the middle of a transaction, after committing
 * others, loses exactly the uncommitted row. */
static void crash_keeps_committed_evidence(void **state)
{
	char dir[256], path[512];
	tk_tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/k.db", dir);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		ka_kdb *k = NULL;
		if (ka_kdb_open(&k, path, KA_KDB_CREATE) != KA_OK)
			_exit(2);
		for (int i = 0; i < 5; i++) {
			ka_kdb_evidence e = {
				.rule = "r-one", .arch = "sm_90", .verdict = "same", .speedup = 1.0};
			if (ka_kdb_add_evidence(k, &e, NULL) != KA_OK)
				_exit(3);
		}
		sqlite3 *raw = NULL; /* a second connection begins a write and never ends it */
		sqlite3_open(path, &raw);
		sqlite3_exec(raw,
			     "BEGIN IMMEDIATE; INSERT INTO evidence(rule, arch, verdict, at)"
			     " VALUES ('r-one', 'sm_90', 'faster', 1)",
			     NULL, NULL, NULL);
		abort();
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	ka_kdb *k = NULL;
	assert_int_equal(ka_kdb_open(&k, path, 0), KA_OK);
	ka_kdb_close(k);
	assert_int_equal(tk_int(path, "SELECT count(*) FROM evidence"), 5);
	assert_int_equal(tk_int(path, "SELECT count(*) FROM evidence WHERE verdict = 'faster'"), 0);
	tk_rmdir(dir);
}

static void bad_input_is_refused(void **state)
{
	char dir[256], path[512];
	tk_tmpdir(dir, sizeof dir);
	ka_kdb *k = tk_open(dir, path, sizeof path);
	ka_kdb_evidence e = {.rule = "r-one", .arch = "sm_90", .verdict = "won"};
	assert_int_equal(ka_kdb_add_evidence(k, &e, NULL), KA_EINPUT);
	assert_string_equal(ka_error_last(),
			    "evidence for r-one: unknown verdict 'won' (faster, same, slower, "
			    "rejected, error)");
	e.verdict = "faster";
	assert_int_equal(ka_kdb_add_evidence(k, &e, NULL), KA_EINPUT);
	assert_string_equal(ka_error_last(), "evidence for r-one: verdict faster without a speedup");
	e.speedup = 2, e.ci_low = 3, e.ci_high = 1;
	assert_int_equal(ka_kdb_add_evidence(k, &e, NULL), KA_EINPUT);
	e.arch = NULL, e.ci_low = 0, e.ci_high = 0;
	assert_int_equal(ka_kdb_add_evidence(k, &e, NULL), KA_EINPUT);
	assert_string_equal(ka_error_last(), "evidence for r-one: no arch");
	ka_kdb_step s = {.run_id = "r", .step = 1, .outcome = "great"};
	assert_int_equal(ka_kdb_add_step(k, &s), KA_EINPUT);
	ka_kdb_close(k);
	assert_int_equal(tk_int(path, "SELECT count(*) FROM evidence"), 0);
	tk_rmdir(dir);
}

const struct CMUnitTest tk_open_tests[] = {
	cmocka_unit_test(default_path_follows_xdg),
	cmocka_unit_test(missing_file_is_not_created),
	cmocka_unit_test(new_db_is_wal_and_versioned),
	cmocka_unit_test(old_version_is_migrated),
	cmocka_unit_test(newer_and_foreign_files_are_refused),
	cmocka_unit_test(foreign_schema_is_refused),
	cmocka_unit_test(readonly_open_leaves_no_files),
	cmocka_unit_test(concurrent_writers_lose_nothing),
	cmocka_unit_test(crash_keeps_committed_evidence),
	cmocka_unit_test(bad_input_is_refused),
};
const size_t tk_open_ntests = sizeof tk_open_tests / sizeof tk_open_tests[0];
