/* tests/agents/emu/unguarded_main.cpp: runs a rewrite of an unguarded
 * kernel (kernel.cu: add_const, `a[i] = a[i] + v` for every launched
 * thread, launched by run() over blocks_x x 2 blocks of 30 threads, so
 * that every element gets v twice) on the host, over grids below and above
 * the rewrite's cap, with the array 16-byte aligned and not.  Every element
 * the launch's threads cover must hold its start value plus 2 v, the four
 * past them their start value.  Exit status 0 when all match. */
#include <cstdio>
#include <cstdlib>
#include "ka_task.h"
#include "kernel.cu"

static int check(int blocks_x, int misalign)
{
	const long long n = 30LL * blocks_x;
	int *base = (int *)aligned_alloc(16, (size_t)(n + 8) * sizeof(int) + 16);
	int *a = base + misalign;
	for (long long j = 0; j < n + 4; j++)
		a[j] = (int)(j * 3);
	run(a, blocks_x, 5);
	long long bad = 0;
	for (long long j = 0; j < n + 4; j++)
		bad += a[j] != (int)(j * 3) + (j < n ? 10 : 0);
	printf("blocks_x=%d misaligned=%d: %lld wrong\n", blocks_x, misalign, bad);
	free(base);
	return bad != 0;
}

int main()
{
	int bad = 0;
	const int grids[] = {1, 7, 3001, 9001};
	for (int m = 0; m < 2; m++)
		for (int g : grids)
			bad |= check(g, m);
	return bad;
}
