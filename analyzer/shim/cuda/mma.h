/* mma.h for kcheck's shim: the WMMA fragment API (nvcuda::wmma) as
 * declarations, enough for libclang to build an AST of tensor-core
 * kernels.  Nothing here is ever compiled to code. */
#pragma clang system_header
#ifndef KCHECK_SHIM_MMA_H
#define KCHECK_SHIM_MMA_H
namespace nvcuda {
namespace wmma {
struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
namespace precision {
struct tf32;
}
enum layout_t { mem_row_major, mem_col_major };
template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment {
	enum { num_elements = 8 };
	T x[num_elements];
};
template <class F, class T> __device__ void fill_fragment(F &f, const T &v);
template <class F, class T> __device__ void load_matrix_sync(F &f, const T *p, unsigned ldm);
template <class F, class T> __device__ void load_matrix_sync(F &f, const T *p, unsigned ldm, layout_t l);
template <class T, class F> __device__ void store_matrix_sync(T *p, const F &f, unsigned ldm, layout_t l);
template <class D, class A, class B, class C> __device__ void mma_sync(D &d, const A &a, const B &b, const C &c);
} // namespace wmma
} // namespace nvcuda
#endif
