/* tests/analyzer/src_util.h: what the analyzer's end-to-end tests share: a
 * scratch folder for the sources they write, and one-integer queries over
 * the facts. */
#ifndef KA_TEST_SRC_UTIL_H
#define KA_TEST_SRC_UTIL_H
#include <sqlite3.h>

extern char src_dir[256];

/* Make src_dir from a mkdtemp template; 0 on success. */
int src_dir_make(const char *templ);
/* Remove src_dir and all it holds. */
void src_dir_remove(void);
/* Write text to src_dir/name (asserting success); the path, valid until the
 * next call. */
const char *write_src(const char *name, const char *text);
/* One integer from a query; -1 for NULL or no row. */
long long q(sqlite3 *db, const char *sql);

#endif
