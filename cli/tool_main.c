/* cli/tool_main.c: kcheck's main(): picks the subcommand.
 *
 *   kcheck [OPTIONS] PATH... [-- FLAGS]   lint (tool_lint.c)
 *   kcheck rules list|show|new|test       the rule base (tool_rules.c)
 *   kcheck facts FILE...                  the analyzer's facts (tool_facts.c)
 *   kcheck bench ...                      the benchmark harness (bench/)
 *   kcheck optimize TASK ...              the optimize loop (tool_optimize.c)
 *   kcheck bench init FILE --kernel K     a task scaffolded from a kernel (tool_optimize.c)
 *
 * A file or folder literally named `rules`, `facts` or `bench` can still
 * be linted as `./rules`. */
#include "cli/tools.h"
#include "rules/fixhook.h"
#include <string.h>
#ifdef KA_HAVE_BENCH
#include "bench/bench.h"
#endif

int main(int argc, char **argv)
{
	ka_rules_set_fix_hook(ka_tool_fix_text);   /* `rules test` checks `fixed` examples */
	if (argc >= 2 && strcmp(argv[1], "rules") == 0)
		return ka_tool_rules(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "facts") == 0) {
#ifdef KA_HAVE_TOOL_FACTS
		return ka_tool_facts(argc - 1, argv + 1);
#else
		ka_tool_error("this build has no `facts` subcommand");
		return KA_EXIT_ERROR;
#endif
	}
#ifdef KA_HAVE_OPTIMIZE
	if (argc >= 3 && strcmp(argv[1], "bench") == 0 && strcmp(argv[2], "init") == 0)
		return ka_tool_bench_init(argc - 2, argv + 2);
#endif
	if (argc >= 2 && strcmp(argv[1], "bench") == 0) {
#ifdef KA_HAVE_BENCH
		return ka_bench_main(argc - 1, argv + 1);
#else
		ka_tool_error("this build has no `bench` subcommand");
		return KA_EXIT_ERROR;
#endif
	}
#ifdef KA_HAVE_OPTIMIZE
	if (argc >= 2 && strcmp(argv[1], "optimize") == 0)
		return ka_tool_optimize(argc - 1, argv + 1);
#endif
	return ka_tool_lint(argc, argv);
}
