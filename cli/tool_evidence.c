/* cli/tool_evidence.c: the knowledge DB as lint reads it.
 *
 * The CLI opens the DB read-only (a missing file is never created, an old
 * schema is never migrated) and hands it to lint (ka_lint_opts.kdb), which
 * puts each rule's standing on the run's arch onto its findings
 * (lint/evidence.c).  --explain and `kcheck rules show` print the standing
 * on each arch with evidence.
 *
 * Which DB: --no-db none; --db FILE that file, which must exist; else the
 * default path ($KCHECK_DB or the XDG one, knowledge/knowledge.h) when a
 * file is there.  .kcheck.yaml cannot name one (tool_parsecfg.c).  A
 * default DB that cannot be read is a warning and the run goes on without
 * evidence; a named one is an error. */
#include "cli/tools.h"
#include "knowledge/knowledge.h"
#include "rules/report.h"
#include <stdlib.h>
#include <string.h>

struct ka_tool_evidence {
	ka_kdb *db;
};

int ka_tool_evidence_open(ka_tool_evidence **out, const char *path, int no_db)
{
	char dflt[4096];
	ka_kdb *db = NULL;
	*out = NULL;
	if (no_db)
		return 0;
	if (!path && ka_kdb_default_path(dflt, sizeof dflt) != KA_OK)
		return 0; /* neither XDG_DATA_HOME nor HOME: no default DB */
	int rc = ka_kdb_open(&db, path ? path : dflt, KA_KDB_READONLY);
	if (rc == KA_ENOTFOUND && !path)
		return 0;
	if (rc == KA_ENOTFOUND) {
		ka_tool_error("no knowledge DB at %s (kcheck optimize or kcheck knowledge import writes "
			      "one; --no-db for none)",
			      path);
		return KA_EXIT_ERROR;
	}
	if (rc != KA_OK && !path) {
		ka_tool_warn("%s; findings carry no evidence (--no-db to skip it)", ka_error_last());
		return 0;
	}
	if (rc != KA_OK) {
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	if (!(*out = calloc(1, sizeof **out))) {
		ka_kdb_close(db);
		ka_tool_error("out of memory");
		return KA_EXIT_ERROR;
	}
	(*out)->db = db;
	return 0;
}

void ka_tool_evidence_free(ka_tool_evidence *x)
{
	if (!x)
		return;
	ka_kdb_close(x->db);
	free(x);
}

void ka_tool_evidence_lint(ka_tool_evidence *x, ka_lint_opts *o)
{
	o->kdb = x ? x->db : NULL;
}

typedef struct arches {
	char (*v)[128];
	size_t n, cap;
} arches;

static int add_arch(void *ud, const char *rule, const char *arch, const int count[KA_KDB_NVERDICTS])
{
	arches *a = ud;
	if (a->n == a->cap) {
		size_t ncap = a->cap ? a->cap * 2 : 8;
		char(*nv)[128] = realloc(a->v, ncap * sizeof *nv);
		if (!nv)
			return ka_error_set(KA_ENOMEM, "out of memory");
		a->v = nv, a->cap = ncap;
	}
	snprintf(a->v[a->n++], sizeof *a->v, "%s", arch);
	return 0;
}

int ka_tool_evidence_print(ka_tool_evidence *x, const char *rule, const char *lead, FILE *out)
{
	arches a = {0};
	int rc = x ? ka_kdb_tally_each(x->db, rule, add_arch, &a) : KA_OK;
	for (size_t i = 0; rc == KA_OK && i < a.n; i++) {
		ka_kdb_standing s;
		char text[200];
		if ((rc = ka_kdb_standing_get(x->db, rule, NULL, a.v[i], &s)) != KA_OK)
			break;
		ka_kdb_standing_text(&s, a.v[i], text, sizeof text);
		ka_buf b; /* an imported export's arch is outside input: escaped as findings are */
		ka_buf_init(&b, 1 << 12);
		rc = ka_report_escape(&b, text);
		if (rc == KA_OK)
			fprintf(out, "%sevidence: %s\n", i == 0 && lead ? lead : "", b.data ? b.data : "");
		ka_buf_free(&b);
	}
	free(a.v);
	if (rc != KA_OK) {
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	return 0;
}
