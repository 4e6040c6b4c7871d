/* rules/report_summary.c: one line per kernel naming its costliest finding.
 *
 * Reports end with a summary per kernel (text) or a `kernels` array (JSON):
 * for each (file, kernel) that has findings, the one that ranks first by
 * impact (severity earned from the estimate, then the estimate).  Host-side
 * findings (no kernel, or a host-* rule on a launch) have no summary.  The order is the order in which the
 * kernels first appear in the findings, so it follows --sort. */
#include "rules/report.h"
#include "util/error.h"
#include <stdlib.h>
#include <string.h>

static int same_kernel(const ka_finding *a, const ka_finding *b)
{
	return strcmp(a->file, b->file) == 0 && strcmp(a->kernel, b->kernel) == 0;
}

/* 1 when a costs more than b. */
static int costlier(const ka_finding *a, const ka_finding *b)
{
	if (a->severity != b->severity)
		return a->severity > b->severity;
	return a->estimate > b->estimate;
}

int ka_report_costliest(const ka_findings *fs, size_t **out, size_t *nout)
{
	size_t *v = NULL, n = 0;
	*out = NULL;
	*nout = 0;
	if (!fs->n)
		return KA_OK;
	if (!(v = malloc(fs->n * sizeof *v)))
		return ka_error_set(KA_ENOMEM, "out of memory");
	for (size_t i = 0; i < fs->n; i++) {
		const ka_finding *f = &fs->v[i];
		size_t k;
		if (!f->kernel || !*f->kernel || !f->file || !strncmp(f->rule, "host-", 5))
			continue;
		for (k = 0; k < n && !same_kernel(&fs->v[v[k]], f); k++)
			;
		if (k == n)
			v[n++] = i;
		else if (costlier(f, &fs->v[v[k]]))
			v[k] = i;
	}
	*out = v;
	*nout = n;
	return KA_OK;
}

int ka_report_summary_line(ka_buf *out, const ka_finding *f)
{
	int rc = ka_report_escape(out, f->file); /* names from the repository */
	if (rc == KA_OK)
		rc = ka_buf_adds(out, ": kernel ");
	if (rc == KA_OK)
		rc = ka_report_escape(out, f->kernel);
	if (rc == KA_OK)
		rc = ka_buf_printf(out, ": costliest finding %s (%s", f->rule, ka_severity_name(f->severity));
	if (rc == KA_OK && f->estimate > 0)
		rc = ka_buf_printf(out, ", impact %.1fx", f->estimate);
	if (rc == KA_OK)
		rc = ka_buf_printf(out, ") at line %d", f->line);
	if (rc == KA_OK && f->basis && *f->basis)
		rc = ka_buf_printf(out, ": %s", f->basis);
	return rc == KA_OK ? ka_buf_addc(out, '\n') : rc;
}
