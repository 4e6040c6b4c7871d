/* rules/sqlfn.c: PCRE2 as SQLite's regexp() and the read-only authorizer
 * under which rule SQL is compiled (see sqlfn.h).
 *
 * The cache of compiled patterns belongs to one connection (its destructor
 * runs when the connection closes), so -j N workers, each with its own
 * facts database, never share it and need no lock.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "rules/sqlfn.h"
#include "util/buf.h"
#include "util/error.h"
#include <ctype.h>
#include <pcre2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CACHE_MAX 128

typedef struct re_entry {
	char *pattern;
	pcre2_code *code;
	pcre2_match_data *md;
	struct re_entry *next;
} re_entry;

typedef struct re_cache {
	re_entry *head;
	int n;
	pcre2_match_context *mctx; /* the limits of every match */
} re_cache;

/* Enough for any sane pattern on a source line; a pattern that
 * backtracks catastrophically stops with "match limit exceeded". */
#define MATCH_LIMIT 1000000
#define DEPTH_LIMIT 10000
#define HEAP_LIMIT_KIB 8192

static void cache_free(void *p)
{
	re_cache *c = p;
	re_entry *e = c ? c->head : NULL;
	while (e) {
		re_entry *next = e->next;
		pcre2_match_data_free(e->md);
		pcre2_code_free(e->code);
		free(e->pattern);
		free(e);
		e = next;
	}
	if (c)
		pcre2_match_context_free(c->mctx);
	free(c);
}

/* Compile pat; on error write the reason to err and return NULL. */
static pcre2_code *compile(const char *pat, size_t len, char *err, size_t errlen)
{
	int code;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, len, 0, &code, &off, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(code, msg, sizeof msg);
		snprintf(err, errlen, "%s at offset %zu", (const char *)msg, (size_t)off);
		return NULL;
	}
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* best effort */
	return re;
}

static re_entry *cache_get(re_cache *c, const char *pat, char *err, size_t errlen)
{
	re_entry *prev = NULL;
	for (re_entry *e = c->head; e; prev = e, e = e->next) {
		if (strcmp(e->pattern, pat) == 0) {
			if (prev) { /* move to front */
				prev->next = e->next;
				e->next = c->head;
				c->head = e;
			}
			return e;
		}
	}
	re_entry *e = calloc(1, sizeof *e);
	if (!e) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	e->code = compile(pat, strlen(pat), err, errlen);
	e->pattern = strdup(pat);
	e->md = e->code ? pcre2_match_data_create_from_pattern(e->code, NULL) : NULL;
	if (!e->code || !e->pattern || !e->md) {
		if (e->code && (!e->pattern || !e->md))
			snprintf(err, errlen, "out of memory");
		pcre2_match_data_free(e->md);
		pcre2_code_free(e->code);
		free(e->pattern);
		free(e);
		return NULL;
	}
	e->next = c->head;
	c->head = e;
	if (++c->n > CACHE_MAX) { /* drop the least recently used */
		re_entry *p = c->head;
		while (p->next && p->next->next)
			p = p->next;
		re_entry *last = p->next;
		p->next = NULL;
		pcre2_match_data_free(last->md);
		pcre2_code_free(last->code);
		free(last->pattern);
		free(last);
		c->n--;
	}
	return e;
}

/* The match of argv[0] (a pattern) on argv[1] for SQL function fn: the
 * match's return code (>= 0 or PCRE2_ERROR_NOMATCH), with the entry in *ep
 * and the subject in *subj; MATCH_SET when the result is set already (NULL
 * for a NULL argument, or the error of a bad pattern or a failed match). */
#define MATCH_SET INT_MIN
static int match_args(sqlite3_context *ctx, sqlite3_value **argv, const char *fn, re_entry **ep,
		      const unsigned char **subj)
{
	const char *pat = (const char *)sqlite3_value_text(argv[0]);
	*subj = sqlite3_value_text(argv[1]);
	if (!pat || !*subj) {
		sqlite3_result_null(ctx);
		return MATCH_SET;
	}
	int subj_len = sqlite3_value_bytes(argv[1]);
	char err[300];
	re_cache *c = sqlite3_user_data(ctx);
	re_entry *e = cache_get(c, pat, err, sizeof err);
	if (!e) {
		char msg[400];
		snprintf(msg, sizeof msg, "%s: bad regular expression '%s': %s", fn, pat, err);
		sqlite3_result_error(ctx, msg, -1);
		return MATCH_SET;
	}
	int rc = pcre2_match(e->code, *subj, (PCRE2_SIZE)subj_len, 0, 0, e->md, c->mctx);
	if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
		PCRE2_UCHAR why[256];
		if (pcre2_get_error_message(rc, why, sizeof why) < 0)
			snprintf((char *)why, sizeof why, "PCRE2 error %d", rc);
		char *msg = sqlite3_mprintf("%s: matching '%.200s' failed: %s", fn, pat, (const char *)why);
		sqlite3_result_error(ctx, msg ? msg : "regexp: matching failed", -1);
		sqlite3_free(msg);
		return MATCH_SET;
	}
	*ep = e;
	return rc;
}

