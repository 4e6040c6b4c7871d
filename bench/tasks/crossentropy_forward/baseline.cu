/* bench/tasks/crossentropy_forward/baseline.cu: one thread per (b, t). */
#include "ka_task.h"

__global__ void crossentropy_forward_kernel(float *losses, const float *probs, const int *targets, int B,
					    int T, int V)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < B * T) {
		int b = i / T;
		int t = i % T;
		const float *probs_bt = probs + b * T * V + t * V;
		int ix = targets[b * T + t];
		losses[b * T + t] = -logf(probs_bt[ix]);
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int B = (int)a->p[0], T = (int)a->p[1], V = (int)a->p[2];
	const int block_size = 128;
	const int N = B * T;
	const int grid_size = (N + block_size - 1) / block_size;
	crossentropy_forward_kernel<<<grid_size, block_size, 0, s>>>((float *)a->t[2], (const float *)a->t[0],
								     (const int *)a->t[1], B, T, V);
	return 0;
}
