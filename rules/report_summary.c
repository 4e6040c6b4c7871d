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

/* 1 when a costs more than b. */
static int costlier(const ka_finding *a, const ka_finding *b)
{
	if (a->severity != b->severity)
		return a->severity > b->severity;
	return a->estimate > b->estimate;
}

/* Enters finding i of kernel k into v[0..*n): a new kernel, or a costlier
 * finding for one already there. */
static void enter(const ka_findings *fs, ka_report_costly *v, size_t *n, size_t i, const char *k)
{
	const ka_finding *f = &fs->v[i];
	size_t j;
	for (j = 0; j < *n; j++)
		if (!strcmp(v[j].kernel, k) && !strcmp(fs->v[v[j].index].file, f->file))
			break;
	if (j == *n)
		v[(*n)++] = (ka_report_costly){i, k};
	else if (costlier(f, &fs->v[v[j].index]))
		v[j].index = i;
}

int ka_report_costliest(const ka_findings *fs, ka_report_costly **out, size_t *nout)
{
	size_t n = 0, cap = 0;
	ka_report_costly *v = NULL;
	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < fs->n; i++)
		cap += fs->v[i].kernel ? 1 + fs->v[i].nalso : 0;
	if (!cap)
		return KA_OK;
	if (!(v = malloc(cap * sizeof *v)))
		return ka_error_set(KA_ENOMEM, "out of memory");
	for (size_t i = 0; i < fs->n; i++) {
		const ka_finding *f = &fs->v[i];
		if (!f->kernel || !*f->kernel || !f->file || !strncmp(f->rule, "host-", 5))
			continue;
		enter(fs, v, &n, i, f->kernel);
		for (size_t a = 0; a < f->nalso; a++)
			enter(fs, v, &n, i, f->also[a]);
	}
	*out = v;
	*nout = n;
	return KA_OK;
}

int ka_report_summary_line(ka_buf *out, const ka_finding *f, const char *kernel)
{
	int rc = ka_report_escape(out, f->file); /* names from the repository */
	if (rc == KA_OK)
		rc = ka_buf_adds(out, ": kernel ");
	if (rc == KA_OK)
		rc = ka_report_escape(out, kernel);
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
