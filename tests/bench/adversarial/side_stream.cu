/* Adversarial (sgemm): does the work on its own non-blocking stream so the
 * harness's events see nothing.  Rejected by the static gate; with the gate
 * skipped, by the wall-time cross-check. */
#include "ka_task.h"
__global__ void sgemm_naive(const float *A, const float *B, float *C, int m, int n, int k)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i >= m || j >= n) return;
	float acc = 0.0f;
	for (int l = 0; l < k; l++) acc += A[(long long)i * k + l] * B[(long long)l * n + j];
	C[(long long)i * n + j] = acc;
}
static cudaStream_t mine;
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int m = (int)a->p[0], n = (int)a->p[1], k = (int)a->p[2];
	if (!mine) cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking);
	dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
	sgemm_naive<<<grid, block, 0, mine>>>((const float *)a->t[0], (const float *)a->t[1], (float *)a->t[2], m, n, k);
	return 0;
}
