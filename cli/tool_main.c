/* cli/tool_main.c: kcheck's main(): picks the subcommand.
 *
 *   kcheck [OPTIONS] PATH... [-- FLAGS]   lint (tool_lint.c)
 *   kcheck rules list|show|new|test       the rule base (tool_rules.c)
 *   kcheck facts FILE...                  the analyzer's facts (tool_facts.c)
 *   kcheck bench ...                      the benchmark harness (bench/)
 *   kcheck optimize TASK ...              the optimize loop (tool_optimize.c)
 *   kcheck bench init FILE --kernel K     a task scaffolded from a kernel (tool_optimize.c)
 *   kcheck knowledge stats|show|export|import   the knowledge DB (tool_knowledge.c)
 *   kcheck --print-man | --print-completion bash  from the option table (tool_complete.c)
 *
 * A file or folder literally named `rules`, `facts`, `bench`, `optimize` or
 * `knowledge` can still be linted as `./rules`. */
#include "cli/tools.h"
#include "bench/bench.h"
#include <string.h>

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "rules") == 0)
		return ka_tool_rules(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "facts") == 0)
		return ka_tool_facts(argc - 1, argv + 1);
	if (argc >= 3 && strcmp(argv[1], "bench") == 0 && strcmp(argv[2], "init") == 0)
		return ka_tool_bench_init(argc - 2, argv + 2);
	if (argc >= 2 && strcmp(argv[1], "bench") == 0)
		return ka_bench_main(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "optimize") == 0)
		return ka_tool_optimize(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "knowledge") == 0)
		return ka_tool_knowledge(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "--print-man") || !strcmp(argv[1], "--print-completion")))
		return ka_tool_print_generated(argc, argv);
	return ka_tool_lint(argc, argv);
}
