/* rules/report_ci.c: the two one-line-per-finding formats.
 *
 *  - concise (`--format concise`): `file:line:col: severity: message [rule]`,
 *    the text report without the excerpt and the per-kernel summary, for
 *    editors, grep and quick scans;
 *  - github (`--format github`): GitHub Actions workflow commands,
 *    `::warning file=F,line=L,col=C,endLine=..,endColumn=..,title=RULE::message`
 *    (note -> notice), which the Actions log turns into annotations on the
 *    pull request's diff.  Properties escape % CR LF : , and the message
 *    % CR LF, as the workflow-command syntax asks.
 * Both end with the files' statuses (report_files.c): concise with the text
 * report's `FILE: failed: REASON` lines, github with an annotation per
 * clang error and per file not analyzed in full. */
#include "rules/report.h"
#include "util/error.h"
#include <stdio.h>
#include <string.h>

int ka_report_concise(ka_buf *out, const ka_findings *fs, const ka_report_opts *o)
{
	int e = 0;
	for (size_t i = 0; i < fs->n; i++) {
		const ka_finding *f = &fs->v[i];
		e |= ka_report_escape(out, f->file);
		e |= ka_buf_printf(out, ":%d:%d: %s: ", f->line, f->col, ka_severity_name(f->severity));
		e |= ka_report_escape(out, f->message);
		e |= ka_buf_adds(out, " [");
		e |= ka_report_escape(out, f->rule);
		e |= ka_buf_adds(out, "]\n");
	}
	e |= ka_report_files_text(out, o); /* "FILE: failed: REASON" per file not analyzed in full */
	return e ? KA_ENOMEM : KA_OK;
}

static int gh_escape(ka_buf *out, const char *s, int property)
{
	int e = 0;
	for (; s && *s; s++) {
		if (*s == '%')
			e |= ka_buf_adds(out, "%25");
		else if (*s == '\r')
			e |= ka_buf_adds(out, "%0D");
		else if (*s == '\n')
			e |= ka_buf_adds(out, "%0A");
		else if (property && *s == ':')
			e |= ka_buf_adds(out, "%3A");
		else if (property && *s == ',')
			e |= ka_buf_adds(out, "%2C");
		else
			e |= ka_buf_addc(out, *s) != KA_OK;
	}
	return e;
}

/* The files' statuses as annotations: each clang error where it is
 * (title clang-error), then each file not analyzed in full (error when it
 * failed, warning when partial) with the reason. */
static int gh_files(ka_buf *out, const ka_report_opts *o)
{
	int e = 0;
	for (size_t i = 0; i < o->nfiles; i++) {
		const ka_report_file *f = &o->files[i];
		for (size_t k = 0; k < f->ndiags; k++) {
			const ka_report_diag *d = &f->diags[k];
			e |= ka_buf_printf(out, "::%s file=", d->is_error ? "error" : "warning");
			e |= gh_escape(out, d->file, 1);
			e |= ka_buf_printf(out, ",line=%d,col=%d,title=%s::", d->line, d->col,
					   d->is_error ? "clang-error" : "analysis-limit");
			e |= gh_escape(out, d->message, 0);
			e |= ka_buf_addc(out, '\n') != KA_OK;
		}
		if (f->state == KA_FILE_ANALYZED)
			continue;
		e |= ka_buf_printf(out, "::%s file=", f->state == KA_FILE_FAILED ? "error" : "warning");
		e |= gh_escape(out, f->path, 1);
		e |= ka_buf_printf(out, ",title=kcheck: file %s::", ka_file_state_name(f->state));
		e |= gh_escape(out, f->reason, 0);
		e |= ka_buf_addc(out, '\n') != KA_OK;
	}
	return e;
}

int ka_report_github(ka_buf *out, const ka_findings *fs, const ka_report_opts *o)
{
	int e = 0;
	for (size_t i = 0; i < fs->n; i++) {
		const ka_finding *f = &fs->v[i];
		const char *level = f->severity == KA_SEV_ERROR     ? "error"
				    : f->severity == KA_SEV_WARNING ? "warning"
								    : "notice";
		e |= ka_buf_printf(out, "::%s file=", level);
		e |= gh_escape(out, f->file, 1);
		e |= ka_buf_printf(out, ",line=%d,col=%d", f->line, f->col);
		if (f->end_line >= f->line && f->end_line > 0)
			e |= ka_buf_printf(out, ",endLine=%d", f->end_line);
		if (f->end_line == f->line && f->end_col > f->col)
			e |= ka_buf_printf(out, ",endColumn=%d", f->end_col);
		e |= ka_buf_adds(out, ",title=");
		e |= gh_escape(out, f->rule, 1);
		e |= ka_buf_adds(out, "::");
		e |= gh_escape(out, f->message, 0);
		e |= ka_buf_adds(out, " [");
		e |= gh_escape(out, f->rule, 0);
		e |= ka_buf_adds(out, "]\n");
	}
	e |= gh_files(out, o);
	return e ? KA_ENOMEM : KA_OK;
}
