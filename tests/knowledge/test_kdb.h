/* tests/knowledge/test_kdb.h: what the knowledge DB tests share. */
#ifndef KA_TEST_KDB_H
#define KA_TEST_KDB_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "knowledge/knowledge.h"
#include "util/error.h"

/* assert KA_OK, printing the error message when not. */
#define TK_OK(e) \
	do { \
		int rc_ = (e); \
		if (rc_ != KA_OK) \
			fprintf(stderr, "%s\n", ka_error_last()); \
		assert_int_equal(rc_, KA_OK); \
	} while (0)

/* A fresh folder under /tmp (removed by tk_rmdir); path into buf. */
void tk_tmpdir(char *buf, size_t cap);
void tk_rmdir(const char *dir);
/* A new DB at DIR/k.db (created); path into path. */
ka_kdb *tk_open(const char *dir, char *path, size_t cap);
/* One evidence row. */
void tk_evidence(ka_kdb *k, const char *rule, const char *task, const char *arch, const char *verdict,
		 double speedup);
/* Run SQL on a raw connection to path. */
void tk_sql(const char *path, const char *sql);
/* A single integer from SQL on a raw connection. */
long long tk_int(const char *path, const char *sql);
/* A valid learned rule file text for id (its body mentions `words`). */
void tk_rule_text(char *buf, size_t cap, const char *id, const char *words);

extern const struct CMUnitTest tk_open_tests[];
extern const size_t tk_open_ntests;
extern const struct CMUnitTest tk_standing_tests[];
extern const size_t tk_standing_ntests;
extern const struct CMUnitTest tk_share_tests[];
extern const size_t tk_share_ntests;

#endif
