/* rules/report_json.c: findings as one JSON object (jansson):
 *   {"tool": "kcheck", "version": "...", "findings": [{file, line, column,
 *    end_line, end_column, begin_offset, end_offset, rule, severity,
 *    message, kernel, also_kernels (only where other kernels reach the same
 *    line with the same finding), title, category, impact, estimate, basis,
 *    fix, fix_safety, evidence (only where the knowledge DB measured the
 *    rule's fix)}, ...], "kernels": [costliest finding per kernel],
 *    "files": [{file, status ("analyzed", "partial", "failed"), reason,
 *    clang_errors, diagnostics: [{file, line, column, severity, message}]}]
 *    (clang's errors and the analysis limits: not findings),
 *    "summary": {"error": n, "warning": n, "note": n, "clang_errors": n,
 *    "files": {"analyzed": n, "partial": n, "failed": n}}}, and with applied
 *    LLM-made rewrites "llm_fixes": [{file, kernel, rules: [ids], model,
 *    llm_made: true, applied: true}]
 * Absent values are JSON null; columns are bytes, 1-based.  Text that is
 * not valid UTF-8 (a Latin-1 file name) gets U+FFFD for each bad byte. */
#include "rules/report.h"
#include "rules/utf8.h"
#include "util/error.h"
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Set key to v (stolen); a NULL v (out of memory) or a failed set marks
 * the object bad. */
static void put(json_t *j, const char *key, json_t *v, int *bad)
{
	if (!v || json_object_set_new(j, key, v) != 0)
		*bad = 1;
}

