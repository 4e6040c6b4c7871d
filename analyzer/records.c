/* analyzer/records.c: the record pass, run on a file's facts after the walk
 * (analyze_file_here's joins).  A lane often reads or writes several
 * elements of its own stride window, one access at a time: the seven floats
 * of a box at `b = boxes + 7*i`, the sixteen of a 4x4 matrix in an unrolled
 * loop, fields read by different helpers.  Each access alone touches
 * `stride` bytes' worth of sectors per lane, but the sectors the first one
 * brings are the ones the next ones use, so the bytes the warp moves are
 * the record's sectors, not one set per access.
 *
 * The walk gives each access its record_key (the index without constants
 * and without the counters of loops of known trip count) and record_mask
 * (the elements of the lane's stride window it touches, emit_access.c).
 * Here the masks of the accesses of one kernel, base, direction, element
 * size, stride, traffic depth and key are unioned; every access of a group
 * wider than one access gets record_bytes (the bytes of the window the group
 * uses) and record_fetch_bytes (what the sectors holding them move per
 * lane), whose ratio is the cost the coalescing rules estimate, and
 * record_fields (the elements used).  With a lane stride over 64 elements or
 * a run-time one, the masks hold row offsets and only record_fields is set:
 * a row written field by field (its first fields, none left out), whose
 * cost depends on the unknown width.  Owns
 * nothing: two statements, finalized before it returns. */
#include "analyzer/records.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SECTOR_BYTES 32

static int popcount64(uint64_t m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* Sectors per lane that hold the window's used elements, the window taken
 * as aligned: a stride below a sector or not a multiple of one shares its
 * sectors with the next lane, so a lane moves at most its stride. */
static int64_t fetch_bytes(uint64_t mask, int64_t elem, int64_t stride)
{
	uint64_t sectors = 0;
	for (int b = 0; b < 64; b++)
		if (mask & (1ull << b))
			sectors |= 1ull << ((b * elem / SECTOR_BYTES) & 63);
	int64_t moved = (int64_t)popcount64(sectors) * SECTOR_BYTES;
	return moved < stride ? moved : stride;
}

typedef struct group {
	int64_t ids[256], span[256]; /* span: elements one access moves */
	int n;
	uint64_t all;
	int64_t elem, stride;
} group;

static int flush(sqlite3_stmt *up, const group *g)
{
	int used = popcount64(g->all);
	int periodic = g->elem > 0 && g->stride > 0 && g->stride % g->elem == 0 && g->stride / g->elem <= 64;
	int64_t bytes = used * g->elem, fetched = fetch_bytes(g->all, g->elem, g->stride);
	for (int i = 0; i < g->n; i++) {
		if (used <= g->span[i]) /* the record is this one access */
			continue;
		sqlite3_reset(up);
		if (periodic) {
			sqlite3_bind_int64(up, 1, bytes);
			sqlite3_bind_int64(up, 2, fetched);
		} else { /* a row of unknown or wide stride: only the fields are known */
			sqlite3_bind_null(up, 1);
			sqlite3_bind_null(up, 2);
			if (used >= 64 ? g->all != ~0ull : g->all != (1ull << used) - 1)
				continue; /* not the row's first fields, all of them */
		}
		sqlite3_bind_int64(up, 3, used);
		sqlite3_bind_int64(up, 4, g->ids[i]);
		if (sqlite3_step(up) != SQLITE_DONE)
			return -1;
	}
	return 0;
}

int ka_records_join(sqlite3 *db)
{
	sqlite3_stmt *sel = NULL, *up = NULL;
	int rc = -1;
	group g = {0};
	char prev[2048] = "";
	if (sqlite3_prepare_v2(db,
			       "SELECT id, record_mask, elem_bytes, stride_bytes_tx, "
			       "printf('%d|%s|%s|%d|%d|%d|%s', kernel_id, base, rw, elem_bytes, "
			       "stride_bytes_tx, COALESCE(traffic_depth, 0), record_key) AS g, access_bytes "
			       "FROM access WHERE space = 'global' AND record_key IS NOT NULL "
			       "AND record_mask IS NOT NULL ORDER BY g, id",
			       -1, &sel, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(
		    db,
		    "UPDATE access SET record_bytes = ?, record_fetch_bytes = ?, record_fields = ? "
		    "WHERE id = ?",
		    -1, &up, NULL) != SQLITE_OK)
		goto out;
	int step;
	while ((step = sqlite3_step(sel)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(sel, 4);
		key = key ? key : "";
		if (strlen(key) >= sizeof prev) /* a key this long groups nothing */
			continue;
		if (strcmp(key, prev) != 0 || g.n == (int)(sizeof g.ids / sizeof g.ids[0])) {
			if (g.n && flush(up, &g) != 0)
				goto out;
			g.n = 0;
			g.all = 0;
			snprintf(prev, sizeof prev, "%s", key);
		}
		g.ids[g.n] = sqlite3_column_int64(sel, 0);
		int64_t ab = sqlite3_column_int64(sel, 5), el = sqlite3_column_int64(sel, 2);
		g.span[g.n++] = ab > 0 && el > 0 ? ab / el : 1;
		g.all |= (uint64_t)sqlite3_column_int64(sel, 1);
		g.elem = sqlite3_column_int64(sel, 2);
		g.stride = sqlite3_column_int64(sel, 3);
	}
	if (step != SQLITE_DONE || (g.n && flush(up, &g) != 0))
		goto out;
	rc = 0;
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(up);
	return rc;
}
