/* tests/agents/emu/coarsen_main.cpp: runs a rewrite of reduce_interleaved's
 * row sum (kernel.cu: rows x n floats -> one sum a row, a block tree per
 * 256 elements, pass after pass over the partial sums) on the host, the
 * threads of a block together (KA_EMU_COOP), over lengths below one
 * block, between blocks and chunks, and long enough for a second and a
 * third pass, and compares with a sum in double: within 1e-5 relative.
 * Prints each shape's grid along x of the last launch and its first sum.
 * Exit status 0 when all match. */
#define KA_EMU_COOP
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "ka_task.h"
#include "kernel.cu"

static int check(long long rows, long long n)
{
	float *x = (float *)malloc((size_t)(rows * n) * 4), *sums = (float *)malloc((size_t)rows * 4);
	for (long long i = 0; i < rows * n; i++)
		x[i] = (float)((i * 37 + i / 7) % 101) / 101.0f;
	/* the task's scratch: rows x cdiv(n, 256) and rows x cdiv(n, 65536) */
	size_t work = (size_t)(rows * ((n + 255) / 256) + rows * ((n + 65535) / 65536)) * 4;
	ka_task_args a = {};
	a.t[0] = x;
	a.t[1] = sums;
	a.p[0] = rows;
	a.p[1] = n;
	a.work = malloc(work);
	a.work_bytes = work;
	int bad = ka_task_run(&a, 0) != 0;
	for (long long r = 0; r < rows && !bad; r++) {
		double s = 0;
		for (long long j = 0; j < n; j++)
			s += x[r * n + j];
		if (fabs(sums[r] - s) > 1e-5 * fabs(s) + 1e-6) {
			printf("rows=%lld n=%lld row %lld: %.9g, want %.9g\n", rows, n, r, sums[r], s);
			bad = 1;
		}
	}
	printf("rows=%lld n=%lld: %s, sum[0] %.6g\n", rows, n, bad ? "wrong" : "ok", sums[0]);
	free(x);
	free(sums);
	free(a.work);
	return bad;
}

int main()
{
	static const long long shapes[][2] = {{1, 1}, {3, 255}, {2, 257}, {2, 1025}, {1, 4097}, {1, 70000}, {1, 300001}};
	int bad = 0;
	for (const auto &s : shapes)
		bad |= check(s[0], s[1]);
	return bad;
}
