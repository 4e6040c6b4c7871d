/* rewriter/transforms/xform_util.c: helpers every transform uses: reading
 * the finding's facts row, checking source bytes against the facts, making
 * fixes and notes, and a little raw-text lexing (comments, strings, brackets)
 * for the spots where facts give a range and the transform needs the shape. */
#include "rewriter/transforms/xform.h"
#include "util/buf.h"
#include "util/error.h"
#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int xf_row(xf_ctx *c, const char *sql, sqlite3_int64 id, sqlite3_stmt **st)
{
	*st = NULL;
	if (sqlite3_prepare_v2(c->db, sql, -1, st, NULL) != SQLITE_OK) {
		int rc = ka_error_set(KA_ERR, "%s: facts query failed: %s", c->name, sqlite3_errmsg(c->db));
		sqlite3_finalize(*st);
		*st = NULL;
		return rc;
	}
	sqlite3_bind_int64(*st, 1, id);
	int r = sqlite3_step(*st);
	if (r == SQLITE_ROW)
		return 1;
	sqlite3_finalize(*st);
	*st = NULL;
	return r == SQLITE_DONE ? 0 : ka_error_set(KA_ERR, "%s: facts query failed", c->name);
}

static int plain_name(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

int xf_rowids(xf_ctx *c, const char *table, sqlite3_int64 **ids, size_t *n)
{
	sqlite3_stmt *st = NULL;
	char sql[512];
	size_t cap = 8;
	int rc = KA_OK;
	*n = 0;
	*ids = malloc(cap * sizeof(**ids));
	if (!*ids)
		return ka_error_set(KA_ENOMEM, "out of memory");
	if (strcmp(c->req->scope, table) == 0) {
		(*ids)[(*n)++] = c->req->rowid;
		return KA_OK;
	}
	if (!plain_name(c->req->scope) || !plain_name(table))
		return ka_error_set(KA_EINPUT, "bad scope name '%s'", c->req->scope);
	snprintf(sql, sizeof sql,
		 "SELECT t.id FROM \"%s\" t, \"%s\" s WHERE s.rowid = ?1 AND t.file = s.file "
		 "AND t.begin_off >= s.begin_off AND t.end_off <= s.end_off ORDER BY t.begin_off",
		 table, c->req->scope);
	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
		rc = ka_error_set(KA_ERR, "%s: facts query failed: %s", c->name, sqlite3_errmsg(c->db));
		goto out;
	}
	sqlite3_bind_int64(st, 1, c->req->rowid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (*n == cap) {
			sqlite3_int64 *p = realloc(*ids, cap * 2 * sizeof(**ids));
			if (!p) {
				rc = ka_error_set(KA_ENOMEM, "out of memory");
				goto out;
			}
			*ids = p;
			cap *= 2;
		}
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
out:
	sqlite3_finalize(st);
	return rc;
}

const char *xf_text(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? (const char *)t : "";
}

int xf_null(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL;
}

int xf_source(xf_ctx *c, const char *file, const char **src, size_t *len)
{
	int rc = ka_fixset_source(c->fs, file, src, len);
	if (rc < 0)
		ka_fixset_note(c->fs, "%s: %s skipped: %s", file, c->name, ka_error_last());
	return rc;
}

ka_fix *xf_fix(xf_ctx *c, const char *file, ka_fix_safety s, const char *fmt, ...)
{
	ka_buf b;
	ka_buf_init(&b, 4096);
	va_list ap;
	va_start(ap, fmt);
	(void)ka_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (ka_fix_safety_rank(c->ceiling) > ka_fix_safety_rank(s))
		s = c->ceiling; /* never above what the transform declares */
	if (ka_fix_safety_rank(c->req->safety) > ka_fix_safety_rank(s))
		s = c->req->safety; /* the rule may demote */
	ka_fix *f = ka_fixset_add_fix(c->fs, file, c->req->rule, c->name, s, c->req->priority,
				      c->req->finding, b.data ? b.data : "");
	ka_buf_free(&b);
	if (f && c->req->key && !(f->key = strdup(c->req->key)))
		return NULL;
	return f;
}

int xf_skip(xf_ctx *c, const char *file, size_t off, const char *fmt, ...)
{
	ka_buf b;
	const char *src;
	size_t len;
	(void)ka_fixset_source(c->fs, file, &src, &len); /* for the line number */
	ka_buf_init(&b, 4096);
	va_list ap;
	va_start(ap, fmt);
	(void)ka_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	ka_fixset_note(c->fs, "%s:%d: %s skipped [%s]: %s", file, ka_fixset_line_of(c->fs, file, off),
		       c->name, c->req->rule ? c->req->rule : "", b.data ? b.data : "");
	ka_buf_free(&b);
	return 0;
}

int xf_expect(xf_ctx *c, const char *file, const char *src, size_t len, size_t b, size_t e, const char *want)
{
	size_t n = strlen(want);
	if (b <= e && e <= len && e - b == n && memcmp(src + b, want, n) == 0)
		return 1;
	xf_skip(c, file, b <= len ? b : len,
		"the text at the fact's offsets is not '%s' (inside a macro expansion, "
		"or the file changed on disk since it was analysed)",
		want);
	return 0;
}

int xf_ident_char(int ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* Past a comment or string literal starting at i, else i. */
static size_t skip_lexeme(const char *s, size_t len, size_t i)
{
	if (i + 1 < len && s[i] == '/' && s[i + 1] == '/') {
		while (i < len && s[i] != '\n')
			i++;
		return i;
	}
	if (i + 1 < len && s[i] == '/' && s[i + 1] == '*') {
		const char *end = NULL;
		for (size_t j = i + 2; j + 1 < len; j++)
			if (s[j] == '*' && s[j + 1] == '/') {
				end = s + j + 2;
				break;
			}
		return end ? (size_t)(end - s) : len;
	}
	if (s[i] == '"' || s[i] == '\'') {
		char q = s[i];
		for (size_t j = i + 1; j < len; j++) {
			if (s[j] == '\\')
				j++;
			else if (s[j] == q || s[j] == '\n')
				return j + 1;
		}
		return len;
	}
	return i;
}

size_t xf_skip_ws(const char *s, size_t len, size_t i)
{
	while (i < len) {
		if (isspace((unsigned char)s[i])) {
			i++;
			continue;
		}
		if (s[i] == '/' && i + 1 < len && (s[i + 1] == '/' || s[i + 1] == '*')) {
			i = skip_lexeme(s, len, i);
			continue;
		}
		break;
	}
	return i;
}

size_t xf_skip_ws_back(const char *s, size_t i)
{
	while (i > 0 && isspace((unsigned char)s[i - 1]))
		i--;
	return i;
}

size_t xf_match(const char *s, size_t len, size_t i)
{
	char stack[256];
	int depth = 0;
	while (i < len) {
		size_t j = skip_lexeme(s, len, i);
		if (j != i) {
			i = j;
			continue;
		}
		char ch = s[i++];
		if (ch == '(' || ch == '[' || ch == '{') {
			if (depth == (int)sizeof stack)
				return (size_t)-1;
			stack[depth++] = ch == '(' ? ')' : ch == '[' ? ']' : '}';
		} else if (ch == ')' || ch == ']' || ch == '}') {
			if (depth == 0 || stack[depth - 1] != ch)
				return (size_t)-1;
			if (--depth == 0)
				return i;
		}
	}
	return (size_t)-1;
}

char *xf_indent_of(const char *s, size_t off)
{
	size_t b = off;
	while (b > 0 && s[b - 1] != '\n')
		b--;
	size_t e = b;
	while (s[e] == ' ' || s[e] == '\t')
		e++;
	return xf_dup(s, b, e);
}

char *xf_dup(const char *s, size_t b, size_t e)
{
	char *p = malloc(e - b + 1);
	if (!p)
		return NULL;
	memcpy(p, s + b, e - b);
	p[e - b] = '\0';
	return p;
}

int xf_word_at(const char *s, size_t len, size_t b, const char *word)
{
	size_t n = strlen(word);
	if (b + n > len || memcmp(s + b, word, n) != 0)
		return 0;
	if (b > 0 && xf_ident_char(s[b - 1]))
		return 0;
	return b + n == len || !xf_ident_char(s[b + n]);
}

int xf_pure_expr(const char *s, size_t b, size_t e)
{
	for (size_t i = b; i < e; i++) {
		char ch = s[i], nx = i + 1 < e ? s[i + 1] : 0;
		if (ch == '(' && i > b) {
			size_t k = xf_skip_ws_back(s, i);
			if (k > b && (xf_ident_char(s[k - 1]) || s[k - 1] == ']' || s[k - 1] == ')'))
				return 0; /* a call */
		}
		if ((ch == '+' && nx == '+') || (ch == '-' && nx == '-') || ch == ',' || ch == '?')
			return 0;
		if (ch == '=' && nx != '=' && i > b && !strchr("=!<>", s[i - 1]))
			return 0;
		if (ch == '"' || ch == '\'' || ch == '{')
			return 0;
	}
	return 1;
}

int xf_call_rename(xf_ctx *c, sqlite3_int64 id, const char *const map[][2], ka_fix_safety safety,
		   int need_float_arg)
{
	xf_fact r;
	int rc = xf_fact_load(c,
			      "SELECT file, callee, callee_begin_off, callee_end_off, arg_is_float, "
			      "is_device_code FROM call WHERE id = ?1",
			      id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *callee = xf_str(&r, "callee"), *src, *to = NULL;
	size_t b = xf_off(&r, "callee_begin_off"), e = xf_off(&r, "callee_end_off"), len;
	rc = 0;
	for (size_t i = 0; map[i][0]; i++)
		if (strcmp(map[i][0], callee) == 0)
			to = map[i][1];
	if (!to || xf_is_null(&r, "callee_begin_off"))
		goto out; /* not a call this transform rewrites */
	if (xf_int(&r, "is_device_code") == 0) {
		xf_skip(c, file, b, "%s is in host code", callee);
		goto out;
	}
	if (need_float_arg && xf_int(&r, "arg_is_float") != 1) {
		xf_skip(c, file, b, "the argument of %s is not known to be float", callee);
		goto out;
	}
	if ((rc = xf_source(c, file, &src, &len)) < 0 || !xf_expect(c, file, src, len, b, e, callee))
		goto out;
	ka_fix *f = xf_fix(c, file, safety, "%s -> %s", callee, to);
	rc = f ? ka_fix_add_edit(f, b, e, to) : -1;
out:
	xf_fact_done(&r);
	return rc;
}

int xf_each(xf_ctx *c, const char *table, int (*fn)(xf_ctx *, sqlite3_int64))
{
	sqlite3_int64 *ids;
	size_t n;
	int rc = xf_rowids(c, table, &ids, &n);
	for (size_t i = 0; rc >= 0 && i < n; i++)
		rc = fn(c, ids[i]);
	free(ids);
	return rc < 0 ? rc : 0;
}

int xf_kernel_of(xf_ctx *c, sqlite3_int64 *kernel_id)
{
	sqlite3_stmt *st;
	char sql[160];
	if (strcmp(c->req->scope, "kernel") == 0) {
		*kernel_id = c->req->rowid;
		return 1;
	}
	if (!plain_name(c->req->scope))
		return ka_error_set(KA_EINPUT, "bad scope name '%s'", c->req->scope);
	snprintf(sql, sizeof sql, "SELECT kernel_id FROM \"%s\" WHERE rowid = ?1 AND kernel_id IS NOT NULL",
		 c->req->scope);
	int r = xf_row(c, sql, c->req->rowid, &st);
	if (r <= 0)
		return r;
	*kernel_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return 1;
}

int xf_fact_load(xf_ctx *c, const char *sql, sqlite3_int64 id, xf_fact *f)
{
	memset(f, 0, sizeof *f);
	f->file = "";
	int r = xf_row(c, sql, id, &f->st);
	if (r <= 0)
		return r;
	/* backwards, so that the first column of a name wins, as in column() */
	for (int i = sqlite3_column_count(f->st) - 1; i >= 0; i--) {
		const char *name = sqlite3_column_name(f->st, i);
		if (strcmp(name, "file") == 0)
			f->file = xf_text(f->st, i);
		else if (strcmp(name, "begin_off") == 0)
			f->b = (size_t)sqlite3_column_int64(f->st, i);
		else if (strcmp(name, "end_off") == 0)
			f->e = (size_t)sqlite3_column_int64(f->st, i);
	}
	return 1;
}

void xf_fact_done(xf_fact *f)
{
	sqlite3_finalize(f->st);
	f->st = NULL;
}

static int column(const xf_fact *f, const char *col)
{
	int n = f->st ? sqlite3_column_count(f->st) : 0;
	for (int i = 0; i < n; i++)
		if (strcmp(sqlite3_column_name(f->st, i), col) == 0)
			return i;
	assert(!"xf_fact: no such column in the SELECT");
	return -1;
}

const char *xf_str(const xf_fact *f, const char *col)
{
	int i = column(f, col);
	return i < 0 ? "" : xf_text(f->st, i);
}

long long xf_int(const xf_fact *f, const char *col)
{
	int i = column(f, col);
	return i < 0 ? 0 : sqlite3_column_int64(f->st, i);
}

size_t xf_off(const xf_fact *f, const char *col)
{
	return (size_t)xf_int(f, col);
}

double xf_real(const xf_fact *f, const char *col)
{
	int i = column(f, col);
	return i < 0 ? 0.0 : sqlite3_column_double(f->st, i);
}

int xf_is_null(const xf_fact *f, const char *col)
{
	int i = column(f, col);
	return i < 0 || xf_null(f->st, i);
}
