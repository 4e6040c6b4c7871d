/* knowledge/knowledge.c: opening the knowledge DB, its schema and migrations.
 *
 * The schema is a list of migrations, each taking the file from version
 * i to i + 1 (PRAGMA user_version).  Opening runs the missing ones in
 * order inside one BEGIN IMMEDIATE transaction, and reads the version
 * inside that transaction, so two processes opening an old file at once
 * migrate it once.  A migration that fails rolls back: the file stays at
 * its old version, with its data.  Released migrations are never edited;
 * a change is a new entry at the end.
 *
 * The file may come from someone else (a shared team DB), so before any
 * use its schema must be exactly the one the migrations build (tables,
 * indexes, triggers and FTS tables, compared with a copy made in memory;
 * no views, no extra triggers), and every statement runs with the rule
 * engine's limits: sizes, expression depth, no ATTACH, defensive mode,
 * temporary storage in memory, and a budget of steps,
 * time and memory per statement (rules/sqlfn.h).
 *
 * A read-only open never writes beside the file: when no -wal file is
 * there (the last writer checkpointed), the file is opened immutable, so
 * no -wal or -shm file appears and a folder without write access works;
 * when a -wal file is there it is read normally, falling back to immutable
 * (the -wal's last commits unseen) when that fails.
 */
#include "knowledge/knowledge_int.h"
#include "util/buf.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Version 1: rules, evidence, skills, trajectory. */
static const char mig1[] =
	"CREATE TABLE rules(id TEXT PRIMARY KEY, title TEXT, tags TEXT, body TEXT,"
	" text TEXT NOT NULL, text_hash TEXT NOT NULL,"
	" origin TEXT NOT NULL CHECK(origin IN ('builtin','file','learned')),"
	" status TEXT NOT NULL DEFAULT 'stable'"
	"  CHECK(status IN ('stable','preview','candidate','retired')),"
	" added INTEGER NOT NULL, updated INTEGER NOT NULL);"
	"CREATE TABLE evidence(id INTEGER PRIMARY KEY, rule TEXT NOT NULL, task TEXT,"
	" kernel_hash TEXT, gpu TEXT, arch TEXT NOT NULL, speedup REAL, ci_low REAL, ci_high REAL,"
	" verdict TEXT NOT NULL CHECK(verdict IN ('faster','same','slower','rejected','error')),"
	" at INTEGER NOT NULL);"
	"CREATE INDEX evidence_rule ON evidence(rule, arch);"
	"CREATE TABLE skills(hash TEXT NOT NULL, task TEXT NOT NULL, source TEXT NOT NULL,"
	" speedup REAL, at INTEGER NOT NULL, PRIMARY KEY(task, hash));"
	"CREATE TABLE trajectory(run_id TEXT NOT NULL, step INTEGER NOT NULL, role TEXT,"
	" strategy TEXT, params TEXT, candidate_hash TEXT, outcome TEXT, speedup REAL,"
	" error TEXT, at INTEGER NOT NULL, PRIMARY KEY(run_id, step));";

/* Version 2: the fix or recipe behind a piece of evidence, CIs and the
 * task in trajectories, and what a skill is (arch, summary, rules). */
static const char mig2[] = "ALTER TABLE evidence ADD COLUMN fix TEXT;"
			   "ALTER TABLE trajectory ADD COLUMN task TEXT;"
			   "ALTER TABLE trajectory ADD COLUMN ci_low REAL;"
			   "ALTER TABLE trajectory ADD COLUMN ci_high REAL;"
			   "ALTER TABLE skills ADD COLUMN arch TEXT;"
			   "ALTER TABLE skills ADD COLUMN summary TEXT;"
			   "ALTER TABLE skills ADD COLUMN rules TEXT;"
			   "CREATE INDEX evidence_fix ON evidence(fix, arch);";

/* Version 3: FTS5 indexes (external content, kept by triggers) for BM25
 * retrieval, filled from the rows already there. */
