/* bench/tasks/sgemm/baseline.cu: one thread per output element. */
#include "ka_task.h"

__global__ void sgemm_naive(const float *A, const float *B, float *C, int m, int n, int k)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i >= m || j >= n) return;
	float acc = 0.0f;
	for (int l = 0; l < k; l++) acc += A[(long long)i * k + l] * B[(long long)l * n + j];
	C[(long long)i * n + j] = acc;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int m = (int)a->p[0], n = (int)a->p[1], k = (int)a->p[2];
	dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
	sgemm_naive<<<grid, block, 0, s>>>((const float *)a->t[0], (const float *)a->t[1], (float *)a->t[2], m, n, k);
	return 0;
}
