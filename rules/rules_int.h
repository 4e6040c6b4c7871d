/* rules/rules_int.h: internals shared by the rule loader (loader.c), the
 * rule set (ruleset.c) and the schema checks (check.c).  Not a public API. */
#ifndef KA_RULES_INT_H
#define KA_RULES_INT_H
#include "rules/rule.h"
#include "util/buf.h"

struct ka_ruleset {
	ka_rule **v;
	size_t n, cap;
	ka_buf errors; /* "file:line: message\n" lines */
	int nerrors;
};

/* Append one `path:line: message` line to the set's error list. */
void ka_ruleset_error(ka_ruleset *rs, const char *path, int line, const char *fmt, ...) KA_PRINTF(4, 5);

/* Parse a rule file.  On failure *out is NULL and the problems were added
 * to rs's error list; returns KA_EINPUT (or KA_ENOMEM). */
int ka_rule_parse(ka_ruleset *rs, const char *path, const char *text, size_t len, ka_rule **out);
void ka_rule_free(ka_rule *r);

/* Message templates: `{column}` placeholders, `{{` and `}}` for braces.
 * Calls each(name, len, ud) for every placeholder; returns KA_OK, the
 * first non-zero value of each(), or KA_EINPUT for an unbalanced brace. */
int ka_template_each(const char *tmpl, int (*each)(const char *name, size_t len, void *ud), void *ud);

#endif
