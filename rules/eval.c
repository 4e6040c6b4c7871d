/* rules/eval.c: run the enabled rules over one facts database (engine.h).
 *
 * One statement per rule, compiled read-only, stepped to the end; each row
 * becomes a ka_finding located by the row's location columns.  When the
 * warp model behind a row rested on an assumption (a non-NULL `assumption`
 * column, or block_source = 'assumed'), the message says so: a confident
 * warning must never hide a guess.
 */
#include "rules/engine.h"
#include "rules/sqlfn.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Where the location columns are in a result row (-1 = absent). */
typedef struct colmap {
	int file, line, col, end_line, end_col, begin_off, end_off, kernel, id;
	int assumption, block_source, kernel_id, block_x, block_y, block_z, estimate;
	int at_access; /* a `let: at_access`: the access row whose place the finding takes */
} colmap;

static void map_columns(sqlite3_stmt *st, colmap *m)
{
	struct {
		const char *name;
		int *slot;
	} want[] = {
		{"file", &m->file},
		{"line", &m->line},
		{"col", &m->col},
		{"end_line", &m->end_line},
		{"end_col", &m->end_col},
		{"begin_off", &m->begin_off},
		{"end_off", &m->end_off},
		{"kernel", &m->kernel},
		{"id", &m->id},
		{"assumption", &m->assumption},
		{"block_source", &m->block_source},
		{"kernel_id", &m->kernel_id},
		{"block_x", &m->block_x},
		{"block_y", &m->block_y},
		{"block_z", &m->block_z},
		{"ka_estimate", &m->estimate},
		{"at_access", &m->at_access},
	};
	size_t nw = sizeof want / sizeof want[0];
	for (size_t k = 0; k < nw; k++)
		*want[k].slot = -1;
	int n = sqlite3_column_count(st);
	for (int i = 0; i < n; i++) {
		const char *c = sqlite3_column_name(st, i);
		for (size_t k = 0; k < nw; k++)
			if (*want[k].slot < 0 && strcmp(c, want[k].name) == 0)
				*want[k].slot = i;
	}
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	if (i < 0 || sqlite3_column_type(st, i) == SQLITE_NULL)
		return NULL;
	return strdup((const char *)sqlite3_column_text(st, i));
}

static long long col_int(sqlite3_stmt *st, int i, long long dflt)
{
	if (i < 0 || sqlite3_column_type(st, i) == SQLITE_NULL)
		return dflt;
	return sqlite3_column_int64(st, i);
}

/* Block shape behind an assumed warp model: the row's own (kernel scope)
 * or its kernel's. */
static void assumed_block(sqlite3 *db, sqlite3_stmt *row, const colmap *m, ka_buf *msg)
{
	long long b[3] = {col_int(row, m->block_x, 0), col_int(row, m->block_y, 0),
			  col_int(row, m->block_z, 0)};
	if (!b[0] && m->kernel_id >= 0 && sqlite3_column_type(row, m->kernel_id) != SQLITE_NULL) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(db, "SELECT block_x, block_y, block_z FROM kernel WHERE id = ?", -1,
				       &st, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(st, 1, sqlite3_column_int64(row, m->kernel_id));
			if (sqlite3_step(st) == SQLITE_ROW)
				for (int k = 0; k < 3; k++)
					b[k] = col_int(st, k, 0);
		}
		sqlite3_finalize(st);
	}
	if (b[0])
		ka_buf_printf(
			msg,
			" (assumed: block of %lldx%lldx%lld threads; no launch site or __launch_bounds__ fixes it)",
			b[0], b[1] ? b[1] : 1, b[2] ? b[2] : 1);
	else
		ka_buf_adds(msg, " (assumed: block shape not known from launch sites or __launch_bounds__)");
}

/* The estimate and its basis (docs/rules.md, "Impact"): the severity follows
 * the band of the estimate, capped by the rule's severity, and the message
 * ends with the number and the facts behind it. */
