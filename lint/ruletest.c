/* lint/ruletest.c: a rule's examples are its tests (`kcheck rules test`,
 * ka_lint_test_rule): each example (parsed by rules/examples.c) goes
 * through the analyzer and the engine and what fires is compared with the
 * annotations; a `fixed` example must equal the fixes applied to the `bad`
 * one (fix.c, no compile gate).  Problems are reported against the rule
 * file's lines so the author can jump to them. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "lint/lint_int.h"
#include "analyzer/analyzer.h"
#include "rules/engine.h"
#include "rules/examples.h"
#include "rewriter/rewriter.h"
#include "util/error.h"
#include "util/proc.h"
#include "util/fs.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <unistd.h>

static int has_line(const int *v, int n, int line)
{
	for (int i = 0; i < n; i++)
		if (v[i] == line)
			return 1;
	return 0;
}

/* Analyze one example file; findings of `only` (or every enabled rule when
 * only is NULL) in that file go to out; the db is returned for the
 * fixes (caller closes). */
static int analyze_example(const ka_ruleset *rs, const ka_analyze_opts *aopts, const char *path,
			   const char *only, ka_findings *out, sqlite3 **dbp)
{
	sqlite3 *db = NULL;
	ka_eval_opts eo = KA_EVAL_OPTS_INIT;
	ka_findings all = KA_FINDINGS_INIT;
	int rc = ka_facts_open(&db);
	if (rc != KA_OK)
		goto out;
	if ((rc = ka_analyze_file(aopts, path, db)) != KA_OK)
		goto out;
	eo.only_rule = only;
	if ((rc = ka_rules_eval(rs, db, &eo, &all)) != KA_OK)
		goto out;
	for (size_t i = 0; i < all.n; i++)
		if (strcmp(all.v[i].file, path) == 0 && (rc = ka_findings_push(out, &all.v[i])) != KA_OK)
			goto out;
out:
	ka_findings_free(&all);
	if (dbp && rc == KA_OK)
		*dbp = db;
	else
		sqlite3_close(db);
	return rc;
}

#define FAIL(...) \
	do { \
		ka_buf_printf(log, __VA_ARGS__); \
		ka_buf_addc(log, '\n'); \
		ok = 0; \
	} while (0)

static int check_firing(const ka_rule *r, const ka_example *ex, const ka_findings *fs, ka_buf *log)
{
	int ok = 1;
	const char *kind = ka_example_kind_name(ex->kind);
	if (ex->kind == KA_EX_BAD && ex->nexpect == 0)
		FAIL("%s:%d: %s %s example has no `// ruleid: %s` annotation", r->path, ex->file_line - 1,
		     ex->lang, kind, r->id);
	for (int i = 0; ex->kind == KA_EX_BAD && i < ex->nexpect; i++) {
		int hit = 0;
		for (size_t k = 0; k < fs->n; k++)
			hit |= fs->v[k].line == ex->expect[i];
		if (!hit)
			FAIL("%s:%d: %s %s example: %s did not fire here (example line %d)", r->path,
			     ex->file_line + ex->expect[i] - 1, ex->lang, kind, r->id, ex->expect[i]);
	}
	for (size_t k = 0; k < fs->n; k++) {
		int line = fs->v[k].line;
		if (ex->kind == KA_EX_BAD && has_line(ex->expect, ex->nexpect, line))
			continue;
		if (k > 0 && fs->v[k - 1].line == line)
			continue;
		FAIL("%s:%d: %s %s example: %s fired unexpectedly (example line %d): %s", r->path,
		     ex->file_line + line - 1, ex->lang, kind, r->id, line, fs->v[k].message);
	}
	return ok;
}

/* A rule that does not run by default (preview, candidate) still fixes
 * its own fixed example: its findings are added to the enabled rules'. */
static int own_findings(const ka_ruleset *rs, const ka_rule *r, sqlite3 *db, const char *path,
			ka_findings *out)
{
	ka_eval_opts eo = KA_EVAL_OPTS_INIT;
	ka_findings own = KA_FINDINGS_INIT;
	eo.only_rule = r->id;
	int rc = ka_rules_eval(rs, db, &eo, &own);
	for (size_t i = 0; rc == KA_OK && i < own.n; i++)
		if (strcmp(own.v[i].file, path) == 0)
			rc = ka_findings_push(out, &own.v[i]);
	ka_findings_free(&own);
	return rc;
}

/* Order of the fix classes, strictest last: safe 0 < unsafe 1 < suggest 2. */
static int safety_rank(int s)
{
	return s == KA_FIX_SAFE ? 0 : s == KA_FIX_UNSAFE ? 1 : 2;
}

