/* tests/agents/emu/rowdisp_bf16_main.cpp: runs a rewrite of a bf16 row
 * kernel of test_recipe_rowdisp.c (kernel.cu: warp-per-row's dispatch=size,
 * then vectorize-2byte on both of its kernels) on the host, the threads of a
 * block together (KA_EMU_COOP), over shapes on both sides of the size
 * dispatch (two SMs of 2048 threads: a block per row below 32 rows), and
 * compares with a sequential loop.  KA_EMU_TASK selects the kernel:
 *   1  the bench's softmax_bf16 (x -> y, bf16): each output within one bf16
 *      step of the sequential loop's (the row's sum is added in another
 *      order, which may move a rounding by one);
 *   2  per row the mean (within 1e-5 relative), the max and the argmax
 *      with the lowest index on a tie (exactly) of bf16 values.
 * Prints which schedule each shape ran (the launch's grid: the row count
 * for a block per row).  Exit status 0 when all match. */
#define KA_EMU_COOP
#include <cstdio>
#include <cstdlib>
#include "ka_task.h"
#include "kernel.cu"

#ifndef KA_EMU_TASK
#error "KA_EMU_TASK must be 1 (softmax) or 2 (mean, max, argmax)"
#endif

/* rows x cols bf16 values, a few distinct ones (ties everywhere) */
static __nv_bfloat16 *input(long long rows, long long cols, int spread)
{
	__nv_bfloat16 *x = (__nv_bfloat16 *)aligned_alloc(16, (size_t)((rows * cols + 16) * 2 + 16));
	for (long long i = 0; i < rows * cols; i++)
		x[i] = __float2bfloat16((float)((i * 7 + i / 5) % spread) * 0.25f - 3.0f);
	return x;
}

#if KA_EMU_TASK == 1
static long long wrong_rows(const __nv_bfloat16 *x, long long rows, long long cols)
{
	__nv_bfloat16 *y = (__nv_bfloat16 *)aligned_alloc(16, (size_t)((rows * cols + 16) * 2 + 16));
	for (long long i = 0; i < rows * cols; i++)
		y[i].v = 0xFFFF;
	ka_task_args a = {};
	a.t[0] = (void *)x;
	a.t[1] = y;
	a.p[0] = rows;
	a.p[1] = cols;
	ka_task_run(&a, 0);
	long long bad = 0;
	for (long long r = 0; r < rows; r++) {
		const __nv_bfloat16 *xr = x + r * cols;
		float m = -INFINITY, s = 0.0f;
		for (long long j = 0; j < cols; j++)
			m = fmaxf(m, __bfloat162float(xr[j]));
		for (long long j = 0; j < cols; j++)
			s += expf(__bfloat162float(xr[j]) - m);
		int row_bad = 0;
		for (long long j = 0; j < cols; j++) {
			unsigned short want = __float2bfloat16(expf(__bfloat162float(xr[j]) - m) / s).v,
				       got = y[r * cols + j].v;
			/* positive values: the bit patterns are in the values' order */
			row_bad |= (got > want ? got - want : want - got) > 1;
		}
		bad += row_bad;
	}
	free(y);
	return bad;
}
#else
static long long wrong_rows(const __nv_bfloat16 *x, long long rows, long long cols)
{
	float *mean = (float *)malloc((size_t)rows * 4), *mx = (float *)malloc((size_t)rows * 4);
	int *amax = (int *)malloc((size_t)rows * 4);
	ka_task_args a = {};
	a.t[0] = (void *)x;
	a.t[1] = mean;
	a.t[2] = mx;
	a.t[3] = amax;
	a.p[0] = rows;
	a.p[1] = cols;
	ka_task_run(&a, 0);
	long long bad = 0;
	for (long long r = 0; r < rows; r++) {
		const __nv_bfloat16 *xr = x + r * cols;
		double s = 0;
		float hi = __bfloat162float(xr[0]);
		int at = 0;
		for (long long j = 0; j < cols; j++) {
			float v = __bfloat162float(xr[j]);
			s += v;
			if (v > hi) {
				hi = v;
				at = (int)j;
			}
		}
		double m = s / (double)cols;
		bad += fabs(mean[r] - m) > 1e-5 * (fabs(m) + 1) || mx[r] != hi || amax[r] != at;
	}
	free(mean);
	free(mx);
	free(amax);
	return bad;
}
#endif

static int check(long long rows, long long cols, int want_block)
{
	__nv_bfloat16 *x = input(rows, cols, KA_EMU_TASK == 1 ? 29 : 13);
	long long bad = wrong_rows(x, rows, cols);
	int block = ka_emu_last_grid == (unsigned)rows && rows > 1;
	printf("rows=%lld cols=%lld: %s, %lld wrong rows\n", rows, cols,
	       rows == 1 ? "one block" : block ? "a block per row" : "a warp per row", bad);
	free(x);
	return bad != 0 || (rows > 1 && block != want_block);
}

int main()
{
	ka_emu_sms = 2; /* 4096 thread slots: a block per row below 32 rows (rows * 32 * 4 < 4096) */
	int f = 0;
	f |= check(1, 5, 1);     /* one short row */
	f |= check(7, 3, 1);     /* rows shorter than a 16-byte chunk */
	f |= check(12, 700, 1);  /* long rows, a block each; rows start off 16 bytes */
	f |= check(31, 2056, 1); /* the last row count with a block per row; past 1024 (two chunks) */
	f |= check(32, 64, 0);   /* the first with a warp per row */
	f |= check(90, 1031, 0); /* rows past the last full block of warps, a tail */
	return f;
}
