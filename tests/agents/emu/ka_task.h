/* tests/agents/emu/ka_task.h: the bench task ABI and the CUDA names a
 * rewritten element-wise kernel uses, on the host, so that a recipe's
 * output can be compiled with a C++ compiler and run thread by thread
 * (test_recipe_unflatten.c).  Threads run one after another: this checks
 * what each thread computes and that the launch covers the work, for
 * kernels whose threads do not communicate.  With KA_EMU_COOP defined
 * first, the threads of a block run together instead, for kernels that
 * shuffle and synchronize (test_recipe_rowdisp.c, test_recipe_rowcache.c). */
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
static ka_emu_dim3 blockIdx, blockDim, threadIdx, gridDim;
struct dim3 {
	unsigned x, y, z;
	dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct alignas(16) float4 {
	float x, y, z, w;
};
struct alignas(16) int4 {
	int x, y, z, w;
};
struct alignas(16) uint4 {
	unsigned x, y, z, w;
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
static inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 b)
{
	return b.v;
}
static inline uint4 make_uint4(unsigned a, unsigned b, unsigned c, unsigned d)
{
	return uint4{a, b, c, d};
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
#ifdef KA_EMU_COOP
/* KA_EMU_COOP (defined before this header): the threads of a block run
 * together, each on a stack of its own (ucontext), switching at every
 * warp-level intrinsic and barrier, so that kernels whose threads
 * communicate (shuffles, __ballot_sync, __syncthreads, __shared__) run as
 * on a GPU.  Every live thread of the block reaches a switch before any
 * goes on: a round of the scheduler is one barrier.  The device has
 * ka_emu_sms SMs of 2048 threads (cudaDeviceGetAttribute), and the last
 * launch's grid and block are kept in ka_emu_last_grid and
 * ka_emu_last_block. */
#include <cmath>
#include <cstdlib>
#include <ucontext.h>
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
typedef int cudaError_t;
enum { cudaSuccess = 0 };
/* the dynamic shared memory of a launch is the driver's to give: a rewrite's
 * `extern __shared__` array is written as a static one (test_recipe_wmma.c) */
enum ka_emu_func_attr { cudaFuncAttributeMaxDynamicSharedMemorySize };
template <class F> static inline cudaError_t cudaFuncSetAttribute(F, ka_emu_func_attr, int)
{
	return cudaSuccess;
}
enum ka_emu_attr { cudaDevAttrMultiProcessorCount, cudaDevAttrMaxThreadsPerMultiProcessor };
static int ka_emu_sms = 4;
static inline cudaError_t cudaGetDevice(int *d)
{
	*d = 0;
	return cudaSuccess;
}
static inline cudaError_t cudaDeviceGetAttribute(int *v, ka_emu_attr a, int)
{
	*v = a == cudaDevAttrMultiProcessorCount ? ka_emu_sms : 2048;
	return cudaSuccess;
}
static unsigned ka_emu_last_grid, ka_emu_last_block;
static inline float rsqrtf(float x)
{
	return 1.0f / sqrtf(x);
}
struct ka_emu_coop {
	ucontext_t sched, ctx[1024];
	char *stack[1024];
	int done[1024];
	unsigned char slot[1024][16];
	void (*body)(void *);
	void *arg;
	unsigned cur;
};
static ka_emu_coop ka_emu_c;
static void ka_emu_entry()
{
	ka_emu_c.body(ka_emu_c.arg);
	ka_emu_c.done[ka_emu_c.cur] = 1;
}
/* this thread waits for the others of its block */
static inline void ka_emu_switch()
{
	swapcontext(&ka_emu_c.ctx[ka_emu_c.cur], &ka_emu_c.sched);
}
static inline void __syncthreads()
{
	ka_emu_switch();
}
static inline void __syncwarp(unsigned = 0xffffffffu)
{
	ka_emu_switch();
}
/* every lane of the warp offers v, then takes the value of lane `from`
 * (a lane of the same warp) */
template <class T> static inline T ka_emu_shfl(T v, unsigned from)
{
	unsigned me = threadIdx.x;
	memcpy(ka_emu_c.slot[me], &v, sizeof v);
	ka_emu_switch();
	T r;
	memcpy(&r, ka_emu_c.slot[(me & ~31u) + (from & 31u)], sizeof r);
	ka_emu_switch();
	return r;
}
template <class T> static inline T __shfl_xor_sync(unsigned, T v, int o, int = 32)
{
	return ka_emu_shfl(v, (threadIdx.x & 31u) ^ (unsigned)o);
}
template <class T> static inline T __shfl_sync(unsigned, T v, int src, int = 32)
{
	return ka_emu_shfl(v, (unsigned)src);
}
template <class T> static inline T __shfl_down_sync(unsigned, T v, unsigned o, int = 32)
{
	unsigned l = threadIdx.x & 31u;
	return ka_emu_shfl(v, l + o < 32 ? l + o : l);
}
static inline unsigned __ballot_sync(unsigned m, int p)
{
	unsigned me = threadIdx.x, r = 0;
	ka_emu_c.slot[me][0] = p != 0;
	ka_emu_switch();
	for (unsigned l = 0; l < 32; l++)
		if ((m >> l) & 1u)
			r |= (unsigned)ka_emu_c.slot[(me & ~31u) + l][0] << l;
	ka_emu_switch();
	return r;
}
template <class F> struct ka_emu_launcher {
	F f;
	unsigned g, b;
	unsigned gy = 1, gz = 1; /* a dim3 grid's y and z */
	unsigned by = 1, bz = 1; /* a dim3 block's y and z: thread j is (j % b, j / b % by, j / b / by) */
	template <class... A> void operator()(A... a) const
	{
		auto args = [&]() { f(a...); };
		ka_emu_c.body = [](void *p) { (*(decltype(args) *)p)(); };
		ka_emu_c.arg = &args;
		ka_emu_last_grid = g;
		ka_emu_last_block = b;
		gridDim = {g, gy, gz};
		blockDim = {b, by, bz};
		const unsigned nt = b * by * bz;
		for (unsigned j = 0; j < nt; j++)
			if (!ka_emu_c.stack[j])
				ka_emu_c.stack[j] = (char *)malloc(1 << 16);
		for (unsigned ib = 0; ib < g * gy * gz; ib++) {
			unsigned i = ib % g, y = ib / g % gy, z = ib / g / gy;
			for (unsigned j = 0; j < nt; j++) {
				ka_emu_c.done[j] = 0;
				getcontext(&ka_emu_c.ctx[j]);
				ka_emu_c.ctx[j].uc_stack.ss_sp = ka_emu_c.stack[j];
				ka_emu_c.ctx[j].uc_stack.ss_size = 1 << 16;
				ka_emu_c.ctx[j].uc_link = &ka_emu_c.sched;
				makecontext(&ka_emu_c.ctx[j], ka_emu_entry, 0);
			}
			for (unsigned live = nt; live;) { /* one round: one barrier */
				live = 0;
				for (unsigned j = 0; j < nt; j++) {
					if (ka_emu_c.done[j])
						continue;
					blockIdx = {i, y, z};
					threadIdx = {j % b, j / b % by, j / b / by};
					ka_emu_c.cur = j;
					swapcontext(&ka_emu_c.sched, &ka_emu_c.ctx[j]);
					live += !ka_emu_c.done[j];
				}
			}
		}
	}
};
#else
template <class F> struct ka_emu_launcher {
	F f;
	unsigned g, b;
	template <class... A> void operator()(A... a) const
	{
		gridDim = {g, 1, 1};
		blockDim = {b, 1, 1};
		for (unsigned i = 0; i < g; i++)
			for (unsigned j = 0; j < b; j++) {
				blockIdx = {i, 0, 0};
				threadIdx = {j, 0, 0};
				f(a...);
			}
	}
};
#endif
#ifndef KA_EMU_COOP
typedef int cudaError_t;
enum { cudaSuccess = 0 };
/* a device function beside the kernel (test_recipe_pre.c) is a host one */
#define __device__
#define __host__
#define __forceinline__ inline
#endif
/* the runtime's queries of a kernel (test_recipe_query.c): a block size
 * that is none of the recipes' own, a grid of eight blocks */
struct cudaFuncAttributes {
	int maxThreadsPerBlock, numRegs;
	size_t sharedSizeBytes;
};
template <class F> static inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, F)
{
	a->maxThreadsPerBlock = 1024;
	a->numRegs = 32;
	a->sharedSizeBytes = 0;
	return cudaSuccess;
}
template <class F>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *grid, int *block, F, size_t = 0, int = 0)
{
	*grid = 8;
	*block = 192;
	return cudaSuccess;
}
template <class F>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, F, int, size_t)
{
	*n = 2;
	return cudaSuccess;
}
template <class F, class... R> ka_emu_launcher<F> ka_emu_launch(F f, long long g, long long b, R...)
{
	return ka_emu_launcher<F>{f, (unsigned)g, (unsigned)b};
}
#ifdef KA_EMU_COOP
/* a dim3 grid with a 1-D block: the blocks of all three axes, one after another */
template <class F, class... R> ka_emu_launcher<F> ka_emu_launch(F f, dim3 g, long long b, R...)
{
	return ka_emu_launcher<F>{f, g.x, (unsigned)b, g.y, g.z};
}
/* a dim3 block (at most 1024 threads, as on a GPU) */
template <class F, class... R> ka_emu_launcher<F> ka_emu_launch(F f, dim3 g, dim3 b, R...)
{
	return ka_emu_launcher<F>{f, g.x, b.x, g.y, g.z, b.y, b.z};
}
#endif
#ifndef KA_EMU_COOP
/* A launch whose grid or block is a dim3: every block and thread of all
 * three axes, one after another. */
template <class F> struct ka_emu_launcher3 {
	F f;
	dim3 g, b;
	template <class... A> void operator()(A... a) const
	{
		gridDim = {g.x, g.y, g.z};
		blockDim = {b.x, b.y, b.z};
		for (unsigned bz = 0; bz < g.z; bz++)
			for (unsigned by = 0; by < g.y; by++)
				for (unsigned bx = 0; bx < g.x; bx++)
					for (unsigned tz = 0; tz < b.z; tz++)
						for (unsigned ty = 0; ty < b.y; ty++)
							for (unsigned tx = 0; tx < b.x; tx++) {
								blockIdx = {bx, by, bz};
								threadIdx = {tx, ty, tz};
								f(a...);
							}
	}
};
template <class F, class... R> ka_emu_launcher3<F> ka_emu_launch(F f, dim3 g, dim3 b, R...)
{
	return ka_emu_launcher3<F>{f, g, b};
}
#endif
#endif
