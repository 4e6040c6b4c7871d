/* rules/sqlbound.c: resource bounds on rule SQL (see sqlfn.h).
 *
 * Rule files come from the user's rule folders, but a rule folder can be
 * part of a cloned repository, so a rule must not be able to hang a run or
 * eat the machine.  Two layers:
 *   - sqlite3_limit() caps what one statement may build: strings and blobs
 *     (no zeroblob(1e9)), SQL text, expression depth, compound SELECTs,
 *     program size, LIKE patterns, function arguments, ATTACH;
 *   - a progress handler meters each rule's statement while it runs: VM
 *     steps (a recursive CTE that never ends), wall-clock time (steps that
 *     are each slow) and growth of SQLite's heap;
 *   - SQLite's hard heap limit (process-wide), for the single steps that
 *     allocate much at once.
 * The string limit is never below the longest value already stored, so a
 * long source line in the facts never trips it.
 */
#include "rules/sqlfn.h"
#include "util/error.h"
#include <stdio.h>
#include <string.h>
#include <time.h>

/* How often (in VM steps) the progress handler runs: small enough that
 * the heap cannot grow by much between two looks (each step builds at
 * most one value of the string limit). */
#define METER_EVERY 64

#define LEN_FLOOR ((long long)1 << 20)

static long long longest_in_table(sqlite3 *db, const char *table)
{
	char *sql = sqlite3_mprintf("SELECT name FROM pragma_table_info(%Q)", table);
	sqlite3_stmt *st = NULL;
	sqlite3_str *q = sqlite3_str_new(db);
	long long best = 0;
	int ncol = 0;
	if (sql && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK)
		while (sqlite3_step(st) == SQLITE_ROW)
			sqlite3_str_appendf(q, "%smax(length(CAST(\"%w\" AS BLOB)))", ncol++ ? ", " : "SELECT ",
					    (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_free(sql);
	sqlite3_str_appendf(q, " FROM \"%w\"", table);
	sql = sqlite3_str_finish(q);
	st = NULL;
	if (ncol && sql && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		for (int i = 0; i < ncol; i++)
			if (sqlite3_column_int64(st, i) > best)
				best = sqlite3_column_int64(st, i);
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return best;
}

/* The longest string or blob stored in any table of db. */
static long long longest_value(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	long long best = 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema WHERE type = 'table'", -1, &st,
			       NULL) != SQLITE_OK)
		return 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		long long n = longest_in_table(db, (const char *)sqlite3_column_text(st, 0));
		if (n > best)
			best = n;
	}
	sqlite3_finalize(st);
	return best;
}

int ka_sql_bound(sqlite3 *db)
{
	static const struct { int id, value; } lim[] = {
		{SQLITE_LIMIT_SQL_LENGTH, KA_SQL_MAX_SQL},
		{SQLITE_LIMIT_EXPR_DEPTH, KA_SQL_MAX_DEPTH},
		{SQLITE_LIMIT_COMPOUND_SELECT, KA_SQL_MAX_COMPOUND},
		{SQLITE_LIMIT_VDBE_OP, 100000},
		{SQLITE_LIMIT_FUNCTION_ARG, 32},
		{SQLITE_LIMIT_ATTACHED, 0},
		{SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 1000},
		{SQLITE_LIMIT_VARIABLE_NUMBER, 8},
		{SQLITE_LIMIT_TRIGGER_DEPTH, 1},
		{SQLITE_LIMIT_WORKER_THREADS, 0},
	};
	for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++)
		sqlite3_limit(db, lim[i].id, lim[i].value);
	long long len = longest_value(db) + 1;
	if (len < LEN_FLOOR)
		len = LEN_FLOOR;
	if (len > sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1))
		len = sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1);
	sqlite3_limit(db, SQLITE_LIMIT_LENGTH, (int)len);
	/* One step can allocate far more than a value (a sort's merge sets up
	 * a reader per spilled run), so the heap as a whole has a ceiling too,
	 * unless the program set its own. */
	if (sqlite3_hard_heap_limit64(-1) == 0)
		sqlite3_hard_heap_limit64(KA_SQL_HEAP_HARD);
	return KA_OK;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int on_progress(void *ud)
{
	ka_sql_meter *m = ud;
	m->steps += METER_EVERY;
	if (m->steps > m->budget.steps) {
		snprintf(m->why, sizeof m->why, "ran more than %lld SQL steps", m->budget.steps);
		return 1;
	}
	long long grown = (long long)sqlite3_memory_used() - m->heap0;
	if (grown > m->budget.heap) {
		snprintf(m->why, sizeof m->why, "used more than %lld MB of memory",
			 m->budget.heap >> 20);
		return 1;
	}
	if (now_ms() - m->t0 > (double)m->budget.ms) {
		snprintf(m->why, sizeof m->why, "ran longer than %lld ms", m->budget.ms);
		return 1;
	}
	return 0;
}

void ka_sql_meter_start(sqlite3 *db, ka_sql_meter *m, const ka_sql_budget *b)
{
	static const ka_sql_budget dflt = KA_SQL_BUDGET_DEFAULT;
	memset(m, 0, sizeof *m);
	m->budget = b ? *b : dflt;
	m->t0 = now_ms();
	m->heap0 = (long long)sqlite3_memory_used();
	sqlite3_progress_handler(db, METER_EVERY, on_progress, m);
}

void ka_sql_meter_stop(sqlite3 *db)
{
	sqlite3_progress_handler(db, 0, NULL, NULL);
}
