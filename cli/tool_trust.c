/* cli/tool_trust.c: what a project may not choose, checked where its
 * values enter (docs/security.md).
 *
 * - Where the LLM key goes: the endpoint (llm-base-url) and the key come
 *   from the person running kcheck, on the command line or in the
 *   environment, never from a .kcheck.yaml, which a repository can ship.
 * - What an LLM model name may be (agents/llm.h ka_llm_model_ok): it is
 *   printed in a patch's comment line and sent in the request.
 * - What may reach nvcc's /bin/sh (util/shsafe.h): the include and macro
 *   flags after `--`; .kcheck.yaml's extra-args are checked the same way by
 *   tool_parsecfg.c, with the item's line. */
#include "cli/tools.h"
#include "agents/llm.h"
#include "util/error.h"
#include "util/shsafe.h"
#include <string.h>

int ka_tool_trust_key(const char *key, const char *value)
{
	char why[128];
	if (!strcmp(key, "llm-base-url") || !strcmp(key, "llm-api-key"))
		return ka_error_set(
			KA_EINPUT,
			"'%s' is not read from a configuration file: a repository must not pick "
			"where your API key goes; give --llm-base-url URL or set "
			"KERNELARC_LLM_BASE_URL (the key: KERNELARC_LLM_API_KEY or OPENAI_API_KEY)",
			key);
	if (!strcmp(key, "llm-model") && value && !ka_llm_model_ok(value, why, sizeof why))
		return ka_error_set(KA_EINPUT, "llm-model: %s", why);
	return 0;
}

int ka_tool_trust_extra(const char *const *args, int n)
{
	char why[96], show[160];
	int bad = ka_sh_cc_unsafe(args, n, why, sizeof why);
	if (bad < 0)
		return 0;
	ka_tool_error("-- %s: holds %s; kcheck passes this flag to nvcc, which runs it through /bin/sh",
		      ka_sh_show(show, sizeof show, args[bad]), why);
	return KA_EXIT_ERROR;
}