static const char mig3[] =
	"CREATE VIRTUAL TABLE rules_fts USING fts5(id, title, tags, body,"
	" content='rules', content_rowid='rowid', tokenize='porter unicode61');"
	"CREATE TRIGGER rules_ai AFTER INSERT ON rules BEGIN"
	" INSERT INTO rules_fts(rowid, id, title, tags, body)"
	"  VALUES (new.rowid, new.id, new.title, new.tags, new.body); END;"
	"CREATE TRIGGER rules_ad AFTER DELETE ON rules BEGIN"
	" INSERT INTO rules_fts(rules_fts, rowid, id, title, tags, body)"
	"  VALUES ('delete', old.rowid, old.id, old.title, old.tags, old.body); END;"
	"CREATE TRIGGER rules_au AFTER UPDATE ON rules BEGIN"
	" INSERT INTO rules_fts(rules_fts, rowid, id, title, tags, body)"
	"  VALUES ('delete', old.rowid, old.id, old.title, old.tags, old.body);"
	" INSERT INTO rules_fts(rowid, id, title, tags, body)"
	"  VALUES (new.rowid, new.id, new.title, new.tags, new.body); END;"
	"INSERT INTO rules_fts(rules_fts) VALUES ('rebuild');"
	"CREATE VIRTUAL TABLE skills_fts USING fts5(task, summary, rules, source,"
	" content='skills', content_rowid='rowid', tokenize='porter unicode61');"
	"CREATE TRIGGER skills_ai AFTER INSERT ON skills BEGIN"
	" INSERT INTO skills_fts(rowid, task, summary, rules, source)"
	"  VALUES (new.rowid, new.task, new.summary, new.rules, new.source); END;"
	"CREATE TRIGGER skills_ad AFTER DELETE ON skills BEGIN"
	" INSERT INTO skills_fts(skills_fts, rowid, task, summary, rules, source)"
	"  VALUES ('delete', old.rowid, old.task, old.summary, old.rules, old.source); END;"
	"CREATE TRIGGER skills_au AFTER UPDATE ON skills BEGIN"
	" INSERT INTO skills_fts(skills_fts, rowid, task, summary, rules, source)"
	"  VALUES ('delete', old.rowid, old.task, old.summary, old.rules, old.source);"
	" INSERT INTO skills_fts(rowid, task, summary, rules, source)"
	"  VALUES (new.rowid, new.task, new.summary, new.rules, new.source); END;"
	"INSERT INTO skills_fts(skills_fts) VALUES ('rebuild');";

/* Version 4: the target a trajectory step was measured on, and a lookup of
 * steps by candidate (a candidate measured before is not benched again). */
static const char mig4[] = "ALTER TABLE trajectory ADD COLUMN arch TEXT;"
			   "CREATE INDEX trajectory_candidate ON trajectory(task, candidate_hash);";

static const char *const migrations[KA_KDB_SCHEMA_VERSION] = {mig1, mig2, mig3, mig4};

int kdb_fail(ka_kdb *k, const char *what)
{
	if (k->meter.why[0])
		return ka_error_set(KA_EIO, "knowledge DB %s: %s: a statement %s", k->path, what,
				    k->meter.why);
	return ka_error_set(KA_EIO, "knowledge DB %s: %s: %s", k->path, what, sqlite3_errmsg(k->db));
}

/* What one statement on the DB may spend. */
static const ka_sql_budget kdb_budget = {1000000000LL, 30000LL, 512LL << 20};

