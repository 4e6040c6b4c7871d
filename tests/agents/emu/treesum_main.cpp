/* tests/agents/emu/treesum_main.cpp: runs a block sum (kernel.cu: blocksum,
 * one sum of 256 floats a block through a shared-memory tree whose loop
 * takes its barrier before each step, launched by run() over nblocks
 * blocks of BS threads) on the host, the threads of a block together
 * (KA_EMU_COOP), and compares every block's sum with one in double: within
 * 1e-5 relative.  Exit status 0 when all match. */
#define KA_EMU_COOP
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "ka_task.h"
#include "kernel.cu"

static int check(int nblocks)
{
	float *x = (float *)malloc((size_t)nblocks * 256 * sizeof(float));
	float *y = (float *)malloc((size_t)nblocks * sizeof(float));
	for (long long i = 0; i < nblocks * 256LL; i++)
		x[i] = (float)((i * 37 + i / 7) % 101) / 101.0f;
	run(x, y, nblocks);
	int bad = 0;
	for (int b = 0; b < nblocks; b++) {
		double s = 0;
		for (int j = 0; j < 256; j++)
			s += x[b * 256 + j];
		if (fabs(y[b] - s) > 1e-5 * fabs(s) + 1e-6) {
			printf("block %d: %.9g, want %.9g\n", b, y[b], s);
			bad = 1;
		}
	}
	printf("nblocks=%d: %s\n", nblocks, bad ? "wrong" : "ok");
	free(x);
	free(y);
	return bad;
}

int main()
{
	int bad = 0;
	const int sizes[] = {1, 3, 17};
	for (int n : sizes)
		bad |= check(n);
	return bad;
}
