/* tests/agents/emu/mma.h: nvcuda::wmma on the host emulation (ka_task.h
 * with KA_EMU_COOP), for wmma-gemm's rewrites (test_recipe_wmma.c).  Each
 * lane keeps the whole 16 x 16 fragment and does the warp's whole
 * load, multiply or store itself: the lanes agree, so the result is the
 * warp's, and no lane waits for another.  Loads and stores check what the
 * hardware asks (a 32-byte aligned pointer, ldm a multiple of 16 bytes)
 * and end the run when it does not hold.  16 x 16 x 16 shapes only. */
#ifndef KA_TESTS_EMU_MMA_H
#define KA_TESTS_EMU_MMA_H
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include "ka_task.h"

namespace nvcuda
{
namespace wmma
{
struct matrix_a {
};
struct matrix_b {
};
struct accumulator {
};
struct row_major {
};
struct col_major {
};
enum layout_t { mem_row_major, mem_col_major };

/* element (r, c) of the fragment's matrix at v[r * 16 + c], in float */
template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment {
	float v[256];
};

static inline float ka_emu_to_float(float x)
{
	return x;
}
static inline float ka_emu_to_float(__nv_bfloat16 x)
{
	return __bfloat162float(x);
}

static inline void ka_emu_check(const void *p, unsigned ldm, size_t elem, const char *what)
{
	if ((reinterpret_cast<unsigned long long>(p) & 31) || (ldm * elem) % 16) {
		fprintf(stderr, "%s: pointer %p or ldm %u breaks wmma's alignment\n", what, p, ldm);
		exit(3);
	}
}

template <class Use, class T, class L>
static inline void load_matrix_sync(fragment<Use, 16, 16, 16, T, L> &f, const T *p, unsigned ldm)
{
	ka_emu_check(p, ldm, sizeof(T), "load_matrix_sync");
	const bool col = std::is_same<L, col_major>::value;
	for (int r = 0; r < 16; r++)
		for (int c = 0; c < 16; c++)
			f.v[r * 16 + c] = ka_emu_to_float(col ? p[c * ldm + r] : p[r * ldm + c]);
}

template <class T> static inline void fill_fragment(fragment<accumulator, 16, 16, 16, T> &f, T x)
{
	for (int i = 0; i < 256; i++)
		f.v[i] = x;
}

template <class TA, class LA, class LB>
static inline void
mma_sync(fragment<accumulator, 16, 16, 16, float> &d, const fragment<matrix_a, 16, 16, 16, TA, LA> &a,
	 const fragment<matrix_b, 16, 16, 16, TA, LB> &b, const fragment<accumulator, 16, 16, 16, float> &c)
{
	float out[256];
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++) {
			float s = c.v[i * 16 + j];
			for (int k = 0; k < 16; k++)
				s += a.v[i * 16 + k] * b.v[k * 16 + j];
			out[i * 16 + j] = s;
		}
	for (int i = 0; i < 256; i++)
		d.v[i] = out[i];
}

static inline void store_matrix_sync(float *p, const fragment<accumulator, 16, 16, 16, float> &f,
				     unsigned ldm, layout_t l)
{
	ka_emu_check(p, ldm, sizeof(float), "store_matrix_sync");
	for (int r = 0; r < 16; r++)
		for (int c = 0; c < 16; c++)
			p[l == mem_row_major ? r * ldm + c : c * ldm + r] = f.v[r * 16 + c];
}
} // namespace wmma
} // namespace nvcuda
#endif