static int impact(const ka_rule *r, sqlite3_stmt *st, const colmap *m, ka_finding *f, ka_buf *msg)
{
	ka_buf basis;
	int rc = KA_OK;
	int known = r->estimate && m->estimate >= 0 && sqlite3_column_type(st, m->estimate) != SQLITE_NULL;
	f->estimate = known ? sqlite3_column_double(st, m->estimate) : 0;
	if (f->estimate < 0)
		f->estimate = 0;
	/* An error rule's findings are hazards, not costs: one whose estimate
	 * is NULL keeps the ceiling (only a number, such as a hazard shown not
	 * to fire, bands it down) */
	int hazard = r->severity == KA_SEV_ERROR && !known;
	f->severity = ka_severity_band(r->severity, r->estimate != NULL && !hazard, f->estimate);
	if (!r->basis)
		return KA_OK;
	ka_buf_init(&basis, 1 << 14);
	if ((rc = ka_template_render(r->basis, st, &basis)) != KA_OK)
		goto out;
	if (known)
		rc = ka_buf_printf(msg, " [impact %.1fx: %s]", f->estimate, basis.data ? basis.data : "");
	else if (r->estimate && !hazard)
		rc = ka_buf_printf(msg, " [impact unknown: %s]", basis.data ? basis.data : "");
	else
		rc = ka_buf_printf(msg, " [impact: %s]", basis.data ? basis.data : "");
	if (rc == KA_OK)
		f->basis = ka_buf_steal(&basis);
out:
	ka_buf_free(&basis);
	return rc;
}

/* A kernel's share of the program, from what the host code shows (docs/
 * rules.md, "Cold kernels"): a kernel whose every launch runs once, that is
 * outside host loops and in a host function no host loop calls (directly or
 * through other host functions), while its launching function, or a host
 * function that calls it, also launches another kernel repeatedly (inside a
 * loop, or through a call made in a loop: start-up work before the
 * iterations), or its launching function launches another kernel at all
 * while this one only writes global memory (an initializer), or that does
 * a fixed amount of work per thread (no global access at a traffic_depth
 * above 0) while the file launches another kernel repeatedly (in a host
 * loop, or from a function a loop calls: the two may be linked only by a
 * file not analysed here), runs a small part of the time.  The host call graph is the `call` table's
 * host rows (caller `func`, `callee`, `in_loop`).  Its performance findings
 * are notes; the message says why.  Correctness findings keep their
 * severity. */
