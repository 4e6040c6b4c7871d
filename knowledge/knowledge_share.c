/* knowledge/knowledge_share.c: export and import, so teams can share what
 * their runs learned.
 *
 * An export folder holds
 *   rules/<id>.md   every learned rule, as the rule file it is;
 *   evidence.json   {"format": "kcheck-knowledge", "version": 1,
 *                    "rules": [{"id", "status"}], "evidence": [{rule, fix,
 *                    task, kernel_hash, gpu, arch, speedup, ci_low, ci_high,
 *                    verdict, at}]};
 *   skills.json     {"format": ..., "version": 1, "skills": [{task, arch,
 *                    summary, rules, speedup, source}]}.
 * Built-in and --rules-dir rules are not exported: they ship as files.
 * Import runs in one transaction: a malformed entry anywhere imports
 * nothing, and rows already present are skipped, so importing twice adds
 * nothing.  It is linear in the rows: duplicates are found through an
 * index of the evidence (temp.kdb_seen), and each learned rule's status is
 * reviewed once, after all its evidence is in (not once per row).  "at" is
 * whole seconds since the epoch: a fraction is dropped, a value beyond the
 * year 9999 is refused, and an undated row gets 1.  A rule id listed twice
 * in one export is refused.  Rule files are read from DIR/rules/<id>.md with the id checked
 * first, so an export cannot point outside its folder.
 * ka_kdb_import_check runs the same import into an in-memory DB: what
 * `kcheck knowledge import` does first, so that a bad export never creates
 * or touches the DB file.
 */
#include "knowledge/knowledge_int.h"
#include "util/fs.h"
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FORMAT "kcheck-knowledge"
#define FILE_CAP ((size_t)256 << 20)

static json_t *col_json(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		return json_null();
	case SQLITE_INTEGER:
		return json_integer(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT:
		return json_real(sqlite3_column_double(st, i));
	default:
		return json_string((const char *)sqlite3_column_text(st, i));
	}
}

/* Rows of sql as objects keyed by the column names, appended to arr. */
static int rows_json(ka_kdb *k, const char *sql, json_t *arr, int *n)
{
	sqlite3_stmt *st = NULL;
	int rc = kdb_prepare(k, sql, &st), s;
	if (rc != KA_OK)
		return rc;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *o = json_object();
		for (int i = 0; o && i < sqlite3_column_count(st); i++)
			json_object_set_new(o, sqlite3_column_name(st, i), col_json(st, i));
		if (!o || json_array_append_new(arr, o) != 0) {
			rc = ka_error_set(KA_ENOMEM, "out of memory");
			break;
		}
		(*n)++;
	}
	if (rc == KA_OK && s != SQLITE_DONE)
		rc = kdb_fail(k, "cannot read for export");
	sqlite3_finalize(st);
	return rc;
}

static int write_json(const char *dir, const char *name, json_t *root)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	if (!text)
		return ka_error_set(KA_ENOMEM, "out of memory");
	int rc = ka_fs_write_atomic(path, text, strlen(text));
	free(text);
	return rc;
}

static int make_dir(const char *path)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return ka_error_set(KA_EIO, "cannot create %s: %s", path, strerror(errno));
	if (!ka_fs_is_dir(path))
		return ka_error_set(KA_EIO, "cannot create %s: not a folder", path);
	return KA_OK;
}

