/* rules/report_text.c: findings the way compilers print diagnostics:
 *
 *   kern.cu:12:9: warning: read of in[32 * i] touches ... [gmem-uncoalesced-access]
 *      12 |   out[i] = in[32 * i];
 *         |            ^~~~~~~~~~
 *         = evidence: fixed 7 times on sm_90, median 4.3x [3.1, 6.0]; impact 8.0x -> 4.9x
 *
 * (the `= evidence:` line only where the knowledge DB measured the rule's
 * fix: lint/evidence.c), then each kernel's costliest finding, the applied
 * LLM-made rewrites and a line per file not analyzed in full
 * (report_files.c).  Colour is the caller's decision (a terminal and
 * no NO_COLOR).  File names, messages and source lines come from the
 * repository, so nothing in them reaches the terminal as a control:
 * control characters print as \n, \t, \x1b or \u009b, bytes that are not
 * UTF-8 as \xff, and the bidirectional overrides of "Trojan Source" as
 * \u202e. */
#include "rules/report.h"
#include "rules/utf8.h"
#include "util/utf8.h"
#include "util/error.h"
#include <stdio.h>
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

/* Code point of the valid UTF-8 sequence s[0..k). */
static unsigned code_point(const unsigned char *s, size_t k)
{
	unsigned cp = k == 1 ? s[0] : s[0] & (0x7F >> k);
	for (size_t i = 1; i < k; i++)
		cp = (cp << 6) | (s[i] & 0x3F);
	return cp;
}

/* Append the character at s[0..n) in printable form (out may be NULL);
 * returns the bytes it takes and sets *cols to the columns it prints as.
 * keep_tab: a tab stays a tab (source lines, where carets align). */
