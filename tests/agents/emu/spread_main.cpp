/* tests/agents/emu/spread_main.cpp: runs a kernel of test_recipe_spread.c
 * (kernel.cu, launched <<<N, 1>>> or <<<1, N>>>) or spread-threads'
 * rewrite of it on the host.  kernel.cu defines spread_run(out, in, n),
 * which fills out[0..n) with 2 in[j] + 1.  Counts below, at and across
 * the rewrite's blocks; every element must be exact and the guard words
 * past the output untouched.  Exit status 0 when all match. */
#include <cstdio>
#include <vector>
#include "ka_task.h"
#include "kernel.cu"

int main()
{
	const int counts[] = {1, 31, 256, 257, 1000};
	int bad = 0;
	for (int n : counts) {
		std::vector<float> in(n), out(n + 8, -1.0f);
		for (int k = 0; k < n; k++)
			in[k] = (float)(k % 97) + 0.5f;
		spread_run(out.data(), in.data(), n);
		long long wrong = 0;
		for (int k = 0; k < n; k++)
			wrong += out[k] != 2.0f * in[k] + 1.0f;
		for (int k = n; k < n + 8; k++)
			wrong += out[k] != -1.0f;
		printf("n = %d: %lld wrong\n", n, wrong);
		bad |= wrong != 0;
	}
	return bad;
}