static const char cold_sql[] =
	"WITH RECURSIVE"
	/* the launching functions and every host function that calls them */
	" anc(fn) AS (SELECT func FROM launch WHERE kernel_id = ?1"
	"   UNION SELECT c.func FROM call c JOIN anc ON c.callee = anc.fn WHERE c.is_device_code = 0),"
	/* what they reach, and whether through a call made in a loop */
	" reach(fn, looped) AS (SELECT fn, 0 FROM anc"
	"   UNION SELECT c.callee, MAX(r.looped, COALESCE(c.in_loop, 0)) FROM call c"
	"   JOIN reach r ON c.func = r.fn WHERE c.is_device_code = 0),"
	/* what the launching functions themselves reach */
	" own(fn) AS (SELECT func FROM launch WHERE kernel_id = ?1"
	"   UNION SELECT c.callee FROM call c JOIN own ON c.func = own.fn WHERE c.is_device_code = 0),"
	/* host functions that run repeatedly: called in a loop, or by one that is */
	" rep(fn) AS (SELECT callee FROM call WHERE is_device_code = 0 AND in_loop = 1"
	"   UNION SELECT c.callee FROM call c JOIN rep ON c.func = rep.fn WHERE c.is_device_code = 0),"
	/* host functions that run on the first pass or every Nth pass only:
	 * every call of them sits under such a test (call.first_run), or comes
	 * from such a function (two levels: `if (step == 0) init_all()` ->
	 * init_part());
	 * a call by the same name from inside (a base class's method the
	 * override calls, by name a self-call) does not count */
	" rare1(fn) AS (SELECT DISTINCT c.callee FROM call c WHERE c.is_device_code = 0 AND c.first_run > 0"
	"   AND NOT EXISTS (SELECT 1 FROM call d WHERE d.callee = c.callee AND d.is_device_code = 0"
	"     AND COALESCE(d.first_run, 0) = 0 AND d.func IS NOT d.callee)),"
	" rare(fn) AS (SELECT fn FROM rare1 UNION SELECT DISTINCT c.callee FROM call c JOIN rare1 o ON c.func = o.fn"
	"   WHERE c.is_device_code = 0 AND NOT EXISTS (SELECT 1 FROM call d WHERE d.callee = c.callee"
	"     AND d.is_device_code = 0 AND COALESCE(d.first_run, 0) = 0 AND d.func IS NOT d.callee"
	"     AND d.func NOT IN (SELECT fn FROM rare1))),"
	/* every launch of the kernel is on a rare pass, or in a function that
	 * runs on rare passes only */
	" allrare(v) AS (SELECT NOT EXISTS (SELECT 1 FROM launch l WHERE l.kernel_id = ?1"
	"   AND COALESCE(l.first_run, 0) = 0 AND COALESCE(l.func, '') NOT IN (SELECT fn FROM rare)))"
	" SELECT k.name,"
	" COALESCE((SELECT h.kernel FROM reach r JOIN launch h ON h.func = r.fn AND h.in_loop = 1"
	"   WHERE h.kernel_id IS NOT NULL AND h.kernel_id != k.id LIMIT 1),"
	"  (SELECT h.kernel FROM reach r JOIN launch h ON h.func = r.fn WHERE r.looped = 1"
	"   AND h.kernel_id IS NOT NULL AND h.kernel_id != k.id LIMIT 1)),"
	" (SELECT o.kernel FROM own JOIN launch o ON o.func = own.fn WHERE o.kernel_id IS NOT NULL"
	"   AND o.kernel_id != k.id LIMIT 1),"
	" NOT EXISTS (SELECT 1 FROM access a WHERE a.kernel_id = k.id AND a.space = 'global'"
	"   AND a.rw IN ('read', 'readwrite')),"
	/* a set-up kernel of fixed work per thread (no global access in a loop
	 * that carries traffic) while the file repeats another kernel's launch */
	" CASE WHEN ?2 AND EXISTS (SELECT 1 FROM access a WHERE a.kernel_id = k.id AND a.space = 'global')"
	"   AND NOT EXISTS (SELECT 1 FROM access a WHERE a.kernel_id = k.id AND a.space = 'global'"
	"     AND COALESCE(a.traffic_depth, a.in_loop, 1) > 0)"
	"  THEN (SELECT h.kernel FROM launch h WHERE h.kernel_id IS NOT NULL AND h.kernel_id != k.id"
	"   AND (h.in_loop = 1 OR h.func IN (SELECT fn FROM rep)) LIMIT 1) END,"
	/* launched on the first pass only, while another kernel is launched
	 * on every pass */
	" CASE WHEN (SELECT v FROM allrare)"
	"  THEN (SELECT o.kernel FROM launch o WHERE o.kernel_id IS NOT NULL AND o.kernel_id != k.id"
	"   AND COALESCE(o.first_run, 0) = 0 AND COALESCE(o.func, '') NOT IN (SELECT fn FROM rare) LIMIT 1) END,"
	/* every launch runs once: none in a host loop, no launching function
	 * called in one, directly or through its callers (the other reasons
	 * above need this; a first-pass one does not) */
	" NOT EXISTS (SELECT 1 FROM launch l WHERE l.kernel_id = k.id AND COALESCE(l.in_loop, 1) != 0)"
	" AND NOT EXISTS (SELECT 1 FROM anc JOIN call c ON c.callee = anc.fn"
	"   WHERE c.is_device_code = 0 AND c.in_loop = 1),"
	/* launched on the first or every Nth pass only, and on every Nth pass
	 * somewhere (`if (step % interval == 0)`): the pass loop's other work
	 * runs N times as often, whether or not this file launches it */
	" (SELECT v FROM allrare)"
	" AND (EXISTS (SELECT 1 FROM launch l WHERE l.kernel_id = k.id AND l.first_run = 2)"
	"   OR EXISTS (SELECT 1 FROM anc JOIN call c ON c.callee = anc.fn"
	"     WHERE c.is_device_code = 0 AND c.first_run = 2))"
	" FROM kernel k WHERE k.id = ?1 AND k.kind = 'global'"
	" AND EXISTS (SELECT 1 FROM launch l WHERE l.kernel_id = k.id)"
	/* the same, where a launch or call under a first-pass test counts as
	 * running once even inside a loop (`for (step ...) { if (step == 0)
	 * init(); ... }`) */
	" AND NOT EXISTS (SELECT 1 FROM launch l WHERE l.kernel_id = k.id AND COALESCE(l.in_loop, 1) != 0"
	"   AND COALESCE(l.first_run, 0) = 0)"
	" AND NOT EXISTS (SELECT 1 FROM anc JOIN call c ON c.callee = anc.fn"
	"   WHERE c.is_device_code = 0 AND c.in_loop = 1 AND COALESCE(c.first_run, 0) = 0)";

