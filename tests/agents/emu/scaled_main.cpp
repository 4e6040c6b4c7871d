/* tests/agents/emu/scaled_main.cpp: runs a kernel whose threads each own
 * Pack::size consecutive elements (kernel.cu: pack_affine, y += x + 1 over
 * [0, n), launched by run()) on the host, for counts that fill the grid's
 * cap several times over and counts that end inside a pack.  Every element
 * below n must have gained x + 1 exactly once (an element done twice or
 * never is wrong), the four past n keep their start value.  Exit
 * status 0 when all match. */
#include <cstdio>
#include <cstdlib>
#include "ka_task.h"
#include "kernel.cu"

static int check(int n)
{
	float *x = (float *)malloc((size_t)(n + 4) * sizeof(float));
	float *y = (float *)malloc((size_t)(n + 4) * sizeof(float));
	for (int j = 0; j < n + 4; j++) {
		x[j] = (float)(j % 1000);
		y[j] = 0.5f;
	}
	run(x, y, n);
	long long bad = 0;
	for (int j = 0; j < n + 4; j++)
		bad += y[j] != (j < n ? 0.5f + (float)(j % 1000) + 1.0f : 0.5f);
	printf("n=%d: %lld wrong\n", n, bad);
	free(x);
	free(y);
	return bad != 0;
}

int main()
{
	int bad = 0;
	const int counts[] = {1, 4, 5, 1023, 4096, 2900001, 9000003};
	for (int n : counts)
		bad |= check(n);
	return bad;
}
