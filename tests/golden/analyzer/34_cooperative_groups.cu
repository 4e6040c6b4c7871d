// Golden: cooperative groups and the SharedMemory<T> idiom.  Block, tile and
// grid syncs are barriers of their scope, a tile's shuffles and cg::reduce are
// warp operations, thread_rank()/size() are index values, and the
// cuda-samples SharedMemory<T> struct reaches the dynamic shared memory.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

template <class T>
struct SharedMemory {
	__device__ inline operator T *()
	{
		extern __shared__ int __smem[];
		return (T *)__smem;
	}
};

template <typename T>
__global__ void reduce_cg(const T *__restrict__ g_idata, T *__restrict__ g_odata, unsigned int n)
{
	cg::thread_block cta = cg::this_thread_block();
	T *sdata = SharedMemory<T>();
	unsigned int tid = threadIdx.x;
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	sdata[tid] = (i < n) ? g_idata[i] : 0;
	cg::sync(cta);
	for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
		if (tid < s)
			sdata[tid] = sdata[tid] + sdata[tid + s];
		cg::sync(cta);
	}
	cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
	if (cta.thread_rank() < 32) {
		T sum = sdata[tid] + sdata[tid + 32];
		for (int offset = tile32.size() / 2; offset > 0; offset /= 2)
			sum += tile32.shfl_down(sum, offset);
		if (tile32.thread_rank() == 0)
			g_odata[blockIdx.x] = sum;
	}
}

__global__ void tile_sum(const float *x, float *partial)
{
	cg::thread_block block = cg::this_thread_block();
	cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
	float v = x[block.thread_rank()];
	v = cg::reduce(warp, v, cg::plus<float>());
	warp.sync();
	if (warp.thread_rank() == 0)
		partial[warp.meta_group_rank()] = v;
	block.sync();
}

__global__ void two_phase(float *data, int n)
{
	cg::grid_group grid = cg::this_grid();
	unsigned int i = grid.thread_rank();
	if (i < n)
		data[i] *= 2.0f;
	grid.sync();
}

void run(const float *in, float *out, float *part, int n)
{
	reduce_cg<float><<<n / 256, 256, 256 * sizeof(float)>>>(in, out, n);
	tile_sum<<<n / 128, 128>>>(in, part);
}

// expect: SELECT count(*) FROM barrier WHERE kernel = 'reduce_cg' AND kind = 'block' => 2
// expect: SELECT in_loop FROM barrier WHERE kernel = 'reduce_cg' AND line = 31 => 1
// expect: SELECT space FROM access WHERE line = 26 AND base = 'SharedMemory' => shared
// expect: SELECT rw FROM access WHERE line = 26 AND base = 'SharedMemory' => write
// expect: SELECT coef_tx FROM access WHERE line = 26 AND base = 'SharedMemory' => 1
// expect: SELECT elem_bytes FROM access WHERE line = 26 AND base = 'g_idata' => 4
// expect: SELECT bank_ways FROM access WHERE line = 30 AND rw = 'write' => 1
// expect: SELECT is_dynamic FROM shared_array WHERE kernel = 'reduce_cg' => 1
// expect: SELECT uses_dynamic_smem FROM kernel WHERE name = 'reduce_cg' => 1
// expect: SELECT uniformity FROM branch WHERE kernel = 'reduce_cg' AND line = 34 => warp
// expect: SELECT category FROM call WHERE line = 37 => warp
// expect: SELECT trip_count FROM loop WHERE line = 36 => 5
// expect: SELECT uniformity FROM branch WHERE kernel = 'reduce_cg' AND line = 38 => thread
// expect: SELECT uses_warp_intrinsics FROM kernel WHERE name = 'reduce_cg' => 1
// expect: SELECT coef_tx FROM access WHERE line = 47 AND base = 'x' => 1
// expect: SELECT category FROM call WHERE line = 48 AND callee = 'reduce' => warp
// expect: SELECT kind FROM barrier WHERE line = 49 => warp
// expect: SELECT kind FROM barrier WHERE line = 52 => block
// expect: SELECT coef_tx FROM access WHERE line = 51 AND base = 'partial' => 0
// expect: SELECT uniformity FROM branch WHERE line = 50 => thread
// expect: SELECT kind FROM barrier WHERE line = 61 => grid
// expect: SELECT coef_tx FROM access WHERE line = 60 AND base = 'data' AND rw = 'readwrite' => 1
// expect: SELECT count(*) FROM diag WHERE severity IN ('error', 'fatal') => 0
