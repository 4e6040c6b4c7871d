/* bench/tasks/stencil2d/baseline.cu: one thread per point, 16x16 blocks. */
#include "ka_task.h"

__global__ void stencil_naive(const float *x, float *y, int h, int w)
{
	/* 16 consecutive rows of column j per thread, top to bottom: the north,
	 * centre and south values of x move down in registers, so each row of
	 * x is loaded about once instead of three times */
	const int j = blockIdx.x * blockDim.x + threadIdx.x;
	const int ka_i0 = (int)(blockIdx.y * blockDim.y + threadIdx.y) * 16;
	if (ka_i0 >= h || j >= w) return;
	float ka_n = 0.0f, ka_c = 0.0f;
	#pragma unroll
	for (int ka_r = 0; ka_r < 16; ka_r++) {
		const int i = ka_i0 + ka_r;
		if (i >= h) break;
		long long k = (long long)i * w + j;
		if (ka_r == 0) {
			ka_c = x[k];
			if (i > 0) ka_n = x[k - w];
		}
		const float ka_s = i + 1 < h ? x[k + w] : 0.0f;
		if (i == 0 || j == 0 || i == h - 1 || j == w - 1) y[k] = ka_c;
		else y[k] = 0.2f * (ka_c + ka_n + ka_s + x[k - 1] + x[k + 1]);
		ka_n = ka_c;
		ka_c = ka_s;
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int h = (int)a->p[0], w = (int)a->p[1];
	dim3 block(128, 1), grid((w + 127) / 128, (h + 15) / 16);
	stencil_naive<<<grid, block, 0, s>>>((const float *)a->t[0], (float *)a->t[1], h, w);
	return 0;
}