int kdb_begin(ka_kdb *k)
{
	if (k->readonly)
		return ka_error_set(KA_EINPUT, "knowledge DB %s: opened read-only", k->path);
	if (sqlite3_exec(k->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return kdb_fail(k, "cannot begin a transaction");
	return KA_OK;
}

int kdb_commit(ka_kdb *k)
{
	if (sqlite3_exec(k->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		int rc = kdb_fail(k, "cannot commit");
		kdb_rollback(k);
		return rc;
	}
	return KA_OK;
}

void kdb_rollback(ka_kdb *k)
{
	if (!sqlite3_get_autocommit(k->db))
		sqlite3_exec(k->db, "ROLLBACK", NULL, NULL, NULL);
}

int kdb_prepare(ka_kdb *k, const char *sql, sqlite3_stmt **st)
{
	ka_sql_meter_start(k->db, &k->meter, &kdb_budget);
	if (sqlite3_prepare_v2(k->db, sql, -1, st, NULL) != SQLITE_OK)
		return kdb_fail(k, "bad statement");
	return KA_OK;
}

int kdb_cached(ka_kdb *k, int slot, const char *sql, sqlite3_stmt **st)
{
	ka_sql_meter_start(k->db, &k->meter, &kdb_budget);
	if (!k->cached[slot] && sqlite3_prepare_v3(k->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
						   &k->cached[slot], NULL) != SQLITE_OK)
		return kdb_fail(k, "bad statement");
	*st = k->cached[slot];
	sqlite3_reset(*st);
	sqlite3_clear_bindings(*st);
	return KA_OK;
}

void kdb_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

void kdb_bind_real0(sqlite3_stmt *st, int i, double v)
{
	if (v != 0)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

long long kdb_now(void)
{
	return (long long)time(NULL);
}

int kdb_step_done(ka_kdb *k, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return kdb_fail(k, what);
	return KA_OK;
}

int kdb_status_valid(const char *s)
{
	return s && (!strcmp(s, "stable") || !strcmp(s, "preview") || !strcmp(s, "candidate") ||
		     !strcmp(s, "retired"));
}

int ka_kdb_default_path(char *buf, size_t cap)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME"), *env = getenv("KCHECK_DB");
	int n;
	if (env && *env) /* the user's choice, below --db only */
		n = snprintf(buf, cap, "%s", env);
	else if (xdg && xdg[0] == '/') /* the XDG spec: a relative value is ignored */
		n = snprintf(buf, cap, "%s/kernelarc/knowledge.db", xdg);
	else if (home && *home)
		n = snprintf(buf, cap, "%s/.local/share/kernelarc/knowledge.db", home);
	else
		return ka_error_set(KA_ENOTFOUND,
				    "no knowledge DB path: set XDG_DATA_HOME or HOME, or use --db");
	if (n < 0 || (size_t)n >= cap)
		return ka_error_set(KA_ETOOBIG, "knowledge DB path too long");
	return KA_OK;
}

/* mkdir -p of path's folder (mode 0700: the DB holds kernel sources). */
static int make_parent(const char *path)
{
	char dir[4096];
	int n = snprintf(dir, sizeof dir, "%s", path);
	if (n < 0 || (size_t)n >= sizeof dir)
		return ka_error_set(KA_ETOOBIG, "knowledge DB path too long");
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return KA_OK;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return ka_error_set(KA_EIO, "cannot create %s: %s", dir, strerror(errno));
		*p = '/';
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return ka_error_set(KA_EIO, "cannot create %s: %s", dir, strerror(errno));
	return KA_OK;
}

int kdb_int(ka_kdb *k, const char *sql, int *out)
{
	sqlite3_stmt *st = NULL;
	int rc = kdb_prepare(k, sql, &st);
	if (rc == KA_OK && sqlite3_step(st) == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	else if (rc == KA_OK)
		rc = kdb_fail(k, "cannot read a count or setting");
	sqlite3_finalize(st);
	return rc;
}

/* An empty file, or one of ours; anything else is refused. */
static int check_identity(ka_kdb *k, int version)
{
	int app = 0, tables = 0, rc = kdb_int(k, "PRAGMA application_id", &app);
	if (rc == KA_OK)
		rc = kdb_int(k, "SELECT count(*) FROM sqlite_master", &tables);
	if (rc != KA_OK)
		return rc;
	if ((version > 0 && app != KDB_APP_ID) || (version == 0 && tables > 0))
		return ka_error_set(KA_EINPUT, "%s is not a kcheck knowledge DB", k->path);
	if (version > KA_KDB_SCHEMA_VERSION)
		return ka_error_set(KA_EINPUT,
				    "knowledge DB %s has schema version %d, newer than this "
				    "kcheck (%d)",
				    k->path, version, KA_KDB_SCHEMA_VERSION);
	return KA_OK;
}

/* The schema objects of db, one "type name table sql" line each (runs of
 * blanks in the SQL as one space), sorted. */
static int schema_text(sqlite3 *db, ka_buf *out)
{
	sqlite3_stmt *st = NULL;
	int rc = KA_OK, s;
	if (sqlite3_prepare_v2(db,
			       "SELECT type, name, tbl_name, coalesce(sql, '') FROM main.sqlite_schema"
			       " WHERE name NOT LIKE 'sqlite_stat%' ORDER BY type, name",
			       -1, &st, NULL) != SQLITE_OK)
		return KA_EIO;
	while (rc == KA_OK && (s = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < 4 && rc == KA_OK; i++) {
			const char *t = (const char *)sqlite3_column_text(st, i);
			for (int blank = 0; t && *t && rc == KA_OK; t++) {
				int b = *t == ' ' || *t == '\t' || *t == '\n' || *t == '\r';
				if (!b || !blank)
					rc = ka_buf_addc(out, b ? ' ' : *t);
				blank = b;
			}
			rc = rc ? rc : ka_buf_addc(out, i < 3 ? '\t' : '\n');
		}
	}
	if (rc == KA_OK && s != SQLITE_DONE)
		rc = KA_EIO;
	sqlite3_finalize(st);
	return rc;
}

/* The file's schema must be the one migrations 1..version build. */
static int verify_schema(ka_kdb *k, int version)
{
	sqlite3 *mem = NULL;
	ka_buf want, have;
	int rc = KA_OK;
	ka_buf_init(&want, 1 << 20);
	ka_buf_init(&have, 1 << 20);
	if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		rc = ka_error_set(KA_ENOMEM, "out of memory");
	for (int v = 0; rc == KA_OK && v < version; v++)
		if (sqlite3_exec(mem, migrations[v], NULL, NULL, NULL) != SQLITE_OK)
			rc = ka_error_set(KA_EIO, "knowledge DB schema %d: %s", v + 1, sqlite3_errmsg(mem));
	if (rc == KA_OK && schema_text(mem, &want) != KA_OK)
		rc = ka_error_set(KA_EIO, "knowledge DB schema: %s", sqlite3_errmsg(mem));
	if (rc == KA_OK && schema_text(k->db, &have) != KA_OK)
		rc = kdb_fail(k, "cannot read the schema");
	if (rc == KA_OK && (want.len != have.len || (want.len && memcmp(want.data, have.data, want.len))))
		rc = ka_error_set(KA_EINPUT,
				  "%s is not a kcheck knowledge DB: its schema is not the one kcheck "
				  "builds (an extra or changed table, view, index or trigger)",
				  k->path);
	sqlite3_close(mem);
	ka_buf_free(&want);
	ka_buf_free(&have);
	return rc;
}

static int migrate(ka_kdb *k)
{
	int version = 0, rc = kdb_int(k, "PRAGMA user_version", &version);
	if (rc == KA_OK)
		rc = check_identity(k, version);
	if (rc == KA_OK && version > 0)
		rc = verify_schema(k, version);
	if (rc != KA_OK || version == KA_KDB_SCHEMA_VERSION)
		return rc;
	if (k->readonly)
		return ka_error_set(KA_EINPUT,
				    "knowledge DB %s has schema version %d; open it once "
				    "with write access to migrate it to %d",
				    k->path, version, KA_KDB_SCHEMA_VERSION);
	if ((rc = kdb_begin(k)) != KA_OK)
		return rc;
	/* Read again under the write lock: another process may have migrated. */
	if ((rc = kdb_int(k, "PRAGMA user_version", &version)) == KA_OK)
		rc = check_identity(k, version);
	if (rc == KA_OK && version > 0)
		rc = verify_schema(k, version);
	for (int v = version; rc == KA_OK && v < KA_KDB_SCHEMA_VERSION; v++) {
		char what[64];
		snprintf(what, sizeof what, "migration to version %d", v + 1);
		if (sqlite3_exec(k->db, migrations[v], NULL, NULL, NULL) != SQLITE_OK)
			rc = kdb_fail(k, what);
	}
	if (rc == KA_OK && version < KA_KDB_SCHEMA_VERSION) {
		char sql[96];
		snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d", KDB_APP_ID,
			 KA_KDB_SCHEMA_VERSION);
		if (sqlite3_exec(k->db, sql, NULL, NULL, NULL) != SQLITE_OK)
			rc = kdb_fail(k, "cannot set the schema version");
	}
	if (rc != KA_OK) {
		kdb_rollback(k);
		return rc;
	}
	return kdb_commit(k);
}

/* PRAGMA journal_mode = WAL, waiting out another process that holds the
 * file: switching a new file to WAL takes an exclusive lock, and SQLite
 * answers SQLITE_BUSY at once there instead of calling the busy handler
 * (two runs that create one DB together: one of them failed with
 * "database is locked").  Up to the busy timeout, 10 s. */
static int set_wal(sqlite3 *db)
{
	int rc = SQLITE_BUSY;
	for (int i = 0; i < 400; i++) {
		rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
		if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			break;
		sqlite3_sleep(25);
	}
	return rc;
}

/* "file:PATH?mode=ro[&immutable=1]" with PATH percent-encoded. */
static char *ro_uri(const char *path, int immutable)
{
	ka_buf b;
	ka_buf_init(&b, 64 << 10);
	int rc = ka_buf_adds(&b, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p && !rc; p++)
		rc = isalnum(*p) || strchr("/-._~", *p) ? ka_buf_addc(&b, (char)*p)
							: ka_buf_printf(&b, "%%%02X", *p);
	if (!rc)
		rc = ka_buf_adds(&b, immutable ? "?mode=ro&immutable=1" : "?mode=ro");
	if (rc) {
		ka_buf_free(&b);
		return NULL;
	}
	return ka_buf_steal(&b);
}

/* The rule engine's limits on one connection (rules/sqlfn.h). */
static void bound(sqlite3 *db)
{
	static const struct {
		int id, value;
	} lim[] = {
		{SQLITE_LIMIT_LENGTH, 256 << 20},
		{SQLITE_LIMIT_SQL_LENGTH, KA_SQL_MAX_SQL},
		{SQLITE_LIMIT_EXPR_DEPTH, KA_SQL_MAX_DEPTH},
		{SQLITE_LIMIT_COMPOUND_SELECT, KA_SQL_MAX_COMPOUND},
		{SQLITE_LIMIT_ATTACHED, 0},
		{SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 1000},
		{SQLITE_LIMIT_TRIGGER_DEPTH, 2},
		{SQLITE_LIMIT_WORKER_THREADS, 0},
	};
	for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++)
		sqlite3_limit(db, lim[i].id, lim[i].value);
	/* the schema stays trusted: it is verified to be ours (verify_schema),
	 * and our FTS triggers write to virtual tables */
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
	sqlite3_exec(db, "PRAGMA temp_store = MEMORY", NULL, NULL, NULL);
	if (sqlite3_hard_heap_limit64(-1) == 0)
		sqlite3_hard_heap_limit64(KA_SQL_HEAP_HARD);
}

/* A read-only connection (see the top of this file). */
static int open_readonly(ka_kdb *k)
{
	char wal[4200];
	struct stat sb;
	snprintf(wal, sizeof wal, "%s-wal", k->path);
	int immutable = stat(wal, &sb) != 0;
	for (;; immutable = 1) {
		char *uri = ro_uri(k->path, immutable);
		int version = 0;
		if (!uri)
			return ka_error_set(KA_ENOMEM, "out of memory");
		int s = sqlite3_open_v2(uri, &k->db,
					SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
		free(uri);
		if (s == SQLITE_OK && kdb_int(k, "PRAGMA user_version", &version) == KA_OK)
			return KA_OK;
		if (immutable)
			return kdb_fail(k, "cannot open");
		sqlite3_close(k->db);
		k->db = NULL;
	}
}

int ka_kdb_open(ka_kdb **out, const char *path, int flags)
{
	char def[4096];
	ka_kdb *k = NULL;
	int rc;
	*out = NULL;
	if (!path) {
		if ((rc = ka_kdb_default_path(def, sizeof def)) != KA_OK)
			return rc;
		path = def;
	}
	if (!(flags & KA_KDB_CREATE)) {
		struct stat sb;
		if (stat(path, &sb) != 0)
			return KA_ENOTFOUND;
		if (!S_ISREG(sb.st_mode))
			return ka_error_set(KA_EIO, "knowledge DB %s: not a regular file", path);
	} else if ((rc = make_parent(path)) != KA_OK) {
		return rc;
	}
	k = calloc(1, sizeof *k);
	if (!k || !(k->path = strdup(path))) {
		free(k);
		return ka_error_set(KA_ENOMEM, "out of memory");
	}
	k->readonly = (flags & KA_KDB_READONLY) != 0;
	int oflags = SQLITE_OPEN_READWRITE | ((flags & KA_KDB_CREATE) ? SQLITE_OPEN_CREATE : 0);
	if (k->readonly ? (rc = open_readonly(k)) != KA_OK
			: sqlite3_open_v2(path, &k->db, oflags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		rc = k->readonly ? rc : kdb_fail(k, "cannot open");
		goto out;
	}
	bound(k->db);
	sqlite3_busy_timeout(k->db, 10000);
	sqlite3_exec(k->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	/* WAL: readers never block the writer; synchronous=FULL: a commit that
	 * returned is on disk, whatever happens to the process next. */
	if (!k->readonly && (set_wal(k->db) != SQLITE_OK || sqlite3_exec(k->db, "PRAGMA synchronous = FULL",
									 NULL, NULL, NULL) != SQLITE_OK)) {
		rc = kdb_fail(k, "cannot set the journal mode");
		goto out;
	}
	rc = migrate(k);
out:
	if (rc != KA_OK) {
		ka_kdb_close(k);
		return rc;
	}
	*out = k;
	return KA_OK;
}

void ka_kdb_close(ka_kdb *k)
{
	if (!k)
		return;
	for (int i = 0; i < KDB_ST_COUNT; i++)
		sqlite3_finalize(k->cached[i]);
	ka_ruleset_free(k->builtin);
	sqlite3_close(k->db);
	free(k->path);
	free(k);
}

const char *ka_kdb_path(const ka_kdb *k)
{
	return k->path;
}

int kdb_front_field(const char *text, const char *key, char *buf, size_t cap)
{
	size_t kl = strlen(key);
	const char *p = text;
	if (strncmp(p, "---", 3) != 0)
		return -1;
	p = strchr(p, '\n');
	while (p && *++p) {
		if (!strncmp(p, "---", 3))
			return -1; /* end of the front matter */
		if (!strncmp(p, key, kl) && p[kl] == ':') {
			const char *v = p + kl + 1, *e = v + strcspn(v, "\n");
			while (v < e && (*v == ' ' || *v == '\t'))
				v++;
			const char *hash = memchr(v, '#', (size_t)(e - v));
			if (hash && *v != '"' && *v != '\'')
				e = hash;
			while (e > v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
				e--;
			if (e - v >= 2 && (*v == '"' || *v == '\'') && e[-1] == *v)
				v++, e--;
			snprintf(buf, cap, "%.*s", (int)(e - v), v);
			return 0;
		}
		p = strchr(p, '\n');
	}
	return -1;
}

int ka_kdb_counts_get(ka_kdb *k, ka_kdb_counts *c, int *steps)
{
	sqlite3_stmt *st = NULL;
	int rc = kdb_prepare(k,
			     "SELECT (SELECT count(*) FROM rules), (SELECT count(*) FROM evidence),"
			     " (SELECT count(*) FROM skills), (SELECT count(*) FROM trajectory)",
			     &st);
	if (rc == KA_OK && sqlite3_step(st) == SQLITE_ROW) {
		c->rules = sqlite3_column_int(st, 0);
		c->evidence = sqlite3_column_int(st, 1);
		c->skills = sqlite3_column_int(st, 2);
		if (steps)
			*steps = sqlite3_column_int(st, 3);
	} else if (rc == KA_OK) {
		rc = kdb_fail(k, "cannot count rows");
	}
	sqlite3_finalize(st);
	return rc;
}
