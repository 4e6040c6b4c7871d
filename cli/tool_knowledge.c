/* cli/tool_knowledge.c: `kcheck knowledge`, the knowledge DB from the
 * command line (agents/knowledge.h):
 *
 *   kcheck knowledge stats [--db FILE]        what it holds; the top rules by standing
 *   kcheck knowledge show ID [--db FILE]      one rule: status, standing, evidence, file
 *   kcheck knowledge export DIR [--db FILE]   learned rules + evidence.json + skills.json
 *   kcheck knowledge import DIR [--db FILE]   the same back (created when missing)
 *
 * stats, show and export open the DB read-only and never create it.
 * import checks the whole export first (ka_kdb_import_check, into an
 * in-memory DB): a malformed file is one line and exit 2 before the DB is
 * opened, so nothing is written; the import itself is one transaction.
 * show is how to look at a learned rule that `kcheck optimize` distilled
 * from a win (agents/distill.h): lint does not report learned rules.
 *
 * Exit: 0, or 2 with one line on stderr (bad arguments, no DB, no rule, a
 * bad export). */
#include "cli/tools.h"
#include "agents/knowledge.h"
#include "rules/report.h"
#include "util/fs.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- show ---- */

/* What the DB holds may come from someone else's export: every string of
 * it is printed escaped (rules/report.h: control characters, bytes that are
 * not UTF-8, bidirectional overrides); a multi-line text keeps its line
 * breaks, each line escaped. */
static void put_text(ka_buf *b, const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, "\n");
		char *line = strndup(s, n);
		ka_report_escape(b, line ? line : "?");
		free(line);
		if (!s[n])
			break;
		ka_buf_addc(b, '\n');
		s += n + 1;
	}
}

static int print_row(void *ud, const ka_kdb_evidence *e)
{
	ka_buf *b = ud;
	char day[16] = "?", sp[64] = "-";
	time_t t = (time_t)e->when;
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(day, sizeof day, "%Y-%m-%d", &tm);
	if (e->speedup > 0 && e->ci_low > 0)
		snprintf(sp, sizeof sp, "%.2fx [%.2f, %.2f]", e->speedup, e->ci_low, e->ci_high);
	else if (e->speedup > 0)
		snprintf(sp, sizeof sp, "%.2fx", e->speedup);
	const char *field[] = {e->verdict, sp, e->task ? e->task : "-", e->arch, e->gpu, e->fix};
	ka_buf_printf(b, "  %s", day);
	for (int i = 0; i < 6; i++)
		if (field[i]) {
			ka_buf_addc(b, ' ');
			ka_report_escape(b, field[i]);
		}
	ka_buf_addc(b, '\n');
	return 0;
}

static int show(ka_kdb *db, const char *id, FILE *out)
{
	char origin[16], status[16], standing[200];
	char *text = NULL;
	ka_kdb_standing s;
	int rc = ka_kdb_rule_get(db, id, &text, origin, status);
	if (rc == KA_OK)
		rc = ka_kdb_standing_get(db, id, NULL, NULL, &s);
	if (rc != KA_OK) {
		free(text);
		return rc;
	}
	ka_buf b;
	ka_buf_init(&b, 0);
	ka_report_escape(&b, id);
	ka_buf_printf(&b, ": %s (%s)\n", status, origin);
	ka_kdb_standing_text(&s, NULL, standing, sizeof standing);
	ka_buf_adds(&b, "standing: ");
	ka_report_escape(&b, standing[0] ? standing : "no evidence yet");
	ka_buf_addc(&b, '\n');
	if (!strcmp(status, "candidate"))
		ka_buf_printf(&b,
			      "a candidate: preview once it wins on 2 distinct tasks (wins on %d so far)\n",
			      s.tasks);
	ka_buf_adds(&b, "evidence:\n");
	rc = ka_kdb_evidence_each(db, id, print_row, &b);
	if (rc == KA_OK && s.verified + s.errors == 0)
		ka_buf_adds(&b, "  none\n");
	if (rc == KA_OK) {
		ka_buf_addc(&b, '\n');
		put_text(&b, text);
		if (!text[0] || text[strlen(text) - 1] != '\n')
			ka_buf_addc(&b, '\n');
		fputs(b.data ? b.data : "", out);
	}
	ka_buf_free(&b);
	free(text);
	return rc;
}

