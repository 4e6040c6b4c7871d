/* tests/agents/emu/ka_task.h: the bench task ABI and the CUDA names a
 * rewritten element-wise kernel uses, on the host, so that a recipe's
 * output can be compiled with a C++ compiler and run thread by thread
 * (test_recipe_unflatten.c).  Threads run one after another: this checks
 * what each thread computes and that the launch covers the work, for
 * kernels whose threads do not communicate. */
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
