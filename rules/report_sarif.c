/* rules/report_sarif.c: findings as SARIF 2.1.0, the format GitHub code
 * scanning uploads.  tool.driver.rules carries every enabled rule with its
 * title, severity, category (first tag and properties.category), status,
 * tags and the rule body as help text; each result points
 * at a region whose columns are UTF-16 code units (converted from the
 * analyzer's byte columns with the source line at hand) and whose
 * properties carry the kernel (and alsoKernels, the others that reach the
 * same line with the same finding), the estimate, its basis and, where the
 * knowledge DB measured the rule's fix, the evidence; partialFingerprints
 * hold the baseline's fingerprint of the flagged line (kcheckLineHash/v1).
 * runs[0].invocations[0] says whether the run succeeded (no file failed,
 * no clang error) and carries, as notifications, clang's errors, the
 * analysis limits met and each file not analyzed in full.  Text that is not
 * valid UTF-8 gets U+FFFD for each bad byte (utf8.h); URIs are
 * percent-encoded bytes.  Applied LLM-made rewrites (ka_report_rewrite)
 * are notifications of that invocation too, each with properties.llmMade. */
#include "rules/report.h"
#include "rules/baseline.h"
#include "rules/utf8.h"
#include "util/error.h"
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *level(ka_severity s)
{
	return s == KA_SEV_ERROR ? "error" : s == KA_SEV_WARNING ? "warning" : "note";
}

/* A relative path stays relative (resolved against the checkout by code
 * scanning); an absolute one becomes a file:// URI.  Bytes outside the
 * unreserved set are percent-encoded. */
static json_t *uri_of(const char *path)
{
	ka_buf b;
	json_t *j;
	ka_buf_init(&b, 1 << 16);
	if (path[0] == '/')
		ka_buf_adds(&b, "file://");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (isalnum(*p) || strchr("-._~/", *p))
			ka_buf_addc(&b, (char)*p);
		else
			ka_buf_printf(&b, "%%%02X", *p);
	}
	j = json_string(b.data ? b.data : "");
	ka_buf_free(&b);
	return j;
}

/* Code scanning shows and filters by properties.tags: the category comes
 * first, then the rule's own tags (without repeating it). */
static json_t *tags_of(const ka_rule *r)
{
	const char *cat = ka_category_name(r->cat);
	json_t *a = json_array();
	if (a)
		json_array_append_new(a, json_string(cat));
	for (int i = 0; a && i < r->tags.n; i++)
		if (strcmp(r->tags.v[i], cat) != 0)
			json_array_append_new(a, ka_json_text(r->tags.v[i]));
	return a;
}

static json_t *rule_json(const ka_rule *r)
{
	json_t *props = json_pack("{s:o, s:s, s:s, s:s}", "tags", tags_of(r), "category",
				  ka_category_name(r->cat), "status", ka_rule_status_name(r->status),
				  "problem.severity", level(r->severity));
	if (props && r->impact)
		json_object_set_new(props, "impact", ka_json_text(r->impact));
	return json_pack("{s:o, s:{s:o}, s:{s:o}, s:{s:o, s:o}, s:{s:s}, s:o*}", "id", ka_json_text(r->id),
			 "shortDescription", "text", ka_json_text(r->title), "fullDescription", "text",
			 ka_json_text(r->title), "help", "text", ka_json_text(r->body), "markdown",
			 ka_json_text(r->body), "defaultConfiguration", "level", level(r->severity),
			 "properties", props);
}

static int utf16(ka_sources *src, const char *file, int line, int col)
{
	const char *p;
	size_t len;
	if (src && ka_sources_line(src, file, line, &p, &len))
		return ka_utf16_column(p, len, col);
	return col;
}

