/* bench/tasks/gemm_bf16/baseline.cu: the textbook kernel: one thread per
 * output element, 16x16 blocks, one bf16 of A and of B at a time, fp32
 * accumulator, CUDA cores only. */
#include "ka_task.h"
#include <cuda_bf16.h>
#include <mma.h>

__global__ void __launch_bounds__(256) gemm_bf16_naive(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C, int m, int n, int k)
{
	/* 128 x 128 tiles of C per block, 8 warps of 4 x 2 16x16x16 fragments, fp32 accumulators */
	__shared__ __align__(32) __nv_bfloat16 ka_as[128 * 40];
	__shared__ __align__(32) __nv_bfloat16 ka_bs[32 * 136];
	__shared__ __align__(32) float ka_sc[8][256];
	const int ka_t = threadIdx.x, ka_w = ka_t >> 5, ka_lane = ka_t & 31;
	const int ka_wm = ka_w / 4, ka_wn = ka_w % 4;
	const long long ka_M = m, ka_N = n, ka_K = k;
	const long long ka_r0 = (long long)blockIdx.y * 128, ka_c0 = (long long)blockIdx.x * 128;
	const bool ka_va = ka_K % 8 == 0 && (reinterpret_cast<unsigned long long>(A) & 15) == 0;
	const bool ka_vb = ka_N % 8 == 0 && (reinterpret_cast<unsigned long long>(B) & 15) == 0;
	nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> ka_acc[4][2];
	#pragma unroll
	for (int ka_x = 0; ka_x < 4; ka_x++)
		#pragma unroll
		for (int ka_y = 0; ka_y < 2; ka_y++) nvcuda::wmma::fill_fragment(ka_acc[ka_x][ka_y], 0.0f);
	uint4 ka_ra[2], ka_rb[2];
	{
		#pragma unroll
		for (int ka_q = 0; ka_q < 2; ka_q++) {
			const int ka_x = ka_t + 256 * ka_q;
			const long long ka_gr = ka_r0 + ka_x / 4, ka_gk = 0 + ka_x % 4 * 8;
			if (ka_va && ka_gr < ka_M && ka_gk + 8 <= ka_K) {
				ka_ra[ka_q] = *reinterpret_cast<const uint4 *>(A + ka_gr * ka_K + ka_gk);
			} else {
				unsigned ka_h[8];
				#pragma unroll
				for (int ka_p = 0; ka_p < 8; ka_p++)
					ka_h[ka_p] = ka_gr < ka_M && ka_gk + ka_p < ka_K ? (unsigned)__bfloat16_as_ushort(A[ka_gr * ka_K + ka_gk + ka_p]) : 0u;
				ka_ra[ka_q] = make_uint4(ka_h[0] | ka_h[1] << 16, ka_h[2] | ka_h[3] << 16, ka_h[4] | ka_h[5] << 16,
						ka_h[6] | ka_h[7] << 16);
			}
		}
		#pragma unroll
		for (int ka_q = 0; ka_q < 2; ka_q++) {
			const int ka_x = ka_t + 256 * ka_q;
			const long long ka_gk = 0 + ka_x / 16, ka_gc = ka_c0 + ka_x % 16 * 8;
			if (ka_vb && ka_gk < ka_K && ka_gc + 8 <= ka_N) {
				ka_rb[ka_q] = *reinterpret_cast<const uint4 *>(B + ka_gk * ka_N + ka_gc);
			} else {
				unsigned ka_h[8];
				#pragma unroll
				for (int ka_p = 0; ka_p < 8; ka_p++)
					ka_h[ka_p] = ka_gk < ka_K && ka_gc + ka_p < ka_N ? (unsigned)__bfloat16_as_ushort(B[ka_gk * ka_N + ka_gc + ka_p]) : 0u;
				ka_rb[ka_q] = make_uint4(ka_h[0] | ka_h[1] << 16, ka_h[2] | ka_h[3] << 16, ka_h[4] | ka_h[5] << 16,
						ka_h[6] | ka_h[7] << 16);
			}
		}
	}
	for (long long ka_k0 = 0; ka_k0 < ka_K; ka_k0 += 32) {
		#pragma unroll
		for (int ka_q = 0; ka_q < 2; ka_q++) {
			const int ka_x = ka_t + 256 * ka_q;
			*reinterpret_cast<uint4 *>(&ka_as[ka_x / 4 * 40 + ka_x % 4 * 8]) = ka_ra[ka_q];
		}
		#pragma unroll
		for (int ka_q = 0; ka_q < 2; ka_q++) {
			const int ka_x = ka_t + 256 * ka_q;
			*reinterpret_cast<uint4 *>(&ka_bs[ka_x / 16 * 136 + ka_x % 16 * 8]) = ka_rb[ka_q];
		}
		__syncthreads();
		if (ka_k0 + 32 < ka_K) {
		#pragma unroll
		for (int ka_q = 0; ka_q < 2; ka_q++) {
			const int ka_x = ka_t + 256 * ka_q;
			const long long ka_gr = ka_r0 + ka_x / 4, ka_gk = (ka_k0 + 32) + ka_x % 4 * 8;
			if (ka_va && ka_gr < ka_M && ka_gk + 8 <= ka_K) {
				ka_ra[ka_q] = *reinterpret_cast<const uint4 *>(A + ka_gr * ka_K + ka_gk);
			} else {
				unsigned ka_h[8];
				#pragma unroll
				for (int ka_p = 0; ka_p < 8; ka_p++)
					ka_h[ka_p] = ka_gr < ka_M && ka_gk + ka_p < ka_K ? (unsigned)__bfloat16_as_ushort(A[ka_gr * ka_K + ka_gk + ka_p]) : 0u;
				ka_ra[ka_q] = make_uint4(ka_h[0] | ka_h[1] << 16, ka_h[2] | ka_h[3] << 16, ka_h[4] | ka_h[5] << 16,
						ka_h[6] | ka_h[7] << 16);
			}
		}
		#pragma unroll
		for (int ka_q = 0; ka_q < 2; ka_q++) {
			const int ka_x = ka_t + 256 * ka_q;
			const long long ka_gk = (ka_k0 + 32) + ka_x / 16, ka_gc = ka_c0 + ka_x % 16 * 8;
			if (ka_vb && ka_gk < ka_K && ka_gc + 8 <= ka_N) {
				ka_rb[ka_q] = *reinterpret_cast<const uint4 *>(B + ka_gk * ka_N + ka_gc);
			} else {
				unsigned ka_h[8];
				#pragma unroll
				for (int ka_p = 0; ka_p < 8; ka_p++)
					ka_h[ka_p] = ka_gk < ka_K && ka_gc + ka_p < ka_N ? (unsigned)__bfloat16_as_ushort(B[ka_gk * ka_N + ka_gc + ka_p]) : 0u;
				ka_rb[ka_q] = make_uint4(ka_h[0] | ka_h[1] << 16, ka_h[2] | ka_h[3] << 16, ka_h[4] | ka_h[5] << 16,
						ka_h[6] | ka_h[7] << 16);
			}
		}
		}
		#pragma unroll
		for (int ka_kk = 0; ka_kk < 32; ka_kk += 16) {
			nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __nv_bfloat16, nvcuda::wmma::row_major> ka_fa[4];
			nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __nv_bfloat16, nvcuda::wmma::row_major> ka_fb[2];
			#pragma unroll
			for (int ka_x = 0; ka_x < 4; ka_x++)
				nvcuda::wmma::load_matrix_sync(ka_fa[ka_x], ka_as + (ka_wm * 64 + ka_x * 16) * 40 + ka_kk, 40);
			#pragma unroll
			for (int ka_y = 0; ka_y < 2; ka_y++)
				nvcuda::wmma::load_matrix_sync(ka_fb[ka_y], ka_bs + ka_kk * 136 + ka_wn * 32 + ka_y * 16, 136);
			#pragma unroll
			for (int ka_x = 0; ka_x < 4; ka_x++)
				#pragma unroll
				for (int ka_y = 0; ka_y < 2; ka_y++)
					nvcuda::wmma::mma_sync(ka_acc[ka_x][ka_y], ka_fa[ka_x], ka_fb[ka_y], ka_acc[ka_x][ka_y]);
		}
		__syncthreads();
	}
	/* each fragment through the warp's scratch; the kernel's store for the elements inside C */
	float *ka_s = ka_sc[ka_w];
	for (int ka_x = 0; ka_x < 4; ka_x++)
		for (int ka_y = 0; ka_y < 2; ka_y++) {
			nvcuda::wmma::store_matrix_sync(ka_s, ka_acc[ka_x][ka_y], 16, nvcuda::wmma::mem_row_major);
			__syncwarp();
			for (int ka_q = ka_lane; ka_q < 256; ka_q += 32) {
				const long long ka_gi = ka_r0 + ka_wm * 64 + ka_x * 16 + ka_q / 16,
						ka_gj = ka_c0 + ka_wn * 32 + ka_y * 16 + ka_q % 16;
				if (ka_gi < ka_M && ka_gj < ka_N) {
					const int row = (int)ka_gi;
					const int col = (int)ka_gj;
					const float s = ka_s[ka_q];
					C[(long long)row * n + col] = __float2bfloat16(s);
				}
			}
			__syncwarp();
		}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int m = (int)a->p[0], n = (int)a->p[1], k = (int)a->p[2];
	dim3 block(16, 16), grid((unsigned)((n + 15) / 16), (unsigned)((m + 15) / 16));
	gemm_bf16_naive<<<dim3((unsigned)(((long long)(n) + 127) / 128), (unsigned)(((long long)(m) + 127) / 128)), 256, 0, s>>>((const __nv_bfloat16 *)a->t[0], (const __nv_bfloat16 *)a->t[1],
					       (__nv_bfloat16 *)a->t[2], m, n, k);
	return 0;
}
