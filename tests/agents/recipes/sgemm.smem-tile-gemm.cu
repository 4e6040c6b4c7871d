/* bench/tasks/sgemm/baseline.cu: one thread per output element. */
#include "ka_task.h"

__global__ void __launch_bounds__(256) sgemm_naive(const float *A, const float *B, float *C, int m, int n, int k)
{
	/* 64 x 64 outputs per block, 4 x 4 per thread (rows ty + 16r, columns tx + 16c) */
	__shared__ float ka_as[64][17], ka_bs[16][64];
	const int ka_tx = threadIdx.x, ka_ty = threadIdx.y, ka_t = ka_ty * 16 + ka_tx;
	const long long ka_row0 = (long long)blockIdx.y * 64, ka_col0 = (long long)blockIdx.x * 64;
	float ka_acc[4][4] = {{0.0f}};
	for (long long ka_k0 = 0; ka_k0 < k; ka_k0 += 16) {
		for (int ka_q = 0; ka_q < 4; ka_q++) {
			const int ka_ia = ka_t + 256 * ka_q, ka_ra = ka_ia / 16, ka_ca = ka_ia % 16;
			const long long ka_gr = ka_row0 + ka_ra, ka_gk = ka_k0 + ka_ca;
			ka_as[ka_ra][ka_ca] = ka_gr < m && ka_gk < k ? A[ka_gr * k + ka_gk] : 0.0f;
			const int ka_rb = ka_ia / 64, ka_cb = ka_ia % 64;
			const long long ka_hk = ka_k0 + ka_rb, ka_hc = ka_col0 + ka_cb;
			ka_bs[ka_rb][ka_cb] = ka_hk < k && ka_hc < n ? B[ka_hk * n + ka_hc] : 0.0f;
		}
		__syncthreads();
		#pragma unroll
		for (int ka_kk = 0; ka_kk < 16; ka_kk++) {
			float ka_a[4], ka_b[4];
			#pragma unroll
			for (int ka_r = 0; ka_r < 4; ka_r++) ka_a[ka_r] = ka_as[ka_ty + 16 * ka_r][ka_kk];
			#pragma unroll
			for (int ka_c = 0; ka_c < 4; ka_c++) ka_b[ka_c] = ka_bs[ka_kk][ka_tx + 16 * ka_c];
			#pragma unroll
			for (int ka_r = 0; ka_r < 4; ka_r++)
				for (int ka_c = 0; ka_c < 4; ka_c++) ka_acc[ka_r][ka_c] += ka_a[ka_r] * ka_b[ka_c];
		}
		__syncthreads();
	}
	for (int ka_r = 0; ka_r < 4; ka_r++)
		for (int ka_c = 0; ka_c < 4; ka_c++) {
			const long long i = ka_row0 + ka_ty + 16 * ka_r, j = ka_col0 + ka_tx + 16 * ka_c;
			if (i < m && j < n) C[i * n + j] = ka_acc[ka_r][ka_c];
		}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int m = (int)a->p[0], n = (int)a->p[1], k = (int)a->p[2];
	dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
	sgemm_naive<<<dim3((unsigned)(((long long)(n) + 63) / 64), (unsigned)(((long long)(m) + 63) / 64)), dim3(16, 16), 0, s>>>((const float *)a->t[0], (const float *)a->t[1], (float *)a->t[2], m, n, k);
	return 0;
}