/* ---- stats ---- */

static const char *const verdict_names[KA_KDB_NVERDICTS] = {"faster", "same", "slower", "rejected", "error"};

#define TOP_RULES 10

typedef struct pair {
	char rule[256], arch[128];
	ka_kdb_standing s;
} pair;

typedef struct arch_count {
	char name[128];
	int count[KA_KDB_NVERDICTS], total;
} arch_count;

typedef struct tally {
	pair *pairs; /* (rule, arch) with evidence */
	size_t npairs, cap_pairs;
	arch_count *arch;
	size_t narch, cap_arch;
} tally;

/* Room for one more pair and one more arch. */
static int room(tally *t)
{
	if (t->npairs == t->cap_pairs) {
		size_t ncap = t->cap_pairs ? t->cap_pairs * 2 : 16;
		pair *nv = realloc(t->pairs, ncap * sizeof *nv);
		if (!nv)
			return ka_error_set(KA_ENOMEM, "out of memory");
		t->pairs = nv, t->cap_pairs = ncap;
	}
	if (t->narch == t->cap_arch) {
		size_t ncap = t->cap_arch ? t->cap_arch * 2 : 8;
		arch_count *nv = realloc(t->arch, ncap * sizeof *nv);
		if (!nv)
			return ka_error_set(KA_ENOMEM, "out of memory");
		t->arch = nv, t->cap_arch = ncap;
	}
	return KA_OK;
}

static int add_tally(void *ud, const char *rule, const char *arch, const int count[KA_KDB_NVERDICTS])
{
	tally *t = ud;
	size_t a = 0;
	while (a < t->narch && strcmp(t->arch[a].name, arch) != 0)
		a++;
	if (room(t) != KA_OK)
		return KA_ENOMEM;
	if (a == t->narch) {
		memset(&t->arch[a], 0, sizeof t->arch[a]);
		snprintf(t->arch[t->narch++].name, sizeof t->arch[a].name, "%s", arch);
	}
	for (int v = 0; v < KA_KDB_NVERDICTS; v++) {
		t->arch[a].count[v] += count[v];
		t->arch[a].total += count[v];
	}
	pair *p = &t->pairs[t->npairs++];
	memset(p, 0, sizeof *p);
	snprintf(p->rule, sizeof p->rule, "%s", rule);
	snprintf(p->arch, sizeof p->arch, "%s", arch);
	return KA_OK;
}

/* Best standing first: posterior, then wins, then the median win. */
static int cmp_pair(const void *pa, const void *pb)
{
	const pair *a = pa, *b = pb;
	if (a->s.posterior != b->s.posterior)
		return a->s.posterior > b->s.posterior ? -1 : 1;
	if (a->s.wins != b->s.wins)
		return a->s.wins > b->s.wins ? -1 : 1;
	if (a->s.median != b->s.median)
		return a->s.median > b->s.median ? -1 : 1;
	int c = strcmp(a->rule, b->rule);
	return c ? c : strcmp(a->arch, b->arch);
}

/* "N (a faster, b same, ...)" with the verdicts that occur. */
static void print_counts(ka_buf *b, int total, const int *count)
{
	const char *sep = " (";
	ka_buf_printf(b, "%d %s", total, total == 1 ? "row" : "rows");
	for (int v = 0; v < KA_KDB_NVERDICTS; v++)
		if (count[v]) {
			ka_buf_printf(b, "%s%d %s", sep, count[v], verdict_names[v]);
			sep = ", ";
		}
	if (total)
		ka_buf_adds(b, ")");
}

static int cmp_arch(const void *a, const void *b)
{
	return strcmp(((const arch_count *)a)->name, ((const arch_count *)b)->name);
}

