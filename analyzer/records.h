/* analyzer/records.h: the record pass over a file's access facts
 * (records.c): a lane's accesses of one stride window, unioned. */
#ifndef KA_ANALYZER_RECORDS_H
#define KA_ANALYZER_RECORDS_H

#include <sqlite3.h>

/* Fills access.record_bytes and record_fetch_bytes from record_key and
 * record_mask.  0, or -1 with sqlite3_errmsg(db) saying why. */
int ka_records_join(sqlite3 *db);

#endif
