// Golden: a tile held in a plain cg::thread_group (the dynamic form of
// tiled_partition, as block-compression kernels use for 16 threads per
// 4x4 block) synchronizes its tile, not the block: its sync() is a
// warp-scope barrier, fine under a branch that keeps whole tiles together.
// So is a sync() of that tile in a __device__ helper that receives it by
// value.  The block's own sync() under the same branch stays a block barrier.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A helper that gets the tile by value, like block-compression helpers.
__device__ void tile_sum(float *sums, cg::thread_group g)
{
	unsigned t = threadIdx.x;
	cg::sync(g);
	sums[t] += sums[t ^ 8];
	cg::sync(g);
	sums[t] += sums[t ^ 4];
}

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
		__shared__ float sums[16];
		sums[t] = (float)rank;
		tile_sum(sums, tile);
		cg::sync(cta);
		out[blockIdx.x * 16 + t] = keys[t];
	}
}

void launch_sort(unsigned *out, const unsigned *texels, int nblocks)
{
	sort_texels<<<nblocks, 64>>>(out, texels);
}

// expect: SELECT kind FROM barrier WHERE line = 28 => warp
// expect: SELECT kind FROM barrier WHERE line = 32 => warp
// expect: SELECT kind FROM barrier WHERE line = 14 AND kernel = 'sort_texels' => warp
// expect: SELECT kind FROM barrier WHERE line = 16 AND kernel = 'sort_texels' => warp
// expect: SELECT kind FROM barrier WHERE line = 37 => block
// expect: SELECT in_divergent_branch FROM barrier WHERE line = 37 => 1
// expect: SELECT count(*) FROM barrier WHERE kind = 'block' AND kernel = 'sort_texels' => 1