/* The rule's fix_safety may demote the transform's ceiling, never raise it. */
static void check_claim(const ka_rule *r, ka_buf *log, ka_lint_test_counts *counts)
{
	int line = r->lines.fix_safety ? r->lines.fix_safety : r->lines.fix, c;
	if (!r->fix)
		return;
	if ((c = ka_transform_ceiling(r->fix)) < 0) {
		ka_buf_printf(log, "%s:%d: fix: no transform named '%s' (docs/rewriter.md lists them)\n",
			      r->path, r->lines.fix, r->fix);
		counts->failed++;
	} else if (safety_rank(r->fix_safety) < safety_rank(c)) {
		ka_buf_printf(log,
			      "%s:%d: fix_safety: %s claims more than transform %s gives (%s at best); "
			      "a rule may only demote a fix\n",
			      r->path, line, ka_fix_safety_name(r->fix_safety), r->fix,
			      ka_fix_safety_name((ka_fix_safety)c));
		counts->failed++;
	}
}

/* --fix applied to bad (safe fixes of every rule + this rule's own) must
 * equal the fixed example. */
static int check_fixed(const ka_ruleset *rs, const ka_rule *r, const ka_analyze_opts *aopts,
		       const char *bad_path, const ka_example *bad, const ka_example *fixed, ka_buf *log,
		       ka_lint_test_counts *counts)
{
	ka_findings fs = KA_FINDINGS_INIT, sel = KA_FINDINGS_INIT;
	sqlite3 *db = NULL;
	char *out_text = NULL;
	size_t out_len = 0;
	int ok = 1;
	if (analyze_example(rs, aopts, bad_path, NULL, &fs, &db) != KA_OK ||
	    (!r->enabled && own_findings(rs, r, db, bad_path, &fs) != KA_OK)) {
		FAIL("%s:%d: %s bad example: %s", r->path, bad->file_line - 1, bad->lang, ka_error_last());
		goto out;
	}
	for (size_t i = 0; i < fs.n; i++)
		if (fs.v[i].fix && (fs.v[i].fix_safety == KA_FIX_SAFE || strcmp(fs.v[i].rule, r->id) == 0))
			ka_findings_push(&sel, &fs.v[i]);
	if (ka_lint_fix_text(db, bad_path, bad->code, strlen(bad->code), &sel, &out_text, &out_len) !=
	    KA_OK) {
		FAIL("%s:%d: %s fixed example: the fix failed: %s", r->path, fixed->file_line - 1,
		     fixed->lang, ka_error_last());
		goto out;
	}
	if (out_len != strlen(fixed->code) || memcmp(out_text, fixed->code, out_len) != 0)
		FAIL("%s:%d: %s fixed example differs from --fix applied to the bad example:\n%.*s", r->path,
		     fixed->file_line - 1, fixed->lang, (int)out_len, out_text);
out:
	counts->passed += ok;
	counts->failed += !ok;
	free(out_text);
	ka_findings_free(&fs);
	ka_findings_free(&sel);
	sqlite3_close(db);
	return KA_OK;
}

static int of_rule(const ka_finding *f, void *id)
{
	return strcmp(f->rule, id) == 0;
}

/* No message of any rule that fires on the example shows what a NULL or
 * empty fact leaves (ka_finding_message_defect): every rule runs on every
 * example, so each rule's message is rendered on all the examples' code. */
static int check_messages(const ka_rule *r, const ka_example *ex, const ka_findings *fs, ka_buf *log)
{
	int ok = 1;
	const char *why;
	for (size_t k = 0; k < fs->n; k++)
		if ((why = ka_finding_message_defect(&fs->v[k])) != NULL)
			FAIL("%s:%d: %s %s example: the message of %s shows %s (example line %d): %s",
			     r->path, ex->file_line + fs->v[k].line - 1, ex->lang,
			     ka_example_kind_name(ex->kind), fs->v[k].rule, why, fs->v[k].line,
			     fs->v[k].message);
	return ok;
}

static int run_example(const ka_ruleset *rs, const ka_rule *r, const ka_analyze_opts *aopts, const char *path,
		       const ka_example *ex, ka_buf *log, ka_lint_test_counts *counts)
{
	ka_findings fs = KA_FINDINGS_INIT;
	sqlite3 *db = NULL;
	int ok = 1;
	int rc = ka_fs_write_atomic(path, ex->code, strlen(ex->code));
	if (rc != KA_OK)
		return rc;
	/* every enabled rule, and this one when it is not (preview, candidate) */
	if (analyze_example(rs, aopts, path, NULL, &fs, &db) != KA_OK ||
	    (!r->enabled && own_findings(rs, r, db, path, &fs) != KA_OK))
		FAIL("%s:%d: %s %s example does not analyze: %s", r->path, ex->file_line - 1, ex->lang,
		     ka_example_kind_name(ex->kind), ka_error_last());
	else {
		ok = check_messages(r, ex, &fs, log);
		ka_findings_filter(&fs, of_rule, (void *)r->id);
		ka_findings_sort_unique(&fs);
		ok &= check_firing(r, ex, &fs, log);
	}
	sqlite3_close(db);
	counts->passed += ok;
	counts->failed += !ok;
	ka_findings_free(&fs);
	return KA_OK;
}

