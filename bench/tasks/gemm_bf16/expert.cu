/* bench/tasks/gemm_bf16/expert.cu: tensor cores through WMMA (bf16 16x16x16,
 * fp32 accumulators).  128x128 block tiles, 32-deep k steps, 8 warps of
 * 64x32 (4x2 fragments).  Tiles are staged in padded shared memory (rows of
 * 40 and 136 bf16, no bank-aligned strides), the next k tile is loaded into
 * registers while the current one is multiplied.  Interior tiles of
 * 8-aligned A and B rows move as 16-byte vectors; edges and unaligned
 * shapes element by element with zero fill.  The epilogue goes through a
 * per-warp 16x16 scratch so every edge is bounds-checked. */
#include "ka_task.h"
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

enum { BM = 128, BN = 128, BK = 32, LDA = BK + 8, LDB = BN + 8 };

struct tiles { uint4 a[2], b[2]; };

__device__ __forceinline__ uint4 load8(const __nv_bfloat16 *p, long long row, long long rows, long long col,
				       long long cols, long long ld, bool vec)
{
	if (row < rows && vec && col + 8 <= cols) return *reinterpret_cast<const uint4 *>(p + row * ld + col);
	uint4 u = make_uint4(0, 0, 0, 0);
	__nv_bfloat16 *e = reinterpret_cast<__nv_bfloat16 *>(&u);
	if (row < rows)
		for (int q = 0; q < 8; q++)
			if (col + q < cols) e[q] = p[row * ld + col + q];
	return u;
}

__device__ __forceinline__ void fetch(tiles &t, const __nv_bfloat16 *A, const __nv_bfloat16 *B, int m, int n, int k,
				      long long r0, long long c0, long long k0, bool va, bool vb)
{
#pragma unroll
	for (int h = 0; h < 2; h++) {
		int idx = threadIdx.x + 256 * h;
		t.a[h] = load8(A, r0 + idx / 4, m, k0 + (idx % 4) * 8, k, k, va);
		t.b[h] = load8(B, k0 + idx / 16, k, c0 + (idx % 16) * 8, n, n, vb);
	}
}

__global__ void __launch_bounds__(256) gemm_bf16_wmma(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
						      int m, int n, int k)
{
	__shared__ __align__(32) __nv_bfloat16 As[BM * LDA];
	__shared__ __align__(32) __nv_bfloat16 Bs[BK * LDB];
	__shared__ __align__(32) float scratch[8][256];
	int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, wm = warp >> 2, wn = warp & 3;
	long long r0 = (long long)blockIdx.y * BM, c0 = (long long)blockIdx.x * BN;
	bool va = k % 8 == 0, vb = n % 8 == 0;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
#pragma unroll
	for (int i = 0; i < 4; i++)
#pragma unroll
		for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
	tiles t;
	fetch(t, A, B, m, n, k, r0, c0, 0, va, vb);
	for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
		for (int h = 0; h < 2; h++) {
			int idx = threadIdx.x + 256 * h;
			*reinterpret_cast<uint4 *>(&As[(idx / 4) * LDA + (idx % 4) * 8]) = t.a[h];
			*reinterpret_cast<uint4 *>(&Bs[(idx / 16) * LDB + (idx % 16) * 8]) = t.b[h];
		}
		__syncthreads();
		if (k0 + BK < k) fetch(t, A, B, m, n, k, r0, c0, k0 + BK, va, vb);
#pragma unroll
		for (int kk = 0; kk < BK; kk += 16) {
			wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa[4];
			wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb[2];
#pragma unroll
			for (int i = 0; i < 4; i++) wmma::load_matrix_sync(fa[i], &As[(wm * 64 + i * 16) * LDA + kk], LDA);
#pragma unroll
			for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], &Bs[kk * LDB + wn * 32 + j * 16], LDB);
#pragma unroll
			for (int i = 0; i < 4; i++)
#pragma unroll
				for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
		}
		__syncthreads();
	}
	float *sc = scratch[warp];
#pragma unroll
	for (int i = 0; i < 4; i++)
#pragma unroll
		for (int j = 0; j < 2; j++) {
			wmma::store_matrix_sync(sc, acc[i][j], 16, wmma::mem_row_major);
			__syncwarp();
			long long rb = r0 + wm * 64 + i * 16, cb = c0 + wn * 32 + j * 16;
			for (int e = lane; e < 256; e += 32) {
				long long r = rb + e / 16, c = cb + e % 16;
				if (r < m && c < n) C[r * n + c] = __float2bfloat16(sc[e]);
			}
			__syncwarp();
		}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int m = (int)a->p[0], n = (int)a->p[1], k = (int)a->p[2];
	dim3 grid((unsigned)((n + BN - 1) / BN), (unsigned)((m + BM - 1) / BM));
	gemm_bf16_wmma<<<grid, 256, 0, s>>>((const __nv_bfloat16 *)a->t[0], (const __nv_bfloat16 *)a->t[1],
					    (__nv_bfloat16 *)a->t[2], m, n, k);
	return 0;
}
