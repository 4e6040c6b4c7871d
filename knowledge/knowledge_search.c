/* knowledge/knowledge_search.c: BM25 retrieval over the knowledge DB.
 *
 * The planner hands in features (fact names, rule ids, words such as
 * "atomic" or "row-wise"); each is cut into alphanumeric tokens, and every
 * token is searched as a quoted FTS5 string, OR-ed together, so no FTS5
 * query syntax from the caller (or from a kernel's names) gets through.
 * Rules are ranked with column weights id 4, title 3, tags 3, body 1;
 * skills with task 3, summary 2, rules 2, source 0.3 (source code repeats
 * identifiers, which would otherwise swamp the score).  The two are never
 * merged: bm25() depends on each table's statistics (a table of one skill
 * scores every match near 0), so its values only rank within a table.
 */
#include "knowledge/knowledge_int.h"
#include "util/buf.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 64

/* The FTS5 expression for the features, "" when they hold no token. */
static int match_expr(const char *const *features, int n, ka_buf *q)
{
	char seen[MAX_TOKENS][48];
	int nseen = 0;
	for (int i = 0; i < n; i++) {
		const char *p = features[i] ? features[i] : "";
		while (*p && nseen < MAX_TOKENS) {
			while (*p && !isalnum((unsigned char)*p))
				p++;
			size_t len = 0;
			char tok[48];
			while (isalnum((unsigned char)p[len]))
				len++;
			if (!len)
				break;
			snprintf(tok, sizeof tok, "%.*s", (int)len, p);
			p += len;
			for (char *c = tok; *c; c++)
				*c = (char)tolower((unsigned char)*c);
			int dup = 0;
			for (int k = 0; k < nseen && !dup; k++)
				dup = !strcmp(seen[k], tok);
			if (dup)
				continue;
			memcpy(seen[nseen++], tok, sizeof tok);
			if (ka_buf_printf(q, "%s\"%s\"", q->len ? " OR " : "", tok) != KA_OK)
				return KA_ENOMEM;
		}
	}
	return ka_buf_adds(q, "");
}

static int collect(ka_kdb *k, const char *sql, const char *q, int limit, ka_kdb_hit *v, int *n)
{
	sqlite3_stmt *st = NULL;
	int rc = kdb_prepare(k, sql, &st), s;
	if (rc != KA_OK)
		return rc;
	kdb_bind_text(st, 1, q);
	sqlite3_bind_int(st, 2, limit);
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		ka_kdb_hit *h = &v[(*n)++];
		snprintf(h->id, sizeof h->id, "%s", (const char *)sqlite3_column_text(st, 0));
		const char *t = (const char *)sqlite3_column_text(st, 1);
		snprintf(h->title, sizeof h->title, "%s", t ? t : "");
		h->bm25 = sqlite3_column_double(st, 2);
	}
	if (s != SQLITE_DONE)
		rc = kdb_fail(k, "search failed");
	sqlite3_finalize(st);
	return rc;
}

static const char rules_sql[] =
	"SELECT r.id, r.title, bm25(rules_fts, 4.0, 3.0, 3.0, 1.0) AS s"
	" FROM rules_fts JOIN rules r ON r.rowid = rules_fts.rowid"
	" WHERE rules_fts MATCH ?1 AND r.status != 'retired' ORDER BY s, r.id LIMIT ?2";
static const char skills_sql[] = "SELECT s.hash, s.task, bm25(skills_fts, 3.0, 2.0, 2.0, 0.3) AS sc"
				 " FROM skills_fts JOIN skills s ON s.rowid = skills_fts.rowid"
				 " WHERE skills_fts MATCH ?1 ORDER BY sc, s.hash LIMIT ?2";

int ka_kdb_retrieve(ka_kdb *k, const char *kind, const char *const *features, int nfeatures, ka_kdb_hit *out,
		    int kmax, int *nout)
{
	ka_buf q;
	int rc;
	*nout = 0;
	if (!kind || (strcmp(kind, "rule") != 0 && strcmp(kind, "skill") != 0))
		return ka_error_set(KA_EINPUT, "retrieve: kind is 'rule' or 'skill', not '%s'",
				    kind ? kind : "");
	if (kmax <= 0)
		return KA_OK;
	ka_buf_init(&q, 1 << 14);
	if ((rc = match_expr(features, nfeatures, &q)) == KA_OK && q.len)
		rc = collect(k, !strcmp(kind, "rule") ? rules_sql : skills_sql, q.data, kmax, out, nout);
	ka_buf_free(&q);
	return rc;
}
