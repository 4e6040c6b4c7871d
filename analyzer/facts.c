/* analyzer/facts.c: the facts database: schema creation and row inserts.
 * The schema text is embedded from facts_schema.sql at build time. */
#include "analyzer/analyzer.h"
#include "analyzer/facts.h"
#include "util/buf.h"
#include "util/embed.h"
#include "util/error.h"
#include <stdio.h>
#include <string.h>

extern const struct ka_embedded ka_schema_files[];

int ka_facts_open(sqlite3 **out)
{
	sqlite3 *db = NULL;
	*out = NULL;
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
	                    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return ka_error_set(KA_ENOMEM, "cannot open the facts database");
	}
	const struct ka_embedded *e = ka_embed_find(ka_schema_files, "analyzer/facts_schema.sql");
	ka_buf sql;
	ka_buf_init(&sql, 0);
	if (!e || ka_buf_add(&sql, e->data, e->len) != KA_OK) {
		ka_buf_free(&sql);
		sqlite3_close(db);
		return ka_error_set(KA_ERR, "facts schema missing from the build");
	}
	char *err = NULL;
	if (sqlite3_exec(db, sql.data, NULL, NULL, &err) != SQLITE_OK) {
		int rc = ka_error_set(KA_ERR, "facts schema: %s", err ? err : "?");
		sqlite3_free(err);
		ka_buf_free(&sql);
		sqlite3_close(db);
		return rc;
	}
	ka_buf_free(&sql);
	*out = db;
	return KA_OK;
}

void ka_row_begin(ka_row *r, const char *table)
{
	r->table = table;
	r->n = 0;
}

static int slot(ka_row *r, const char *col)
{
	for (int i = 0; i < r->n; i++)
		if (strcmp(r->col[i], col) == 0)
			return i;
	if (r->n == KA_ROW_MAX)
		return -1;
	r->col[r->n] = col;
	return r->n++;
}

void ka_row_int(ka_row *r, const char *col, int64_t v)
{
	int i = slot(r, col);
	if (i >= 0) {
		r->type[i] = 1;
		r->i[i] = v;
	}
}

void ka_row_opt(ka_row *r, const char *col, int known, int64_t v)
{
	int i = slot(r, col);
	if (i >= 0) {
		r->type[i] = known ? 1 : 0;
		r->i[i] = v;
	}
}

void ka_row_real(ka_row *r, const char *col, double v)
{
	int i = slot(r, col);
	if (i >= 0) {
		r->type[i] = 2;
		r->d[i] = v;
	}
}

void ka_row_text(ka_row *r, const char *col, const char *v)
{
	int i = slot(r, col);
	if (i >= 0) {
		r->type[i] = v ? 3 : 0;
		r->s[i] = v;
	}
}

void ka_row_loc(ka_row *r, const ka_loc *l)
{
	ka_row_text(r, "file", l->file);
	ka_row_int(r, "line", l->line);
	ka_row_int(r, "col", l->col);
	ka_row_int(r, "end_line", l->end_line);
	ka_row_int(r, "end_col", l->end_col);
	ka_row_opt(r, "begin_off", !l->in_macro && l->begin >= 0, l->begin);
	ka_row_opt(r, "end_off", !l->in_macro && l->end >= 0, l->end);
}

int ka_row_insert(sqlite3 *db, ka_row *r)
{
	char sql[4096];
	size_t n = (size_t)snprintf(sql, sizeof sql, "INSERT INTO \"%s\"(", r->table);
	for (int i = 0; i < r->n && n < sizeof sql; i++)
		n += (size_t)snprintf(sql + n, sizeof sql - n, "%s\"%s\"", i ? "," : "", r->col[i]);
	n += (size_t)snprintf(sql + n, sizeof sql - n, ") VALUES(");
	for (int i = 0; i < r->n && n < sizeof sql; i++)
		n += (size_t)snprintf(sql + n, sizeof sql - n, "%s?", i ? "," : "");
	snprintf(sql + n, sizeof sql - n, ")");
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "facts: %s (%s)", sqlite3_errmsg(db), r->table);
	for (int i = 0; i < r->n; i++) {
		switch (r->type[i]) {
		case 1: sqlite3_bind_int64(st, i + 1, r->i[i]); break;
		case 2: sqlite3_bind_double(st, i + 1, r->d[i]); break;
		case 3: sqlite3_bind_text(st, i + 1, r->s[i], -1, SQLITE_TRANSIENT); break;
		default: sqlite3_bind_null(st, i + 1); break;
		}
	}
	int rc = sqlite3_step(st) == SQLITE_DONE ? KA_OK :
	         ka_error_set(KA_ERR, "facts: %s (%s)", sqlite3_errmsg(db), r->table);
	sqlite3_finalize(st);
	return rc;
}