/* Learned rules: their files, and their statuses into arr. */
static int export_rules(ka_kdb *k, const char *dir, json_t *arr, int *n)
{
	sqlite3_stmt *st = NULL;
	char path[4200];
	snprintf(path, sizeof path, "%s/rules", dir);
	int rc = make_dir(path), s;
	if (rc == KA_OK)
		rc = kdb_prepare(k, "SELECT id, status, text FROM rules WHERE origin = 'learned' ORDER BY id",
				 &st);
	while (rc == KA_OK && (s = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		const char *text = (const char *)sqlite3_column_text(st, 2);
		if (!ka_rule_id_valid(id)) {
			rc = ka_error_set(KA_EINPUT, "knowledge DB: bad learned rule id '%s'", id);
			break;
		}
		snprintf(path, sizeof path, "%s/rules/%s.md", dir, id);
		const char *db = k->path;
		if ((rc = ka_fs_output_is_input("export", path, &db, 1)) != KA_OK ||
		    (rc = ka_fs_write_atomic(path, text, strlen(text))) != KA_OK)
			break;
		json_array_append_new(arr, json_pack("{s:s, s:s}", "id", id, "status",
						     (const char *)sqlite3_column_text(st, 1)));
		(*n)++;
	}
	sqlite3_finalize(st);
	return rc;
}

/* The export's files must not be the DB it reads (after links). */
static int export_over_db(ka_kdb *k, const char *dir)
{
	static const char *const names[] = {"evidence.json", "skills.json"};
	const char *db = k->path;
	int rc = KA_OK;
	for (int i = 0; i < 2 && rc == KA_OK; i++) {
		char path[4200];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		rc = ka_fs_output_is_input("export", path, &db, 1);
	}
	return rc;
}

int ka_kdb_export(ka_kdb *k, const char *dir, ka_kdb_counts *counts)
{
	json_t *rules = json_array(), *ev = json_array(), *sk = json_array(), *root = NULL;
	ka_kdb_counts c = {0, 0, 0};
	int rc = rules && ev && sk ? export_over_db(k, dir) : ka_error_set(KA_ENOMEM, "out of memory");
	if (rc == KA_OK)
		rc = make_dir(dir);
	int began = rc == KA_OK && sqlite3_exec(k->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
	if (rc == KA_OK)
		rc = export_rules(k, dir, rules, &c.rules);
	if (rc == KA_OK)
		rc = rows_json(k,
			       "SELECT rule, fix, task, kernel_hash, gpu, arch, speedup, ci_low, ci_high,"
			       " verdict, at FROM evidence ORDER BY id",
			       ev, &c.evidence);
	if (rc == KA_OK)
		rc = rows_json(k,
			       "SELECT task, arch, summary, rules, speedup, at, hash, source FROM skills"
			       " ORDER BY task, hash",
			       sk, &c.skills);
	if (began)
		sqlite3_exec(k->db, "COMMIT", NULL, NULL, NULL);
	if (rc == KA_OK) {
		root = json_pack("{s:s, s:i, s:O, s:O}", "format", FORMAT, "version", 1, "rules", rules,
				 "evidence", ev);
		rc = root ? write_json(dir, "evidence.json", root) : ka_error_set(KA_ENOMEM, "out of memory");
		json_decref(root);
	}
	if (rc == KA_OK) {
		root = json_pack("{s:s, s:i, s:O}", "format", FORMAT, "version", 1, "skills", sk);
		rc = root ? write_json(dir, "skills.json", root) : ka_error_set(KA_ENOMEM, "out of memory");
		json_decref(root);
	}
	json_decref(rules);
	json_decref(ev);
	json_decref(sk);
	if (rc == KA_OK && counts)
		*counts = c;
	return rc;
}

/* ---- import ---- */

typedef struct src {
	const char *path; /* for messages */
	const char *what; /* "evidence[3]" */
} src;

/* Optional string member: NULL when absent or null; -1 when another type. */
static int str_of(json_t *o, const char *key, const char **out)
{
	json_t *v = json_object_get(o, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	*out = json_string_value(v);
	return 0;
}

static int num_of(json_t *o, const char *key, double *out)
{
	json_t *v = json_object_get(o, key);
	*out = 0;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

/* Prefix the message already set (copied first: ka_error_set formats
 * into the buffer it would read from). */
static int wrap(int rc, const char *a, const char *b)
{
	char msg[1024];
	snprintf(msg, sizeof msg, "%s", ka_error_last());
	if (b)
		return ka_error_set(rc, "%s: %s: %s", a, b, msg);
	return ka_error_set(rc, "%s: %s", a, msg);
}

static int bad(const src *s, const char *key)
{
	return ka_error_set(KA_EINPUT, "%s: %s: '%s' has the wrong type", s->path, s->what, key);
}

/* The latest "at" kept: 9999-12-31T23:59:59Z. */
#define AT_MAX 253402300799.0

/* "at" as whole seconds: 1 when absent, 0 or below 1 (an undated row is
 * dated at the epoch, not now, so that it dedups); -1 when out of range. */
static int when_of(json_t *o, long long *when)
{
	double at = 0;
	if (num_of(o, "at", &at) || !(at >= 0) || at > AT_MAX)
		return -1;
	*when = at >= 1 ? (long long)floor(at) : 1;
	return 0;
}

/* Note rule as one whose status needs a review at the end of the import. */
static int touch(ka_kdb *k, const char *rule)
{
	sqlite3_stmt *st = NULL;
	int rc = kdb_cached(k, KDB_ST_TOUCH, "INSERT OR IGNORE INTO temp.kdb_touched(rule) VALUES (?)", &st);
	if (rc == KA_OK) {
		kdb_bind_text(st, 1, rule);
		rc = kdb_step_done(k, st, "cannot note a rule");
		sqlite3_reset(st);
	}
	return rc;
}

/* Each touched rule's status, reviewed once against all its evidence. */
static int review_touched(ka_kdb *k)
{
	sqlite3_stmt *st = NULL;
	int rc = kdb_prepare(k, "SELECT rule FROM temp.kdb_touched ORDER BY rule", &st), s;
	while (rc == KA_OK && (s = sqlite3_step(st)) == SQLITE_ROW)
		rc = kdb_rule_review(k, (const char *)sqlite3_column_text(st, 0));
	if (rc == KA_OK && s != SQLITE_DONE)
		rc = kdb_fail(k, "cannot read the imported rules");
	sqlite3_finalize(st);
	return rc;
}

static int import_evidence(ka_kdb *k, const src *s, json_t *o, int *added)
{
	ka_kdb_evidence e = {0};
	const char *keys[] = {"rule", "fix", "task", "kernel_hash", "gpu", "arch", "verdict"};
	const char **dst[] = {&e.rule, &e.fix, &e.task, &e.kernel_hash, &e.gpu, &e.arch, &e.verdict};
	if (!json_is_object(o))
		return ka_error_set(KA_EINPUT, "%s: %s: not an object", s->path, s->what);
	for (int i = 0; i < 7; i++)
		if (str_of(o, keys[i], dst[i]))
			return bad(s, keys[i]);
	if (num_of(o, "speedup", &e.speedup))
		return bad(s, "speedup");
	if (num_of(o, "ci_low", &e.ci_low))
		return bad(s, "ci_low");
	if (num_of(o, "ci_high", &e.ci_high))
		return bad(s, "ci_high");
	if (when_of(o, &e.when))
		return ka_error_set(KA_EINPUT, "%s: %s: 'at' must be seconds since 1970, up to the year 9999",
				    s->path, s->what);
	int rc = kdb_insert_evidence(k, &e, 1, NULL);
	if (rc == KA_OK) {
		(*added)++;
		rc = touch(k, e.rule);
	}
	if (rc < 0)
		return wrap(rc, s->path, s->what);
	return KA_OK;
}

static int import_rule(ka_kdb *k, const char *dir, const src *s, json_t *o, int *added)
{
	const char *id = NULL, *status = NULL;
	char path[4200], *text = NULL;
	if (!json_is_object(o) || str_of(o, "id", &id) || str_of(o, "status", &status) || !id)
		return ka_error_set(KA_EINPUT, "%s: %s: expected {\"id\", \"status\"}", s->path, s->what);
	if (!ka_rule_id_valid(id))
		return ka_error_set(KA_EINPUT, "%s: %s: bad rule id '%s'", s->path, s->what, id);
	sqlite3_stmt *st = NULL;
	int rc = kdb_prepare(k, "INSERT INTO temp.kdb_touched(rule) VALUES (?)", &st);
	if (rc == KA_OK) {
		kdb_bind_text(st, 1, id);
		int r = sqlite3_step(st);
		if (r == SQLITE_CONSTRAINT)
			rc = ka_error_set(KA_EINPUT, "%s: %s: rule '%s' is listed twice", s->path, s->what,
					  id);
		else if (r != SQLITE_DONE)
			rc = kdb_fail(k, "cannot note a rule");
	}
	sqlite3_finalize(st);
	if (rc != KA_OK)
		return rc;
	snprintf(path, sizeof path, "%s/rules/%s.md", dir, id);
	rc = ka_fs_read(path, FILE_CAP, &text, NULL);
	if (rc == KA_OK)
		rc = kdb_put_learned(k, id, text, status ? status : "candidate");
	free(text);
	if (rc != KA_OK)
		return wrap(rc, path, NULL);
	(*added)++;
	return KA_OK;
}

static int import_skill(ka_kdb *k, const src *s, json_t *o, int *added)
{
	ka_kdb_skill sk = {0};
	char hash[65];
	if (!json_is_object(o) || str_of(o, "task", &sk.task) || str_of(o, "arch", &sk.arch) ||
	    str_of(o, "summary", &sk.summary) || str_of(o, "rules", &sk.rules) ||
	    str_of(o, "source", &sk.source) || num_of(o, "speedup", &sk.speedup) || when_of(o, &sk.when))
		return ka_error_set(KA_EINPUT, "%s: %s: malformed skill", s->path, s->what);
	int before = sqlite3_total_changes(k->db);
	int rc = kdb_put_skill(k, &sk, hash);
	if (rc != KA_OK)
		return wrap(rc, s->path, s->what);
	*added += sqlite3_total_changes(k->db) != before;
	return KA_OK;
}

/* Load DIR/name as a JSON object of our format; *root NULL when the file
 * is optional and absent. */
static int load(const char *dir, const char *name, int optional, char *path, size_t cap, json_t **root)
{
	char *text = NULL;
	size_t len = 0;
	json_error_t je;
	*root = NULL;
	snprintf(path, cap, "%s/%s", dir, name);
	if (optional && !ka_fs_exists(path))
		return KA_OK;
	int rc = ka_fs_read(path, FILE_CAP, &text, &len);
	if (rc != KA_OK)
		return rc;
	*root = json_loadb(text, len, 0, &je);
	free(text);
	if (!*root)
		return ka_error_set(KA_EINPUT, "%s:%d:%d: %s", path, je.line, je.column, je.text);
	json_t *f = json_object_get(*root, "format"), *v = json_object_get(*root, "version");
	if (!json_is_string(f) || strcmp(json_string_value(f), FORMAT) != 0 || !json_is_integer(v) ||
	    json_integer_value(v) != 1) {
		json_decref(*root);
		*root = NULL;
		return ka_error_set(KA_EINPUT, "%s: not a kcheck knowledge export (format %s, version 1)",
				    path, FORMAT);
	}
	return KA_OK;
}

/* Each element of root[member] through fn. */
static int each(ka_kdb *k, const char *dir, const char *path, json_t *root, const char *member,
		int (*fn)(ka_kdb *, const char *, const src *, json_t *, int *), int *added)
{
	json_t *arr = root ? json_object_get(root, member) : NULL;
	if (!root || !arr)
		return KA_OK;
	if (!json_is_array(arr))
		return ka_error_set(KA_EINPUT, "%s: '%s' is not an array", path, member);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		char what[64];
		snprintf(what, sizeof what, "%s[%zu]", member, i);
		src s = {path, what};
		int rc = fn(k, dir, &s, json_array_get(arr, i), added);
		if (rc != KA_OK)
			return rc;
	}
	return KA_OK;
}

static int ev_fn(ka_kdb *k, const char *dir, const src *s, json_t *o, int *n)
{
	return import_evidence(k, s, o, n);
}

static int sk_fn(ka_kdb *k, const char *dir, const src *s, json_t *o, int *n)
{
	return import_skill(k, s, o, n);
}

int ka_kdb_import(ka_kdb *k, const char *dir, ka_kdb_counts *counts)
{
	char epath[4200], spath[4200];
	json_t *ev = NULL, *sk = NULL;
	ka_kdb_counts c = {0, 0, 0};
	int rc = load(dir, "evidence.json", 0, epath, sizeof epath, &ev);
	if (rc == KA_OK)
		rc = load(dir, "skills.json", 1, spath, sizeof spath, &sk);
	if (rc == KA_OK && (rc = kdb_begin(k)) == KA_OK) {
		rc = kdb_seen_begin(k);
		if (rc == KA_OK && sqlite3_exec(k->db,
						"DROP TABLE IF EXISTS temp.kdb_touched;"
						"CREATE TEMP TABLE kdb_touched(rule TEXT PRIMARY KEY)",
						NULL, NULL, NULL) != SQLITE_OK)
			rc = kdb_fail(k, "cannot start the import");
		if (rc == KA_OK)
			rc = each(k, dir, epath, ev, "rules", import_rule, &c.rules);
		if (rc == KA_OK)
			rc = each(k, dir, epath, ev, "evidence", ev_fn, &c.evidence);
		if (rc == KA_OK)
			rc = review_touched(k);
		if (rc == KA_OK)
			rc = each(k, dir, spath, sk, "skills", sk_fn, &c.skills);
		rc = rc == KA_OK ? kdb_commit(k) : (kdb_rollback(k), rc);
		kdb_seen_end(k);
		sqlite3_exec(k->db, "DROP TABLE IF EXISTS temp.kdb_touched", NULL, NULL, NULL);
	}
	json_decref(ev);
	json_decref(sk);
	if (rc == KA_OK && counts)
		*counts = c;
	return rc;
}

int ka_kdb_import_check(const char *dir, ka_kdb_counts *counts)
{
	ka_kdb *k = NULL;
	int rc = ka_kdb_open(&k, ":memory:", KA_KDB_CREATE);
	if (rc == KA_OK)
		rc = ka_kdb_import(k, dir, counts);
	ka_kdb_close(k);
	return rc;
}
