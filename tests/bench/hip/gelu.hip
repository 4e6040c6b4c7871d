/* A HIP candidate for the gelu task: built with hipcc on AMD, and on NVIDIA
 * by nvcc through bench/harness/ka_hip.h.  Includes only ka_task.h, which
 * pulls in the HIP runtime on AMD. */
#include "ka_task.h"

__global__ void gelu_hip(const float *x, float *y, long long n)
{
	long long i = hipBlockIdx_x * (long long)hipBlockDim_x + hipThreadIdx_x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}

extern "C" int ka_task_run(const ka_task_args *a, hipStream_t s)
{
	long long n = a->n[0];
	hipLaunchKernelGGL(gelu_hip, dim3((unsigned)((n + 255) / 256)), dim3(256), 0, s,
			   (const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