static int stats_text(ka_kdb *db, const ka_kdb_stats *st, tally *t, ka_buf *b)
{
	int rc = KA_OK;
	if (t->narch)
		qsort(t->arch, t->narch, sizeof *t->arch, cmp_arch);
	ka_buf_printf(b, "knowledge DB: %s\n", ka_kdb_path(db));
	ka_buf_printf(b, "rules: %d stable, %d preview, %d candidate, %d retired (%d learned)\n",
		      st->rules[0], st->rules[1], st->rules[2], st->rules[3], st->learned);
	ka_buf_adds(b, "evidence: ");
	print_counts(b, st->evidence, st->verdicts);
	ka_buf_addc(b, '\n');
	for (size_t a = 0; a < t->narch; a++) {
		ka_buf_adds(b, "  ");
		ka_report_escape(b, t->arch[a].name);
		ka_buf_adds(b, ": ");
		print_counts(b, t->arch[a].total, t->arch[a].count);
		ka_buf_addc(b, '\n');
	}
	ka_buf_printf(b, "skills: %d\nruns: %d (%d steps)\n", st->skills, st->runs, st->steps);
	for (size_t i = 0; i < t->npairs && rc == KA_OK; i++)
		rc = ka_kdb_standing_get(db, t->pairs[i].rule, NULL, t->pairs[i].arch, &t->pairs[i].s);
	if (rc != KA_OK || !t->npairs)
		return rc;
	qsort(t->pairs, t->npairs, sizeof *t->pairs, cmp_pair);
	ka_buf_printf(b, "top rules by standing (posterior of a win, then wins):\n");
	for (size_t i = 0; i < t->npairs && i < TOP_RULES; i++) {
		char text[200];
		ka_kdb_standing_text(&t->pairs[i].s, t->pairs[i].arch, text, sizeof text);
		ka_buf_printf(b, "  %.2f  ", t->pairs[i].s.posterior);
		ka_report_escape(b, t->pairs[i].rule);
		ka_buf_adds(b, ": ");
		ka_report_escape(b, text);
		ka_buf_addc(b, '\n');
	}
	return rc;
}

static int stats(ka_kdb *db, FILE *out)
{
	ka_kdb_stats st;
	tally t = {0};
	ka_buf b;
	ka_buf_init(&b, 1 << 22);
	int rc = ka_kdb_stats_get(db, &st);
	if (rc == KA_OK)
		rc = ka_kdb_tally_each(db, NULL, add_tally, &t);
	if (rc == KA_OK)
		rc = stats_text(db, &st, &t, &b);
	if (rc == KA_OK && b.len && fwrite(b.data, 1, b.len, out) != b.len)
		rc = ka_error_set(KA_EIO, "cannot write the output");
	ka_buf_free(&b);
	free(t.pairs);
	free(t.arch);
	return rc;
}

/* ---- export, import ---- */

static const char *plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static int export_to(ka_kdb *db, const char *dir, FILE *out)
{
	ka_kdb_counts c;
	int rc = ka_kdb_export(db, dir, &c);
	if (rc == KA_OK)
		fprintf(out, "exported %d learned %s, %d evidence %s, %d %s to %s\n", c.rules,
			plural(c.rules, "rule", "rules"), c.evidence, plural(c.evidence, "row", "rows"),
			c.skills, plural(c.skills, "skill", "skills"), dir);
	return rc;
}

/* Check the export, then open (or create) the DB and import it.  A DB
 * created here and left empty by a failed import is removed again. */
static int import_from(const char *path, const char *dir, FILE *out)
{
	ka_kdb_counts want, got;
	ka_kdb *db = NULL;
	int rc = ka_kdb_import_check(dir, &want);
	if (rc != KA_OK)
		return rc;
	int existed = ka_fs_exists(path);
	if ((rc = ka_kdb_open(&db, path, KA_KDB_CREATE)) == KA_OK)
		rc = ka_kdb_import(db, dir, &got);
	ka_kdb_close(db);
	if (rc != KA_OK && !existed) {
		char side[4200];
		unlink(path);
		snprintf(side, sizeof side, "%s-wal", path), unlink(side);
		snprintf(side, sizeof side, "%s-shm", path), unlink(side);
	}
	if (rc != KA_OK)
		return rc;
	fprintf(out, "imported %d learned %s, %d evidence %s (%d already there), %d %s into %s\n", got.rules,
		plural(got.rules, "rule", "rules"), got.evidence, plural(got.evidence, "row", "rows"),
		want.evidence - got.evidence, got.skills, plural(got.skills, "skill", "skills"), path);
	return KA_OK;
}

