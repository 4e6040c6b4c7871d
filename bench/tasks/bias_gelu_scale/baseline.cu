/* bench/tasks/bias_gelu_scale/baseline.cu: three kernels, each a full pass
 * through the scratch buffer (add bias, GELU in place, scale). */
#include "ka_task.h"

__global__ void add_bias(const float *x, const float *b, float *t, long long n, long long cols)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) t[i] = x[i] + b[i % cols];
}

__global__ void gelu_inplace(float *t, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) t[i] = 0.5f * t[i] * erfcf(-t[i] * 0.70710678f);
}

__global__ void apply_scale(const float *t, const float *sc, float *y, long long n, long long cols)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = t[i] * sc[i % cols];
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long cols = a->p[1], n = a->p[0] * cols;
	unsigned blocks = (unsigned)((n + 255) / 256);
	float *t = (float *)a->work;
	add_bias<<<blocks, 256, 0, s>>>((const float *)a->t[0], (const float *)a->t[1], t, n, cols);
	gelu_inplace<<<blocks, 256, 0, s>>>(t, n);
	apply_scale<<<blocks, 256, 0, s>>>(t, (const float *)a->t[2], (float *)a->t[3], n, cols);
	return 0;
}
