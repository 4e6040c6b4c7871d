/* bench/tasks/crossentropy_forward/baseline.cu: one thread per (b, t). */
#include "ka_task.h"

__global__ void __launch_bounds__(256) crossentropy_forward_kernel(float *losses, const float *probs, const int *targets, int B,
					    int T, int V)
{
	const long long ka_step = (long long)gridDim.x * blockDim.x;
	for (long long ka_e = blockIdx.x * (long long)blockDim.x + threadIdx.x; ka_e < ((long long)B * T); ka_e += ka_step) {
		int i = ka_e;
		{
		int b = i / T;
		int t = i % T;
		const float *probs_bt = probs + b * T * V + t * V;
		int ix = targets[b * T + t];
		losses[b * T + t] = -logf(probs_bt[ix]);
	}
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int B = (int)a->p[0], T = (int)a->p[1], V = (int)a->p[2];
	const int N = B * T;
	crossentropy_forward_kernel<<<(unsigned)(((((long long)(long long)(B) * (long long)(T))) / 1 + 256) / 256 < 2112 ? ((((long long)(long long)(B) * (long long)(T))) / 1 + 256) / 256 : 2112), 256, 0, s>>>((float *)a->t[2], (const float *)a->t[0],
								     (const int *)a->t[1], B, T, V);
	return 0;
}