/* The examples of an `architectures: [amd]` rule are analyzed for an AMD
 * target (the default, KA_ARCH_DEFAULT, would make the rule not apply). */
static const char *arch_for(const ka_rule *r, const char *asked)
{
	if (ka_rule_applies(r, NULL, asked ? asked : KA_ARCH_DEFAULT))
		return asked;
	for (const ka_arch *a = ka_arch_all(); a && a->name; a++)
		if (ka_rule_applies(r, NULL, a->name))
			return a->name;
	return asked;
}

static int test_rule(const ka_ruleset *rs, const ka_rule *r, const ka_analyze_opts *asked, const char *tmpdir,
		     ka_buf *log, ka_lint_test_counts *counts)
{
	ka_analyze_opts ao = *asked;
	const ka_analyze_opts *aopts = &ao;
	ka_examples ex;
	char path[4096], bad_path[4096] = "";
	const ka_example *bad = NULL;
	ao.arch = arch_for(r, asked->arch);
	if (r->status == KA_STATUS_RETIRED) {
		ka_buf_printf(log, "%s: SKIP: retired (retired rules do not run)\n", r->id);
		counts->skipped++;
		return KA_OK;
	}
	check_claim(r, log, counts);
	/* Facts that only nvcc -Xptxas -v gives (registers, spills): the
	 * examples run with --ptxas, or are skipped loudly without nvcc. */
	if (r->where && (strstr(r->where, "spills_bytes") || strstr(r->where, "regs") ||
			 strstr(r->where, "ptxas_smem"))) {
		if (!ka_proc_find_nvcc()) {
			ka_buf_printf(log, "%s: SKIP: needs --ptxas facts and nvcc is not installed\n",
				      r->id);
			counts->skipped++;
			return KA_OK;
		}
		ao.ptxas = 1;
	}
	int rc = ka_examples_parse(r->body, r->body_line, r->id, &ex);
	if (rc != KA_OK)
		return rc;
	if (ex.n == 0) {
		ka_buf_printf(log, "%s:%d: rule %s has no examples (```cuda bad / good blocks)\n", r->path,
			      r->body_line, r->id);
		counts->failed++;
	}
	for (int i = 0; i < ex.n && rc == KA_OK; i++) {
		const ka_example *e = &ex.v[i];
		snprintf(path, sizeof path, "%s/%s-%s%d.%s", tmpdir, r->id, ka_example_kind_name(e->kind), i,
			 strcmp(e->lang, "hip") == 0 ? "hip" : "cu");
		if (e->kind == KA_EX_FIXED) {
			if (!bad || strcmp(bad->lang, e->lang) != 0) {
				ka_buf_printf(log,
					      "%s:%d: %s fixed example has no %s bad example before it\n",
					      r->path, e->file_line - 1, e->lang, e->lang);
				counts->failed++;
				continue;
			}
			rc = check_fixed(rs, r, aopts, bad_path, bad, e, log, counts);
			continue;
		}
		rc = run_example(rs, r, aopts, path, e, log, counts);
		if (e->kind == KA_EX_BAD) {
			bad = e;
			snprintf(bad_path, sizeof bad_path, "%s", path);
		}
	}
	ka_examples_free(&ex);
	return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

int ka_lint_test_rule(ka_lint *l, const char *id, const char *tmpdir, ka_buf *log,
		      ka_lint_test_counts *counts)
{
	const ka_rule *r = ka_ruleset_find(l->rs, id);
	ka_analyze_opts ao = KA_ANALYZE_OPTS_INIT;
	char tmpl[] = "/tmp/kcheck-rules-test-XXXXXX";
	int rc;
	if (!r)
		return ka_error_set(KA_ENOTFOUND, "no rule '%s' (see kcheck rules list)", id);
	if (!tmpdir && !(tmpdir = mkdtemp(tmpl)))
		return ka_error_set(KA_EIO, "cannot create a temporary folder under /tmp");
	ao.arch = l->o.arch;
	ao.force_shim = l->o.force_shim;
	ao.cuda_path = l->o.cuda_path;
	ao.extra_args = l->o.extra;
	ao.n_extra_args = l->o.nextra;
	rc = test_rule(l->rs, r, &ao, tmpdir, log, counts);
	if (tmpdir == tmpl && nftw(tmpl, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && rc == KA_OK)
		rc = ka_error_set(KA_EIO, "could not remove %s", tmpl);
	return rc;
}
