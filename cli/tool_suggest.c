/* cli/tool_suggest.c: "did you mean" hints for a mistyped option, option
 * value or .kcheck.yaml key, from the option table (tool_opts.c); the
 * nearness test is util/text.c's. */
#include "cli/tools.h"
#include "util/text.h"
#include <stdio.h>
#include <string.h>

static const char *hint(const char *pick)
{
	return ka_cmdopt_hint(pick);
}

const char *ka_tool_suggest_option(const char *word, unsigned cmd)
{
	const ka_opt_group g = {ka_tool_opts(), NULL};
	return hint(ka_cmdopt_nearest(&g, 1, cmd, word));
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