static json_t *result_json(const ka_finding *f, int index, const ka_report_opts *o)
{
	int sc = utf16(o->src, f->file, f->line, f->col > 0 ? f->col : 1);
	int el = f->end_line >= f->line ? f->end_line : f->line;
	int ec = utf16(o->src, f->file, el, f->end_col > 0 ? f->end_col : f->col);
	if (el == f->line && ec <= sc)
		ec = sc + 1;
	json_t *region = json_pack("{s:i, s:i, s:i, s:i}", "startLine", f->line, "startColumn", sc, "endLine",
				   el, "endColumn", ec);
	json_t *res = json_pack("{s:o, s:s, s:{s:o}, s:[{s:{s:{s:o}, s:o}}]}", "ruleId",
				ka_json_text(f->rule), "level", level(f->severity), "message", "text",
				ka_json_text(f->message), "locations", "physicalLocation", "artifactLocation",
				"uri", uri_of(f->file), "region", region);
	if (res && index >= 0)
		json_object_set_new(res, "ruleIndex", json_integer(index));
	char fp[17];
	if (o->src) /* the baseline's: the flagged line, blanks trimmed */
		ka_baseline_fingerprint(o->src, f, fp);
	if (res && o->src)
		json_object_set_new(res, "partialFingerprints", json_pack("{s:s}", "kcheckLineHash/v1", fp));
	json_t *props = res ? json_object() : NULL;
	if (props && f->kernel)
		json_object_set_new(props, "kernel", ka_json_text(f->kernel));
	if (props && f->nalso)
		json_object_set_new(props, "alsoKernels", ka_report_also_json(f));
	if (props && f->estimate > 0)
		json_object_set_new(props, "estimate", json_real(f->estimate));
	if (props && f->basis)
		json_object_set_new(props, "basis", ka_json_text(f->basis));
	if (props && f->evidence)
		json_object_set_new(props, "evidence", ka_report_evidence_json(f->evidence));
	if (props && f->cold)
		json_object_set_new(props, "cold", json_true());
	if (props && f->nsites)
		json_object_set_new(props, "alsoLines", ka_report_sites_json(f));
	if (props && json_object_size(props))
		json_object_set_new(res, "properties", props);
	else
		json_decref(props);
	char *fixes = res && o->fixes ? o->fixes(f, o->fixes_ud) : NULL; /* the rewriter's */
	json_t *jf = fixes ? json_loads(fixes, 0, NULL) : NULL;
	if (jf)
		json_object_set_new(res, "fixes", jf);
	free(fixes);
	return res;
}

/* Rules listed in the driver: every enabled rule, plus rules of findings
 * that are not in the set (pseudo-rules such as unused-suppression). */
static int find_index(json_t *rules, const char *id)
{
	for (size_t i = 0; i < json_array_size(rules); i++)
		if (strcmp(json_string_value(json_object_get(json_array_get(rules, i), "id")), id) == 0)
			return (int)i;
	return -1;
}

/* A notification at file:line:col (line 0: the file as a whole). */
static json_t *note_at(const char *level, const char *id, const char *text, const char *file, int line,
		       int col, ka_sources *src)
{
	json_t *loc = json_pack("{s:{s:o}}", "artifactLocation", "uri", uri_of(file));
	if (loc && line > 0)
		json_object_set_new(loc, "region",
				    json_pack("{s:i, s:i}", "startLine", line, "startColumn",
					      utf16(src, file, line, col > 0 ? col : 1)));
	return json_pack("{s:s, s:{s:o}, s:[{s:o}], s:{s:s}}", "level", level, "message", "text",
			 ka_json_text(text), "locations", "physicalLocation", loc, "descriptor", "id", id);
}

/* The files' statuses as notifications: clang's errors (clang-error) and
 * the analysis limits (analysis-limit) where they are, then one per file
 * not analyzed in full (file-partial, file-failed) with the reason.
 * *ok: 0 when a file failed or clang reported errors. */
static int file_notes(json_t *notes, const ka_report_opts *o, int *ok)
{
	for (size_t i = 0; i < o->nfiles; i++) {
		const ka_report_file *f = &o->files[i];
		for (size_t k = 0; k < f->ndiags; k++) {
			const ka_report_diag *d = &f->diags[k];
			if (json_array_append_new(notes,
						  note_at(d->is_error ? "error" : "warning",
							  d->is_error ? "clang-error" : "analysis-limit",
							  d->message, d->file, d->line, d->col, o->src)) != 0)
				return KA_ENOMEM;
		}
		if (f->clang_errors || f->state == KA_FILE_FAILED)
			*ok = 0;
		if (f->state == KA_FILE_ANALYZED)
			continue;
		ka_buf b;
		ka_buf_init(&b, 1 << 16);
		ka_buf_printf(&b, "%s: %s", ka_file_state_name(f->state), f->reason ? f->reason : "");
		json_t *n = note_at(f->state == KA_FILE_FAILED ? "error" : "warning",
				    f->state == KA_FILE_FAILED ? "file-failed" : "file-partial",
				    b.data ? b.data : "", f->path, 0, 0, o->src);
		ka_buf_free(&b);
		if (json_array_append_new(notes, n) != 0)
			return KA_ENOMEM;
	}
	return KA_OK;
}

