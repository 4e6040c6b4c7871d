// Golden: a tile held in a plain cg::thread_group (the dynamic form of
// tiled_partition, as block-compression kernels use for 16 threads per
// 4x4 block) synchronizes its tile, not the block: its sync() is a
// warp-scope barrier, fine under a branch that keeps whole tiles together.
// The block's own sync() under the same branch stays a block barrier.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void sort_texels(unsigned *out, const unsigned *texels)
{
	cg::thread_block cta = cg::this_thread_block();
	__shared__ unsigned keys[16];
	cg::thread_group tile = cg::tiled_partition(cta, 16);
	unsigned t = threadIdx.x;
	if (t < 16) {
		keys[t] = texels[blockIdx.x * 16 + t];
		cg::sync(tile);
		unsigned rank = 0;
		for (int i = 0; i < 16; i++)
			rank += keys[i] < keys[t] || (keys[i] == keys[t] && i < (int)t);
		cg::sync(tile);
		keys[rank] = texels[blockIdx.x * 16 + t];
		cg::sync(cta);
		out[blockIdx.x * 16 + t] = keys[t];
	}
}

void launch_sort(unsigned *out, const unsigned *texels, int nblocks)
{
	sort_texels<<<nblocks, 64>>>(out, texels);
}

// expect: SELECT kind FROM barrier WHERE line = 17 => warp
// expect: SELECT kind FROM barrier WHERE line = 21 => warp
// expect: SELECT kind FROM barrier WHERE line = 23 => block
// expect: SELECT in_divergent_branch FROM barrier WHERE line = 23 => 1
// expect: SELECT count(*) FROM barrier WHERE kind = 'block' => 1
