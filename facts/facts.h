/* facts/facts.h: the facts database, the contract between the analyzer
 * (which writes it) and the rules, the rewriter and `kcheck facts` (which
 * read it).  Depends on util and SQLite only: no libclang.
 *
 * The tables and columns are declared once, in facts_tables.def.  Here they
 * become identifiers: KA_TABLE(access) and KA_COL(access, line); a misspelt
 * table or column does not compile.
 *
 * Writing: one ka_facts_writer per database holds one prepared INSERT per
 * table.  A row is built column by column on the stack and inserted; a
 * failure (a column of another table, an SQLite error) is sticky: the
 * writer stops inserting and ka_facts_writer_check() reports the first
 * failure once, at the end.
 *
 *   ka_facts_row r;
 *   ka_facts_begin(&r, fw, KA_TABLE(loop));
 *   ka_facts_int(&r, KA_COL(loop, depth), 2);
 *   ka_facts_opt(&r, KA_COL(loop, trip_count), known, trip);  // NULL unless known
 *   ka_facts_insert(&r);
 *   ...
 *   if (ka_facts_writer_check(fw) != KA_OK) ... ka_error_last() says why
 */
#ifndef KA_FACTS_FACTS_H
#define KA_FACTS_FACTS_H
#include <sqlite3.h>
#include <stdint.h>
#include "util/error.h"

#define KA_FACTS_KEEP_FIRST 1

typedef enum ka_facts_table {
#define KA_FACTS_TABLE(t, constraint, flags) KA_TABLE_##t,
#define KA_FACTS_COL(t, c, type)
#define KA_FACTS_END(t)
#include "facts/facts_tables.def"
#undef KA_FACTS_TABLE
#undef KA_FACTS_COL
#undef KA_FACTS_END
	KA_FACTS_NTABLES
} ka_facts_table;

/* Every column of every table, one number each; a table's columns are
 * contiguous, between its _BEGIN_ and _END_ markers. */
typedef enum ka_facts_col {
#define KA_FACTS_TABLE(t, constraint, flags) KA_FCOL_##t##__BEGIN_,
#define KA_FACTS_COL(t, c, type) KA_FCOL_##t##__##c,
#define KA_FACTS_END(t) KA_FCOL_##t##__END_,
#include "facts/facts_tables.def"
#undef KA_FACTS_TABLE
#undef KA_FACTS_COL
#undef KA_FACTS_END
	KA_FACTS_NCOLS_ALL
} ka_facts_col;

#define KA_TABLE(t) KA_TABLE_##t
#define KA_COL(t, c) KA_FCOL_##t##__##c

/* The widest table; facts.c asserts at compile time that every table fits. */
#define KA_FACTS_MAX_COLS 80

typedef struct ka_facts_table_info {
	const char *name;
	const char *constraint; /* table constraint ("PRIMARY KEY(file, line)"), "" none */
	int flags;              /* KA_FACTS_KEEP_FIRST */
	int first, ncols;       /* its columns: ka_facts_col first+1 .. first+ncols */
} ka_facts_table_info;

typedef enum ka_facts_type {
	KA_FACTS_ID,
	KA_FACTS_TEXT_KEY,
	KA_FACTS_TEXT,
	KA_FACTS_INT,
	KA_FACTS_REAL
} ka_facts_type;

/* The largest id any table of db holds (0 when none): a file analysed
 * into a database that already holds others numbers its rows after it. */
int64_t ka_facts_max_id(sqlite3 *db);
/* The table list, in schema order (KA_FACTS_NTABLES entries). */
const ka_facts_table_info *ka_facts_table_get(ka_facts_table t);
/* A column's table, its position in the table (0-based), name and type. */
ka_facts_table ka_facts_col_table(ka_facts_col c);
int ka_facts_col_index(ka_facts_col c);
const char *ka_facts_col_name(ka_facts_col c);
ka_facts_type ka_facts_col_type(ka_facts_col c);
/* A table by name; -1 when there is none. */
int ka_facts_table_find(const char *name);

/* The schema as SQL (CREATE TABLE statements, in order); caller frees. */
char *ka_facts_schema_sql(void);
/* Create an empty in-memory facts database with the schema.  KA_OK or < 0
 * with the message in ka_error_last(). */
int ka_facts_open(sqlite3 **db);
/* The indexes the rules' joins rely on (per-kernel lookups, loop nesting);
 * after the rows are in, idempotent.  KA_OK or < 0. */
int ka_facts_index(sqlite3 *db);

/* The writer: opaque; one prepared statement per table, made on first use. */
typedef struct ka_facts_writer ka_facts_writer;
int ka_facts_writer_new(ka_facts_writer **out, sqlite3 *db);
void ka_facts_writer_free(ka_facts_writer *fw); /* NULL is fine */
/* KA_OK, or the first failure since _new (and its message set again in
 * ka_error_last()). */
int ka_facts_writer_check(const ka_facts_writer *fw);
/* Record a failure found outside the writer (a post-pass statement): it
 * becomes the sticky error unless one is there already.  Returns code. */
int ka_facts_writer_fail(ka_facts_writer *fw, int code, const char *fmt, ...) KA_PRINTF(3, 4);
/* Rows inserted so far (all tables). */
int64_t ka_facts_writer_rows(const ka_facts_writer *fw);

/* One row under construction.  Columns not set are NULL. */
typedef struct ka_facts_row {
	ka_facts_writer *fw;
	ka_facts_table table;
	unsigned char type[KA_FACTS_MAX_COLS]; /* 0 NULL, 1 int, 2 real, 3 text */
	int64_t i[KA_FACTS_MAX_COLS];
	double d[KA_FACTS_MAX_COLS];
	const char *s[KA_FACTS_MAX_COLS];
	int slen[KA_FACTS_MAX_COLS]; /* -1: NUL-terminated */
} ka_facts_row;

/* A location (model.h's ka_loc without the libclang details). */
typedef struct ka_facts_loc {
	const char *file;
	int line, col, end_line, end_col;
	int64_t begin, end; /* byte offsets, end exclusive; < 0 unknown (NULL) */
} ka_facts_loc;

void ka_facts_begin(ka_facts_row *r, ka_facts_writer *fw, ka_facts_table t);
void ka_facts_int(ka_facts_row *r, ka_facts_col c, int64_t v);
/* Integer or NULL (when !known). */
void ka_facts_opt(ka_facts_row *r, ka_facts_col c, int known, int64_t v);
void ka_facts_real(ka_facts_row *r, ka_facts_col c, double v);
void ka_facts_text(ka_facts_row *r, ka_facts_col c, const char *v); /* NULL -> NULL */
void ka_facts_textn(ka_facts_row *r, ka_facts_col c, const char *v, int n);
void ka_facts_null(ka_facts_row *r, ka_facts_col c);
/* file, line, col, end_line, end_col, begin_off, end_off of the row's table
 * (a table without them is a sticky error). */
void ka_facts_loc_set(ka_facts_row *r, const ka_facts_loc *l);
/* Insert the row (the values are copied; r may be reused after begin). */
void ka_facts_insert(ka_facts_row *r);

#endif