/* ---- the command ---- */

typedef struct kargs {
	const char *cmd, *arg; /* stats | show ID | export DIR | import DIR */
	const char *db;
} kargs;

static int usage_error(const char *fmt, const char *what)
{
	char msg[256];
	snprintf(msg, sizeof msg, fmt, what);
	ka_tool_error("%s (usage: kcheck knowledge stats|show ID|export DIR|import DIR [--db FILE])", msg);
	return KA_EXIT_ERROR;
}

/* How many operands a command takes (show ID, export DIR, import DIR: one;
 * stats: none); -1 for an unknown command. */
static int operands(const char *cmd)
{
	if (!strcmp(cmd, "stats"))
		return 0;
	if (!strcmp(cmd, "show") || !strcmp(cmd, "export") || !strcmp(cmd, "import"))
		return 1;
	return -1;
}

/* argv -> a; 0, -1 after --help, or KA_EXIT_ERROR after a one-line error. */
static int parse(ka_arena *arena, int argc, char **argv, kargs *a)
{
	ka_tool_cfg c = {.arena = arena};
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			ka_tool_help_cmd(stdout, KA_CMD_KNOWLEDGE);
			return -1;
		}
	int rc = ka_tool_getparam(&c, KA_CMD_KNOWLEDGE, argc, argv, 1);
	if (rc == KA_TOOL_UNKNOWN)
		return usage_error("unknown option '%s'", c.bad_option);
	if (rc)
		return KA_EXIT_ERROR;
	if (c.nextra)
		return usage_error("unexpected argument '%s'", "--");
	if (c.npaths == 0)
		return usage_error("no knowledge command given%s", "");
	a->cmd = c.paths[0];
	a->db = c.db;
	int want = operands(a->cmd);
	if (want < 0)
		return usage_error("unknown knowledge command: %s", a->cmd);
	if (c.npaths > 1 + want)
		return usage_error("unexpected argument '%s'", c.paths[1 + want]);
	if (c.npaths < 1 + want)
		return usage_error(!strcmp(a->cmd, "show") ? "no rule id given%s" : "no folder given%s", "");
	a->arg = want ? c.paths[1] : NULL;
	return 0;
}

/* The DB path: --db, else the default one. */
static int db_path(const kargs *a, char *buf, size_t cap)
{
	if (a->db) {
		snprintf(buf, cap, "%s", a->db);
		return KA_OK;
	}
	return ka_kdb_default_path(buf, cap);
}

int ka_tool_knowledge(int argc, char **argv)
{
	ka_arena *arena = ka_arena_new();
	kargs a = {0};
	ka_kdb *db = NULL;
	char path[4096];
	int rc = parse(arena, argc, argv, &a);
	if (rc) {
		ka_arena_free(arena);
		return rc < 0 ? KA_EXIT_CLEAN : rc;
	}
	rc = db_path(&a, path, sizeof path);
	if (rc == KA_OK && !strcmp(a.cmd, "import")) {
		rc = import_from(path, a.arg, stdout);
	} else if (rc == KA_OK) {
		rc = ka_kdb_open(&db, path, KA_KDB_READONLY);
		if (rc == KA_ENOTFOUND)
			ka_error_set(rc, "no knowledge DB at %s (kcheck optimize writes it; --db FILE)",
				     path);
		else if (rc == KA_OK && !strcmp(a.cmd, "stats"))
			rc = stats(db, stdout);
		else if (rc == KA_OK && !strcmp(a.cmd, "show"))
			rc = show(db, a.arg, stdout);
		else if (rc == KA_OK)
			rc = export_to(db, a.arg, stdout);
	}
	ka_kdb_close(db);
	ka_arena_free(arena);
	if (rc != KA_OK) {
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	return KA_EXIT_CLEAN;
}