/* The file-level half of the set-up kernel test, asked once per file (?2 of
 * cold_sql; per kernel it cost a scan of every launch, past the SQL budget
 * on a file of 5,000 kernels): the file launches some kernel repeatedly (in
 * a host loop, or from a function a loop calls), and it is a program, not a
 * library of launch wrappers: at most two host functions that launch
 * kernels and that no analysed host code calls (a set-up and a run entry
 * point; a wrapper library has one per kernel, each called an unknown
 * number of times). */
static const char setup_gate_sql[] =
	"SELECT (EXISTS (SELECT 1 FROM launch WHERE in_loop = 1)"
	"   OR EXISTS (SELECT 1 FROM call WHERE is_device_code = 0 AND in_loop = 1))"
	" AND (SELECT COUNT(DISTINCT e.func) FROM launch e WHERE e.func IS NOT NULL"
	"   AND NOT EXISTS (SELECT 1 FROM call c WHERE c.callee = e.func AND c.is_device_code = 0)) <= 2";

/* The file-level half, asked once per file (bit 1 of the gate): a program
 * (its main was analyzed) that launches some kernel. */
static const char program_gate_sql[] =
	"SELECT EXISTS (SELECT 1 FROM launch)"
	" AND EXISTS (SELECT 1 FROM call c WHERE c.func = 'main' AND c.is_device_code = 0)";

static int ask_gate(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int gate = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		gate = sqlite3_column_int(st, 0) != 0;
	sqlite3_finalize(st);
	return gate;
}

/* bit 0: setup_gate_sql, bit 1: program_gate_sql */
static int file_gates(sqlite3 *db)
{
	return ask_gate(db, setup_gate_sql) | ask_gate(db, program_gate_sql) << 1;
}

/* A kernel the program never starts: the file defines main, launches some
 * kernel, and never launches (nor passes to a launch through a pointer)
 * this one.  Another file of the program could still launch it through an
 * extern declaration, which a sample program with its own main seldom
 * does; the finding says so and stays a note. */
static const char unlaunched_sql[] =
	"SELECT k.name FROM kernel k WHERE k.id = ?1 AND k.kind = 'global'"
	" AND NOT EXISTS (SELECT 1 FROM launch l WHERE l.kernel_id = k.id OR l.kernel = k.name)";

static int unlaunched_kernel(sqlite3 *db, sqlite3_int64 kid, ka_finding *f, ka_buf *msg)
{
	sqlite3_stmt *st = NULL;
	int rc = KA_OK;
	if (sqlite3_prepare_v2(db, unlaunched_sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return KA_OK;
	}
	sqlite3_bind_int64(st, 1, kid);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		rc = ka_buf_printf(msg,
				   " [cold: the program in this file (it defines main) never launches %s]",
				   k ? k : "the kernel");
		f->cold = 1;
		if (f->severity > KA_SEV_NOTE)
			f->severity = KA_SEV_NOTE;
	}
	sqlite3_finalize(st);
	return rc;
}

