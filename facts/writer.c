/* facts/writer.c: the typed facts writer.
 *
 * One prepared INSERT per table, naming every column of the table in schema
 * order, made on the table's first row and reused (reset, bindings cleared)
 * for every row after; a column left unset is bound to NULL, which is what
 * omitting it would store (no column has a default; a NULL id is the next
 * rowid).  The first failure is kept (sticky): later rows are dropped and
 * ka_facts_writer_check() reports it, so one check after the analysis
 * catches every insert.
 */
#include "facts/facts.h"
#include "util/buf.h"
#include "util/error.h"
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { V_NULL = 0, V_INT, V_REAL, V_TEXT };

/* The location columns, by name, resolved per table on its first row. */
enum { L_FILE, L_LINE, L_COL, L_END_LINE, L_END_COL, L_BEGIN, L_END, L_N };
static const char *const loc_names[L_N] = {"file",    "line",      "col",    "end_line",
					   "end_col", "begin_off", "end_off"};

struct ka_facts_writer {
	sqlite3 *db;
	sqlite3_stmt *ins[KA_FACTS_NTABLES];
	signed char loc[KA_FACTS_NTABLES][L_N]; /* column index; -1 absent */
	unsigned char loc_done[KA_FACTS_NTABLES];
	int64_t rows;
	int err; /* KA_OK or the first failure */
	char msg[256];
};

int ka_facts_writer_new(ka_facts_writer **out, sqlite3 *db)
{
	*out = NULL;
	ka_facts_writer *fw = calloc(1, sizeof *fw);
	if (!fw)
		return ka_error_set(KA_ENOMEM, "facts writer: out of memory");
	fw->db = db;
	*out = fw;
	return KA_OK;
}

void ka_facts_writer_free(ka_facts_writer *fw)
{
	if (!fw)
		return;
	for (int t = 0; t < KA_FACTS_NTABLES; t++)
		sqlite3_finalize(fw->ins[t]);
	free(fw);
}

int ka_facts_writer_check(const ka_facts_writer *fw)
{
	if (fw->err != KA_OK)
		return ka_error_set(fw->err, "%s", fw->msg);
	return KA_OK;
}

static int fail_v(ka_facts_writer *fw, int code, const char *fmt, va_list ap)
{
	if (fw->err == KA_OK) {
		fw->err = code;
		vsnprintf(fw->msg, sizeof fw->msg, fmt, ap);
	}
	return code;
}

int ka_facts_writer_fail(ka_facts_writer *fw, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_v(fw, code, fmt, ap);
	va_end(ap);
	return code;
}

int64_t ka_facts_writer_rows(const ka_facts_writer *fw)
{
	return fw->rows;
}

static sqlite3_stmt *insert_stmt(ka_facts_writer *fw, ka_facts_table t)
{
	if (fw->ins[t])
		return fw->ins[t];
	const ka_facts_table_info *ti = ka_facts_table_get(t);
	ka_buf sql;
	ka_buf_init(&sql, 0);
	int rc = ka_buf_printf(&sql, "INSERT%s INTO \"%s\"(",
			       ti->flags & KA_FACTS_KEEP_FIRST ? " OR IGNORE" : "", ti->name);
	for (int i = 1; i <= ti->ncols && rc == KA_OK; i++)
		rc = ka_buf_printf(&sql, "%s\"%s\"", i > 1 ? "," : "",
				   ka_facts_col_name((ka_facts_col)(ti->first + i)));
	rc = rc == KA_OK ? ka_buf_adds(&sql, ") VALUES(") : rc;
	for (int i = 1; i <= ti->ncols && rc == KA_OK; i++)
		rc = ka_buf_adds(&sql, i > 1 ? ",?" : "?");
	rc = rc == KA_OK ? ka_buf_adds(&sql, ")") : rc;
	if (rc != KA_OK)
		ka_facts_writer_fail(fw, KA_ENOMEM, "facts: out of memory (%s)", ti->name);
	else if (sqlite3_prepare_v2(fw->db, sql.data, -1, &fw->ins[t], NULL) != SQLITE_OK)
		ka_facts_writer_fail(fw, KA_ERR, "facts: %s (%s)", sqlite3_errmsg(fw->db), ti->name);
	ka_buf_free(&sql);
	return fw->ins[t];
}

void ka_facts_begin(ka_facts_row *r, ka_facts_writer *fw, ka_facts_table t)
{
	assert(t >= 0 && t < KA_FACTS_NTABLES);
	r->fw = fw;
	r->table = t;
	memset(r->type, V_NULL, sizeof r->type);
}

/* The slot of column c in r, or -1 (a sticky error) when c belongs to
 * another table: a programming error that must not lose the row silently. */
