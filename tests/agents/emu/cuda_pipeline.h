/* tests/agents/emu/cuda_pipeline.h: the cp.async primitives on the host
 * emulation (ka_task.h with KA_EMU_COOP), for wmma-gemm's staged rewrites
 * (test_recipe_wmma.c).  A copy is done as late as the program allows: at
 * the __pipeline_wait_prior that needs its group, so a stage read before
 * its wait holds stale data and the result comes out wrong.  Each thread
 * keeps its own groups, as on the GPU. */
#ifndef KA_TESTS_EMU_CUDA_PIPELINE_H
#define KA_TESTS_EMU_CUDA_PIPELINE_H
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "ka_task.h"

struct ka_emu_async_copy {
	void *dst;
	const void *src;
	size_t n, zfill;
	long group;
};
static std::vector<ka_emu_async_copy> ka_emu_pending[1024];
static long ka_emu_committed[1024]; /* groups this thread has committed */

static inline void __pipeline_memcpy_async(void *dst, const void *src, size_t n, size_t zfill = 0)
{
	if ((n != 4 && n != 8 && n != 16) || zfill > n || (reinterpret_cast<unsigned long long>(dst) % n) ||
	    (reinterpret_cast<unsigned long long>(src) % n)) {
		fprintf(stderr, "__pipeline_memcpy_async: size %zu, zfill %zu, %p <- %p\n", n, zfill, dst,
			src);
		exit(3);
	}
	unsigned t = threadIdx.x;
	ka_emu_pending[t].push_back({dst, src, n, zfill, ka_emu_committed[t]});
}

static inline void __pipeline_commit()
{
	ka_emu_committed[threadIdx.x]++;
}

/* every copy of this thread's committed groups but the newest `prior` */
static inline void __pipeline_wait_prior(size_t prior)
{
	unsigned t = threadIdx.x;
	std::vector<ka_emu_async_copy> keep;
	for (const ka_emu_async_copy &c : ka_emu_pending[t])
		if (c.group < ka_emu_committed[t] - (long)prior) {
			memcpy(c.dst, c.src, c.n - c.zfill);
			memset((char *)c.dst + (c.n - c.zfill), 0, c.zfill);
		} else
			keep.push_back(c);
	ka_emu_pending[t].swap(keep);
}

/* copies still pending when a launch ends: a wait the kernel forgot */
static inline size_t ka_emu_async_pending()
{
	size_t n = 0;
	for (unsigned t = 0; t < 1024; t++)
		n += ka_emu_pending[t].size();
	return n;
}
#endif
