/* rules/report_json.c: findings as one JSON object (jansson):
 *   {"tool": "kcheck", "version": "...", "findings": [{file, line, column,
 *    end_line, end_column, begin_offset, end_offset, rule, severity,
 *    message, kernel, title, category, impact, estimate, basis, fix,
 *    fix_safety}, ...], "kernels": [costliest finding per kernel],
 *    "summary": {"error": n, "warning": n, "note": n}}
 * Absent values are JSON null; columns are bytes, 1-based. */
#include "rules/report.h"
#include "util/error.h"
#include <jansson.h>
#include <stdlib.h>

static json_t *str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static json_t *finding_json(const ka_finding *f, const ka_report_opts *o)
{
	const ka_rule *r = o->rules ? ka_ruleset_find(o->rules, f->rule) : NULL;
	json_t *j = json_object();
	if (!j)
		return NULL;
	json_object_set_new(j, "file", json_string(f->file));
	json_object_set_new(j, "line", json_integer(f->line));
	json_object_set_new(j, "column", json_integer(f->col));
	json_object_set_new(j, "end_line", json_integer(f->end_line));
	json_object_set_new(j, "end_column", json_integer(f->end_col));
	json_object_set_new(j, "begin_offset", f->begin_off >= 0 ? json_integer(f->begin_off) : json_null());
	json_object_set_new(j, "end_offset", f->end_off >= 0 ? json_integer(f->end_off) : json_null());
	json_object_set_new(j, "rule", json_string(f->rule));
	json_object_set_new(j, "severity", json_string(ka_severity_name(f->severity)));
	json_object_set_new(j, "message", json_string(f->message));
	json_object_set_new(j, "kernel", str_or_null(f->kernel));
	json_object_set_new(j, "title", str_or_null(r ? r->title : NULL));
	json_object_set_new(j, "category", str_or_null(r ? r->category : NULL));
	json_object_set_new(j, "impact", str_or_null(r ? r->impact : NULL));
	json_object_set_new(j, "estimate", f->estimate > 0 ? json_real(f->estimate) : json_null());
	json_object_set_new(j, "basis", str_or_null(f->basis));
	json_object_set_new(j, "fix", str_or_null(f->fix));
	json_object_set_new(j, "fix_safety", json_string(ka_fix_safety_name(f->fix_safety)));
	return j;
}

/* "kernels": [{file, kernel, rule, severity, line, estimate, basis}], the
 * costliest finding of each kernel (report_summary.c). */
static int kernels_json(json_t *root, const ka_findings *fs)
{
	size_t *idx = NULL, n = 0;
	json_t *arr = json_array();
	int rc = arr ? ka_report_costliest(fs, &idx, &n) : KA_ENOMEM;
	for (size_t i = 0; i < n && rc == KA_OK; i++) {
		const ka_finding *f = &fs->v[idx[i]];
		json_t *k = json_pack("{s:s, s:s, s:s, s:s, s:i, s:o, s:o}", "file", f->file,
				      "kernel", f->kernel, "rule", f->rule,
				      "severity", ka_severity_name(f->severity), "line", f->line,
				      "estimate", f->estimate > 0 ? json_real(f->estimate) : json_null(),
				      "basis", str_or_null(f->basis));
		if (!k || json_array_append_new(arr, k) != 0)
			rc = KA_ENOMEM;
	}
	if (rc == KA_OK && json_object_set(root, "kernels", arr) != 0)
		rc = KA_ENOMEM;
	json_decref(arr);
	free(idx);
	return rc;
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
	json_object_set_new(root, "tool", json_string("kcheck"));
	json_object_set_new(root, "version", json_string(o->version ? o->version : ""));
	json_object_set(root, "findings", arr);
	if (kernels_json(root, fs) != KA_OK)
		goto out;
	json_object_set_new(root, "summary", json_pack("{s:i, s:i, s:i}", "error", count[KA_SEV_ERROR],
						       "warning", count[KA_SEV_WARNING], "note", count[KA_SEV_NOTE]));
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text)
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