json_t *ka_report_sites_json(const ka_finding *f)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < f->nsites; i++)
		if (json_array_append_new(a, json_integer(f->sites[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

json_t *ka_report_also_json(const ka_finding *f)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < f->nalso; i++)
		if (json_array_append_new(a, ka_json_text(f->also[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

json_t *ka_report_evidence_json(const ka_finding_evidence *e)
{
	int won = e->wins > 0 && e->median > 0;
	return json_pack("{s:o, s:i, s:i, s:i, s:o, s:o, s:o, s:o}", "arch", ka_json_text(e->arch), "wins",
			 e->wins, "failures", e->failures, "errors", e->errors, "median",
			 won ? json_real(e->median) : json_null(), "ci",
			 won ? json_pack("[f, f]", e->lo, e->hi) : json_null(), "static_estimate",
			 e->static_estimate > 0 ? json_real(e->static_estimate) : json_null(), "text",
			 ka_json_text(e->text));
}

static json_t *finding_json(const ka_finding *f, const ka_report_opts *o)
{
	const ka_rule *r = o->rules ? ka_ruleset_find(o->rules, f->rule) : NULL;
	json_t *j = json_object();
	int bad = 0;
	if (!j)
		return NULL;
	put(j, "file", ka_json_text(f->file), &bad);
	put(j, "line", json_integer(f->line), &bad);
	put(j, "column", json_integer(f->col), &bad);
	put(j, "end_line", json_integer(f->end_line), &bad);
	put(j, "end_column", json_integer(f->end_col), &bad);
	put(j, "begin_offset", f->begin_off >= 0 ? json_integer(f->begin_off) : json_null(), &bad);
	put(j, "end_offset", f->end_off >= 0 ? json_integer(f->end_off) : json_null(), &bad);
	put(j, "rule", ka_json_text(f->rule), &bad);
	put(j, "severity", json_string(ka_severity_name(f->severity)), &bad);
	put(j, "message", ka_json_text(f->message), &bad);
	put(j, "kernel", ka_json_text(f->kernel), &bad);
	if (f->nalso) /* absent when one kernel: reports read as they always did */
		put(j, "also_kernels", ka_report_also_json(f), &bad);
	put(j, "title", ka_json_text(r ? r->title : NULL), &bad);
	put(j, "category", ka_json_text(r ? r->category : NULL), &bad);
	put(j, "impact", ka_json_text(r ? r->impact : NULL), &bad);
	put(j, "estimate", f->estimate > 0 ? json_real(f->estimate) : json_null(), &bad);
	put(j, "basis", ka_json_text(f->basis), &bad);
	put(j, "fix", ka_json_text(f->fix), &bad);
	put(j, "fix_safety", json_string(ka_fix_safety_name(f->fix_safety)), &bad);
	if (f->cold) /* absent when not cold, like also_kernels */
		put(j, "cold", json_true(), &bad);
	if (f->nsites) /* absent when one launch site */
		put(j, "also_lines", ka_report_sites_json(f), &bad);
	if (f->evidence) /* absent, not null, without evidence: reports read as they always did */
		put(j, "evidence", ka_report_evidence_json(f->evidence), &bad);
	if (bad) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* "kernels": [{file, kernel, rule, severity, line, estimate, basis}], the
 * costliest finding of each kernel (report_summary.c). */
static int kernels_json(json_t *root, const ka_findings *fs)
{
	ka_report_costly *v = NULL;
	size_t n = 0;
	json_t *arr = json_array();
	int rc = arr ? ka_report_costliest(fs, &v, &n) : KA_ENOMEM;
	for (size_t i = 0; i < n && rc == KA_OK; i++) {
		const ka_finding *f = &fs->v[v[i].index];
		json_t *k = json_pack("{s:o, s:o, s:s, s:s, s:i, s:o, s:o}", "file", ka_json_text(f->file),
				      "kernel", ka_json_text(v[i].kernel), "rule", f->rule, "severity",
				      ka_severity_name(f->severity), "line", f->line, "estimate",
				      f->estimate > 0 ? json_real(f->estimate) : json_null(), "basis",
				      ka_json_text(f->basis));
		if (!k || json_array_append_new(arr, k) != 0)
			rc = KA_ENOMEM;
	}
	if (rc == KA_OK && json_object_set(root, "kernels", arr) != 0)
		rc = KA_ENOMEM;
	json_decref(arr);
	free(v);
	return rc;
}

/* "llm_fixes": the applied LLM-made rewrites (only when there are any, so
 * that a report without them reads as it always did). */
static int rewrites_json(json_t *root, const ka_report_opts *o)
{
	json_t *arr = o->n_rewrites ? json_array() : NULL;
	int bad = o->n_rewrites && !arr;
	for (size_t i = 0; arr && i < o->n_rewrites; i++) {
		const ka_report_rewrite *w = &o->rewrites[i];
		json_t *ids = json_array(), *j = json_object();
		for (const char *p = w->rules ? w->rules : ""; ids && *p;) {
			size_t n = strcspn(p, ",");
			char *id = n ? strndup(p, n) : NULL;
			if (n && (!id || json_array_append_new(ids, ka_json_text(id)) != 0))
				bad = 1;
			free(id);
			p += n + (p[n] == ',');
		}
		if (!j || !ids) {
			json_decref(ids);
			json_decref(j);
			bad = 1;
			break;
		}
		put(j, "file", ka_json_text(w->file), &bad);
		put(j, "kernel", ka_json_text(w->kernel), &bad);
		put(j, "rules", ids, &bad);
		put(j, "model", ka_json_text(w->model), &bad);
		put(j, "llm_made", json_true(), &bad);
		put(j, "applied", json_true(), &bad);
		if (json_array_append_new(arr, j) != 0)
			bad = 1;
	}
	if (arr)
		put(root, "llm_fixes", arr, &bad);
	return bad ? KA_ENOMEM : KA_OK;
}

/* "files": [{file, status, reason, clang_errors, diagnostics: [{file, line,
 * column, severity, message}]}], one per analyzed file, in the run's order. */
static json_t *files_json(const ka_report_opts *o)
{
	json_t *arr = json_array();
	int bad = !arr;
	for (size_t i = 0; !bad && i < o->nfiles; i++) {
		const ka_report_file *f = &o->files[i];
		json_t *j = json_object(), *d = json_array();
		if (!j || !d) {
			json_decref(j);
			json_decref(d);
			bad = 1;
			break;
		}
		if (json_array_append_new(arr, j) != 0) { /* j is gone with it */
			json_decref(d);
			bad = 1;
			break;
		}
		for (size_t k = 0; k < f->ndiags; k++) {
			const ka_report_diag *x = &f->diags[k];
			if (json_array_append_new(d, json_pack("{s:o, s:i, s:i, s:s, s:o}", "file",
							       ka_json_text(x->file), "line", x->line,
							       "column", x->col, "severity",
							       x->is_error ? "error" : "warning", "message",
							       ka_json_text(x->message))) != 0)
				bad = 1;
		}
		put(j, "file", ka_json_text(f->path), &bad);
		put(j, "status", json_string(ka_file_state_name(f->state)), &bad);
		put(j, "reason", ka_json_text(f->reason), &bad);
		put(j, "clang_errors", json_integer(f->clang_errors), &bad);
		put(j, "diagnostics", d, &bad);
	}
	if (bad) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

int ka_report_json(ka_buf *out, const ka_findings *fs, const ka_report_opts *o)
{
	int rc = KA_ENOMEM;
	int count[3] = {0, 0, 0};
	char *text = NULL;
	json_t *arr = json_array();
	json_t *root = json_object();
	if (!arr || !root)
		goto out;
	for (size_t i = 0; i < fs->n; i++) {
		json_t *j = finding_json(&fs->v[i], o);
		if (!j || json_array_append_new(arr, j) != 0)
			goto out;
		count[fs->v[i].severity]++;
	}
	int bad = 0;
	put(root, "tool", json_string("kcheck"), &bad);
	put(root, "version", ka_json_text(o->version ? o->version : ""), &bad);
	put(root, "findings", json_incref(arr), &bad);
	if (!bad && kernels_json(root, fs) != KA_OK)
		goto out;
	int states[3], clang_errors;
	ka_report_file_counts(o, states, &clang_errors);
	put(root, "files", files_json(o), &bad);
	put(root, "summary",
	    json_pack("{s:i, s:i, s:i, s:i, s:{s:i, s:i, s:i}}", "error", count[KA_SEV_ERROR], "warning",
		      count[KA_SEV_WARNING], "note", count[KA_SEV_NOTE], "clang_errors", clang_errors,
		      "files", "analyzed", states[KA_FILE_ANALYZED], "partial", states[KA_FILE_PARTIAL],
		      "failed", states[KA_FILE_FAILED]),
	    &bad);
	if (!bad && rewrites_json(root, o) != KA_OK)
		goto out;
	if (bad || !(text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER)))
		goto out;
	rc = ka_buf_adds(out, text);
	if (rc == KA_OK)
		rc = ka_buf_addc(out, '\n');
out:
	if (rc == KA_ENOMEM)
		ka_error_set(rc, "out of memory");
	free(text);
	json_decref(arr);
	json_decref(root);
	return rc;
}
