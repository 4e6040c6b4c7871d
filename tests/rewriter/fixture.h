/* tests/rewriter/fixture.h: facts databases for rewriter tests without the
 * analyzer: the real schema plus SQL functions that turn a needle in the
 * test's source into byte offsets, so INSERTs read
 *     INSERT INTO call(id, file, callee, callee_begin_off, callee_end_off)
 *     VALUES (1, 'input.cu', 'sqrt', off('sqrt('), off('sqrt(') + 4);
 * off(NEEDLE [, NTH]) is the offset of the NTH (1-based) occurrence,
 * offend(NEEDLE [, NTH]) the offset just past it; a missing needle is an
 * SQL error, so a typo fails the test loudly. */
#ifndef KA_TEST_REWRITER_FIXTURE_H
#define KA_TEST_REWRITER_FIXTURE_H
#include <sqlite3.h>
#include <stddef.h>

/* A database with the facts schema; `src` (kept by reference) is what off()
 * searches.  NULL on failure (message on stderr). */
sqlite3 *fixture_db(const char *src);
/* Run SQL; 0 or -1 (message on stderr). */
int fixture_exec(sqlite3 *db, const char *sql);
/* Read a whole file (caller frees); NULL when missing. */
char *fixture_read(const char *path, size_t *len);

#endif
