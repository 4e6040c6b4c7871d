/* tests/rewriter/fixture.c: see fixture.h. */
#include "fixture.h"
#include "facts/facts.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *fixture_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (n + 1 >= cap)
			buf = realloc(buf, cap *= 2);
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		if (r == 0)
			break;
		n += r;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static void find_needle(sqlite3_context *ctx, int argc, sqlite3_value **argv, int end)
{
	const char *src = sqlite3_user_data(ctx);
	const char *needle = (const char *)sqlite3_value_text(argv[0]);
	int nth = argc > 1 ? sqlite3_value_int(argv[1]) : 1;
	const char *p = src;
	if (!needle || !*needle || nth < 1) {
		sqlite3_result_error(ctx, "off(): bad arguments", -1);
		return;
	}
	for (int i = 0; p; i++) {
		p = strstr(p, needle);
		if (p && i + 1 == nth) {
			sqlite3_result_int64(ctx, (sqlite3_int64)(p - src) +
							  (end ? (sqlite3_int64)strlen(needle) : 0));
			return;
		}
		if (p)
			p++;
	}
	char msg[256];
	snprintf(msg, sizeof msg, "off(): '%s' (occurrence %d) is not in the source", needle, nth);
	sqlite3_result_error(ctx, msg, -1);
}

static void off_fn(sqlite3_context *c, int n, sqlite3_value **v)
{
	find_needle(c, n, v, 0);
}
static void offend_fn(sqlite3_context *c, int n, sqlite3_value **v)
{
	find_needle(c, n, v, 1);
}

int fixture_exec(sqlite3 *db, const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "fixture SQL failed: %s\n", err ? err : "?");
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

sqlite3 *fixture_db(const char *src)
{
	sqlite3 *db = NULL;
	if (ka_facts_open(&db) != KA_OK) {
		fprintf(stderr, "cannot create the facts schema: %s\n", ka_error_last());
		return NULL;
	}
	for (int n = 1; n <= 2; n++) {
		sqlite3_create_function(db, "off", n, SQLITE_UTF8, (void *)src, off_fn, NULL, NULL);
		sqlite3_create_function(db, "offend", n, SQLITE_UTF8, (void *)src, offend_fn, NULL, NULL);
	}
	return db;
}
