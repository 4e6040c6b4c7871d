/* tests/agents/emu/rowdisp_main.cpp: runs a rewrite of test_recipe_rowdisp.c's
 * row kernel (kernel.cu: per row the mean, max, min, argmax and argmin with
 * the lowest index on a tie, and the count of elements above 0.5) on the
 * host, the threads of a block together (KA_EMU_COOP), over shapes on
 * both sides of the size dispatch (two SMs of 2048 threads: a block per row
 * below 32 rows), and compares with a sequential loop: exactly, the mean
 * within 1e-5 relative.  Prints which schedule each shape ran (the
 * launch's grid: the row count for a block per row).  Exit status 0 when
 * all match. */
#define KA_EMU_COOP
#include <cstdio>
#include <cstdlib>
#include "ka_task.h"
#include "kernel.cu"

static int check(long long rows, long long cols, int want_block)
{
	float *x = (float *)aligned_alloc(16, (size_t)(rows * cols + 4) * 4);
	float *mean = (float *)malloc((size_t)rows * 4), *mx = (float *)malloc((size_t)rows * 4),
	      *mn = (float *)malloc((size_t)rows * 4);
	int *amax = (int *)malloc((size_t)rows * 4), *amin = (int *)malloc((size_t)rows * 4),
	    *cnt = (int *)malloc((size_t)rows * 4);
	/* few distinct values: ties everywhere, the first index must win */
	for (long long i = 0; i < rows * cols; i++)
		x[i] = (float)((i * 7 + i / 5) % 13) * 0.125f - 0.75f;
	ka_task_args a = {};
	a.t[0] = x;
	a.t[1] = mean;
	a.t[2] = mx;
	a.t[3] = mn;
	a.t[4] = amax;
	a.t[5] = amin;
	a.t[6] = cnt;
	a.p[0] = rows;
	a.p[1] = cols;
	ka_task_run(&a, 0);
	int block = ka_emu_last_grid == (unsigned)rows && rows > 1;
	long long bad = 0;
	for (long long r = 0; r < rows; r++) {
		const float *xr = x + r * cols;
		double s = 0;
		float hi = xr[0], lo = xr[0];
		int at = 0, wat = 0, c = 0;
		for (long long j = 0; j < cols; j++) {
			s += xr[j];
			if (xr[j] > hi) {
				hi = xr[j];
				at = (int)j;
			}
			if (xr[j] < lo) {
				lo = xr[j];
				wat = (int)j;
			}
			c += xr[j] > 0.5f;
		}
		double m = s / (double)cols;
		bad += fabs(mean[r] - m) > 1e-5 * (fabs(m) + 1) || mx[r] != hi || mn[r] != lo || amax[r] != at ||
		       amin[r] != wat || cnt[r] != c;
	}
	printf("rows=%lld cols=%lld: %s, %lld wrong rows\n", rows, cols,
	       rows == 1 ? "one block" : block ? "a block per row" : "a warp per row", bad);
	free(x);
	free(mean);
	free(mx);
	free(mn);
	free(amax);
	free(amin);
	free(cnt);
	return bad != 0 || (rows > 1 && block != want_block);
}

int main()
{
	ka_emu_sms = 2; /* 4096 thread slots: a block per row below 32 rows (rows * 32 * 4 < 4096) */
	int f = 0;
	f |= check(1, 5, 1);    /* one short row */
	f |= check(7, 3, 1);    /* rows shorter than the block */
	f |= check(12, 700, 1); /* long rows, a block each */
	f |= check(31, 33, 1);  /* the last row count with a block per row */
	f |= check(32, 64, 0);  /* the first with a warp per row */
	f |= check(90, 257, 0); /* rows past the last full block of warps */
	return f;
}
