/* tests/analyzer/src_util.c: scratch sources and fact queries for the
 * analyzer's end-to-end tests (src_util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/analyzer/src_util.h"
#include "util/fs.h"

char src_dir[256];

int src_dir_make(const char *templ)
{
	snprintf(src_dir, sizeof src_dir, "%s", templ);
	return mkdtemp(src_dir) ? 0 : -1;
}

void src_dir_remove(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", src_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", src_dir);
}

const char *write_src(const char *name, const char *text)
{
	static char path[512];
	snprintf(path, sizeof path, "%s/%s", src_dir, name);
	assert_int_equal(ka_fs_write_atomic(path, text, strlen(text)), 0);
	return path;
}

long long q(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	long long v = -1;
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}
