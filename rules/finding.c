/* rules/finding.c: the findings list (see finding.h): ownership, ordering,
 * de-duplication and the way back to the facts row. */
#include "rules/finding.h"
#include "util/error.h"
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ka_finding_clear(ka_finding *f)
{
	free(f->file);
	free(f->rule);
	free(f->message);
	free(f->kernel);
	for (size_t i = 0; i < f->nalso; i++)
		free(f->also[i]);
	free(f->also);
	free(f->fix);
	free(f->scope);
	free(f->basis);
	free(f->evidence);
	free(f->sites);
	memset(f, 0, sizeof *f);
}

void ka_findings_free(ka_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		ka_finding_clear(&fs->v[i]);
	free(fs->v);
	memset(fs, 0, sizeof *fs);
}

int ka_findings_push(ka_findings *fs, ka_finding *f)
{
	assert(fs && f);
	if (fs->n == fs->cap) {
		size_t ncap = fs->cap ? fs->cap * 2 : 16;
		ka_finding *nv = realloc(fs->v, ncap * sizeof *nv);
		if (!nv) {
			ka_finding_clear(f);
			return ka_error_set(KA_ENOMEM, "out of memory");
		}
		fs->v = nv;
		fs->cap = ncap;
	}
	fs->v[fs->n++] = *f;
	memset(f, 0, sizeof *f);
	return KA_OK;
}

int ka_findings_move(ka_findings *dst, ka_findings *src)
{
	for (size_t i = 0; i < src->n; i++) {
		int rc = ka_findings_push(dst, &src->v[i]);
		if (rc != KA_OK)
			return rc;
	}
	src->n = 0;
	return KA_OK;
}