static size_t put_char(ka_buf *out, int *rc, const unsigned char *s, size_t n, int keep_tab, int *cols)
{
	char esc[16] = "";
	size_t k = ka_utf8_char_len((const char *)s, n);
	unsigned cp = k ? code_point(s, k) : 0;
	if (!k)
		snprintf(esc, sizeof esc, "\\x%02x", s[0]);
	else if (cp == '\t' && keep_tab)
		;
	else if (cp == '\n' || cp == '\r' || cp == '\t')
		snprintf(esc, sizeof esc, "\\%c", cp == '\n' ? 'n' : cp == '\r' ? 'r' : 't');
	else if (cp < 0x20 || cp == 0x7F)
		snprintf(esc, sizeof esc, "\\x%02x", cp);
	else if ((cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
		 (cp >= 0x2066 && cp <= 0x2069))
		snprintf(esc, sizeof esc, "\\u%04x", cp);
	*cols = esc[0] ? (int)strlen(esc) : 1;
	if (out && *rc == KA_OK)
		*rc = ka_buf_add(out, esc[0] ? esc : (const char *)s, esc[0] ? strlen(esc) : k);
	return k ? k : 1;
}

static int add_escaped(ka_buf *out, const char *s, size_t n, int keep_tab)
{
	int cols, rc = KA_OK;
	for (size_t i = 0; i < n && rc == KA_OK;)
		i += put_char(out, &rc, (const unsigned char *)s + i, n - i, keep_tab, &cols);
	return rc;
}

int ka_report_escape(ka_buf *out, const char *s)
{
	return add_escaped(out, s ? s : "", s ? strlen(s) : 0, 0);
}

/* Source line and a caret line under bytes [col, end) of it. */
static int add_excerpt(ka_buf *out, const ka_finding *f, const ka_report_opts *o)
{
	const char *p;
	size_t len;
	int rc, cols;
	if (!o->src || !ka_sources_line(o->src, f->file, f->line, &p, &len))
		return KA_OK;
	const unsigned char *u = (const unsigned char *)p;
	size_t c = f->col > 0 ? (size_t)f->col - 1 : 0;
	size_t e = f->end_line == f->line && f->end_col > f->col ? (size_t)f->end_col - 1 : c + 1;
	if (e > len)
		e = len > c ? len : c + 1;
	rc = ka_buf_printf(out, "%5d | ", f->line);
	if (rc == KA_OK)
		rc = add_escaped(out, p, len, 1);
	if (rc == KA_OK)
		rc = ka_buf_adds(out, "\n      | ");
	size_t i = 0;
	while (i < c && i < len && rc == KA_OK) { /* one column per printed character */
		int tab = p[i] == '\t';
		i += put_char(NULL, &rc, u + i, len - i, 1, &cols);
		for (int k = 0; k < cols && rc == KA_OK; k++)
			rc = ka_buf_addc(out, tab ? '\t' : ' ');
	}
	if (o->color)
		ka_buf_adds(out, C_GREEN);
	ka_buf_addc(out, '^');
	i = c;
	for (int first = 1; i < e && rc == KA_OK; first = 0) {
		if (i < len)
			i += put_char(NULL, &rc, u + i, len - i, 1, &cols);
		else
			i++, cols = 1;
		for (int k = first; k < cols && rc == KA_OK; k++)
			rc = ka_buf_addc(out, '~');
	}
	if (o->color)
		ka_buf_adds(out, C_RESET);
	return rc == KA_OK ? ka_buf_addc(out, '\n') : rc;
}

/* "      = evidence: fixed 7 times on sm_90, median 4.3x [3.1, 6.0]; impact
 * 1.6x -> 2.9x" under the excerpt, where the knowledge DB measured the
 * rule's fix: the message keeps the static estimate, this line says what
 * the evidence made of it (and so why the severity may differ from the
 * bracket's band). */
static int add_evidence(ka_buf *out, const ka_finding *f)
{
	const ka_finding_evidence *e = f->evidence;
	char was[32], now[32];
	snprintf(was, sizeof was, "%.1fx", e->static_estimate);
	snprintf(now, sizeof now, "%.1fx", f->estimate);
	int rc = ka_buf_adds(out, "      = evidence: ");
	if (rc == KA_OK)
		rc = ka_report_escape(out, e->text);
	if (rc == KA_OK && e->static_estimate > 0 && f->estimate > 0 && strcmp(was, now) != 0)
		rc = ka_buf_printf(out, "; impact %s -> %s", was, now);
	return rc == KA_OK ? ka_buf_addc(out, '\n') : rc;
}

/* "      = also in kernels k2, k3" under the excerpt: a line of a helper the
 * kernels share, reported once for all of them. */
static int add_also(ka_buf *out, const ka_finding *f)
{
	int rc = ka_buf_adds(out, f->nalso > 1 ? "      = also in kernels " : "      = also in kernel ");
	for (size_t i = 0; i < f->nalso && rc == KA_OK; i++) {
		if (i)
			rc = ka_buf_adds(out, ", ");
		if (rc == KA_OK)
			rc = ka_report_escape(out, f->also[i]);
	}
	return rc == KA_OK ? ka_buf_addc(out, '\n') : rc;
}

/* "      = also at lines 40, 52 (the same launch)" under the excerpt: the
 * other launch sites of the kernel that got the same finding. */
static int add_sites(ka_buf *out, const ka_finding *f)
{
	int rc = ka_buf_adds(out, f->nsites > 1 ? "      = also at lines " : "      = also at line ");
	for (size_t i = 0; i < f->nsites && rc == KA_OK; i++)
		rc = ka_buf_printf(out, i ? ", %d" : "%d", f->sites[i]);
	return rc == KA_OK ? ka_buf_adds(out, ", launched the same way\n") : rc;
}

static int add_summary(ka_buf *out, const ka_findings *fs)
{
	ka_report_costly *v = NULL;
	size_t n = 0;
	int rc = ka_report_costliest(fs, &v, &n);
	for (size_t i = 0; i < n && rc == KA_OK; i++)
		rc = ka_report_summary_line(out, &fs->v[v[i].index], v[i].kernel);
	free(v);
	return rc;
}

/* "file: kernel K: LLM-made fix (model M) applied for [rules]; review it",
 * one line per rewrite: the model's output is never trusted unread. */
static int add_rewrites(ka_buf *out, const ka_report_opts *o)
{
	int rc = KA_OK;
	for (size_t i = 0; i < o->n_rewrites && rc == KA_OK; i++) {
		const ka_report_rewrite *w = &o->rewrites[i];
		rc = ka_report_escape(out, w->file);
		if (rc == KA_OK && w->kernel)
			rc = ka_buf_adds(out, ": kernel ");
		if (rc == KA_OK && w->kernel)
			rc = ka_report_escape(out, w->kernel);
		if (rc == KA_OK)
			rc = ka_buf_adds(out, ": LLM-made fix (model ");
		if (rc == KA_OK)
			rc = ka_report_escape(out, w->model);
		if (rc == KA_OK)
			rc = ka_buf_adds(out, ") applied for [");
		if (rc == KA_OK)
			rc = ka_report_escape(out, w->rules);
		if (rc == KA_OK)
			rc = ka_buf_adds(out, "]; review it\n");
	}
	return rc;
}

int ka_report_text(ka_buf *out, const ka_findings *fs, const ka_report_opts *o)
{
	int rc = KA_OK;
	for (size_t i = 0; i < fs->n && rc == KA_OK; i++) {
		const ka_finding *f = &fs->v[i];
		const char *sev = ka_severity_name(f->severity);
		if (o->color)
			rc = ka_buf_adds(out, C_BOLD);
		if (rc == KA_OK)
			rc = ka_report_escape(out, f->file);
		if (rc == KA_OK && o->color)
			rc = ka_buf_printf(out, ":%d:%d: " C_RESET "%s%s:" C_RESET " ", f->line, f->col,
					   sev_color(f->severity), sev);
		else if (rc == KA_OK)
			rc = ka_buf_printf(out, ":%d:%d: %s: ", f->line, f->col, sev);
		if (rc == KA_OK)
			rc = ka_report_escape(out, f->message);
		if (rc == KA_OK)
			rc = ka_buf_printf(out, o->color ? " [" C_BOLD "%s" C_RESET "]\n" : " [%s]\n",
					   f->rule);
		if (rc == KA_OK && o->excerpt)
			rc = add_excerpt(out, f, o);
		if (rc == KA_OK && f->nalso)
			rc = add_also(out, f);
		if (rc == KA_OK && f->nsites)
			rc = add_sites(out, f);
		if (rc == KA_OK && f->evidence)
			rc = add_evidence(out, f);
	}
	if (rc == KA_OK && o->summary)
		rc = add_summary(out, fs);
	if (rc == KA_OK)
		rc = add_rewrites(out, o);
	if (rc == KA_OK)
		rc = ka_report_files_text(out, o);
	return rc;
}
