/* bench/tasks/sgemm/expert.cu: 128x128 block tiles, k-step 8, 256 threads
 * each computing an 8x8 register tile; A is stored transposed in shared
 * memory so both operands are read as broadcast-free rows.  Bounds are
 * checked on every load and store, so any m, n, k works. */
#include "ka_task.h"

enum { BM = 128, BN = 128, BK = 8, TM = 8, TN = 8 };

__global__ void __launch_bounds__(256) sgemm_tiled(const float *A, const float *B, float *C, int m, int n, int k)
{
	__shared__ float As[BK][BM + 4];
	__shared__ float Bs[BK][BN + 4];
	const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
	const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
	float acc[TM][TN] = {{0.0f}};
	for (int k0 = 0; k0 < k; k0 += BK) {
		for (int e = tid; e < BM * BK; e += 256) {     /* A tile: BM rows x BK cols */
			int r = e / BK, c = e % BK, gr = row0 + r, gc = k0 + c;
			As[c][r] = (gr < m && gc < k) ? A[(long long)gr * k + gc] : 0.0f;
		}
		for (int e = tid; e < BK * BN; e += 256) {     /* B tile: BK rows x BN cols */
			int r = e / BN, c = e % BN, gr = k0 + r, gc = col0 + c;
			Bs[r][c] = (gr < k && gc < n) ? B[(long long)gr * n + gc] : 0.0f;
		}
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < BK; kk++) {
			float a[TM], b[TN];
#pragma unroll
			for (int i = 0; i < TM; i++) a[i] = As[kk][ty * TM + i];
#pragma unroll
			for (int j = 0; j < TN; j++) b[j] = Bs[kk][tx + 16 * j];
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
		}
		__syncthreads();
	}
	for (int i = 0; i < TM; i++) {
		int r = row0 + ty * TM + i;
		if (r >= m) break;
		for (int j = 0; j < TN; j++) {
			int c = col0 + tx + 16 * j;
			if (c < n) C[(long long)r * n + c] = acc[i][j];
		}
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int m = (int)a->p[0], n = (int)a->p[1], k = (int)a->p[2];
	dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
	sgemm_tiled<<<grid, 256, 0, s>>>((const float *)a->t[0], (const float *)a->t[1], (float *)a->t[2], m, n, k);
	return 0;
}