static int strcmp0(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

int ka_finding_cmp(const ka_finding *a, const ka_finding *b)
{
	int c = strcmp0(a->file, b->file);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	if ((c = strcmp0(a->rule, b->rule)) != 0)
		return c;
	if ((c = strcmp0(a->message, b->message)) != 0)
		return c;
	if (a->end_line != b->end_line)
		return a->end_line < b->end_line ? -1 : 1;
	if (a->end_col != b->end_col)
		return a->end_col < b->end_col ? -1 : 1;
	return strcmp0(a->kernel, b->kernel);
}

static int cmp_void(const void *a, const void *b)
{
	return ka_finding_cmp(a, b);
}

/* 1 when b is a's report from another kernel: the same place, rule,
 * message, estimate and severity. */
static int same_but_kernel(const ka_finding *a, const ka_finding *b)
{
	return a->kernel && b->kernel && strcmp(a->kernel, b->kernel) != 0 &&
	       strcmp0(a->file, b->file) == 0 && a->line == b->line && a->col == b->col &&
	       a->end_line == b->end_line && a->end_col == b->end_col && strcmp0(a->rule, b->rule) == 0 &&
	       strcmp0(a->message, b->message) == 0 && a->severity == b->severity &&
	       a->estimate == b->estimate && !a->evidence == !b->evidence;
}

/* 1 when a names kernel k, as its own or in `also`. */
static int names_kernel(const ka_finding *a, const char *k)
{
	if (!strcmp(a->kernel, k))
		return 1;
	for (size_t i = 0; i < a->nalso; i++)
		if (!strcmp(a->also[i], k))
			return 1;
	return 0;
}

/* Moves b's kernel (and its own `also`) into a's `also`, each kernel once;
 * 0, or -1 out of memory (a and b are then left as they were). */
static int merge_kernel(ka_finding *a, ka_finding *b)
{
	char **v = realloc(a->also, (a->nalso + 1 + b->nalso) * sizeof *v);
	if (!v)
		return -1;
	a->also = v;
	for (size_t i = 0; i <= b->nalso; i++) {
		char **k = i ? &b->also[i - 1] : &b->kernel;
		if (!names_kernel(a, *k)) {
			v[a->nalso++] = *k;
			*k = NULL;
		}
	}
	return 0;
}

static int same_place_rule(const ka_finding *a, const ka_finding *b)
{
	return strcmp0(a->file, b->file) == 0 && a->line == b->line && a->col == b->col &&
	       strcmp0(a->rule, b->rule) == 0;
}

void ka_findings_sort_unique(ka_findings *fs)
{
	if (fs->n < 2)
		return;
	qsort(fs->v, fs->n, sizeof *fs->v, cmp_void);
	/* a helper's own report where a kernel's context reports the same place
	 * and rule, and a cold kernel's where a kernel that is not cold does (a
	 * header's helper or kernel reached from two files, one of them a
	 * periodic output pass); the sort keeps them next to each other */
	size_t w = 0;
	for (size_t i = 0, e; i < fs->n; i = e) {
		int in_context = 0, hot = 0;
		for (e = i; e < fs->n && same_place_rule(&fs->v[i], &fs->v[e]); e++) {
			in_context |= !fs->v[e].standalone;
			hot |= !fs->v[e].cold && !fs->v[e].standalone;
		}
		for (size_t k = i; k < e; k++)
			if ((in_context && fs->v[k].standalone) || (hot && fs->v[k].cold))
				ka_finding_clear(&fs->v[k]);
			else
				fs->v[w++] = fs->v[k];
	}
	fs->n = w;
	w = 1;
	for (size_t i = 1; i < fs->n; i++) {
		ka_finding *last = &fs->v[w - 1];
		if (ka_finding_cmp(last, &fs->v[i]) == 0 ||
		    (same_but_kernel(last, &fs->v[i]) && merge_kernel(last, &fs->v[i]) == 0))
			ka_finding_clear(&fs->v[i]);
		else
			fs->v[w++] = fs->v[i];
	}
	fs->n = w;
}

/* 1 when b is another launch site's copy of a's finding. */
static int same_but_site(const ka_finding *a, const ka_finding *b)
{
	return a->scope && b->scope && !strcmp(a->scope, "launch") && !strcmp(b->scope, "launch") &&
	       strcmp0(a->file, b->file) == 0 && a->line != b->line && strcmp0(a->rule, b->rule) == 0 &&
	       strcmp0(a->kernel, b->kernel) == 0 && strcmp0(a->message, b->message) == 0 &&
	       a->severity == b->severity && a->estimate == b->estimate && !a->evidence == !b->evidence &&
	       a->nalso == 0 && b->nalso == 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int ka_findings_group_sites(ka_findings *fs)
{
	size_t n = fs->n;
	size_t *head = malloc((n ? n : 1) * sizeof *head); /* the finding each one merges into */
	size_t *count = calloc(n ? n : 1, sizeof *count);
	if (!head || !count) {
		free(head);
		free(count);
		return KA_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		head[i] = i;
		if (!fs->v[i].scope || strcmp(fs->v[i].scope, "launch") != 0)
			continue;
		for (size_t j = 0; j < i; j++)
			if (head[j] == j && same_but_site(&fs->v[j], &fs->v[i])) {
				head[i] = j;
				count[j]++;
				break;
			}
	}
	int rc = KA_OK;
	for (size_t i = 0; i < n && rc == KA_OK; i++)
		if (count[i] && !(fs->v[i].sites = malloc(count[i] * sizeof *fs->v[i].sites)))
			rc = KA_ENOMEM;
	if (rc != KA_OK) {
		for (size_t i = 0; i < n; i++) {
			free(fs->v[i].sites);
			fs->v[i].sites = NULL;
		}
		free(head);
		free(count);
		return rc;
	}
	for (size_t i = 0; i < n; i++) /* the merged ones' lines go to their first, in place */
		if (head[i] != i) {
			ka_finding *h = &fs->v[head[i]];
			h->sites[h->nsites++] = fs->v[i].line;
			ka_finding_clear(&fs->v[i]);
		}
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		if (head[i] == i)
			fs->v[w++] = fs->v[i];
	fs->n = w;
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].nsites > 1)
			qsort(fs->v[i].sites, fs->v[i].nsites, sizeof *fs->v[i].sites, cmp_int);
	free(head);
	free(count);
	return KA_OK;
}

