/* cli/tool_knowledge.c: `kcheck knowledge show ID [--db FILE]`: one rule as
 * the knowledge DB holds it: its status and origin, its standing, every
 * evidence row, and its rule file.  The way to look at a learned rule that
 * `kcheck optimize` distilled from a win (agents/distill.h): lint does not
 * report learned rules, so this is where a candidate and its evidence show.
 * The DB is opened read-only.
 *
 * Exit: 0, or 2 with one line on stderr (bad arguments, no DB, no rule). */
#include "cli/tools.h"
#include "agents/knowledge.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage[] = "usage: kcheck knowledge show ID [--db FILE]\n";

static int print_row(void *ud, const ka_kdb_evidence *e)
{
	FILE *out = ud;
	char day[16] = "?", sp[64] = "-";
	time_t t = (time_t)e->when;
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(day, sizeof day, "%Y-%m-%d", &tm);
	if (e->speedup > 0 && e->ci_low > 0)
		snprintf(sp, sizeof sp, "%.2fx [%.2f, %.2f]", e->speedup, e->ci_low, e->ci_high);
	else if (e->speedup > 0)
		snprintf(sp, sizeof sp, "%.2fx", e->speedup);
	fprintf(out, "  %s %s %s %s %s%s%s%s%s\n", day, e->verdict, sp, e->task ? e->task : "-", e->arch,
		e->gpu ? " " : "", e->gpu ? e->gpu : "", e->fix ? " " : "", e->fix ? e->fix : "");
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
	fprintf(out, "%s: %s (%s)\n", id, status, origin);
	ka_kdb_standing_text(&s, NULL, standing, sizeof standing);
	fprintf(out, "standing: %s\n", standing[0] ? standing : "no evidence yet");
	if (!strcmp(status, "candidate"))
		fprintf(out, "a candidate: preview once it wins on 2 distinct tasks (wins on %d so far)\n",
			s.tasks);
	fprintf(out, "evidence:\n");
	rc = ka_kdb_evidence_each(db, id, print_row, out);
	if (rc == KA_OK && s.verified + s.errors == 0)
		fprintf(out, "  none\n");
	if (rc == KA_OK)
		fprintf(out, "\n%s%s", text, text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
	free(text);
	return rc;
}

int ka_tool_knowledge(int argc, char **argv)
{
	const char *id = NULL, *path = NULL;
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(usage, stdout);
		return KA_EXIT_CLEAN;
	}
	if (argc < 2 || strcmp(argv[1], "show") != 0) {
		if (argc < 2)
			ka_tool_error("no knowledge command given (%.*s)", (int)strlen(usage) - 8, usage + 7);
		else
			ka_tool_error("unknown knowledge command: %s (%.*s)", argv[1], (int)strlen(usage) - 8,
				      usage + 7);
		return KA_EXIT_ERROR;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--db") && i + 1 < argc)
			path = argv[++i];
		else if (argv[i][0] == '-' || id) {
			ka_tool_error("unexpected argument: %s (%.*s)", argv[i], (int)strlen(usage) - 8,
				      usage + 7);
			return KA_EXIT_ERROR;
		} else
			id = argv[i];
	}
	if (!id) {
		ka_tool_error("no rule id given (%.*s)", (int)strlen(usage) - 8, usage + 7);
		return KA_EXIT_ERROR;
	}
	char dflt[4096];
	if (!path && ka_kdb_default_path(dflt, sizeof dflt) == KA_OK)
		path = dflt;
	ka_kdb *db = NULL;
	int rc = path ? ka_kdb_open(&db, path, KA_KDB_READONLY) : KA_ENOTFOUND;
	if (rc == KA_ENOTFOUND && !db)
		ka_error_set(rc, "no knowledge DB at %s (kcheck optimize writes it; --db FILE)",
			     path ? path : "the default path");
	if (rc == KA_OK)
		rc = show(db, id, stdout);
	ka_kdb_close(db);
	if (rc != KA_OK) {
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	return KA_EXIT_CLEAN;
}
