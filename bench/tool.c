/* bench/tool.c: `ka-bench`, the bench on its own (same arguments as
 * `kcheck bench`), handy where the full kcheck is not built, e.g. on a GPU
 * host with only nvcc and libyaml. */
#include "bench/bench.h"
#include <string.h>

int main(int argc, char **argv)
{
	/* `ka-bench bench ARGS` too: the form the scale runners start jobs in */
	if (argc > 1 && !strcmp(argv[1], "bench")) {
		argv++;
		argc--;
	}
	argv[0] = "bench";
	return ka_bench_main(argc, argv);
}
