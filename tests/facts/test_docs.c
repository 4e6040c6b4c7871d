/* tests/facts/test_docs.c: docs/facts.md against facts_tables.def.
 *
 * Every column of every table is named (in backticks) in its table's
 * section (`### \`name\``), apart from the location and owner columns that
 * the Conventions section describes once; and every name in the first cell
 * of a section's column table is a column of that table.  A column added
 * without its documentation, or documentation left for a column that is
 * gone, fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "facts/facts.h"
#include "util/buf.h"
#include "util/fs.h"

static const char *const common[] = {"id",  "kernel_id", "kernel",  "func",      "file",    "line",
				     "col", "end_line",  "end_col", "begin_off", "end_off", NULL};

static int is_common(const char *name, size_t n)
{
	for (int i = 0; common[i]; i++)
		if (strlen(common[i]) == n && strncmp(common[i], name, n) == 0)
			return 1;
	return 0;
}

static char *read_doc(void)
{
	char *data = NULL;
	size_t len = 0;
	assert_int_equal(ka_fs_read(KA_SOURCE_DIR "/docs/facts.md", 0, &data, &len), 0);
	return data;
}

/* The section of table t: from its heading to the next heading. */
static const char *section(const char *doc, const char *t, size_t *len)
{
	char head[96];
	snprintf(head, sizeof head, "\n### `%s`", t);
	const char *p = strstr(doc, head);
	if (!p)
		return NULL;
	p += 1;
	const char *e = strstr(p + 4, "\n#");
	*len = e ? (size_t)(e - p) : strlen(p);
	return p;
}

/* Call fn for each identifier inside backticks in [p, p+n). */
static int each_name(const char *p, size_t n, int (*fn)(const char *, size_t, void *), void *arg)
{
	const char *end = p + n;
	int bad = 0;
	while (p < end) {
		const char *a = memchr(p, '`', (size_t)(end - p));
		if (!a)
			break;
		const char *b = memchr(a + 1, '`', (size_t)(end - a - 1));
		if (!b)
			break;
		for (const char *q = a + 1; q < b;) {
			if (isalpha((unsigned char)*q) || *q == '_') {
				const char *s = q;
				while (q < b && (isalnum((unsigned char)*q) || *q == '_'))
					q++;
				bad += fn(s, (size_t)(q - s), arg);
			} else if (isdigit((unsigned char)*q)) {
				while (q < b && (isalnum((unsigned char)*q) || *q == '_'))
					q++;
			} else {
				q++;
			}
		}
		p = b + 1;
	}
	return bad;
}

typedef struct want {
	const char *name;
	int found;
} want;

static int mark(const char *s, size_t n, void *arg)
{
	want *w = arg;
	if (strlen(w->name) == n && strncmp(w->name, s, n) == 0)
		w->found = 1;
	return 0;
}

void test_docs_every_column(void **state)
{
	(void)state;
	char *doc = read_doc();
	ka_buf missing;
	ka_buf_init(&missing, 0);
	for (int t = 0; t < KA_FACTS_NTABLES; t++) {
		const ka_facts_table_info *ti = ka_facts_table_get((ka_facts_table)t);
		size_t len = 0;
		const char *sec = section(doc, ti->name, &len);
		if (!sec) {
			ka_buf_printf(&missing, " table:%s", ti->name);
			continue;
		}
		for (int i = 1; i <= ti->ncols; i++) {
			want w = {ka_facts_col_name((ka_facts_col)(ti->first + i)), 0};
			if (is_common(w.name, strlen(w.name)))
				continue;
			each_name(sec, len, mark, &w);
			if (!w.found)
				ka_buf_printf(&missing, " %s.%s", ti->name, w.name);
		}
	}
	if (missing.len)
		fail_msg("docs/facts.md does not document:%s", missing.data);
	ka_buf_free(&missing);
	free(doc);
}

typedef struct known {
	const ka_facts_table_info *ti;
	ka_buf *bad;
} known;

static int check_col(const char *s, size_t n, void *arg)
{
	known *k = arg;
	if (is_common(s, n))
		return 0;
	for (int i = 1; i <= k->ti->ncols; i++) {
		const char *c = ka_facts_col_name((ka_facts_col)(k->ti->first + i));
		if (strlen(c) == n && strncmp(c, s, n) == 0)
			return 0;
	}
	ka_buf_printf(k->bad, " %s.%.*s", k->ti->name, (int)n, s);
	return 1;
}

void test_docs_no_stale_column(void **state)
{
	(void)state;
	char *doc = read_doc();
	ka_buf bad;
	ka_buf_init(&bad, 0);
	for (int t = 0; t < KA_FACTS_NTABLES; t++) {
		known k = {ka_facts_table_get((ka_facts_table)t), &bad};
		size_t len = 0;
		const char *sec = section(doc, k.ti->name, &len);
		for (const char *p = sec; p && p < sec + len;) {
			const char *nl = memchr(p, '\n', (size_t)(sec + len - p));
			const char *e = nl ? nl : sec + len;
			/* a row of the column table: "| `a`, `b` | meaning |" */
			if (e - p > 2 && p[0] == '|' && strncmp(p, "| column", 8) != 0 &&
			    strncmp(p, "| ---", 5) != 0) {
				const char *cell_end = memchr(p + 1, '|', (size_t)(e - p - 1));
				if (cell_end)
					each_name(p + 1, (size_t)(cell_end - p - 1), check_col, &k);
			}
			p = e + 1;
		}
	}
	if (bad.len)
		fail_msg("docs/facts.md names columns the schema does not have:%s", bad.data);
	ka_buf_free(&bad);
	free(doc);
}
