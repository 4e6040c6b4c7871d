/* rules/report_text.c: findings the way compilers print diagnostics:
 *
 *   kern.cu:12:9: warning: read of in[32 * i] touches ... [gmem-uncoalesced-access]
 *      12 |   out[i] = in[32 * i];
 *         |            ^~~~~~~~~~
 *
 * Colour is the caller's decision (a terminal and no NO_COLOR). */
#include "rules/report.h"
#include "util/error.h"
#include <stdlib.h>
#include <string.h>

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_RED "\033[1;31m"
#define C_MAGENTA "\033[1;35m"
#define C_CYAN "\033[1;36m"
#define C_GREEN "\033[1;32m"

static const char *sev_color(ka_severity s)
{
	return s == KA_SEV_ERROR ? C_RED : s == KA_SEV_WARNING ? C_MAGENTA : C_CYAN;
}

/* Source line and a caret line under bytes [col, end) of it. */
static int add_excerpt(ka_buf *out, const ka_finding *f, const ka_report_opts *o)
{
	const char *p;
	size_t len;
	if (!o->src || !ka_sources_line(o->src, f->file, f->line, &p, &len))
		return KA_OK;
	int rc = ka_buf_printf(out, "%5d | %.*s\n      | ", f->line, (int)len, p);
	size_t c = f->col > 0 ? (size_t)f->col - 1 : 0;
	size_t e = f->end_line == f->line && f->end_col > f->col ? (size_t)f->end_col - 1 : c + 1;
	if (e > len)
		e = len > c ? len : c + 1;
	for (size_t i = 0; i < c && i < len && rc == KA_OK; i++) {
		unsigned char ch = (unsigned char)p[i];
		if ((ch & 0xC0) == 0x80)
			continue;  /* one column per character, not per byte */
		rc = ka_buf_addc(out, ch == '\t' ? '\t' : ' ');
	}
	if (o->color)
		ka_buf_adds(out, C_GREEN);
	ka_buf_addc(out, '^');
	for (size_t i = c + 1; i < e && rc == KA_OK; i++)
		if (i >= len || ((unsigned char)p[i] & 0xC0) != 0x80)
			rc = ka_buf_addc(out, '~');
	if (o->color)
		ka_buf_adds(out, C_RESET);
	return ka_buf_addc(out, '\n');
}

static int add_summary(ka_buf *out, const ka_findings *fs)
{
	size_t *idx = NULL, n = 0;
	int rc = ka_report_costliest(fs, &idx, &n);
	for (size_t i = 0; i < n && rc == KA_OK; i++)
		rc = ka_report_summary_line(out, &fs->v[idx[i]]);
	free(idx);
	return rc;
}

int ka_report_text(ka_buf *out, const ka_findings *fs, const ka_report_opts *o)
{
	int rc = KA_OK;
	for (size_t i = 0; i < fs->n && rc == KA_OK; i++) {
		const ka_finding *f = &fs->v[i];
		const char *sev = ka_severity_name(f->severity);
		if (o->color)
			rc = ka_buf_printf(out, C_BOLD "%s:%d:%d: " C_RESET "%s%s:" C_RESET " %s [" C_BOLD "%s" C_RESET "]\n",
					   f->file, f->line, f->col, sev_color(f->severity), sev,
					   f->message, f->rule);
		else
			rc = ka_buf_printf(out, "%s:%d:%d: %s: %s [%s]\n", f->file, f->line, f->col,
					   sev, f->message, f->rule);
		if (rc == KA_OK && o->excerpt)
			rc = add_excerpt(out, f, o);
	}
	if (rc == KA_OK && o->summary)
		rc = add_summary(out, fs);
	return rc;
}