/* A finding in a __device__ function's own row (kernel kind 'device': no
 * kernel of its file calls it, so it was analysed without a caller). */
static void standalone_helper(sqlite3 *db, const ka_rule *r, sqlite3_stmt *row, const colmap *m,
			      ka_finding *f)
{
	int kc = m->kernel_id >= 0 ? m->kernel_id : (r->scope && !strcmp(r->scope, "kernel") ? m->id : -1);
	sqlite3_stmt *st = NULL;
	if (kc < 0 || sqlite3_column_type(row, kc) == SQLITE_NULL ||
	    sqlite3_prepare_v2(db, "SELECT kind = 'device' FROM kernel WHERE id = ?1", -1, &st, NULL) !=
		    SQLITE_OK) {
		sqlite3_finalize(st);
		return;
	}
	sqlite3_bind_int64(st, 1, sqlite3_column_int64(row, kc));
	f->standalone = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
	sqlite3_finalize(st);
}

static int cold_kernel(sqlite3 *db, const ka_rule *r, sqlite3_stmt *row, const colmap *m, int gate,
		       ka_finding *f, ka_buf *msg)
{
	/* the kernel: the row's kernel_id, or the row itself for a kernel-scope rule */
	int kc = m->kernel_id >= 0 ? m->kernel_id : (r->scope && !strcmp(r->scope, "kernel") ? m->id : -1);
	if (r->cat == KA_CAT_CORRECTNESS || kc < 0 || sqlite3_column_type(row, kc) == SQLITE_NULL)
		return KA_OK;
	sqlite3_stmt *st = NULL;
	int rc = KA_OK;
	if (sqlite3_prepare_v2(db, cold_sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return KA_OK; /* facts without a launch table: nothing to weigh */
	}
	sqlite3_bind_int64(st, 1, sqlite3_column_int64(row, kc));
	sqlite3_bind_int(st, 2, gate & 1);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		const char *hot = (const char *)sqlite3_column_text(st, 1);
		const char *other = (const char *)sqlite3_column_text(st, 2);
		int writes_only = sqlite3_column_int(st, 3);
		const char *rep = (const char *)sqlite3_column_text(st, 4);
		const char *every = (const char *)sqlite3_column_text(st, 5);
		int periodic = sqlite3_column_int(st, 7);
		if (!sqlite3_column_int(st, 6)) /* runs once only through a first-pass test */
			hot = other = rep = NULL;
		if (periodic)
			rc = ka_buf_printf(msg,
					   " [cold: %s is launched only on every Nth pass (under a test of a "
					   "pass counter modulo an interval, `step %% N == 0`)]",
					   k ? k : "the kernel");
		else if (every)
			rc = ka_buf_printf(
				msg,
				" [cold: %s is launched only on the first pass (under a test of a step "
				"counter against 0 or of a set-up flag, or from a constructor), while %s "
				"is launched on every pass]",
				k ? k : "the kernel", every);
		else if (hot)
			rc = ka_buf_printf(msg,
					   " [cold: %s is launched outside the host loop that launches %s]",
					   k ? k : "the kernel", hot);
		else if (other && writes_only)
			rc = ka_buf_printf(
				msg,
				" [cold: %s only writes global memory (an initializer) and is launched "
				"outside host loops, next to %s]",
				k ? k : "the kernel", other);
		else if (rep)
			rc = ka_buf_printf(
				msg,
				" [cold: %s does a fixed amount of work per thread and is launched once, "
				"outside host loops, while %s is launched repeatedly]",
				k ? k : "the kernel", rep);
		if (hot || (other && writes_only) || rep || every || periodic) {
			f->cold = 1;
			if (f->severity > KA_SEV_NOTE)
				f->severity = KA_SEV_NOTE;
		}
	}
	sqlite3_finalize(st);
	if (rc == KA_OK && !f->cold && (gate & 2))
		rc = unlaunched_kernel(db, sqlite3_column_int64(row, kc), f, msg);
	return rc;
}

/* A rule whose row is a declaration may point at a use instead: a `let`
 * named `at_access` holding an `access.id` moves the finding there (docs/
 * rules.md, "The front matter"); NULL keeps the row's own place. */
