/* tests/agents/emu/gs2d_main.cpp: runs grid-stride's 2-D rewrite of a
 * kernel (kernel.cu) on the host over grids below and above the cap, and
 * counts how often each point is done.
 *   default: count2d(c, w, h), guarded by `x < w && y < h` (or the early
 *     return), adds 1 to c[y * w + x]; run(c, w, h, gx, gy) launches it over
 *     gx x gy blocks of 16 x 8.  Each of the w x h points must be 1 and the
 *     eight ints past them 0, for every grid (too small ones included: the
 *     loops cover the bounds, not the launch).
 *   -DGS2D_UNGUARDED: bump(c, pitch, v) with no guard adds v to
 *     c[y * pitch + x] for every launched thread; run(c, gx, gy, v)
 *     launches it over gx x gy x 2 blocks of 16 x 4 with pitch gx * 16, so
 *     each point of the launch's threads must hold 2 v, those past it 0.
 * Exit status 0 when every count matches. */
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "ka_task.h"
#include "kernel.cu"

static int report(const char *what, int gx, int gy, long long bad)
{
	printf("%s grid %d x %d: %lld wrong\n", what, gx, gy, bad);
	return bad != 0;
}

int main()
{
	int bad = 0;
#ifndef GS2D_UNGUARDED
	const int w = 300, h = 203;
	/* 1 x 1 and 7 x 3 cover less than the bounds, 19 x 26 all of them
	 * (494 blocks), 2200 x 1 is past the cap along x, 150 x 40 (6000
	 * blocks) past it in all */
	const int grids[][2] = {{1, 1}, {7, 3}, {19, 26}, {2200, 1}, {150, 40}};
	for (const auto &g : grids) {
		std::vector<int> c((size_t)w * h + 8, 0);
		run(c.data(), w, h, g[0], g[1]);
		long long wrong = 0;
		for (size_t k = 0; k < c.size(); k++)
			wrong += c[k] != (k < (size_t)w * h ? 1 : 0);
		bad |= report("guarded", g[0], g[1], wrong);
	}
#else
	const int grids[][2] = {{1, 1}, {5, 3}, {2200, 1}, {60, 50}};
	for (const auto &g : grids) {
		const long long n = 16LL * g[0] * 4 * g[1];
		std::vector<int> c((size_t)n + 8, 0);
		run(c.data(), g[0], g[1], 3);
		long long wrong = 0;
		for (long long k = 0; k < n + 8; k++)
			wrong += c[(size_t)k] != (k < n ? 6 : 0);
		bad |= report("unguarded", g[0], g[1], wrong);
	}
#endif
	return bad;
}
