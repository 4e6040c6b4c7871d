/* analyzer/facts.h: the facts writer.  Rows are built column by column and
 * inserted into the in-memory database (schema: facts_schema.sql). */
#ifndef KA_ANALYZER_FACTS_H
#define KA_ANALYZER_FACTS_H
#include <sqlite3.h>
#include <stdint.h>
#include "analyzer/model.h"

#define KA_ROW_MAX 72

typedef struct ka_row {
	const char *table;
	int n;
	const char *col[KA_ROW_MAX];
	int type[KA_ROW_MAX];   /* 0 null, 1 int, 2 real, 3 text */
	int64_t i[KA_ROW_MAX];
	double d[KA_ROW_MAX];
	const char *s[KA_ROW_MAX];
} ka_row;

void ka_row_begin(ka_row *r, const char *table);
void ka_row_int(ka_row *r, const char *col, int64_t v);
/* Integer or NULL (when !known). */
void ka_row_opt(ka_row *r, const char *col, int known, int64_t v);
void ka_row_real(ka_row *r, const char *col, double v);
void ka_row_text(ka_row *r, const char *col, const char *v);   /* NULL -> NULL */
void ka_row_loc(ka_row *r, const ka_loc *l);
int ka_row_insert(sqlite3 *db, ka_row *r);

#endif
