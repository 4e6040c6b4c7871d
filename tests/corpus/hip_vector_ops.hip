// Corpus: HIP element-wise kernels launched with hipLaunchKernelGGL.
#include <hip/hip_runtime.h>

__global__ void scale_shift(float *x, float a, float b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = a * x[i] + b;
}

__global__ void __launch_bounds__(256) clamp(float *x, float lo, float hi, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = fminf(fmaxf(x[i], lo), hi);
}

void run(float *x, int n)
{
	hipLaunchKernelGGL(scale_shift, dim3((n + 255) / 256), dim3(256), 0, 0, x, 2.0f, 1.0f, n);
	hipLaunchKernelGGL(clamp, dim3((n + 255) / 256), dim3(256), 0, 0, x, 0.0f, 1.0f, n);
}
