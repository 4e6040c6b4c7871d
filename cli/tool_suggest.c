/* cli/tool_suggest.c: "did you mean" hints for a mistyped option, option
 * value or .kcheck.yaml key, from the option table (tool_opts.c); the
 * nearness test is util/text.c's. */
#include "cli/tools.h"
#include "util/text.h"
#include <stdio.h>
#include <string.h>

static const char *hint(const char *pick)
{
	static _Thread_local char buf[160];
	if (!pick)
		return "";
	snprintf(buf, sizeof buf, " (did you mean '%s'?)", pick);
	return buf;
}

const char *ka_tool_suggest_option(const char *word, unsigned cmd)
{
	const char *cands[2 * KA_TOOL_MAX_OPTS];
	size_t n = 0;
	char w[128];
	snprintf(w, sizeof w, "%.*s", (int)strcspn(word, "="), word); /* --fromat=json */
	for (const ka_opt *o = ka_tool_opts(); (o->name || o->key) && n + 2 <= 2 * KA_TOOL_MAX_OPTS; o++) {
		if (!(o->cmds & cmd))
			continue;
		if (o->name)
			cands[n++] = o->name;
		if (o->alias)
			cands[n++] = o->alias;
	}
	return hint(ka_text_nearest(w, cands, n));
}

const char *ka_tool_suggest_value(const char *const *choices, const char *v)
{
	size_t n = 0;
	while (choices[n])
		n++;
	return hint(ka_text_nearest(v, choices, n));
}

const char *ka_tool_suggest_key(const char *key)
{
	const char *cands[KA_TOOL_MAX_OPTS];
	size_t n = 0;
	for (const ka_opt *o = ka_tool_opts(); (o->name || o->key) && n < KA_TOOL_MAX_OPTS; o++)
		if (o->key)
			cands[n++] = o->key;
	return hint(ka_text_nearest(key, cands, n));
}