static int slot(ka_facts_row *r, ka_facts_col c)
{
	if (c < 0 || c >= KA_FACTS_NCOLS_ALL || !ka_facts_col_name(c)) {
		ka_facts_writer_fail(r->fw, KA_ERR, "facts: bad column number %d", (int)c);
		return -1;
	}
	if (ka_facts_col_table(c) != r->table) {
		ka_facts_writer_fail(r->fw, KA_ERR, "facts: column %s.%s set on a %s row",
				     ka_facts_table_get(ka_facts_col_table(c))->name, ka_facts_col_name(c),
				     ka_facts_table_get(r->table)->name);
		return -1;
	}
	return ka_facts_col_index(c);
}

void ka_facts_int(ka_facts_row *r, ka_facts_col c, int64_t v)
{
	int i = slot(r, c);
	if (i >= 0) {
		r->type[i] = V_INT;
		r->i[i] = v;
	}
}

void ka_facts_opt(ka_facts_row *r, ka_facts_col c, int known, int64_t v)
{
	int i = slot(r, c);
	if (i >= 0) {
		r->type[i] = known ? V_INT : V_NULL;
		r->i[i] = v;
	}
}

void ka_facts_real(ka_facts_row *r, ka_facts_col c, double v)
{
	int i = slot(r, c);
	if (i >= 0) {
		r->type[i] = V_REAL;
		r->d[i] = v;
	}
}

void ka_facts_textn(ka_facts_row *r, ka_facts_col c, const char *v, int n)
{
	int i = slot(r, c);
	if (i >= 0) {
		r->type[i] = v ? V_TEXT : V_NULL;
		r->s[i] = v;
		r->slen[i] = n;
	}
}

void ka_facts_text(ka_facts_row *r, ka_facts_col c, const char *v)
{
	ka_facts_textn(r, c, v, -1);
}

void ka_facts_null(ka_facts_row *r, ka_facts_col c)
{
	int i = slot(r, c);
	if (i >= 0)
		r->type[i] = V_NULL;
}

static void resolve_loc(ka_facts_writer *fw, ka_facts_table t)
{
	const ka_facts_table_info *ti = ka_facts_table_get(t);
	for (int k = 0; k < L_N; k++) {
		fw->loc[t][k] = -1;
		for (int i = 1; i <= ti->ncols; i++)
			if (strcmp(ka_facts_col_name((ka_facts_col)(ti->first + i)), loc_names[k]) == 0)
				fw->loc[t][k] = (signed char)(i - 1);
	}
	fw->loc_done[t] = 1;
}

void ka_facts_loc_set(ka_facts_row *r, const ka_facts_loc *l)
{
	ka_facts_writer *fw = r->fw;
	if (!fw->loc_done[r->table])
		resolve_loc(fw, r->table);
	const signed char *at = fw->loc[r->table];
	for (int k = 0; k < L_N; k++) {
		if (at[k] < 0) {
			ka_facts_writer_fail(fw, KA_ERR, "facts: table %s has no location column %s",
					     ka_facts_table_get(r->table)->name, loc_names[k]);
			return;
		}
	}
	int64_t v[L_N] = {0, l->line, l->col, l->end_line, l->end_col, l->begin, l->end};
	r->type[at[L_FILE]] = l->file ? V_TEXT : V_NULL;
	r->s[at[L_FILE]] = l->file;
	r->slen[at[L_FILE]] = -1;
	for (int k = L_LINE; k < L_N; k++) {
		int known = k < L_BEGIN || v[k] >= 0;
		r->type[at[k]] = known ? V_INT : V_NULL;
		r->i[at[k]] = v[k];
	}
}

void ka_facts_insert(ka_facts_row *r)
{
	ka_facts_writer *fw = r->fw;
	if (fw->err != KA_OK)
		return;
	sqlite3_stmt *st = insert_stmt(fw, r->table);
	if (!st)
		return;
	int n = ka_facts_table_get(r->table)->ncols;
	for (int i = 0; i < n; i++) {
		switch (r->type[i]) {
		case V_INT:
			sqlite3_bind_int64(st, i + 1, r->i[i]);
			break;
		case V_REAL:
			sqlite3_bind_double(st, i + 1, r->d[i]);
			break;
		case V_TEXT:
			sqlite3_bind_text(st, i + 1, r->s[i], r->slen[i], SQLITE_TRANSIENT);
			break;
		default:
			sqlite3_bind_null(st, i + 1);
			break;
		}
	}
	if (sqlite3_step(st) == SQLITE_DONE)
		fw->rows++;
	else
		ka_facts_writer_fail(fw, KA_ERR, "facts: %s (%s)", sqlite3_errmsg(fw->db),
				     ka_facts_table_get(r->table)->name);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}
