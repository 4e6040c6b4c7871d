/* tests/agents/emu/smempad_main.cpp: runs a tiled transpose (kernel.cu:
 * test_recipe_facts.c's kernel or smem-pad's rewrite of it, launches
 * written as ka_emu_launch calls) on the host, a block's threads together
 * (KA_EMU_COOP: the tile is shared, the barrier holds).  kernel.cu defines
 * transpose_run(out, in, w, h).  KA_EMU_TASK 1: one w x h plane; 2: two
 * planes, each transposed on its own.  Sizes below, at and across the
 * 32-wide tiles; every element must be exact and the guard words past
 * the output untouched.  Exit status 0 when all match. */
#define KA_EMU_COOP
#include <cstdio>
#include <vector>
#include "ka_task.h"
#include "kernel.cu"

int main()
{
	const int planes = KA_EMU_TASK == 2 ? 2 : 1;
	const int sizes[][2] = {{1, 1}, {31, 33}, {32, 32}, {65, 40}, {100, 7}};
	int bad = 0;
	for (const auto &sz : sizes) {
		const int w = sz[0], h = sz[1];
		const size_t n = (size_t)planes * w * h;
		std::vector<float> in(n), out(n + 8, -1.0f);
		for (size_t k = 0; k < n; k++)
			in[k] = (float)(k % 977) + 0.25f;
		transpose_run(out.data(), in.data(), w, h);
		long long wrong = 0;
		for (int p = 0; p < planes; p++)
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++)
					wrong += out[((size_t)p * w + x) * h + y] != in[((size_t)p * h + y) * w + x];
		for (size_t k = n; k < n + 8; k++)
			wrong += out[k] != -1.0f;
		printf("%d plane(s) of %d x %d: %lld wrong\n", planes, w, h, wrong);
		bad |= wrong != 0;
	}
	return bad;
}
