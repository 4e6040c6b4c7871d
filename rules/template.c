/* rules/template.c: message templates.  A rule's message names the
 * evidence with `{column}` placeholders filled from the facts row it fired
 * on; `{{` and `}}` stand for literal braces.  check.c validates the names
 * against the scope's columns when rules load; eval.c renders them. */
#include "rules/engine.h"
#include "rules/rules_int.h"
#include "util/error.h"
#include <string.h>

int ka_template_each(const char *tmpl, int (*each)(const char *, size_t, void *), void *ud)
{
	for (const char *p = tmpl; *p; p++) {
		if (p[0] == '{' && p[1] == '{') {
			p++;
			continue;
		}
		if (p[0] == '}' && p[1] == '}') {
			p++;
			continue;
		}
		if (*p == '}')
			return ka_error_set(KA_EINPUT, "unbalanced '}' in message (write '}}' for a brace)");
		if (*p != '{')
			continue;
		const char *e = strchr(p + 1, '}');
		const char *o = strchr(p + 1, '{');
		if (!e || (o && o < e))
			return ka_error_set(KA_EINPUT, "unbalanced '{' in message (write '{{' for a brace)");
		int rc = each(p + 1, (size_t)(e - p - 1), ud);
		if (rc)
			return rc;
		p = e;
	}
	return KA_OK;
}

static int column_index(sqlite3_stmt *st, const char *name, size_t len)
{
	int n = sqlite3_column_count(st);
	for (int i = 0; i < n; i++) {
		const char *c = sqlite3_column_name(st, i);
		if (c && strlen(c) == len && strncmp(c, name, len) == 0)
			return i;
	}
	return -1;
}

static int add_value(ka_buf *out, sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		return ka_buf_adds(out, "?");
	case SQLITE_INTEGER:
		return ka_buf_printf(out, "%lld", (long long)sqlite3_column_int64(st, i));
	case SQLITE_FLOAT:
		return ka_buf_printf(out, "%g", sqlite3_column_double(st, i));
	default: {
		const unsigned char *t = sqlite3_column_text(st, i);
		return ka_buf_add(out, t ? (const char *)t : "", (size_t)sqlite3_column_bytes(st, i));
	}
	}
}

int ka_template_render(const char *tmpl, sqlite3_stmt *st, ka_buf *out)
{
	int rc = KA_OK;
	for (const char *p = tmpl; *p && rc == KA_OK; p++) {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
			rc = ka_buf_addc(out, *p++);
			continue;
		}
		const char *e = *p == '{' ? strchr(p + 1, '}') : NULL;
		if (!e) {
			rc = ka_buf_addc(out, *p);
			continue;
		}
		int i = column_index(st, p + 1, (size_t)(e - p - 1));
		rc = i < 0 ? ka_buf_add(out, p, (size_t)(e - p + 1)) : add_value(out, st, i);
		p = e;
	}
	return rc;
}