static int cmp_impact(const void *pa, const void *pb)
{
	const ka_finding *a = pa, *b = pb;
	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	if (a->estimate != b->estimate)
		return a->estimate > b->estimate ? -1 : 1;
	return ka_finding_cmp(a, b);
}

void ka_findings_sort_impact(ka_findings *fs)
{
	if (fs->n > 1)
		qsort(fs->v, fs->n, sizeof *fs->v, cmp_impact);
}

void ka_findings_filter(ka_findings *fs, int (*keep)(const ka_finding *, void *), void *ud)
{
	size_t w = 0;
	for (size_t i = 0; i < fs->n; i++) {
		if (keep(&fs->v[i], ud))
			fs->v[w++] = fs->v[i];
		else
			ka_finding_clear(&fs->v[i]);
	}
	fs->n = w;
}

/* 1 when table has a column named col. */
static int has_column(sqlite3 *db, const char *table, const char *col)
{
	sqlite3_stmt *st = NULL;
	int found = 0;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", -1, &st, NULL) !=
	    SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

int ka_finding_row(sqlite3 *db, const ka_finding *f, sqlite3_stmt **out)
{
	char sql[256];
	sqlite3_stmt *st = NULL;
	int rc = KA_ENOTFOUND;
	*out = NULL;
	if (!f->scope)
		return ka_error_set(KA_ENOTFOUND, "finding has no facts row");
	const char *key = has_column(db, f->scope, "id") ? "id" : "rowid";
	snprintf(sql, sizeof sql, "SELECT * FROM \"%s\" WHERE %s = ?", f->scope, key);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		rc = ka_error_set(KA_ENOTFOUND, "no facts table %s: %s", f->scope, sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_bind_int64(st, 1, f->row_id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		rc = ka_error_set(KA_ENOTFOUND, "no row %lld in %s", f->row_id, f->scope);
		goto out;
	}
	*out = st;
	st = NULL;
	rc = KA_OK;
out:
	sqlite3_finalize(st);
	return rc;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* A `?` a NULL fact rendered (see ka_finding_message_defect). */
static int placeholder_question(const char *m)
{
	for (const char *q = strchr(m, '?'); q; q = strchr(q + 1, '?')) {
		const char *a = q + 1;
		size_t left = strlen(a);
		if (!memchr(a, ':', left < 120 ? left : 120))
			return 1;
		if (*a == '-' || *a == ')' || *a == ',')
			return 1;
		if (q - m >= 5 && strncmp(q - 5, "line ", 5) == 0)
			return 1;
	}
	return 0;
}

/* `open` and `close` with nothing but white space between them (only
 * when ws), or nothing at all. */
static int empty_pair(const char *m, char open, char close, int ws)
{
	for (const char *p = strchr(m, open); p; p = strchr(p + 1, open)) {
		const char *q = p + 1;
		while (ws && is_space(*q))
			q++;
		if (*q == close)
			return 1;
	}
	return 0;
}

const char *ka_finding_message_defect(const ka_finding *f)
{
	const char *m = f->message ? f->message : "";
	if (placeholder_question(m))
		return "a placeholder '?'";
	for (const char *p = m; *p; p++) {
		if (is_space(*p) || p[1] != ' ' || p[2] != ' ')
			continue;
		const char *q = p + 3;
		while (*q == ' ')
			q++;
		if (*q && !is_space(*q))
			return "an empty name (two spaces)";
	}
	if (strstr(m, "[]") || strstr(m, "''") || strstr(m, "``") || strstr(m, "{}"))
		return "an empty name ([], '', `` or {})";
	if (empty_pair(m, '(', ',', 1) || empty_pair(m, ',', ')', 1))
		return "an empty name ('(,' or ',)')";
	if (f->kernel && !f->kernel[0])
		return "an empty kernel name";
	return NULL;
}