/* runs[0].invocations: one, with a note per applied LLM-made rewrite
 * (SARIF has no place for a fix whose finding is gone: it was applied),
 * then the files' statuses; executionSuccessful is false when a file
 * failed or clang reported errors. */
static json_t *invocations_json(const ka_report_opts *o)
{
	json_t *notes = json_array();
	int ok = 1;
	for (size_t i = 0; notes && i < o->n_rewrites; i++) {
		const ka_report_rewrite *w = &o->rewrites[i];
		ka_buf b;
		ka_buf_init(&b, 1 << 16);
		ka_buf_printf(&b, "LLM-made fix (model %s) applied%s%s for [%s]; review it",
			      w->model ? w->model : "", w->kernel ? " to kernel " : "",
			      w->kernel ? w->kernel : "", w->rules ? w->rules : "");
		json_t *n = json_pack("{s:s, s:{s:o}, s:[{s:{s:{s:o}}}], s:{s:s}, s:{s:b, s:o, s:o, s:o}}",
				      "level", "note", "message", "text", ka_json_text(b.data ? b.data : ""),
				      "locations", "physicalLocation", "artifactLocation", "uri",
				      uri_of(w->file), "descriptor", "id", "llm-made-fix", "properties",
				      "llmMade", 1, "model", ka_json_text(w->model), "kernel",
				      ka_json_text(w->kernel), "rules", ka_json_text(w->rules));
		ka_buf_free(&b);
		if (!n || json_array_append_new(notes, n) != 0) {
			json_decref(notes);
			return NULL;
		}
	}
	if (notes && file_notes(notes, o, &ok) != KA_OK) {
		json_decref(notes);
		return NULL;
	}
	return notes ? json_pack("[{s:b, s:o}]", "executionSuccessful", ok, "toolExecutionNotifications",
				 notes)
		     : NULL;
}

int ka_report_sarif(ka_buf *out, const ka_findings *fs, const ka_report_opts *o)
{
	int rc = KA_ENOMEM;
	char *text = NULL;
	json_t *rules = json_array(), *results = json_array(), *root = NULL;
	if (!rules || !results)
		goto out;
	for (size_t i = 0; o->rules && i < ka_ruleset_count(o->rules); i++) {
		const ka_rule *r = ka_ruleset_at(o->rules, i);
		if (r->enabled && json_array_append_new(rules, rule_json(r)) != 0)
			goto out;
	}
	for (size_t i = 0; i < fs->n; i++) {
		int idx = find_index(rules, fs->v[i].rule);
		if (idx < 0) {
			const ka_rule *r = o->rules ? ka_ruleset_find(o->rules, fs->v[i].rule) : NULL;
			json_t *rj = r ? rule_json(r) : json_pack("{s:o}", "id", ka_json_text(fs->v[i].rule));
			if (!rj || json_array_append_new(rules, rj) != 0)
				goto out;
			idx = (int)json_array_size(rules) - 1;
		}
		if (json_array_append_new(results, result_json(&fs->v[i], idx, o)) != 0)
			goto out;
	}
	root = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:o, s:O}}, s:O, s:s}]}", "$schema",
			 "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs", "tool",
			 "driver", "name", "kcheck", "version", ka_json_text(o->version ? o->version : "0"),
			 "rules", rules, "results", results, "columnKind", "utf16CodeUnits");
	if (root) {
		json_t *inv = invocations_json(o);
		json_t *run = json_array_get(json_object_get(root, "runs"), 0);
		if (!inv || json_object_set_new(run, "invocations", inv) != 0)
			goto out;
	}
	if (!root || !(text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER)))
		goto out;
	rc = ka_buf_adds(out, text);
	if (rc == KA_OK)
		rc = ka_buf_addc(out, '\n');
out:
	if (rc == KA_ENOMEM)
		ka_error_set(rc, "out of memory");
	free(text);
	json_decref(rules);
	json_decref(results);
	json_decref(root);
	return rc;
}