static int at_access(sqlite3 *db, sqlite3_stmt *row, const colmap *m, ka_finding *f)
{
	if (m->at_access < 0 || sqlite3_column_type(row, m->at_access) == SQLITE_NULL)
		return KA_OK;
	sqlite3_stmt *st = NULL;
	int rc = KA_OK;
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT file, line, col, end_line, end_col, begin_off, end_off FROM access WHERE id = ?",
		    -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, sqlite3_column_int64(row, m->at_access));
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
			char *file = col_dup(st, 0);
			if (!file)
				rc = KA_ENOMEM;
			else {
				free(f->file);
				f->file = file;
				f->line = (int)col_int(st, 1, 0);
				f->col = (int)col_int(st, 2, 1);
				f->end_line = (int)col_int(st, 3, f->line);
				f->end_col = (int)col_int(st, 4, f->col);
				f->begin_off = (long)col_int(st, 5, -1);
				f->end_off = (long)col_int(st, 6, -1);
			}
		}
	}
	sqlite3_finalize(st);
	return rc;
}

static int make_finding(sqlite3 *db, const ka_rule *r, sqlite3_stmt *st, const colmap *m, int gate,
			ka_findings *out)
{
	ka_finding f = {0};
	ka_buf msg;
	int rc = KA_ENOMEM;
	ka_buf_init(&msg, 1 << 16);
	if (ka_template_render(r->message, st, &msg) != KA_OK)
		goto out;
	const unsigned char *as = m->assumption >= 0 ? sqlite3_column_text(st, m->assumption) : NULL;
	const unsigned char *bs = m->block_source >= 0 ? sqlite3_column_text(st, m->block_source) : NULL;
	/* A message that names {assumption} itself already says it. */
	int said = r->message && strstr(r->message, "{assumption}") != NULL;
	if (as && *as && !said)
		ka_buf_printf(&msg, " (assumed: %s)", (const char *)as);
	else if (!said && bs && strcmp((const char *)bs, "assumed") == 0)
		assumed_block(db, st, m, &msg);
	standalone_helper(db, r, st, m, &f);
	if (impact(r, st, m, &f, &msg) != KA_OK || cold_kernel(db, r, st, m, gate, &f, &msg) != KA_OK) {
		ka_finding_clear(&f);
		goto out;
	}
	f.file = col_dup(st, m->file);
	f.line = (int)col_int(st, m->line, 0);
	f.col = (int)col_int(st, m->col, 1);
	f.end_line = (int)col_int(st, m->end_line, f.line);
	f.end_col = (int)col_int(st, m->end_col, f.col);
	f.begin_off = (long)col_int(st, m->begin_off, -1);
	f.end_off = (long)col_int(st, m->end_off, -1);
	if (at_access(db, st, m, &f) != KA_OK) {
		ka_finding_clear(&f);
		rc = ka_error_set(KA_ENOMEM, "out of memory");
		goto out;
	}
	f.kernel = col_dup(st, m->kernel);
	f.rule = strdup(r->id);
	f.message = ka_buf_steal(&msg);
	f.fix = r->fix ? strdup(r->fix) : NULL;
	f.fix_safety = r->fix_safety;
	f.scope = strdup(r->scope);
	f.row_id = m->id >= 0 ? col_int(st, m->id, -1) : -1;
	if (!f.file || !f.rule || !f.message || !f.scope) {
		ka_finding_clear(&f);
		rc = ka_error_set(KA_ENOMEM, "out of memory");
		goto out;
	}
	rc = ka_findings_push(out, &f);
out:
	ka_buf_free(&msg);
	return rc;
}

int ka_rule_select_sql(const ka_rule *r, ka_buf *out)
{
	int rc = ka_buf_printf(out, "SELECT *, (\n%s\n) AS ka_estimate", r->estimate ? r->estimate : "NULL");
	for (int i = 0; i < r->let_names.n && rc == KA_OK; i++)
		rc = ka_buf_printf(out, ", (\n%s\n) AS \"%s\"", r->let_exprs.v[i], r->let_names.v[i]);
	if (rc == KA_OK)
		rc = ka_buf_printf(out, " FROM \"%s\" WHERE (\n%s\n)", r->scope, r->where);
	return rc;
}

