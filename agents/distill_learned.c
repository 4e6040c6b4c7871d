/* agents/distill_learned.c: learned rules in later runs (agents/distill.h).
 * The knowledge DB's learned rules that are not retired are loaded as a
 * rule set of their own, every rule enabled, and evaluated on the kernel
 * of each optimize step: the analyzer's facts of the kernel file and the
 * rules engine, as lint runs them, but without lint's selection, so that a
 * candidate (which lint runs only when named) is seen.  The loop gives the
 * texts of the ones that fire to the LLM coder and files the step's
 * outcome as their evidence (agents/optimize.c). */
#include "agents/distill.h"
#include "analyzer/analyzer.h"
#include "rules/engine.h"
#include "util/error.h"
#include "util/fs.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One learned rule into the set, when it still loads on its own. */
static int add_learned(void *ud, const char *id, const char *status, const char *text)
{
	ka_ruleset *rs = ud, *one = NULL;
	char path[160];
	(void)status;
	snprintf(path, sizeof path, "knowledge DB rule %.100s", id);
	int rc = ka_ruleset_new(&one);
	if (rc == KA_OK && ka_ruleset_add_text(one, path, text, strlen(text), 0, 0) == KA_OK &&
	    ka_ruleset_check(one) == KA_OK)
		rc = ka_ruleset_add_text(rs, path, text, strlen(text), 0, 0);
	ka_ruleset_free(one);
	return rc == KA_ENOMEM ? rc : KA_OK; /* one that no longer loads is left out */
}

int ka_learned_load(ka_kdb *db, ka_ruleset **out)
{
	ka_ruleset *rs = NULL;
	int rc = ka_ruleset_new(&rs);
	if (rc == KA_OK)
		rc = ka_kdb_learned_each(db, add_learned, rs);
	if (rc == KA_OK)
		rc = ka_ruleset_check(rs);
	if (rc != KA_OK) {
		ka_ruleset_free(rs);
		return rc;
	}
	for (size_t i = 0; i < ka_ruleset_count(rs); i++)
		ka_ruleset_at(rs, i)->enabled = 1;
	*out = rs;
	return KA_OK;
}

int ka_learned_fired(const ka_ruleset *rs, const char *text, const char *arch, const char *const *extra,
		     int nextra, char (*ids)[96], int max, int *n)
{
	char dir[] = "/tmp/kcheck-learned-XXXXXX", path[64];
	sqlite3 *db = NULL;
	ka_findings fs = KA_FINDINGS_INIT;
	ka_analyze_opts ao = KA_ANALYZE_OPTS_INIT;
	ka_eval_opts eo = KA_EVAL_OPTS_INIT;
	*n = 0;
	if (ka_ruleset_count(rs) == 0)
		return KA_OK;
	if (!mkdtemp(dir))
		return ka_error_set(KA_EIO, "cannot create a temporary folder under /tmp");
	snprintf(path, sizeof path, "%s/kernel.cu", dir);
	ao.arch = arch;
	ao.extra_args = extra;
	ao.n_extra_args = nextra;
	int rc = ka_fs_write_atomic(path, text, strlen(text));
	if (rc == KA_OK)
		rc = ka_facts_open(&db);
	if (rc == KA_OK && (rc = ka_analyze_file(&ao, path, db)) == KA_EPARSE)
		rc = KA_OK; /* the facts of what parsed */
	if (rc == KA_OK)
		rc = ka_rules_eval(rs, db, &eo, &fs);
	for (size_t i = 0; rc == KA_OK && i < ka_ruleset_count(rs) && *n < max; i++) {
		const ka_rule *r = ka_ruleset_at(rs, i);
		int hit = 0;
		for (size_t k = 0; k < fs.n && !hit; k++)
			hit = !strcmp(fs.v[k].rule, r->id) && !strcmp(fs.v[k].file, path);
		if (hit)
			snprintf(ids[(*n)++], 96, "%s", r->id);
	}
	ka_findings_free(&fs);
	sqlite3_close(db);
	unlink(path);
	rmdir(dir);
	return rc;
}