static void regexp_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	re_entry *e;
	const unsigned char *subj;
	int rc = match_args(ctx, argv, "regexp", &e, &subj);
	if (rc != MATCH_SET)
		sqlite3_result_int(ctx, rc >= 0);
}

/* regexp_capture(pattern, x): the text of the pattern's first group in x
 * (the whole match when it has none), NULL when x is NULL or does not
 * match: how a rule names what a line's text binds (the variable a call's
 * result is assigned to) and asks about it in a second pattern. */
static void regexp_capture_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	re_entry *e;
	const unsigned char *subj;
	int rc = match_args(ctx, argv, "regexp_capture", &e, &subj);
	if (rc == MATCH_SET)
		return;
	if (rc == PCRE2_ERROR_NOMATCH) {
		sqlite3_result_null(ctx);
		return;
	}
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(e->md);
	int g = rc > 1 ? 1 : 0;
	if (ov[2 * g] == PCRE2_UNSET) {
		sqlite3_result_null(ctx);
		return;
	}
	sqlite3_result_text(ctx, (const char *)subj + ov[2 * g], (int)(ov[2 * g + 1] - ov[2 * g]),
			    SQLITE_TRANSIENT);
}

int ka_sql_register(sqlite3 *db)
{
	re_cache *c = calloc(1, sizeof *c);
	if (!c || !(c->mctx = pcre2_match_context_create(NULL))) {
		free(c);
		return ka_error_set(KA_ENOMEM, "out of memory");
	}
	pcre2_set_match_limit(c->mctx, MATCH_LIMIT);
	pcre2_set_depth_limit(c->mctx, DEPTH_LIMIT);
	pcre2_set_heap_limit(c->mctx, HEAP_LIMIT_KIB);
	ka_sql_bound(db);
	int rc = sqlite3_create_function_v2(db, "regexp", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, c, regexp_fn,
					    NULL, NULL, cache_free);
	if (rc != SQLITE_OK) /* SQLite calls the destructor on failure */
		return ka_error_set(KA_ERR, "cannot register regexp(): %s", sqlite3_errmsg(db));
	/* the cache belongs to regexp(): its destructor frees it when the connection closes */
	rc = sqlite3_create_function_v2(db, "regexp_capture", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, c,
					regexp_capture_fn, NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return ka_error_set(KA_ERR, "cannot register regexp_capture(): %s", sqlite3_errmsg(db));
	return KA_OK;
}

typedef struct auth_state {
	char denied[160];
} auth_state;

static const char *action_name(int action)
{
	switch (action) {
	case SQLITE_INSERT:
		return "INSERT";
	case SQLITE_UPDATE:
		return "UPDATE";
	case SQLITE_DELETE:
		return "DELETE";
	case SQLITE_ATTACH:
		return "ATTACH";
	case SQLITE_DETACH:
		return "DETACH";
	case SQLITE_PRAGMA:
		return "PRAGMA";
	case SQLITE_TRANSACTION:
		return "a transaction";
	case SQLITE_SAVEPOINT:
		return "SAVEPOINT";
	case SQLITE_ANALYZE:
		return "ANALYZE";
	case SQLITE_REINDEX:
		return "REINDEX";
	default:
		return "a schema change";
	}
}

static int authorizer(void *ud, int action, const char *a, const char *b, const char *db, const char *trigger)
{
	auth_state *st = ud;
	switch (action) {
	case SQLITE_READ:
		/* pragma_table_info(...) and friends run a PRAGMA when stepped */
		if (a && strncasecmp(a, "pragma_", 7) == 0) {
			snprintf(st->denied, sizeof st->denied, "PRAGMA (%s)", a);
			return SQLITE_DENY;
		}
		return SQLITE_OK;
	case SQLITE_SELECT:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	case SQLITE_FUNCTION:
		/* b is the function name. */
		if (b && (strcasecmp(b, "load_extension") == 0 || strcasecmp(b, "fts3_tokenizer") == 0)) {
			snprintf(st->denied, sizeof st->denied, "%s()", b);
			return SQLITE_DENY;
		}
		return SQLITE_OK;
	default:
		/* A table function (json_each, pragma_table_info) declares its
		 * columns on first use, which SQLite authorizes as an UPDATE of
		 * sqlite_schema; a real one is refused by SQLite itself, and
		 * ka_sql_prepare_readonly refuses any statement that writes. */
		if (action == SQLITE_UPDATE && a &&
		    (!strcmp(a, "sqlite_master") || !strcmp(a, "sqlite_schema")))
			return SQLITE_OK;
		/* CREATE/DROP first write sqlite_schema: name the schema change */
		if ((action == SQLITE_INSERT || action == SQLITE_UPDATE || action == SQLITE_DELETE) && a &&
		    strncmp(a, "sqlite_", 7) == 0) {
			if (!st->denied[0])
				snprintf(st->denied, sizeof st->denied, "a schema change");
			return SQLITE_DENY;
		}
		if (!st->denied[0])
			snprintf(st->denied, sizeof st->denied, "%s", action_name(action));
		return SQLITE_DENY;
	}
}

int ka_sql_prepare_readonly(sqlite3 *db, const char *sql, sqlite3_stmt **out)
{
	auth_state st = {{0}};
	const char *tail = NULL;
	sqlite3_stmt *stmt = NULL;
	int rc = KA_OK;
	*out = NULL;
	sqlite3_set_authorizer(db, authorizer, &st);
	int src = sqlite3_prepare_v2(db, sql, -1, &stmt, &tail);
	sqlite3_set_authorizer(db, NULL, NULL);
	if (src != SQLITE_OK) {
		if (st.denied[0])
			rc = ka_error_set(KA_EINPUT, "not allowed in a rule: %s (rule SQL is read-only)",
					  st.denied);
		else
			rc = ka_error_set(KA_EINPUT, "%s", sqlite3_errmsg(db));
		goto out;
	}
	if (!stmt) {
		rc = ka_error_set(KA_EINPUT, "empty SQL");
		goto out;
	}
	if (!sqlite3_stmt_readonly(stmt)) {
		rc = ka_error_set(KA_EINPUT, "not allowed in a rule: a write (rule SQL is read-only)");
		goto out;
	}
	while (tail && *tail && (isspace((unsigned char)*tail) || *tail == ';'))
		tail++;
	if (tail && *tail) {
		rc = ka_error_set(KA_EINPUT, "more than one SQL statement (near \"%.20s\")", tail);
		goto out;
	}
	*out = stmt;
	stmt = NULL;
out:
	sqlite3_finalize(stmt);
	return rc;
}

/* If s[i..] (after blanks) starts a SQL string literal, append its value
 * (with '' unescaped) to out and return the index after it; else 0. */
static size_t read_literal(const char *s, size_t i, ka_buf *out)
{
	while (s[i] && isspace((unsigned char)s[i]))
		i++;
	if (s[i] != '\'')
		return 0;
	for (i++; s[i]; i++) {
		if (s[i] == '\'') {
			if (s[i + 1] != '\'')
				break;
			i++;
		}
		ka_buf_addc(out, s[i]);
	}
	return s[i] ? i + 1 : 0;
}

static size_t skip_blanks(const char *s, size_t i)
{
	while (s[i] && isspace((unsigned char)s[i]))
		i++;
	return i;
}

/* Read a constant pattern at s[i..]: a literal, or literals joined by ||.
 * Returns the index after it, or 0 when there is none or the pattern is
 * not constant ('a' || col). */
static size_t read_pattern(const char *s, size_t i, ka_buf *out)
{
	ka_buf_reset(out);
	size_t e = read_literal(s, i, out);
	while (e) {
		size_t j = skip_blanks(s, e);
		if (s[j] != '|' || s[j + 1] != '|')
			return e;
		e = read_literal(s, j + 2, out);
	}
	return 0;
}

static int is_word_at(const char *s, size_t i, const char *w)
{
	size_t n = strlen(w);
	if (i > 0 && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_'))
		return 0;
	if (strncasecmp(s + i, w, n) != 0)
		return 0;
	return !(isalnum((unsigned char)s[i + n]) || s[i + n] == '_');
}

int ka_sql_check_regexes(const char *sql)
{
	char err[300];
	ka_buf pat;
	int rc = KA_OK;
	ka_buf_init(&pat, KA_SQL_MAX_SQL);
	for (size_t i = 0; sql[i] && rc == KA_OK; i++) {
		if (sql[i] == '\'') { /* skip other literals whole */
			size_t e = read_literal(sql, i, &pat);
			if (!e)
				break;
			i = e - 1;
			continue;
		}
		if (!is_word_at(sql, i, "regexp"))
			continue;
		size_t j = skip_blanks(sql, i + 6);
		int call = sql[j] == '(';
		size_t e = read_pattern(sql, call ? j + 1 : j, &pat);
		if (!e || (call && sql[skip_blanks(sql, e)] != ','))
			continue; /* not a constant pattern: checked when it runs */
		pcre2_code *re = compile(pat.data ? pat.data : "", pat.len, err, sizeof err);
		if (!re)
			rc = ka_error_set(KA_EINPUT, "bad regular expression '%.200s': %s",
					  pat.data ? pat.data : "", err);
		pcre2_code_free(re);
		i = e - 1;
	}
	ka_buf_free(&pat);
	return rc;
}
