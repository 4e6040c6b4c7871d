/* bench/tasks/saxpy/baseline.cu: one thread per element. */
#include "ka_task.h"

__global__ void __launch_bounds__(256) saxpy_naive(float alpha, const float *x, const float *y, float *out, long long n)
{
	const long long ka_step = (long long)gridDim.x * blockDim.x;
	for (long long ka_e = blockIdx.x * (long long)blockDim.x + threadIdx.x; ka_e < n; ka_e += ka_step) {
		long long i = ka_e;
		{ out[i] = alpha * x[i] + y[i]; }
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	saxpy_naive<<<(unsigned)(((long long)(n) / 1 + 256) / 256 < 2112 ? ((long long)(n) / 1 + 256) / 256 : 2112), 256, 0, s>>>((float)a->s[0], (const float *)a->t[0],
							      (const float *)a->t[1], (float *)a->t[2], n);
	return 0;
}
