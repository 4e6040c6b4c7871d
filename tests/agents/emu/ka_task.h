/* tests/agents/emu/ka_task.h: the bench task ABI and the CUDA names a
 * rewritten element-wise kernel uses, on the host, so that a recipe's
 * output can be compiled with a C++ compiler and run thread by thread
 * (test_recipe_unflatten.c).  Threads run one after another: this checks
 * what each thread computes and that the launch covers the work, for
 * kernels whose threads do not communicate.  With KA_EMU_THREADS defined
 * first, a block's threads run at once, one host thread each, so that
 * kernels whose threads do communicate run too (test_recipe_rowcache.c):
 * __syncthreads is a barrier over the block, the __shfl_*_sync exchanges
 * go through a buffer per warp between two barriers over the warp, a
 * thread that returns leaves both barriers, and __shared__ arrays are
 * static (the blocks run one after another). */
#ifndef KA_TESTS_EMU_KA_TASK_H
#define KA_TESTS_EMU_KA_TASK_H
#include <cstdint>
#include <cstring>
#define __global__
#define __launch_bounds__(...)
typedef void *cudaStream_t;
struct ka_emu_dim3 {
	unsigned x, y, z;
};
#ifdef KA_EMU_THREADS
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
#define __device__
#define __forceinline__
#define __shared__ static
static thread_local ka_emu_dim3 blockIdx, threadIdx;
static ka_emu_dim3 blockDim, gridDim;
/* a barrier whose parties can leave */
struct ka_emu_barrier {
	std::mutex m;
	std::condition_variable cv;
	int count = 0, arrived = 0, gen = 0;
	void wait()
	{
		std::unique_lock<std::mutex> l(m);
		int g = gen;
		if (++arrived == count) {
			arrived = 0;
			gen++;
			cv.notify_all();
		} else {
			cv.wait(l, [&] { return gen != g; });
		}
	}
	void leave()
	{
		std::unique_lock<std::mutex> l(m);
		count--;
		if (arrived && arrived == count) {
			arrived = 0;
			gen++;
			cv.notify_all();
		}
	}
};
static ka_emu_barrier ka_emu_block, ka_emu_warp[32];
static unsigned long long ka_emu_xch[32][32];
static inline void __syncthreads()
{
	ka_emu_block.wait();
}
static inline void __syncwarp(unsigned = 0xffffffffu)
{
	ka_emu_warp[threadIdx.x / 32].wait();
}
template <class T> static T ka_emu_shfl(T v, unsigned from)
{
	unsigned w = threadIdx.x / 32, l = threadIdx.x % 32;
	unsigned long long x = 0;
	memcpy(&x, &v, sizeof v);
	ka_emu_xch[w][l] = x;
	ka_emu_warp[w].wait();
	x = ka_emu_xch[w][from % 32];
	ka_emu_warp[w].wait();
	T r;
	memcpy(&r, &x, sizeof r);
	return r;
}
template <class T> static T __shfl_xor_sync(unsigned, T v, int o, int = 32)
{
	return ka_emu_shfl(v, (threadIdx.x % 32) ^ (unsigned)o);
}
template <class T> static T __shfl_sync(unsigned, T v, int src, int = 32)
{
	return ka_emu_shfl(v, (unsigned)src);
}
template <class T> static T __shfl_down_sync(unsigned, T v, unsigned o, int = 32)
{
	unsigned l = threadIdx.x % 32;
	return ka_emu_shfl(v, l + o < 32 ? l + o : l);
}
static inline float rsqrtf(float x)
{
	return 1.0f / sqrtf(x);
}
#else
static ka_emu_dim3 blockIdx, blockDim, threadIdx, gridDim;
#endif
struct alignas(16) uint4 {
	unsigned x, y, z, w;
};
struct alignas(16) float4 {
	float x, y, z, w;
};
struct alignas(8) uint2 {
	unsigned x, y;
};
struct __nv_bfloat16 {
	uint16_t v;
};
static inline float __bfloat162float(__nv_bfloat16 b)
{
	uint32_t u = (uint32_t)b.v << 16;
	float f;
	memcpy(&f, &u, 4);
	return f;
}
static inline __nv_bfloat16 __float2bfloat16(float f) /* round to nearest even */
{
	uint32_t u;
	memcpy(&u, &f, 4);
	__nv_bfloat16 b;
	b.v = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
	return b;
}
typedef struct ka_task_args {
	void *t[16];
	long long n[16];
	long long p[16];
	double s[16];
	void *work;
	size_t work_bytes;
} ka_task_args;
/* `k<<<G, B, ...>>>(args)` is written `ka_emu_launch(k, G, B, ...)(args)`. */
template <class F> struct ka_emu_launcher {
	F f;
	unsigned g, b;
	template <class... A> void operator()(A... a) const
	{
		gridDim = {g, 1, 1};
		blockDim = {b, 1, 1};
#ifdef KA_EMU_THREADS
		for (unsigned i = 0; i < g; i++) {
			ka_emu_block.count = (int)b;
			for (unsigned w = 0; w < 32; w++)
				ka_emu_warp[w].count = (int)(b > 32 * w ? (b - 32 * w < 32 ? b - 32 * w : 32) : 0);
			std::vector<std::thread> th;
			for (unsigned j = 0; j < b; j++)
				th.emplace_back([=] {
					blockIdx = {i, 0, 0};
					threadIdx = {j, 0, 0};
					f(a...);
					ka_emu_warp[j / 32].leave();
					ka_emu_block.leave();
				});
			for (auto &t : th)
				t.join();
		}
		return;
#endif
		for (unsigned i = 0; i < g; i++)
			for (unsigned j = 0; j < b; j++) {
				blockIdx = {i, 0, 0};
				threadIdx = {j, 0, 0};
				f(a...);
			}
	}
};
template <class F, class... R> ka_emu_launcher<F> ka_emu_launch(F f, long long g, long long b, R...)
{
	return ka_emu_launcher<F>{f, (unsigned)g, (unsigned)b};
}
#endif
