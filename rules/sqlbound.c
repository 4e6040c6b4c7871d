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
 * The string limit is never below twice the longest source line stored, so
 * the facts of a minified file never trip it.
 */
#include "rules/sqlfn.h"
#include "util/error.h"
#include <stdio.h>
#include <string.h>
#include <time.h>

/* How often (in VM steps) the progress handler runs, and how often of
 * those it reads the clock: rare enough to cost about 3% of evaluation,
 * often enough that the heap cannot grow by more than METER_EVERY values
 * of the string limit between two looks (the hard heap limit covers the
 * rest).  The heap counter is the process's: with -j N the budget also
 * sees the other workers, which is why it is generous. */
#define METER_EVERY 256
#define CLOCK_EVERY 8

#define LEN_FLOOR ((long long)KA_SQL_MIN_LENGTH)

/* The longest source line stored (the line table): the one kind of value
 * in the facts whose length the source alone decides.  Scanning every
 * column of every table instead doubled the cost of evaluation. */
static long long longest_line(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	long long n = 0;
	if (sqlite3_prepare_v2(db, "SELECT max(length(CAST(text AS BLOB))) FROM line", -1, &st, NULL) ==
		    SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

int ka_sql_bound(sqlite3 *db)
{
	static const struct {
		int id, value;
	} lim[] = {
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
	/* no writable_schema, no writes to shadow tables, no schema functions */
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
	long long len = 2 * longest_line(db) + 1; /* room for text spanning lines */
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
		snprintf(m->why, sizeof m->why, "used more than %lld MB of memory", m->budget.heap >> 20);
		return 1;
	}
	if ((m->steps / METER_EVERY) % CLOCK_EVERY == 0 && now_ms() - m->t0 > (double)m->budget.ms) {
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
