/* rules/report_files.c: each file's analysis status in the reports
 * (ka_report_file, report.h), the part every format shares: the names,
 * the text report's lines, the counts.  A file analyzed in full says
 * nothing in text; a partial or failed one gets one line with the reason:
 *
 *   inc.cu: partial: 1 clang error (the first: inc.cu:1:10: 'dep.h' file not found)
 *   deep.cu: failed: the analysis crashed (SIGSEGV)
 *
 * JSON writes `files` (report_json.c), SARIF the invocation's notifications
 * (report_sarif.c). */
#include "rules/report.h"
#include "util/error.h"
#include <stdlib.h>

const char *ka_file_state_name(ka_file_state s)
{
	return s == KA_FILE_FAILED ? "failed" : s == KA_FILE_PARTIAL ? "partial" : "analyzed";
}

void ka_report_file_clear(ka_report_file *f)
{
	for (size_t i = 0; i < f->ndiags; i++) {
		free(f->diags[i].file);
		free(f->diags[i].message);
	}
	free(f->diags);
	free(f->path);
	free(f->reason);
	*f = (ka_report_file){0};
}

void ka_report_file_counts(const ka_report_opts *o, int counts[3], int *clang_errors)
{
	counts[0] = counts[1] = counts[2] = 0;
	*clang_errors = 0;
	for (size_t i = 0; i < o->nfiles; i++) {
		counts[o->files[i].state]++;
		*clang_errors += o->files[i].clang_errors;
	}
}

int ka_report_files_text(ka_buf *out, const ka_report_opts *o)
{
	int rc = KA_OK;
	for (size_t i = 0; i < o->nfiles && rc == KA_OK; i++) {
		const ka_report_file *f = &o->files[i];
		if (f->state == KA_FILE_ANALYZED)
			continue;
		rc = ka_report_escape(out, f->path);
		if (rc == KA_OK)
			rc = ka_buf_printf(out, ": %s: ", ka_file_state_name(f->state));
		if (rc == KA_OK)
			rc = ka_report_escape(out, f->reason ? f->reason : "(no reason given)");
		if (rc == KA_OK)
			rc = ka_buf_addc(out, '\n');
	}
	return rc;
}