/* "PATH: rule ID: why" from a reason that may be the current error
 * message itself (copied first: the formatting writes over it). */
static int rule_error(const ka_rule *r, const char *why)
{
	char copy[512];
	snprintf(copy, sizeof copy, "%s", why);
	return ka_error_set(KA_EINPUT, "%s: rule %s: %s", r->path, r->id, copy);
}

/* Evaluate one rule under budget b; rows without a file are skipped
 * (nothing to point at).  A scope with no `id` column gives findings with
 * row_id -1. */
static int run_rule(sqlite3 *db, const ka_rule *r, const ka_sql_budget *b, int gate, ka_findings *out)
{
	ka_buf sql;
	ka_sql_meter meter;
	sqlite3_stmt *st = NULL;
	colmap m;
	int rc, src;
	ka_buf_init(&sql, 1 << 20);
	rc = ka_rule_select_sql(r, &sql);
	if (rc != KA_OK)
		goto out;
	if ((rc = ka_sql_prepare_readonly(db, sql.data, &st)) != KA_OK) {
		rc = rule_error(r, ka_error_last());
		goto out;
	}
	map_columns(st, &m);
	ka_sql_meter_start(db, &meter, b);
	while ((src = sqlite3_step(st)) == SQLITE_ROW) {
		if (m.file < 0 || sqlite3_column_type(st, m.file) == SQLITE_NULL)
			continue; /* no location, nothing to point at */
		if ((rc = make_finding(db, r, st, &m, gate, out)) != KA_OK)
			break;
	}
	ka_sql_meter_stop(db);
	if (rc != KA_OK)
		goto out;
	if (src == SQLITE_INTERRUPT && meter.why[0])
		rc = ka_error_set(KA_EINPUT,
				  "%s: rule %s: stopped: %s (the budget of one rule; see docs/security.md)",
				  r->path, r->id, meter.why);
	else if (src == SQLITE_NOMEM)
		rc = ka_error_set(KA_EINPUT,
				  "%s: rule %s: stopped: out of memory (SQLite's heap is limited to %lld MB)",
				  r->path, r->id, (long long)(sqlite3_hard_heap_limit64(-1) >> 20));
	else if (src != SQLITE_DONE)
		rc = rule_error(r, sqlite3_errmsg(db));
out:
	sqlite3_finalize(st);
	ka_buf_free(&sql);
	return rc;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static char *query_text(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	char *v = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = col_dup(st, 0);
	sqlite3_finalize(st);
	return v;
}

int ka_rules_eval(const ka_ruleset *rs, sqlite3 *db, const ka_eval_opts *opts, ka_findings *out)
{
	ka_eval_opts o = KA_EVAL_OPTS_INIT;
	char *lang = NULL, *arch = NULL;
	int rc = KA_OK;
	if (opts)
		o = *opts;
	if (!o.lang)
		o.lang = lang = query_text(db, "SELECT lang FROM file WHERE is_main = 1 LIMIT 1");
	if (!o.arch)
		o.arch = arch = query_text(db, "SELECT name FROM arch LIMIT 1");
	if ((rc = ka_sql_register(db)) != KA_OK)
		goto out;
	int gate = file_gates(db);
	for (size_t i = 0; i < ka_ruleset_count(rs); i++) {
		const ka_rule *r = ka_ruleset_at(rs, i);
		if (o.only_rule ? strcmp(o.only_rule, r->id) != 0 : !r->enabled)
			continue;
		if (!ka_rule_applies(r, o.lang, o.arch))
			continue;
		double t0 = o.rule_ms ? now_ms() : 0;
		rc = run_rule(db, r, o.budget, gate, out);
		if (o.rule_ms)
			o.rule_ms[i] += now_ms() - t0;
		if (rc != KA_OK)
			goto out;
	}
out:
	free(lang);
	free(arch);
	return rc;
}
